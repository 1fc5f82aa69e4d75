package simulate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/replay"
)

// A file that starts from a summary starts every run from it: a policy's
// first prompt holds it as the recorded one does.
func TestContinuedFileStartsFromSummary(t *testing.T) {
	summary := strings.Repeat("s", 8000) // estimate 2,000
	lines := []string{
		`{"type":"summary","summary":"title","leafUuid":"x"}`,
		`{"type":"user","uuid":"u1","sessionId":"prev","version":"1.0.80","isCompactSummary":true,"message":{"role":"user","content":"` + summary + `"}}`,
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s","version":"1.0.80","timestamp":"2025-08-14T12:00:00Z","requestId":"r1","message":{"id":"m1","model":"claude-opus-4-1-20250805","role":"assistant","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":4,"cache_creation_input_tokens":17996,"output_tokens":10}}}`,
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srcs, _ := replay.Discover([]string{path})
	s, err := replay.Load(srcs[0], replay.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr := Prepare(s)
	var sum *Item
	for i := range tr.Calls[0].Items {
		if it := &tr.Calls[0].Items[i]; it.Kind == KindSummary {
			sum = it
		}
	}
	if sum == nil || sum.Artifact || sum.Tokens == 0 {
		t.Fatalf("the first call's summary item %+v, want one that is not an artifact", sum)
	}
	if r := Run(tr, nothing{}, DefaultConfig()); r.Calls[0].Prompt != 18_000 {
		t.Errorf("first prompt %d, want the recorded 18,000", r.Calls[0].Prompt)
	}
}
