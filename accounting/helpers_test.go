package accounting

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ctxlab/ctxlab/replay"
)

// Model ids as they appear in transcripts (message.model).
const (
	sonnet4   = "claude-sonnet-4-20250514"
	opus41    = "claude-opus-4-1-20250805"
	sonnet45  = "claude-sonnet-4-5-20250929"
	haiku45   = "claude-haiku-4-5-20251001"
	opus45    = "claude-opus-4-5-20251101"
	opus46    = "claude-opus-4-6"
	sonnet46  = "claude-sonnet-4-6"
	synthetic = "<synthetic>"
	deepseek  = "deepseek-v4-pro"
	opusFast  = "claude-opus-4.9-preview" // a model the price table lacks: unpriced
)

// t0 is the clock of a new transcript: 2026-01-01T10:00:00Z.
var t0 = time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)

// use is an API usage record. w5 and w1 are the 5-minute and 1-hour cache
// writes.
type use struct{ in, w5, w1, read, out int64 }

func (u use) json() map[string]any {
	return map[string]any{
		"input_tokens":                u.in,
		"cache_creation_input_tokens": u.w5 + u.w1,
		"cache_read_input_tokens":     u.read,
		"output_tokens":               u.out,
		"cache_creation":              map[string]any{"ephemeral_5m_input_tokens": u.w5, "ephemeral_1h_input_tokens": u.w1},
	}
}

// tr writes a transcript line by line, the way Claude Code does: every line
// gets a uuid, the transcript's sessionId and version, and the clock's
// timestamp. Fields given to put win over those defaults.
type tr struct {
	lines   []string
	clock   time.Time
	sid     string
	version string
	agentID string // set on every line of an agent transcript
	name    string // prefix of uuids and message ids, unique per file
	uuids   int
	msgs    int
}

func newTr(sid string) *tr { return &tr{clock: t0, sid: sid, name: sid, version: "2.1.100"} }

// after moves the clock forward.
func (x *tr) after(d time.Duration) *tr { x.clock = x.clock.Add(d); return x }

