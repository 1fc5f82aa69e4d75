package paired

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat"
)

// TestEmpiricalIsGonums: the selected quantile is gonum's empirical
// quantile of the sorted values, for every rank of small slices and the
// bootstrap's tails of large ones, with few distinct values (ties) and
// with many.
func TestEmpiricalIsGonums(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ps := []float64{0, 0.001, 0.025, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.975, 0.999, 1}
	for _, n := range []int{1, 2, 3, 4, 5, 7, 10, 16, 33, 100, 1000, 10000} {
		for _, distinct := range []int{1, 2, 5, 1 << 30} {
			x := make([]float64, n)
			for i := range x {
				x[i] = float64(rng.IntN(distinct)) - float64(distinct)/3
			}
			sorted := slices.Sorted(slices.Values(x))
			probe := ps
			if n <= 16 {
				probe = nil
				for k := 0; k <= 4*n; k++ {
					probe = append(probe, float64(k)/float64(4*n))
				}
			}
			for _, p := range probe {
				want := stat.Quantile(p, stat.Empirical, sorted, nil)
				if got := empirical(p, slices.Clone(x)); got != want {
					t.Fatalf("n=%d distinct=%d p=%v: empirical = %v, gonum = %v", n, distinct, p, got, want)
				}
			}
		}
	}
}

// TestEmpiricalOrdered: sorted, reversed and constant input, the shapes
// that make a naive quickselect quadratic, give gonum's answer too.
func TestEmpiricalOrdered(t *testing.T) {
	const n = 5000
	up, down, same := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		up[i], down[i], same[i] = float64(i), float64(n-i), 7
	}
	for _, x := range [][]float64{up, down, same} {
		sorted := slices.Sorted(slices.Values(x))
		for _, p := range []float64{0.025, 0.5, 0.975} {
			if got, want := empirical(p, slices.Clone(x)), stat.Quantile(p, stat.Empirical, sorted, nil); got != want {
				t.Errorf("p=%v: %v, want %v", p, got, want)
			}
		}
	}
}

// TestEmpiricalNaN: a NaN among the values gives NaN, as gonum's does.
func TestEmpiricalNaN(t *testing.T) {
	if got := empirical(0.5, []float64{1, math.NaN(), 3}); !math.IsNaN(got) {
		t.Errorf("empirical with a NaN = %v, want NaN", got)
	}
}

// TestSelectRankFallback: when the pivots split badly the rest is sorted,
// and the rank is still the sorted one. An organ-pipe slice with its
// median-of-three pivots at the edges wastes the budget quickly.
func TestSelectRankFallback(t *testing.T) {
	const n = 4096
	x := make([]float64, n)
	for i := range n / 2 {
		x[i], x[n-1-i] = float64(i), float64(i)
	}
	sorted := slices.Sorted(slices.Values(x))
	for _, k := range []int{0, 1, n / 3, n / 2, n - 2, n - 1} {
		if got := selectRank(slices.Clone(x), k); got != sorted[k] {
			t.Errorf("rank %d = %v, want %v", k, got, sorted[k])
		}
	}
}

// TestEmpiricalPairIsGonums: both ranks of empiricalPair are gonum's, on
// slices short enough to go straight to selection and long ones, with
// ties, sorted runs that make the stride's sample unrepresentative (so a
// bracket misses and the rank is selected from x), and p at 0 and 1.
func TestEmpiricalPairIsGonums(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pairs := [][2]float64{{0.025, 0.975}, {0.05, 0.95}, {0, 1}, {0.5, 0.5}, {0.3, 0.9}}
	for _, n := range []int{1, 5, 1023, 1024, 1025, 4000, 10000, 30001} {
		for shape := range 5 {
			x := make([]float64, n)
			for i := range x {
				switch shape {
				case 0:
					x[i] = rng.NormFloat64()
				case 1:
					x[i] = float64(rng.IntN(3))
				case 2:
					x[i] = float64(i) // sorted
				case 3:
					x[i] = float64(i % 16) // the stride samples one value
				case 4:
					x[i] = float64((i * 7919) % 101)
				}
			}
			sorted := slices.Sorted(slices.Values(x))
			for _, pp := range pairs {
				lo, hi := empiricalPair(pp[0], pp[1], slices.Clone(x))
				wlo := stat.Quantile(pp[0], stat.Empirical, sorted, nil)
				whi := stat.Quantile(pp[1], stat.Empirical, sorted, nil)
				if lo != wlo || hi != whi {
					t.Fatalf("n=%d shape=%d p=%v: (%v, %v), gonum (%v, %v)", n, shape, pp, lo, hi, wlo, whi)
				}
			}
		}
	}
	for _, at := range []int{1600, 1601} { // in the stride's sample, and not
		x := make([]float64, 2000)
		x[at] = math.NaN()
		if lo, hi := empiricalPair(0.1, 0.9, x); !math.IsNaN(lo) || !math.IsNaN(hi) {
			t.Errorf("with a NaN at %d: (%v, %v), want NaN", at, lo, hi)
		}
	}
}

// TestEmpiricalPairRankJustPastBracket: when the rank asked for is the
// first value above a bracket (here every sampled value is 0, so the
// bracket holds the 625 zeros, and rank 626 is the first 1), the rank is
// selected from all the values, not read past the kept ones.
func TestEmpiricalPairRankJustPastBracket(t *testing.T) {
	x := make([]float64, 10000)
	for i := range x {
		if i%16 != 0 {
			x[i] = 1
		}
	}
	lo, hi := empiricalPair(0.0626, 0.0625, x)
	if lo != 1 || hi != 0 {
		t.Errorf("empiricalPair(0.0626, 0.0625) = (%v, %v), want (1, 0)", lo, hi)
	}
}
