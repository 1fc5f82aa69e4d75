package paired

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// MaxExact is the largest number of non-zero differences for which the
// Wilcoxon test uses the exact null distribution (when none are tied).
const MaxExact = 25

// Wilcoxon is the two-sided p-value of the Wilcoxon signed-rank test that
// the differences are symmetric about 0. Zero differences are dropped and
// tied absolute differences get their average rank. With at most MaxExact
// differences left and no ties, the p-value comes from the exact null
// distribution of W+ (the sum of the positive differences' ranks): twice
// the smaller tail, at most 1. Otherwise it is the normal approximation,
// with the tie correction of the variance and no continuity correction.
// ok is false when no difference is left (or one is NaN).
func Wilcoxon(diffs []float64) (p float64, ok bool) {
	type abs struct {
		v   float64
		pos bool
	}
	var d []abs
	for _, x := range diffs {
		if math.IsNaN(x) {
			return 0, false
		}
		if x != 0 {
			d = append(d, abs{math.Abs(x), x > 0})
		}
	}
	n := len(d)
	if n == 0 {
		return 0, false
	}
	slices.SortFunc(d, func(a, b abs) int {
		switch {
		case a.v < b.v:
			return -1
		case a.v > b.v:
			return 1
		}
		return 0
	})
	var wPlus, ties float64
	tied := false
	for i := 0; i < n; {
		j := i
		for j < n && d[j].v == d[i].v {
			j++
		}
		rank := float64(i+1+j) / 2 // the average of ranks i+1 … j
		for k := i; k < j; k++ {
			if d[k].pos {
				wPlus += rank
			}
		}
		if t := float64(j - i); t > 1 {
			tied = true
			ties += t*t*t - t
		}
		i = j
	}
	if n <= MaxExact && !tied {
		return exactP(n, int(wPlus)), true
	}
	nf := float64(n)
	mean := nf * (nf + 1) / 4
	sd := math.Sqrt(nf*(nf+1)*(2*nf+1)/24 - ties/48)
	z := (wPlus - mean) / sd
	return min(1, 2*distuv.UnitNormal.CDF(-math.Abs(z))), true
}

// exactP is the two-sided p-value of W+ = w among n untied ranks: under
// the null hypothesis each rank is positive with probability ½
// independently, so P(W+ = k) is the number of subsets of {1 … n} summing
// to k over 2ⁿ.
func exactP(n, w int) float64 {
	maxSum := n * (n + 1) / 2
	count := make([]float64, maxSum+1) // exact: at most 2²⁵ subsets
	count[0] = 1
	for r := 1; r <= n; r++ {
		for s := maxSum; s >= r; s-- {
			count[s] += count[s-r]
		}
	}
	var below, above float64 // P(W+ ≤ w), P(W+ ≥ w), as counts
	for s, c := range count {
		if s <= w {
			below += c
		}
		if s >= w {
			above += c
		}
	}
	return min(1, 2*min(below, above)/math.Ldexp(1, n))
}