func (x *tr) put(m map[string]any) {
	x.uuids++
	def := map[string]any{
		"uuid":      fmt.Sprintf("%s-u%d", x.name, x.uuids),
		"timestamp": x.clock.Format("2006-01-02T15:04:05.000Z"),
		"sessionId": x.sid,
		"version":   x.version,
	}
	if x.agentID != "" {
		def["agentId"], def["isSidechain"] = x.agentID, true
	}
	for k, v := range def {
		if _, ok := m[k]; !ok {
			m[k] = v
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // keep "<local-command-stdout>" as written
	if err := enc.Encode(m); err != nil {
		panic(err)
	}
	x.lines = append(x.lines, strings.TrimSuffix(b.String(), "\n"))
}

// user writes a user line; content is a string or a list of blocks.
func (x *tr) user(content any) {
	x.put(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": content}})
}

// call writes one API response on one line and returns its message id.
func (x *tr) call(model string, u use, blocks ...any) string {
	x.msgs++
	id := fmt.Sprintf("msg_%s_%d", x.name, x.msgs)
	x.line(id, "req_"+id, model, u, blocks...)
	return id
}

// line writes one assistant line of message id (a sibling line when the id
// was written before).
func (x *tr) line(id, req, model string, u use, blocks ...any) {
	if blocks == nil {
		blocks = []any{}
	}
	m := map[string]any{"type": "assistant", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": model, "content": blocks, "usage": u.json(),
	}}
	if req != "" {
		m["requestId"] = req
	}
	x.put(m)
}

// boundary writes a compact_boundary with raw compactMetadata JSON, then the
// summary user line that follows it in every real transcript.
func (x *tr) boundary(meta, summary string) {
	x.put(map[string]any{"type": "system", "subtype": "compact_boundary", "content": "Conversation compacted",
		"parentUuid": nil, "compactMetadata": json.RawMessage(meta)})
	x.put(map[string]any{"type": "user", "isCompactSummary": true, "isVisibleInTranscriptOnly": true,
		"message": map[string]any{"role": "user", "content": summary}})
}

// summaryOnly writes a 1.0.x compaction: the summary line alone, parentUuid null.
func (x *tr) summaryOnly(summary string) {
	x.put(map[string]any{"type": "user", "isCompactSummary": true, "parentUuid": nil,
		"message": map[string]any{"role": "user", "content": summary}})
}

// micro writes a microcompact_boundary with raw microcompactMetadata JSON.
func (x *tr) micro(meta string) {
	x.put(map[string]any{"type": "system", "subtype": "microcompact_boundary", "content": "Context microcompacted",
		"microcompactMetadata": json.RawMessage(meta)})
}

// attachment writes an attachment line; raw is the attachment's JSON.
func (x *tr) attachment(raw string) {
	x.put(map[string]any{"type": "attachment", "attachment": json.RawMessage(raw)})
}

func text(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

func thinking(s string) map[string]any {
	return map[string]any{"type": "thinking", "thinking": s, "signature": "sig"}
}

// toolUse is a tool_use block; input is its raw JSON, written as is.
func toolUse(id, name, input string) map[string]any {
	return map[string]any{"type": "tool_use", "id": id, "name": name, "input": json.RawMessage(input)}
}

func result(id string, content any) map[string]any {
	return map[string]any{"type": "tool_result", "tool_use_id": id, "content": content}
}

func errResult(id string, content any) map[string]any {
	return map[string]any{"type": "tool_result", "tool_use_id": id, "content": content, "is_error": true}
}

func image() map[string]any {
	return map[string]any{"type": "image", "source": map[string]any{"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}
}

// raw writes a line as is.
func (x *tr) raw(line string) { x.lines = append(x.lines, line) }

// load writes the transcript (and its agents, by agent id) under a temporary
// projects directory in Claude Code's 2.1.x layout and loads it with
// replay.Load. The test fails on any warning: the lines are meant to be valid.
func load(tb testing.TB, main *tr, agents map[string]*tr) *replay.Session {
	tb.Helper()
	s := loadLax(tb, main, agents)
	if len(s.Warnings) > 0 {
		tb.Fatalf("Load warnings: %v", s.Warnings)
	}
	return s
}

// loadLax is load for transcripts with bad lines.
func loadLax(tb testing.TB, main *tr, agents map[string]*tr) *replay.Session {
	tb.Helper()
	dir := filepath.Join(tb.TempDir(), "proj")
	path := filepath.Join(dir, main.sid+".jsonl")
	src := replay.Source{Path: path}
	write := func(p string, x *tr) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.Join(x.lines, "\n")+"\n"), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	write(path, main)
	for id, x := range agents {
		p := filepath.Join(dir, main.sid, "subagents", "agent-"+id+".jsonl")
		write(p, x)
		src.Agents = append(src.Agents, p)
	}
	sort.Strings(src.Agents)
	s, err := replay.Load(src, replay.Options{})
	if err != nil {
		tb.Fatalf("Load: %v", err)
	}
	return s
}

// analyze loads and analyzes with the default configuration.
func analyze(tb testing.TB, main *tr, agents map[string]*tr) *Report {
	tb.Helper()
	return Analyze(load(tb, main, agents), DefaultConfig())
}

// agentTr starts an agent transcript of session sid.
func agentTr(sid, id string) *tr {
	x := newTr(sid)
	x.agentID, x.name = id, id
	return x
}

// usd compares dollar amounts computed in micro-dollars by hand.
func usd(tb testing.TB, what string, got, want float64) {
	tb.Helper()
	if math.Abs(got-want) > 1e-9 {
		tb.Errorf("%s = %.9f, want %.9f", what, got, want)
	}
}

func rep(s string, n int) string { return strings.Repeat(s, n) }

// rowDiff reports got against want row by row, marking the rows that differ.
func rowDiff[T comparable](t *testing.T, got, want []T) {
	t.Helper()
	for i := 0; i < len(got) || i < len(want); i++ {
		var g, w T
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		mark := "  "
		if g != w {
			mark = "✗ "
		}
		t.Errorf("%s got %+v\n   want %+v", mark, g, w)
	}
}
