package paired

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"github.com/ctxlab/ctxlab/internal/numstat"
)

// The bootstrap's seed: fixed, so that an interval is the same on every
// run and machine (PCG is a specified generator, and the draws below use
// only its 64-bit outputs). Every bootstrap starts from it, so that the
// same sessions are resampled alike whatever is compared.
const seed1, seed2 = 0x6374786c6162, 0x7061697265640001

// column is one comparison's sessions: its baseline and values, only
// the sessions it has both of (CompareAll).
type column struct{ base, val []float64 }

type interval struct {
	lo, hi float64
	ok     bool
}

// intervals is the percentile bootstrap of each column's change over the
// same resamples: resamples times, n sessions are drawn with replacement,
// and each column's change is recomputed from the drawn sessions' sums.
// The interval runs between the (1 − confidence)/2 and (1 + confidence)/2
// quantiles of the changes (gonum's empirical quantile, selected rather
// than sorted). A resample whose baseline sum is 0 has no change and is
// left out of that column's quantiles; a column none of whose resamples
// has a change has no interval.
//
// Drawing the sessions once for many columns keeps the cost low: each
// draw adds one row of the sessions' values, laid out contiguously, to the
// running sums. The columns are split among the processors, each drawing
// the same sessions from the same seed, so an interval does not depend on
// the split; columns with the same values are computed once.
func intervals(cols []column, n, resamples int, confidence float64) []interval {
	out := make([]interval, len(cols))
	if n == 0 || resamples <= 0 {
		return out
	}
	uniq, of := distinct(cols)
	ivs := make([]interval, len(uniq))
	workers := min(runtime.GOMAXPROCS(0), len(uniq))
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*len(uniq)/workers, (w+1)*len(uniq)/workers
		wg.Go(func() { copy(ivs[lo:hi], chunkIntervals(uniq[lo:hi], n, resamples, confidence)) })
	}
	wg.Wait()
	for i, u := range of {
		out[i] = ivs[u]
	}
	return out
}

// distinct returns the columns with different values, in their first
// order, and for each column the index of its equal among them.
func distinct(cols []column) (uniq []column, of []int) {
	of = make([]int, len(cols))
	byHash := map[uint64][]int{} // fingerprint → indexes into uniq
	for i, c := range cols {
		key := fingerprint(fingerprint(uint64(len(c.base)), c.base), c.val)
		of[i] = -1
		for _, u := range byHash[key] {
			if slices.Equal(uniq[u].base, c.base) && slices.Equal(uniq[u].val, c.val) {
				of[i] = u
				break
			}
		}
		if of[i] < 0 {
			of[i] = len(uniq)
			byHash[key] = append(byHash[key], len(uniq))
			uniq = append(uniq, c)
		}
	}
	return uniq, of
}

// chunkIntervals computes intervals for some of the columns.
func chunkIntervals(cols []column, n, resamples int, confidence float64) []interval {
	out := make([]interval, len(cols))
	// The distinct slices, by identity: a baseline shared by several
	// comparisons is summed once.
	var slots []int // per column: its base slot and value slot
	var data [][]float64
	index := map[*float64]int{}
	slot := func(s []float64) int {
		if len(s) == 0 {
			data = append(data, s)
			return len(data) - 1
		}
		if i, ok := index[&s[0]]; ok && len(data[i]) == len(s) {
			return i
		}
		index[&s[0]] = len(data)
		data = append(data, s)
		return len(data) - 1
	}
	for _, c := range cols {
		slots = append(slots, slot(c.base), slot(c.val))
	}
	width := len(data)
	rows := make([]float64, n*width) // session j's values at rows[j*width:]
	for k, s := range data {
		for j := range min(n, len(s)) {
			rows[j*width+k] = s[j]
		}
	}
	changes := make([][]float64, len(cols))
	for i := range changes {
		changes[i] = make([]float64, 0, resamples)
	}
	src := rand.NewPCG(seed1, seed2)
	sums := make([]float64, width)
	for range resamples {
		clear(sums)
		for range n {
			j := int(draw(src, uint64(n)))
			addRow(sums, rows[j*width:(j+1)*width])
		}
		for i := range cols {
			if sb := sums[slots[2*i]]; sb != 0 {
				changes[i] = append(changes[i], numstat.ChangePct(sums[slots[2*i+1]], sb))
			}
		}
	}
	tail := (1 - confidence) / 2
	for i, ch := range changes {
		if len(ch) == 0 {
			continue
		}
		lo, hi := empiricalPair(tail, 1-tail, ch)
		out[i] = interval{lo, hi, true}
	}
	return out
}

// addRow adds row to sums element by element (len(sums) == len(row)),
// four at a time: the bootstrap's inner loop. Each sum still gets its
// values in draw order, so the rounding is the same.
func addRow(sums, row []float64) {
	s := sums[:len(row)]
	k := 0
	for ; k+4 <= len(row); k += 4 {
		r, t := row[k:k+4:k+4], s[k:k+4:k+4]
		t[0] += r[0]
		t[1] += r[1]
		t[2] += r[2]
		t[3] += r[3]
	}
	for ; k < len(row); k++ {
		s[k] += row[k]
	}
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

// fingerprint folds xs into h (FNV-1a over the values' bits, 0 for −0 so
// that equal values fold alike); equal columns get equal fingerprints.
func fingerprint(h uint64, xs []float64) uint64 {
	const prime = 1099511628211
	h ^= 14695981039346656037
	for _, v := range xs {
		if v == 0 {
			v = 0
		}
		h = (h ^ math.Float64bits(v)) * prime
	}
	return h
}
