package view

import (
	"strconv"

	"github.com/ctxlab/ctxlab/internal/numtext"
)

func raw[T ~int | ~int64](n T) string { return strconv.FormatInt(int64(n), 10) }

func rawUSD(x float64) string { return strconv.FormatFloat(x, 'f', 6, 64) }

// atLeast is a count as people read it, marked ≥ when it is a lower bound
// (it rests on placeholder output counts).
func atLeast[T ~int | ~int64](n T, lower bool) string {
	if lower {
		return "≥" + numtext.Int(n)
	}
	return numtext.Int(n)
}
