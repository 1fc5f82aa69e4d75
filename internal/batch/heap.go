package batch

import (
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/ctxlab/ctxlab/replay"
)

// GC tuning: transcripts are read as a stream of short-lived allocations
// over a live heap of 10–15 MB, so the collector runs less often than by
// default (GOGC 400) under a soft memory limit that keeps a corpus run
// inside 200 MB. A higher GOGC collects less but touches more fresh
// memory. With the heap in 4 KB pages those page faults cost more than
// the collections saved (400 took 6% more CPU than 200 on the 441 MB
// corpus); with the heap in huge pages (below) 400 took 0.91× the wall
// of 200 on copies of the genuine transcripts and the same on the
// generated corpus, and 600 no less than 400. GOGC and GOMEMLIMIT
// override both.
const (
	gcPercent   = 400
	memoryLimit = 160 << 20
)

// TuneGC applies the GC tuning above unless GOGC or GOMEMLIMIT is set,
// and reports whether the heap may be grown in huge pages (GrowHeap):
// either variable turns that off, as GODEBUG=disablethp=1 does.
func TuneGC(getenv func(string) string) (hugeHeap bool) {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return false
	}
	debug.SetGCPercent(gcPercent)
	debug.SetMemoryLimit(memoryLimit)
	return !strings.Contains(getenv("GODEBUG"), "disablethp=1")
}

// Huge pages for the heap of a large run. The Go runtime maps its heap
// without asking for transparent huge pages, so where Linux gives them only
// on request ("madvise" in /sys/kernel/mm/transparent_hugepage/enabled) a
// corpus run takes a page fault per 4 KB of heap. Before a large run the
// heap is grown once by a block the kernel is asked to back with 2 MB pages
// (madvise MADV_HUGEPAGE), handed back to the runtime untouched; the run's
// objects are carved out of it. Under "always" and "never" nothing is done;
// GOGC, GOMEMLIMIT or GODEBUG=disablethp=1 turn it off (TuneGC). The
// measurements are in docs/performance.md ("Ninth round").
const (
	// hugeHeapMinInput is the input below which the heap is left alone:
	// a small run's heap stays small, and the collection that hands the
	// block back would cost more than the faults it saves.
	hugeHeapMinInput = 64 << 20
	// hugeHeapBytes is the block: as far as the memory limit lets the
	// heap grow, less room for the runtime's own memory.
	hugeHeapBytes = memoryLimit / 4 * 3
)

// growHeap grows the heap for a run over srcs, when the input is large
// (see above), and reports whether it did. It runs a collection, so it is
// meant for the start of a run.
func growHeap(srcs []replay.Source) bool {
	if thpMode() != "madvise" || inputBytes(srcs, hugeHeapMinInput) < hugeHeapMinInput {
		return false
	}
	if !adviseHugePages(make([]byte, hugeHeapBytes)) {
		return false
	}
	runtime.GC() // the block is garbage now: free it for the run's objects
	return true
}

// inputBytes is the size of the files of srcs, counted until it reaches
// limit (a corpus is not stat'ed file by file to learn it is large).
// Standard input and files that cannot be stat'ed count nothing.
func inputBytes(srcs []replay.Source, limit int64) int64 {
	var n int64
	add := func(p string) bool {
		if p == "-" {
			return false
		}
		if info, err := os.Stat(p); err == nil {
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

// selected is the option in brackets in a Linux sysfs setting that lists
// its options ("always [madvise] never"), or "" when none is.
func selected(setting string) string {
	_, rest, ok := strings.Cut(setting, "[")
	if !ok {
		return ""
	}
	opt, _, ok := strings.Cut(rest, "]")
	if !ok {
		return ""
	}
	return opt
}
