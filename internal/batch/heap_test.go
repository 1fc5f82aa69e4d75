package batch

import (
	"os"
	"path/filepath"
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
// grows a large one's where the kernel gives huge pages on request.
func TestGrowHeap(t *testing.T) {
	// What growHeap did, not the process's collections: tests running in
	// parallel collect too.
	small := []replay.Source{{Path: sized(t, "small.jsonl", hugeHeapMinInput-1)}}
	if growHeap(small) {
		t.Errorf("growHeap grew the heap for %d bytes, want not", hugeHeapMinInput-1)
	}
	large := []replay.Source{{Path: sized(t, "large.jsonl", hugeHeapMinInput)}}
	if !growHeap(large) && thpMode() == "madvise" {
		t.Errorf("growHeap on %d bytes did not grow the heap", int64(hugeHeapMinInput))
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
