package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"sync"

	"github.com/ctxlab/ctxlab/replay"
)

// Huge pages for the heap of a large run.
//
// A corpus run grows the Go heap to 25–50 MB in its first tenth of a
// second, and the kernel maps each 4 KB page of it on first touch: about
// 13,000 page faults for the 441 MB generated corpus. The Go runtime maps
// its heap without asking for transparent huge pages (sysMapOS in
// runtime/mem_linux.go), so where Linux gives them only on request
// ("madvise" in /sys/kernel/mm/transparent_hugepage/enabled) the heap gets
// none. On the 2-core virtual machine of docs/performance.md a 4 KB fault
// costs about 13 µs, and those faults were a tenth of a run's CPU.
//
// So before a large run the heap is grown once by a block the kernel is
// asked to back with 2 MB pages (madvise MADV_HUGEPAGE), touched once per
// 2 MB by the workers in parallel, and handed back to the runtime, which carves the run's objects
// out of it. On that machine: 3,500 faults instead of 13,000, 0.87× the
// wall time on the generated corpus and 0.94× on copies of the genuine
// transcripts; the price is a peak 8 to 24 MB higher. Where the kernel has
// no huge pages to give, or gives them to every mapping anyway, nothing
// changes but one collection. Setting GOGC, GOMEMLIMIT or
// GODEBUG=disablethp=1 turns it off (main.go).
const (
	// hugeHeapMinInput is the input below which the heap is left alone:
	// a small run's heap stays small, and growing it would only add to
	// the peak memory.
	hugeHeapMinInput = 64 << 20
	// hugeHeapPerWorker is the heap grown per worker: the heap of a corpus
	// run peaked at 45 MB with two workers on the generated corpus, 28 MB
	// on copies of the genuine transcripts.
	hugeHeapPerWorker = 24 << 20
	// hugePage is the size of a transparent huge page on x86-64 (and on
	// arm64 with 4 KB pages).
	hugePage = 2 << 20
)

// growHeap grows the heap for a run over srcs on the given number of
// workers, when the input is large (see above). It runs a collection, so
// it is meant for the start of a run.
func growHeap(srcs []replay.Source, workers int) {
	if inputBytes(srcs, hugeHeapMinInput) < hugeHeapMinInput {
		return
	}
	// Never more than half the memory limit, which the collector keeps.
	n := min(int64(workers)*hugeHeapPerWorker, debug.SetMemoryLimit(-1)/2)
	if n < hugePage {
		return
	}
	b := make([]byte, n)
	if !adviseHugePages(b) {
		return
	}
	touch(b, workers)
	runtime.GC() // the block is garbage now: free it for the run's objects
}

// touch writes one byte of each huge page of b, so that the kernel maps
// (and zeroes) each with one fault. The workers share the pages: the
// kernel zeroes them on as many cores, before the run needs those cores.
func touch(b []byte, workers int) {
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w * hugePage; i < len(b); i += workers * hugePage {
				b[i] = 1
			}
		})
	}
	wg.Wait()
}

// inputBytes is the size of the files of srcs, counted until it reaches
// limit (a corpus is not stat'ed file by file to learn it is large).
// Standard input and files that cannot be stat'ed count nothing.
func inputBytes(srcs []replay.Source, limit int64) int64 {
	var n int64
	add := func(p string) bool {
		if info, err := os.Stat(p); err == nil && p != "-" {
			n += info.Size()
		}
		return n >= limit
	}
	for _, s := range srcs {
		if add(s.Path) {
			return n
		}
		for _, a := range s.Agents {
			if add(a) {
				return n
			}
		}
	}
	return n
}
