package main

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/ctxlab/ctxlab/replay"
)

// sized writes a file of n bytes (sparse: nothing is written) and returns
// its path.
func sized(t *testing.T, name string, n int64) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(n); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestInputBytes(t *testing.T) {
	a, b, c := sized(t, "a.jsonl", 100), sized(t, "agent-b.jsonl", 20), sized(t, "c.jsonl", 3)
	missing := filepath.Join(t.TempDir(), "gone.jsonl")
	srcs := []replay.Source{{Path: a, Agents: []string{b, missing}}, {Path: "-"}, {Path: c}}
	if got := inputBytes(srcs, 1<<20); got != 123 {
		t.Errorf("inputBytes under the limit = %d, want 123 (100 + 20 + 3; stdin and a missing file count 0)", got)
	}
	// Counting stops once the limit is reached: c is never added.
	if got := inputBytes(srcs, 110); got != 120 {
		t.Errorf("inputBytes with limit 110 = %d, want 120 (stops after the agent file)", got)
	}
}

// TestGrowHeap checks that growHeap leaves a small run's heap alone and
// grows a large one's where the kernel gives huge pages on request: the
// growth ends in a collection, which the GC count shows.
func TestGrowHeap(t *testing.T) {
	gcs := func() uint32 {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.NumGC
	}
	small := []replay.Source{{Path: sized(t, "small.jsonl", hugeHeapMinInput-1)}}
	before := gcs()
	growHeap(small)
	if n := gcs() - before; n != 0 {
		t.Errorf("growHeap on %d bytes ran %d collections, want none", hugeHeapMinInput-1, n)
	}
	large := []replay.Source{{Path: sized(t, "large.jsonl", hugeHeapMinInput)}}
	before = gcs()
	growHeap(large)
	if n := gcs() - before; n == 0 && thpMode() == "madvise" {
		t.Errorf("growHeap on %d bytes ran no collection: the heap was not grown", int64(hugeHeapMinInput))
	}
}

func TestSelected(t *testing.T) {
	for in, want := range map[string]string{
		"always [madvise] never\n": "madvise",
		"[always] madvise never\n": "always",
		"always madvise [never]":   "never",
		"always madvise never":     "",
		"[unterminated":            "",
		"":                         "",
	} {
		if got := selected(in); got != want {
			t.Errorf("selected(%q) = %q, want %q", in, got, want)
		}
	}
}
