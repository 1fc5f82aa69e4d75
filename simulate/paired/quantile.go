package paired

import (
	"math"
	"math/bits"
	"slices"

	"github.com/ctxlab/ctxlab/internal/numstat"
)

// empirical returns gonum's stat.Quantile(p, stat.Empirical, sorted(x),
// nil), the lowest value at or above the fraction p of x, without sorting
// x: it selects the value at that rank, reordering x. Selecting is linear
// where sorting is not, and the bootstrap asks for two ranks of each
// comparison's 10,000 changes. x must be non-empty; like gonum, a NaN
// among its values gives NaN.
func empirical(p float64, x []float64) float64 {
	for _, v := range x {
		if math.IsNaN(v) {
			return math.NaN()
		}
	}
	// gonum walks the sorted values counting 1 each and stops at the first
	// count at or above p·n: the rank ⌈p·n⌉, 1-based, at least 1.
	return selectRank(x, numstat.Rank(p, len(x)))
}

// selectRank reorders x so that x[k] is the value sorting would put there
// and returns it: quickselect with a three-way partition (equal values, as
// a bootstrap of identical runs gives, take one step) and a median-of-three
// pivot. Should the pivots keep splitting badly, it sorts what is left, so
// no input makes it quadratic.
func selectRank(x []float64, k int) float64 {
	lo, hi := 0, len(x)-1
	for budget := 2 * bits.Len(uint(len(x))); lo < hi; budget-- {
		if budget == 0 {
			slices.Sort(x[lo : hi+1])
			return x[k]
		}
		mid := lo + (hi-lo)/2
		pivot := median3(x[lo], x[mid], x[hi])
		// x[lo:lt] < pivot, x[lt:i] == pivot, x[gt+1:hi+1] > pivot.
		lt, i, gt := lo, lo, hi
		for i <= gt {
			switch v := x[i]; {
			case v < pivot:
				x[lt], x[i] = v, x[lt]
				lt++
				i++
			case v > pivot:
				x[gt], x[i] = v, x[gt]
				gt--
			default:
				i++
			}
		}
		switch {
		case k < lt:
			hi = lt - 1
		case k > gt:
			lo = gt + 1
		default:
			return pivot
		}
	}
	return x[k]
}

func median3(a, b, c float64) float64 {
	if a > b {
		a, b = b, a
	}
	if b > c {
		b = c
	}
	return max(a, b)
}

// empiricalPair returns empirical(plo, x) and empirical(phi, x), mostly in
// one reading of x (it may reorder x): sorting every 16th value gives
// values that bracket each rank closely, one pass counts the values below
// each bracket and keeps those inside, and the rank is selected among the
// few kept. When a bracket misses its rank (the sample was unlucky, or x
// is short) the rank is selected from x itself, so the answer is always
// gonum's. The bootstrap's two ranks are in the tails, where this reads
// x once instead of partitioning it several times over.
func empiricalPair(plo, phi float64, x []float64) (float64, float64) {
	const stride, minLen = 16, 1024
	n := len(x)
	if n < minLen {
		return empirical(plo, x), empirical(phi, x)
	}
	sample := make([]float64, 0, n/stride)
	for i := 0; i < n; i += stride {
		sample = append(sample, x[i])
	}
	for _, v := range sample {
		if math.IsNaN(v) {
			return math.NaN(), math.NaN()
		}
	}
	slices.Sort(sample)
	m := len(sample)
	margin := int(math.Sqrt(float64(m))) + 1
	type bracket struct {
		k             int
		lo, hi        float64
		below, within int
		inside        []float64 // kept only when lo < hi
	}
	bs := [2]bracket{}
	for i, p := range [2]float64{plo, phi} {
		k := min(max(int(math.Ceil(p*float64(n)))-1, 0), n-1)
		c := k * m / n
		bs[i] = bracket{k: k, lo: sample[max(c-margin, 0)], hi: sample[min(c+margin, m-1)]}
	}
	for _, v := range x {
		if math.IsNaN(v) {
			return math.NaN(), math.NaN()
		}
		for i := range bs {
			b := &bs[i]
			if v < b.lo {
				b.below++
			} else if v <= b.hi {
				b.within++
				if b.lo < b.hi {
					b.inside = append(b.inside, v)
				}
			}
		}
	}
	var out [2]float64
	for i := range bs {
		b := &bs[i]
		switch r := b.k - b.below; {
		case r < 0 || r >= b.within:
			out[i] = selectRank(x, b.k)
		case b.lo == b.hi: // tied values, as runs that agree give
			out[i] = b.lo
		default:
			out[i] = selectRank(b.inside, r)
		}
	}
	return out[0], out[1]
}
