package view

import (
	"strconv"
)

func raw[T ~int | ~int64](n T) string { return strconv.FormatInt(int64(n), 10) }

func rawUSD(x float64) string { return strconv.FormatFloat(x, 'f', 6, 64) }
