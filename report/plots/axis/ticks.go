// Package axis places and labels the ticks of ctxlab's plots (round
// steps, thousand separators, units, a grid's own values), scales an axis
// by the logarithm of its values, and pads an axis' range: what gonum/plot
// leaves to a plot's Ticker and Normalizer, apart from the figures.
package axis

import (
	"math"
	"strings"

	"github.com/ctxlab/ctxlab/internal/numtext"
	"gonum.org/v1/plot"
)

// Ticks is a plot.Ticker with round steps (1, 2, 2.5, 5 × 10ⁿ), about
// Target labelled ticks, minor ticks between them, and thousand-separated
// labels ("150,000", "$1.25").
type Ticks struct {
	// Target is the wanted number of labelled ticks; 0 means 5.
	Target int
	// Integer keeps only whole-number ticks (call numbers).
	Integer bool
	// Prefix and Suffix frame every label ("$").
	Prefix, Suffix string
	// MinDecimals is the fewest decimals of a fractional label ("$0.20",
	// not "$0.2"); whole-number labels keep none.
	MinDecimals int
}

var _ plot.Ticker = Ticks{}

// Ticks implements plot.Ticker.
func (t Ticks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.IsNaN(lo) || math.IsNaN(hi) {
		return []plot.Tick{{Value: lo, Label: t.label(lo, 0)}}
	}
	target := t.Target
	if target <= 0 {
		target = 5
	}
	step, mant := niceStep((hi-lo)/float64(target), t.Integer)
	decimals := 0
	if !t.Integer {
		decimals = max0(-int(math.Floor(math.Log10(step) + 1e-9)))
		if mant == 2.5 && step < 10 {
			decimals++
		}
		if decimals > 0 {
			decimals = max(decimals, t.MinDecimals)
		}
	}
	var ticks []plot.Tick
	first := math.Ceil(lo/step-1e-9) * step
	for i := 0; ; i++ {
		v := first + float64(i)*step
		if v > hi+step*1e-9 {
			break
		}
		v = clean(v, step)
		ticks = append(ticks, plot.Tick{Value: v, Label: t.label(v, decimals)})
	}
	minor := step / 5
	switch mant {
	case 2:
		minor = step / 4
	case 2.5:
		minor = step / 5
	}
	if t.Integer && minor != math.Trunc(minor) {
		minor = step / mant // 2 → 1, 5 → 1 (integer steps only)
		if minor != math.Trunc(minor) || minor == step {
			return ticks
		}
	}
	start := math.Ceil(lo/minor-1e-9) * minor
	for i := 0; ; i++ {
		v := start + float64(i)*minor
		if v > hi+minor*1e-9 {
			break
		}
		if r := math.Abs(math.Remainder(v, step)); r < minor/2 {
			continue // a labelled tick
		}
		ticks = append(ticks, plot.Tick{Value: clean(v, minor)})
	}
	return ticks
}

// niceStep returns the smallest round step ≥ raw and its mantissa.
func niceStep(raw float64, integer bool) (float64, float64) {
	if integer && raw < 1 {
		return 1, 1
	}
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m == 2.5 && integer && mag < 10 {
			continue
		}
		if s := m * mag; s >= raw*(1-1e-9) {
			if m == 10 {
				return s, 1
			}
			return s, m
		}
	}
	return 10 * mag, 1
}

// clean rounds v to a multiple of step's precision, removing float noise.
func clean(v, step float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(step))-3)
	return math.Round(v/p) * p
}

func max0(n int) int {
	if n < 0 {
		return 0
	}
	return n
}

func (t Ticks) label(v float64, decimals int) string {
	s := numtext.Float(v, decimals)
	if t.Prefix != "" && strings.HasPrefix(s, "-") {
		return "-" + t.Prefix + s[1:] + t.Suffix
	}
	return t.Prefix + s + t.Suffix
}
