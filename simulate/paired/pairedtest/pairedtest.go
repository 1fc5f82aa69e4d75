// Package pairedtest holds what the tests of paired comparisons check them
// against.
package pairedtest

import "slices"

// ExactChanges is the exact bootstrap distribution of the change of a
// total, 100 × (Σ val / Σ base − 1), over every ordered draw of n sessions
// from n (nⁿ of them), sorted.
func ExactChanges(base, val []float64) []float64 {
	n := len(base)
	idx := make([]int, n)
	var out []float64
	for {
		var sb, sv float64
		for _, j := range idx {
			sb += base[j]
			sv += val[j]
		}
		out = append(out, 100*(sv/sb-1))
		k := 0
		for k < n && idx[k] == n-1 {
			idx[k] = 0
			k++
		}
		if k == n {
			break
		}
		idx[k]++
	}
	slices.Sort(out)
	return out
}
