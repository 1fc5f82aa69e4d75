package simulate

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/replay"
)

// pdfReadSession writes a session of a Claude Code version that reads a
// PDF at 30,000 tokens: the Read's result names the file, and a meta user
// message carries the document, its base64 data 600,000 characters long
// (the estimate of its JSON is some 150,000). The next call's prompt shows
// what the document cost: 6,000 tokens.
func pdfReadSession(t *testing.T, version string) *replay.Session {
	t.Helper()
	data := strings.Repeat("A", 600_000)
	usage := func(prompt int) string {
		return `"usage":{"input_tokens":10,"cache_creation_input_tokens":` + strconv.Itoa(prompt-10) + `,"output_tokens":50}`
	}
	head := `"sessionId":"s","version":"` + version + `",`
	lines := []string{
		`{"type":"user",` + head + `"uuid":"u1","timestamp":"2026-01-01T10:00:00Z","message":{"role":"user","content":"read the spec"}}`,
		`{"type":"assistant",` + head + `"uuid":"a1","parentUuid":"u1","timestamp":"2026-01-01T10:00:05Z","requestId":"r1","message":{"id":"m1","model":"claude-sonnet-4-5-20250929","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/w/spec.pdf"}}],` + usage(30_000) + `}}`,
		`{"type":"user",` + head + `"uuid":"u2","parentUuid":"a1","timestamp":"2026-01-01T10:00:06Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"PDF file read: /w/spec.pdf (450KB)"}]}}`,
		`{"type":"user",` + head + `"uuid":"u3","parentUuid":"u2","isMeta":true,"timestamp":"2026-01-01T10:00:06Z","message":{"role":"user","content":[{"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"` + data + `"}}]}}`,
		`{"type":"assistant",` + head + `"uuid":"a2","parentUuid":"u3","timestamp":"2026-01-01T10:00:15Z","requestId":"r2","message":{"id":"m2","model":"claude-sonnet-4-5-20250929","role":"assistant","content":[{"type":"text","text":"It says to go on."}],` + usage(36_100) + `}}`,
		`{"type":"user",` + head + `"uuid":"u4","parentUuid":"a2","timestamp":"2026-01-01T10:01:00Z","message":{"role":"user","content":"go on"}}`,
		`{"type":"assistant",` + head + `"uuid":"a3","parentUuid":"u4","timestamp":"2026-01-01T10:01:05Z","requestId":"r3","message":{"id":"m3","model":"claude-sonnet-4-5-20250929","role":"assistant","content":[{"type":"text","text":"Done."}],` + usage(36_200) + `}}`,
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
	return s
}

// A PDF Read is no reason to compact: Claude Code's count weighs the
// document nothing up to 2.1.73 and 2,000 from 2.1.74, not by the
// transcript's base64. Before claude-code's second call its count is the
// first call's 30,050 plus the estimate of the Read's result, and the
// document's 2,000 from 2.1.74: far below the threshold, where the
// estimate of the document's JSON (150,000) would pass it.
func TestCountPDFRead(t *testing.T) {
	for _, c := range []struct {
		version string
		doc     int64
	}{
		{"2.1.19", 0},
		{"2.1.73", 0},
		{"2.1.74", 2000},
		{"2.1.146", 2000},
	} {
		tr := Prepare(pdfReadSession(t, c.version))
		var trig []int64
		Run(tr, policyFunc(func(s *State) { trig = append(trig, s.Trigger) }), DefaultConfig())
		result := int64(replay.Estimate(len("PDF file read: /w/spec.pdf (450KB)")))
		if len(trig) != 3 || trig[1] != 30_050+result+c.doc {
			t.Errorf("%s: counts %v, want the second %d", c.version, trig, 30_050+result+c.doc)
		}
	}
}
