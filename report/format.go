package report

import (
	"fmt"
	"strconv"
)

func raw[T ~int | ~int64](n T) string { return strconv.FormatInt(int64(n), 10) }

func usd(x float64) string {
	if x != 0 && x < 0.01 && x > -0.01 {
		return fmt.Sprintf("$%.4f", x)
	}
	return fmt.Sprintf("$%.2f", x)
}

func rawUSD(x float64) string { return strconv.FormatFloat(x, 'f', 6, 64) }

func pct(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) + "%" }
