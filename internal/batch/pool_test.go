package batch

import (
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// Ordered emits every index once, in order, whatever the order the
// workers finish in, and never starts an index more than the window ahead
// of the one it waits to emit.
func TestOrdered(t *testing.T) {
	for _, c := range []struct{ n, jobs int }{{0, 2}, {1, 1}, {7, 3}, {200, 2}, {100, 0}} {
		jobs := c.jobs
		if jobs <= 0 {
			jobs = runtime.GOMAXPROCS(0)
		}
		window := int64(AheadPerWorker * jobs)
		var emitted, started, worst atomic.Int64
		rng := rand.New(rand.NewPCG(1, uint64(c.n)))
		delays := make([]time.Duration, c.n)
		for i := range delays {
			delays[i] = time.Duration(rng.IntN(300)) * time.Microsecond
		}
		var got []int
		Ordered(c.n, c.jobs, func(i int) int {
			s := started.Add(1)
			ahead := s - emitted.Load()
			for w := worst.Load(); ahead > w && !worst.CompareAndSwap(w, ahead); w = worst.Load() {
			}
			if i == 1 && c.n > int(window)+1 {
				// A slow item: the others run ahead of it until the
				// window is full (or, were it unbounded, past it).
				for deadline := time.Now().Add(2 * time.Second); started.Load() <= window && time.Now().Before(deadline); {
					time.Sleep(time.Millisecond)
				}
			}
			time.Sleep(delays[i])
			return i * i
		}, func(i, v int) {
			if v != i*i {
				t.Errorf("n %d: emit(%d, %d): another index's value", c.n, i, v)
			}
			got = append(got, i)
			emitted.Add(1)
		})
		if len(got) != c.n {
			t.Fatalf("n %d: %d emitted", c.n, len(got))
		}
		for i, g := range got {
			if g != i {
				t.Fatalf("n %d: emitted %v, not in order", c.n, got)
			}
		}
		if w := worst.Load(); w > window {
			t.Errorf("n %d, %d jobs: a worker started %d ahead of the emitted, want at most %d", c.n, jobs, w, window)
		}
		if c.n > int(window)+1 && worst.Load() != window {
			t.Errorf("n %d: the workers ran %d ahead of a slow item, want the window, %d", c.n, worst.Load(), window)
		}
	}
}
