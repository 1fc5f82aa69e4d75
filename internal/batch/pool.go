package batch

import (
	"runtime"
	"sync"
)

// AheadPerWorker bounds how far the workers run ahead of the item being
// emitted. While one worker reads a large session the others go on with
// the small ones after it; at two per worker they stopped after two or
// three, and a core stood idle for the rest of the large one (50 ms of a
// 0.55 s run on ten copies of the genuine transcripts, in an execution
// trace). At 16 the idle spell is gone: 0.97× the wall there (31 pairs),
// 0.98× on the generated corpus, peak memory unchanged at 2 and 8.6 GB
// (what waits is a session's report, not the session).
const AheadPerWorker = 16

// Ordered calls work for each index of [0, n) on jobs goroutines (0 or
// less: one per CPU) and passes what it returns to emit on the calling
// goroutine in index order, whatever order the workers finish in. A worker
// starts an index only while it is fewer than AheadPerWorker per worker
// ahead of the next one emit is waiting for, so memory holds at most that
// many values, however slow one item is.
func Ordered[T any](n, jobs int, work func(i int) T, emit func(i int, v T)) {
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	window := AheadPerWorker * jobs
	type finished struct {
		i int
		v T
	}
	next := make(chan int)
	out := make(chan finished)
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out <- finished{i, work(i)}
			}
		}()
	}
	pending := map[int]T{}
	sent, emitted := 0, 0
	for emitted < n {
		var send chan int // nil, never ready, while the window is full
		if sent < n && sent < emitted+window {
			send = next
		}
		select {
		case send <- sent:
			sent++
		case f := <-out:
			pending[f.i] = f.v
			for v, ok := pending[emitted]; ok; v, ok = pending[emitted] {
				delete(pending, emitted)
				emit(emitted, v)
				emitted++
			}
		}
	}
	close(next)
	wg.Wait()
}
