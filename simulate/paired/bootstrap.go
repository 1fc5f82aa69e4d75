package paired

import (
	"math/bits"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// The bootstrap's seed: fixed, so that an interval is the same on every
// run and machine (PCG is a specified generator, and the draws below use
// only its 64-bit outputs). Every call starts from it, so that sessions
// counted alike are resampled alike for every metric and policy.
const seed1, seed2 = 0x6374786c6162, 0x7061697265640001

// Bootstrap is the percentile bootstrap interval of 100 × (Σ values /
// Σ baseline − 1) over sessions: resamples times, it draws len(baseline)
// sessions with replacement and recomputes the change; the interval runs
// between the (1 − confidence)/2 and (1 + confidence)/2 quantiles of the
// changes (gonum's empirical quantile: the lowest change at or above that
// fraction of them). A resample whose baseline total is 0, where the change
// is undefined, is drawn again. The slices must be of equal length with a
// non-zero baseline total; otherwise the interval is (0, 0).
func Bootstrap(baseline, values []float64, resamples int, confidence float64) (lo, hi float64) {
	n := len(baseline)
	var total float64
	for _, b := range baseline {
		total += b
	}
	if n == 0 || len(values) != n || total == 0 || resamples <= 0 {
		return 0, 0
	}
	src := rand.NewPCG(seed1, seed2)
	changes := make([]float64, 0, resamples)
	for len(changes) < resamples {
		var sb, sv float64
		for range n {
			j := draw(src, uint64(n))
			sb += baseline[j]
			sv += values[j]
		}
		if sb != 0 {
			changes = append(changes, changePct(sv, sb))
		}
	}
	slices.Sort(changes)
	tail := (1 - confidence) / 2
	return stat.Quantile(tail, stat.Empirical, changes, nil), stat.Quantile(1-tail, stat.Empirical, changes, nil)
}

// draw is a uniform integer in [0, n), n > 0: Lemire's multiply-and-reject
// on the source's 64-bit outputs, written out so that the sequence
// depends on PCG alone, not on how math/rand/v2 derives its IntN.
func draw(src *rand.PCG, n uint64) uint64 {
	hi, lo := bits.Mul64(src.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(src.Uint64(), n)
		}
	}
	return hi
}
