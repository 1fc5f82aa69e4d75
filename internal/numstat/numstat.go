// Package numstat holds the few quantities every report computes the same
// way: a percentage and its rounding, and the nearest-rank quantile and
// the median. It imports nothing of ctxlab's.
package numstat

import "math"

// Pct is part as a percentage of whole, rounded to two decimals: the one
// rounding of every percentage a report writes (a change is
// Pct(v − base, base)); ok is false when whole is 0. A part just below 0
// rounds to −0, which a writer that shows signs prints as it likes.
func Pct(part, whole float64) (pct float64, ok bool) {
	if whole == 0 {
		return 0, false
	}
	return math.Round(10000*part/whole) / 100, true
}

// PctPtr is Pct as an optional JSON field: nil when whole is 0.
func PctPtr(part, whole float64) *float64 {
	p, ok := Pct(part, whole)
	if !ok {
		return nil
	}
	return &p
}

// ChangePct is the change from base to v in percent, 100 × (v / base −
// 1), unrounded: what the paired statistics resample and rank, whose
// figures are written with every digit.
func ChangePct(v, base float64) float64 { return 100 * (v/base - 1) }

// Rank is the 0-based index of the nearest-rank quantile p (a fraction,
// 0–1) among n sorted values: the smallest value with at least the
// fraction p of the values at or below it, the rank ⌈p·n⌉ counted from 1
// (gonum's stat.Empirical). n must be above 0.
func Rank(p float64, n int) int {
	return min(max(int(math.Ceil(p*float64(n))), 1), n) - 1
}

// Quantile is the nearest-rank quantile p (a fraction, 0–1) of sorted
// values; 0 for none.
func Quantile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[Rank(p, len(sorted))]
}

// Median is the middle of sorted values, the mean of the two middle ones
// for an even count; 0 for none.
func Median(sorted []float64) float64 {
	n := len(sorted)
	switch {
	case n == 0:
		return 0
	case n%2 == 1:
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}
