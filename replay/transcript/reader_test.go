package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime/debug"
	"strings"
	"testing"
	"testing/iotest"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/ctxlab/ctxlab/internal/jsonscan/jsonscantest"
	"github.com/tidwall/gjson"
)

// readAll scans r to the end and returns its records.
func readAll(r *Reader) []Record {
	var out []Record
	for r.Scan() {
		out = append(out, r.Result())
	}
	return out
}

// want describes one expected record: the line it names, its kind ("entry",
// "error" or "warning"), and for entries the type, for errors a substring of
// the message.
type want struct {
	line int
	kind string
	text string
}

func describe(rec Record) want {
	switch r := rec.(type) {
	case *Entry:
		return want{r.Line, "entry", r.Type}
	case *SyntaxError:
		if r.Warning {
			return want{r.Line, "warning", r.Msg}
		}
		return want{r.Line, "error", r.Msg}
	}
	return want{0, fmt.Sprintf("%T", rec), ""}
}

func TestReaderBadLines(t *testing.T) {
	const user = `{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}`
	const asst = `{"type":"assistant","uuid":"a1","message":{"id":"msg_1","role":"assistant","content":[{"type":"text","text":"ok"}]}}`
	tests := []struct {
		name  string
		in    string
		want  []want
		stats func(t *testing.T, st *Stats)
	}{
		{
			name: "invalid JSON",
			in:   user + "\n" + `{"type":"user","message":` + "\n" + asst + "\n",
			want: []want{{1, "entry", "user"}, {2, "error", "invalid JSON"}, {3, "entry", "assistant"}},
			stats: func(t *testing.T, st *Stats) {
				if st.Bad != 1 || st.Lines != 3 || st.Truncated {
					t.Errorf("stats %+v, want Bad 1, Lines 3, not truncated", st)
				}
			},
		},
		{
			name: "comment line",
			in:   "// Source: a gist\n" + user + "\n/* block */\n" + asst + "\n",
			want: []want{{1, "error", "comment"}, {2, "entry", "user"}, {3, "error", "comment"}, {4, "entry", "assistant"}},
		},
		{
			name: "truncated last line",
			in:   user + "\n" + asst + "\n" + `{"type":"assistant","message":{"id":"msg_2","con`,
			want: []want{{1, "entry", "user"}, {2, "entry", "assistant"}, {3, "error", "truncated"}},
			stats: func(t *testing.T, st *Stats) {
				if !st.Truncated || st.Bad != 1 {
					t.Errorf("stats %+v, want Truncated and Bad 1", st)
				}
			},
		},
		{
			name: "complete last line without newline",
			in:   user + "\n" + asst,
			want: []want{{1, "entry", "user"}, {2, "entry", "assistant"}},
			stats: func(t *testing.T, st *Stats) {
				if st.Truncated || st.Bad != 0 {
					t.Errorf("stats %+v, want not truncated", st)
				}
			},
		},
		{
			name: "bad line in the middle is not truncated",
			in:   `{"type":"user","mess` + "\n" + user + "\n",
			want: []want{{1, "error", "invalid JSON"}, {2, "entry", "user"}},
			stats: func(t *testing.T, st *Stats) {
				if st.Truncated {
					t.Error("Truncated set for a bad middle line")
				}
			},
		},
		{
			name: "NUL bytes",
			in:   "\x00\x00\x00\x00\n" + `{"type":"user","message":{"content":"a` + "\x00" + `b"}}` + "\n" + user + "\n",
			want: []want{{1, "error", "NUL"}, {2, "error", "NUL"}, {3, "entry", "user"}},
		},
		{
			// A UTF-8 byte-order mark, as some Windows editors write at
			// the start of a file they save: JSON does not allow it.
			name: "byte-order mark",
			in:   "\xef\xbb\xbf" + user + "\n" + asst + "\n",
			want: []want{{1, "error", "invalid JSON: begins with a UTF-8 byte-order mark (U+FEFF), which JSON does not allow: save the file without it"}, {2, "entry", "assistant"}},
		},
		{
			// A transcript saved as UTF-16 (PowerShell 5's Out-File does):
			// every line says so, the first with its byte-order mark, the
			// next starting with the newline's second byte.
			name: "UTF-16",
			in:   "\xff\xfe{\x00\"\x00t\x00\"\x00:\x001\x00}\x00\n\x00{\x00\"\x00t\x00\"\x00:\x002\x00}\x00\n\x00",
			want: []want{{1, "error", "invalid JSON: UTF-16 text, not UTF-8: save the file as UTF-8"}, {2, "error", "invalid JSON: UTF-16 text, not UTF-8: save the file as UTF-8"}, {3, "error", "truncated last line (no newline at end of file): invalid JSON: contains NUL bytes (binary data?)"}},
		},
		{
			// JSON by RFC 8259's grammar, but nested deeper than
			// encoding/json's 10,000 levels, as ctxlab's validator too:
			// said so, rather than "invalid JSON" alone. Strings holding
			// brackets do not count.
			name: "nested too deep",
			in: `{"type":"user","s":"[[[[","x":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + "}\n" +
				`{"type":"user","s":"[[[[","x":` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + "}\n",
			want: []want{{1, "error", "invalid JSON: nested deeper than 10000 levels, the most encoding/json reads"}, {2, "entry", "user"}},
		},
		{
			name: "invalid UTF-8 in a string",
			in:   `{"type":"user","message":{"role":"user","content":"caf` + "\xe9" + `!"}}` + "\n" + asst + "\n",
			want: []want{{1, "warning", "invalid UTF-8"}, {1, "entry", "user"}, {2, "entry", "assistant"}},
			stats: func(t *testing.T, st *Stats) {
				if !st.InvalidUTF || st.Bad != 0 {
					t.Errorf("stats %+v, want InvalidUTF and Bad 0", st)
				}
			},
		},
		{
			name: "invalid UTF-8 in a tool result",
			in:   `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"` + "\xff\xfe" + `"}]}}` + "\n",
			want: []want{{1, "warning", "invalid UTF-8"}, {1, "entry", "user"}},
		},
		{
			name: "not an object",
			in:   "[1,2,3]\n42\n\"text\"\nnull\ntrue\n" + user + "\n",
			want: []want{
				{1, "error", "not a JSON object"}, {2, "error", "not a JSON object"}, {3, "error", "not a JSON object"},
				{4, "error", "not a JSON object"}, {5, "error", "not a JSON object"}, {6, "entry", "user"},
			},
			stats: func(t *testing.T, st *Stats) {
				if st.Bad != 5 {
					t.Errorf("Bad = %d, want 5", st.Bad)
				}
			},
		},
		{
			name: "blank lines",
			in:   "\n" + user + "\n   \n\t\n\r\n" + asst + "\n\n",
			want: []want{{2, "entry", "user"}, {6, "entry", "assistant"}},
			stats: func(t *testing.T, st *Stats) {
				if st.Blank != 5 || st.Lines != 7 || st.Bad != 0 {
					t.Errorf("stats %+v, want Blank 5, Lines 7, Bad 0", st)
				}
			},
		},
		{
			name: "CRLF",
			in:   user + "\r\n" + asst + "\r\n\r\n" + `{"type":"user",` + "\r\n" + asst + "\r\n",
			want: []want{{1, "entry", "user"}, {2, "entry", "assistant"}, {4, "error", "invalid JSON"}, {5, "entry", "assistant"}},
			stats: func(t *testing.T, st *Stats) {
				if st.Blank != 1 || st.Lines != 5 {
					t.Errorf("stats %+v, want Blank 1, Lines 5", st)
				}
			},
		},
		{
			name: "leading white space",
			in:   "  \t" + user + "  \n",
			want: []want{{1, "entry", "user"}},
		},
		{
			name: "empty input",
			in:   "",
			want: nil,
			stats: func(t *testing.T, st *Stats) {
				if st.Lines != 0 || st.BytesRead != 0 {
					t.Errorf("stats %+v, want nothing read", st)
				}
			},
		},
		{
			name: "only a newline",
			in:   "\n",
			want: nil,
			stats: func(t *testing.T, st *Stats) {
				if st.Lines != 1 || st.Blank != 1 {
					t.Errorf("stats %+v, want one blank line", st)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tt.in), "t.jsonl")
			recs := readAll(r)
			if err := r.Err(); err != nil {
				t.Fatalf("Err() = %v", err)
			}
			var got []want
			for _, rec := range recs {
				got = append(got, describe(rec))
				if se, ok := rec.(*SyntaxError); ok {
					if se.File != "t.jsonl" {
						t.Errorf("SyntaxError.File = %q", se.File)
					}
					if prefix := fmt.Sprintf("t.jsonl:%d: ", se.Line); !strings.HasPrefix(se.Error(), prefix) {
						t.Errorf("Error() = %q, want prefix %q", se.Error(), prefix)
					}
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("records = %+v, want %+v", got, tt.want)
			}
			for i, w := range tt.want {
				g := got[i]
				if g.line != w.line || g.kind != w.kind || !strings.Contains(g.text, w.text) {
					t.Errorf("record %d = %+v, want %+v", i, g, w)
				}
			}
			st := r.Stats()
			if st.BytesRead != int64(len(tt.in)) {
				t.Errorf("BytesRead = %d, want %d", st.BytesRead, len(tt.in))
			}
			if tt.stats != nil {
				tt.stats(t, st)
			}
		})
	}
}

func TestReaderInvalidUTF8Chars(t *testing.T) {
	// "caf\xe9!": \xe9 starts a 3-byte sequence that 'x' does not continue,
	// so it is one invalid byte read as one U+FFFD: 5 units.
	in := `{"type":"user","message":{"role":"user","content":"caf` + "\xe9" + `!"}}` + "\n"
	r := NewReader(strings.NewReader(in), "t")
	recs := readAll(r)
	if len(recs) != 2 {
		t.Fatalf("got %d records, want warning + entry", len(recs))
	}
	e, ok := recs[1].(*Entry)
	if !ok {
		t.Fatalf("second record %T, want *Entry", recs[1])
	}
	if len(e.Blocks) != 1 || e.Blocks[0].Chars != 5 || e.Blocks[0].Est != 1 {
		t.Errorf("blocks = %+v, want one block of 5 chars, est 1", e.Blocks)
	}
}

func TestReaderUnknown(t *testing.T) {
	in := `{"type":"user","uuid":"u1","futureField":1,"message":{"role":"user","content":"x"}}
{"type":"hologram","uuid":"h1","beam":true}
{"type":"hologram"}
{"uuid":"n1"}
{"type":"summary","summary":"s","leafUuid":"l"}
{"type":"assistant","cwd":"/x","slug":"a-b-c","gitBranch":"","userType":"external","message":{"id":"m","role":"assistant","content":[]}}
`
	r := NewReader(strings.NewReader(in), "t")
	for r.Scan() {
		if se, ok := r.Result().(*SyntaxError); ok {
			t.Errorf("unexpected error %v", se)
		}
	}
	st := r.Stats()
	wantUnknown := map[string]int{"user.futureField": 1, "hologram": 2, "hologram.beam": 1, "(none)": 1}
	if fmt.Sprint(st.Unknown) != fmt.Sprint(wantUnknown) {
		t.Errorf("Unknown = %v, want %v", st.Unknown, wantUnknown)
	}
	wantTypes := map[string]int{"user": 1, "hologram": 2, "(none)": 1, "summary": 1, "assistant": 1}
	if fmt.Sprint(st.Types) != fmt.Sprint(wantTypes) {
		t.Errorf("Types = %v, want %v", st.Types, wantTypes)
	}
	if st.Bad != 0 {
		t.Errorf("Bad = %d", st.Bad)
	}
}

func TestReaderMaxLineBytes(t *testing.T) {
	const user = `{"type":"user","message":{"role":"user","content":"hi"}}`
	long := func(n int) string {
		return `{"type":"user","message":{"role":"user","content":"` + strings.Repeat("x", n) + `"}}`
	}
	tests := []struct {
		name string
		max  int
		in   string
		want []want
	}{
		{
			name: "line over the limit, shorter than the read buffer",
			max:  1024,
			in:   user + "\n" + long(2000) + "\n" + user + "\n",
			want: []want{{1, "entry", "user"}, {2, "error", "longer than 1,024 bytes"}, {3, "entry", "user"}},
		},
		{
			name: "line under the limit",
			max:  1024,
			in:   long(500) + "\n" + user + "\n",
			want: []want{{1, "entry", "user"}, {2, "entry", "user"}},
		},
		{
			name: "line over the limit and the read buffer",
			max:  1 << 20,
			in:   user + "\n" + long(3<<20) + "\n" + user + "\n",
			want: []want{{1, "entry", "user"}, {2, "error", "skipped"}, {3, "entry", "user"}},
		},
		{
			name: "line longer than the read buffer, under the limit",
			max:  4 << 20,
			in:   user + "\n" + long(3<<20) + "\n" + user + "\n",
			want: []want{{1, "entry", "user"}, {2, "entry", "user"}, {3, "entry", "user"}},
		},
		{
			name: "last line over the limit",
			max:  1024,
			in:   user + "\n" + long(5000),
			want: []want{{1, "entry", "user"}, {2, "error", "longer than 1,024 bytes"}},
		},
		{
			name: "blank line over the limit",
			max:  16,
			in:   strings.Repeat(" ", 40) + "\n" + `{"type":"user"}` + "\n",
			want: []want{{1, "error", "longer than 16 bytes"}, {2, "entry", "user"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tt.in), "t.jsonl")
			r.MaxLineBytes = tt.max
			var got []want
			for _, rec := range readAll(r) {
				got = append(got, describe(rec))
			}
			if len(got) != len(tt.want) {
				t.Fatalf("records = %+v, want %+v", got, tt.want)
			}
			for i, w := range tt.want {
				g := got[i]
				if g.line != w.line || g.kind != w.kind || !strings.Contains(g.text, w.text) {
					t.Errorf("record %d = %+v, want %+v", i, g, w)
				}
			}
			if r.Stats().BytesRead != int64(len(tt.in)) {
				t.Errorf("BytesRead = %d, want %d", r.Stats().BytesRead, len(tt.in))
			}
		})
	}
}

// TestReaderLineBufferCapped: a line over the limit grows the line buffer
// to the limit at most, never to the next doubling past it, so a skipped
// line costs no more memory than MaxLineBytes.
func TestReaderLineBufferCapped(t *testing.T) {
	const limit = 3 << 20 // three reads of the 1 MB buffer, then over
	line := `{"type":"user","message":{"content":"` + strings.Repeat("x", 5<<20) + `"}}`
	r := NewReader(strings.NewReader(line+"\n"), "t.jsonl")
	r.MaxLineBytes = limit
	recs := readAll(r)
	if len(recs) != 1 || describe(recs[0]).kind != "error" {
		t.Fatalf("records = %+v, want one error", recs)
	}
	if c := cap(r.buf); c > limit {
		t.Errorf("the line buffer grew to %d bytes, past the %d-byte limit", c, limit)
	}
}

// TestReaderHugeLine reads a user message whose content is a 64 MB string.
// The reader holds the line once (plus the test's own copy of the content).
func TestReaderHugeLine(t *testing.T) {
	if testing.Short() {
		t.Skip("64 MB line")
	}
	// Collect garbage early: the reader's buffer grows by appending, and the
	// old arrays would otherwise pile up to twice the live heap.
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	const n = 64 << 20
	content := bytes.Repeat([]byte("abcdefgh"), n/8)
	in := io.MultiReader(
		strings.NewReader(`{"type":"user","uuid":"big","message":{"role":"user","content":"`),
		bytes.NewReader(content),
		strings.NewReader(`"}}`+"\n"+`{"type":"assistant","uuid":"next"}`+"\n"),
	)
	r := NewReader(in, "big.jsonl")
	recs := readAll(r)
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("got %d records, want 2", len(recs))
	}
	e, ok := recs[0].(*Entry)
	if !ok {
		t.Fatalf("first record = %v, want an entry", recs[0])
	}
	if e.UUID != "big" || !e.StringContent || len(e.Blocks) != 1 {
		t.Fatalf("entry = %+v", e)
	}
	b := e.Blocks[0]
	if b.Chars != n || b.Est != n/4 {
		t.Errorf("Chars, Est = %d, %d, want %d, %d", b.Chars, b.Est, n, n/4)
	}
	if len(b.Text) != MaxKeptText || !strings.HasPrefix(b.Text, "abcdefgh") {
		t.Errorf("kept text: %d bytes, want %d", len(b.Text), MaxKeptText)
	}
	if e2, ok := recs[1].(*Entry); !ok || e2.UUID != "next" || e2.Line != 2 {
		t.Errorf("second record = %+v, want entry next on line 2", recs[1])
	}
}

func TestReaderIOError(t *testing.T) {
	boom := errors.New("boom")
	in := io.MultiReader(strings.NewReader(`{"type":"user"}`+"\n"+`{"type":"assi`), iotest.ErrReader(boom))
	r := NewReader(in, "t.jsonl")
	recs := readAll(r)
	if len(recs) != 1 {
		t.Errorf("got %d records before the error, want 1", len(recs))
	}
	err := r.Err()
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "t.jsonl line 2") {
		t.Errorf("Err() = %v, want boom naming t.jsonl line 2", err)
	}
	if r.Scan() {
		t.Error("Scan after an I/O error returned true")
	}
}

// TestReaderEntry checks the fields of one line of each common shape.
func TestReaderEntry(t *testing.T) {
	in := `{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/w","sessionId":"s-1","version":"2.1.146","gitBranch":"","type":"user","message":{"role":"user","content":"Fix the bug\nplease"},"uuid":"u-1","timestamp":"2026-01-01T10:12:48.351Z"}
{"parentUuid":"u-1","sessionId":"s-1","version":"2.1.146","type":"assistant","requestId":"req_1","agentId":"a1","isSidechain":true,"message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"toolu_1","name":"Read","input":{"file_path":"/a/b.go","offset":10,"limit":20}}],"stop_reason":"tool_use","usage":{"input_tokens":3,"cache_creation_input_tokens":300,"cache_read_input_tokens":1000,"output_tokens":50,"cache_creation":{"ephemeral_5m_input_tokens":100,"ephemeral_1h_input_tokens":200}}},"uuid":"a-1","timestamp":"2026-01-01T10:12:49Z"}
{"parentUuid":"a-1","type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","is_error":true,"content":[{"type":"text","text":"héllo"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AAAA"}},{"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"AAAA"}}]}]},"toolUseResult":{"agentId":"agent7"},"uuid":"u-2"}
{"parentUuid":null,"logicalParentUuid":"a-1","type":"system","subtype":"compact_boundary","content":"Conversation compacted","compactMetadata":{"trigger":"auto","preTokens":170719,"postTokens":17071,"durationMs":105411},"uuid":"c-1"}
{"type":"attachment","attachment":{"type":"date_change","newDate":"é"},"uuid":"t-1","isMeta":true}
{"type":"assistant","isApiErrorMessage":true,"message":{"id":"m2","role":"assistant","model":"<synthetic>","content":[{"type":"thinking","thinking":"","signature":"x"},{"type":"document","source":{}},{"type":"container_upload","file_id":"f"}]}}
`
	r := NewReader(strings.NewReader(in), "t")
	var es []*Entry
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *Entry:
			es = append(es, rec)
		case *SyntaxError:
			t.Fatalf("unexpected %v", rec)
		}
	}
	if len(es) != 6 {
		t.Fatalf("%d entries, want 6", len(es))
	}

	u := es[0]
	wantTime := time.Date(2026, 1, 1, 10, 12, 48, 351e6, time.UTC).UnixMilli()
	if u.Type != "user" || u.UUID != "u-1" || !u.ParentNull || u.ParentUUID != "" || u.SessionID != "s-1" ||
		u.Version != "2.1.146" || u.Time != wantTime || u.Line != 1 || !u.StringContent || u.Sidechain {
		t.Errorf("user entry = %+v", u)
	}
	// "Fix the bug\nplease": 11 + 1 + 6 = 18 units, round(4.5) = 5.
	if len(u.Blocks) != 1 || u.Blocks[0].Kind != BlockText || u.Blocks[0].Chars != 18 || u.Blocks[0].Est != 5 ||
		u.Blocks[0].Text != "Fix the bug\nplease" {
		t.Errorf("user blocks = %+v", u.Blocks)
	}

	a := es[1]
	if a.Type != "assistant" || a.ParentUUID != "u-1" || a.ParentNull || a.RequestID != "req_1" || a.MessageID != "msg_1" ||
		a.Model != "claude-opus-4-6" || a.StopReason != "tool_use" || a.Role != "assistant" || a.AgentID != "a1" || !a.Sidechain ||
		a.Time != wantTime+649 {
		t.Errorf("assistant entry = %+v", a)
	}
	if a.Usage == nil || *a.Usage != (Usage{Input: 3, CacheWrite5m: 100, CacheWrite1h: 200, CacheRead: 1000, Output: 50}) {
		t.Errorf("usage = %+v", a.Usage)
	}
	// {"file_path":"/a/b.go","offset":10,"limit":20} is 46 characters.
	if len(a.Blocks) != 1 {
		t.Fatalf("assistant blocks = %+v", a.Blocks)
	}
	if b := a.Blocks[0]; b.Kind != BlockToolUse || b.ToolID != "toolu_1" || b.Name != "Read" || b.Chars != 46 || b.Est != 12 ||
		b.Input == nil || *b.Input != (ToolInput{FilePath: "/a/b.go", Offset: 10, Limit: 20}) || b.Text != "" {
		t.Errorf("tool_use block = %+v (input %+v)", b, b.Input)
	}

	res := es[2]
	// "héllo" is 5 units (est 1) plus one image (2000); the document is
	// counted apart, and not in the estimate.
	if len(res.Blocks) != 1 || res.ResultAgentID != "agent7" {
		t.Fatalf("result entry = %+v", res)
	}
	if b := res.Blocks[0]; b.Kind != BlockToolResult || b.ToolID != "toolu_1" || !b.IsError || b.Chars != 5 || b.Images != 1 ||
		b.Documents != 1 || b.Est != 1+2000 {
		t.Errorf("tool_result block = %+v", b)
	}

	c := es[3]
	if c.Subtype != "compact_boundary" || c.LogicalParentUUID != "a-1" || !c.ParentNull || c.Compact == nil ||
		c.Compact.Trigger != "auto" || c.Compact.PreTokens != 170719 || c.Compact.PostTokens != 17071 || c.Compact.DurationMs != 105411 {
		t.Errorf("boundary = %+v, meta %+v", c, c.Compact)
	}

	at := es[4]
	// {"type":"date_change","newDate":"é"} is 36 characters.
	if at.AttachmentType != "date_change" || at.AttachmentChars != 36 || !at.Meta {
		t.Errorf("attachment = %+v", at)
	}

	s := es[5]
	if !s.APIError || s.Model != "<synthetic>" || s.Usage != nil || len(s.Blocks) != 3 {
		t.Fatalf("synthetic entry = %+v", s)
	}
	if b := s.Blocks[0]; b.Kind != BlockThinking || b.Chars != 0 || b.Est != 0 {
		t.Errorf("empty thinking block = %+v", b)
	}
	// {"type":"document","source":{}} is 31 characters, est 8.
	if b := s.Blocks[1]; b.Kind != BlockDocument || b.Chars != 31 || b.Est != 8 {
		t.Errorf("document block = %+v", b)
	}
	// {"type":"container_upload","file_id":"f"} is 41 characters, est 10.
	if b := s.Blocks[2]; b.Kind != BlockOther || b.Name != "container_upload" || b.Chars != 41 || b.Est != 10 {
		t.Errorf("other block = %+v", b)
	}
}

// TestReaderJSONForms feeds the same facts written in the less common ways
// JSON allows: white space everywhere, escaped keys and values, brackets
// and escaped quotes inside strings, numbers with exponents.
func TestReaderJSONForms(t *testing.T) {
	tests := []struct {
		name  string
		line  string
		check func(t *testing.T, e *Entry)
	}{
		{
			name: "white space",
			line: " { \"type\" : \"user\" , \"parentUuid\" : null , \"message\" : { \"role\" : \"user\" , \"content\" : [ { \"type\" : \"text\" , \"text\" : \"hi\" } ] } } ",
			check: func(t *testing.T, e *Entry) {
				if e.Type != "user" || !e.ParentNull || len(e.Blocks) != 1 || e.Blocks[0].Chars != 2 || e.Blocks[0].Text != "hi" {
					t.Errorf("entry = %+v", e)
				}
			},
		},
		{
			name: "escaped keys and values",
			line: `{"typ\u0065":"us\u0065r","uuid":"a\"b","sessionId":"s\/1","message":{"r\u006fle":"user","content":"\u00e9\n"}}`,
			check: func(t *testing.T, e *Entry) {
				if e.Type != "user" || e.UUID != `a"b` || e.SessionID != "s/1" || e.Role != "user" {
					t.Errorf("entry = %+v", e)
				}
				if len(e.Blocks) != 1 || e.Blocks[0].Chars != 2 || e.Blocks[0].Text != "é\n" {
					t.Errorf("blocks = %+v", e.Blocks)
				}
			},
		},
		{
			name: "brackets and escaped quotes inside strings",
			line: `{"type":"assistant","message":{"id":"m}","content":[{"type":"text","text":"a\\\"}]{["},{"type":"tool_use","id":"t]","name":"Bash","input":{"command":"echo \"}\" ]"}}],"usage":{"input_tokens":5,"output_tokens":6}},"uuid":"x"}`,
			check: func(t *testing.T, e *Entry) {
				// a, \, ", }, ], {, [: seven units.
				if e.MessageID != "m}" || e.UUID != "x" || len(e.Blocks) != 2 || e.Blocks[0].Chars != 7 {
					t.Fatalf("entry = %+v", e)
				}
				if b := e.Blocks[1]; b.ToolID != "t]" || b.Input == nil || b.Input.Command != `echo "}" ]` {
					t.Errorf("tool_use = %+v", b)
				}
				if e.Usage == nil || *e.Usage != (Usage{Input: 5, Output: 6}) {
					t.Errorf("usage = %+v", e.Usage)
				}
			},
		},
		{
			name: "numbers",
			line: `{"type":"assistant","message":{"id":"m","content":[{"type":"tool_use","id":"t","name":"Read","input":{"file_path":"/f","offset":1e2,"limit":-3}}],"usage":{"input_tokens":1.0e3,"output_tokens":0,"cache_read_input_tokens":12345678901}}}`,
			check: func(t *testing.T, e *Entry) {
				if e.Usage == nil || e.Usage.Input != 1000 || e.Usage.CacheRead != 12345678901 {
					t.Errorf("usage = %+v", e.Usage)
				}
				if in := e.Blocks[0].Input; in == nil || in.Offset != 100 || in.Limit != -3 {
					t.Errorf("input = %+v", in)
				}
			},
		},
		{
			name: "empty object",
			line: `{}`,
			check: func(t *testing.T, e *Entry) {
				if e.Type != "(none)" || e.Line != 1 {
					t.Errorf("entry = %+v", e)
				}
			},
		},
		{
			name: "wrong value types are ignored",
			line: `{"type":"user","uuid":7,"parentUuid":false,"isMeta":"yes","message":{"role":"user","content":{"text":"x"},"usage":[]}}`,
			check: func(t *testing.T, e *Entry) {
				if e.Type != "user" || e.UUID != "" || e.ParentNull || e.Meta || len(e.Blocks) != 0 || e.Usage != nil {
					t.Errorf("entry = %+v", e)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tt.line+"\n"), "t")
			recs := readAll(r)
			if len(recs) != 1 {
				t.Fatalf("records = %v", recs)
			}
			e, ok := recs[0].(*Entry)
			if !ok {
				t.Fatalf("record = %v", recs[0])
			}
			tt.check(t, e)
		})
	}
}

// TestReaderUserTextKeyOrder: whether a text block's text is kept depends on
// the line's "type" and the message's "role", wherever they stand in the line.
func TestReaderUserTextKeyOrder(t *testing.T) {
	tests := []struct {
		line string
		want string // the kept text of the first block
	}{
		{`{"type":"user","message":{"content":"hi"}}`, "hi"},
		{`{"message":{"content":"hi"},"type":"user"}`, "hi"},
		{`{"message":{"content":[{"type":"text","text":"a\nb"}]},"type":"user"}`, "a\nb"},
		{`{"message":{"content":"hi","role":"user"},"type":"user"}`, "hi"},
		{`{"message":{"content":"hi","role":"user"}}`, "hi"},
		{`{"message":{"content":"hi"},"type":"assistant"}`, ""},
		{`{"type":"assistant","message":{"content":[{"type":"text","text":"hi"}]}}`, ""},
		{`{"message":{"content":[{"type":"text","text":"hi"}],"role":"assistant"},"type":"assistant"}`, ""},
	}
	for _, tt := range tests {
		r := NewReader(strings.NewReader(tt.line), "t")
		if !r.Scan() {
			t.Fatalf("%s: no record", tt.line)
		}
		e, ok := r.Result().(*Entry)
		if !ok || len(e.Blocks) != 1 {
			t.Fatalf("%s: record = %+v", tt.line, r.Result())
		}
		if got := e.Blocks[0].Text; got != tt.want {
			t.Errorf("%s: Text = %q, want %q", tt.line, got, tt.want)
		}
	}
}

// TestReaderKeptTextCut: the kept user text is the start of the decoded text,
// at most MaxKeptText bytes, cut at a rune boundary; likewise Bash commands
// at 200 bytes.
func TestReaderKeptTextCut(t *testing.T) {
	e2 := strings.Repeat("é", MaxKeptText) // 2 bytes a rune
	tests := []struct {
		name string
		raw  string // the JSON string literal of the content, quotes included
	}{
		{"short", `"hi"`},
		{"exactly MaxKeptText", `"` + strings.Repeat("a", MaxKeptText) + `"`},
		{"plain, cut inside a rune", `"a` + e2 + `"`},
		{"escaped, cut inside a rune", `"\n` + e2 + `"`},
		{"escaped, cut inside a 4-byte rune", `"\t\t` + strings.Repeat("😀", MaxKeptText/2) + `"`},
		{"escapes only", `"` + strings.Repeat(`\u0041`, 2*MaxKeptText) + `"`},
		{"escaped non-ASCII", `"x` + strings.Repeat(`\u00e9`, MaxKeptText) + `"`},
		{"surrogate pairs", `"` + strings.Repeat(`\ud83d\ude00`, MaxKeptText) + `"`},
		{"long text with escapes", `"` + strings.Repeat(`line \"quoted\"\tcafé\n`, 4*MaxKeptText/20) + `"`},
		{"most escaped text", `"` + strings.Repeat(`\u0001`, MaxKeptText+10) + `"`},
		{"escape across the decoded part's end", `"` + strings.Repeat("a", MaxKeptText+2) + `\u00e9\u00e9"`},
		{"escape across the cut", `"` + strings.Repeat("a", MaxKeptText-1) + `\u00e9\u00e9"`},
		{"pair across the cut", `"` + strings.Repeat("a", MaxKeptText-1) + `\ud83d\ude00"`},
		{"pair across the decoded part's end", `"` + strings.Repeat("a", MaxKeptText+3) + `\ud83d\ude00"`},
		{"escape right after the plain part checked", `"` + strings.Repeat("a", MaxKeptText+utf8.UTFMax) + `\n"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var full string
			if err := json.Unmarshal([]byte(tt.raw), &full); err != nil {
				t.Fatal(err)
			}
			want := full
			if len(want) > MaxKeptText {
				want = want[:MaxKeptText]
				for !utf8.ValidString(want) {
					want = want[:len(want)-1]
				}
			}
			for _, line := range []string{
				`{"type":"user","message":{"role":"user","content":` + tt.raw + `}}`,
				`{"type":"user","message":{"role":"user","content":[{"type":"text","text":` + tt.raw + `}]}}`,
			} {
				r := NewReader(strings.NewReader(line), "t")
				if !r.Scan() {
					t.Fatal("no record")
				}
				e, ok := r.Result().(*Entry)
				if !ok || len(e.Blocks) != 1 {
					t.Fatalf("record = %+v", r.Result())
				}
				if got := e.Blocks[0].Text; got != want {
					t.Errorf("Text: %d bytes (valid UTF-8 %v), want %d bytes", len(got), utf8.ValidString(got), len(want))
				}
			}
		})
	}

	cmd := "a" + strings.Repeat("é", 150) // byte 200 is inside a rune
	line := `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":"` + cmd + `"}}]}}`
	r := NewReader(strings.NewReader(line), "t")
	if !r.Scan() {
		t.Fatal("no record")
	}
	e, ok := r.Result().(*Entry)
	if !ok || len(e.Blocks) != 1 || e.Blocks[0].Input == nil {
		t.Fatalf("record = %+v", r.Result())
	}
	if got := e.Blocks[0].Input.Command; got != cmd[:199] {
		t.Errorf("Command: %d bytes (valid UTF-8 %v), want the first 199", len(got), utf8.ValidString(got))
	}
}

func TestParseTime(t *testing.T) {
	tests := []struct {
		in   string
		want int64
	}{
		{"2026-01-01T10:12:48.351Z", time.Date(2026, 1, 1, 10, 12, 48, 351e6, time.UTC).UnixMilli()},
		{"2025-08-06T16:45:18.724Z", time.Date(2025, 8, 6, 16, 45, 18, 724e6, time.UTC).UnixMilli()},
		{"2026-01-01T10:12:48Z", time.Date(2026, 1, 1, 10, 12, 48, 0, time.UTC).UnixMilli()},
		{"2026-01-01T12:12:48.5+02:00", time.Date(2026, 1, 1, 10, 12, 48, 500e6, time.UTC).UnixMilli()},
		{"", 0},
		{"yesterday", 0},
		{"2026-0x-01T10:12:48.351Z", 0},
	}
	for _, tt := range tests {
		if got := parseTime(tt.in); got != tt.want {
			t.Errorf("parseTime(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestUsageSplit(t *testing.T) {
	tests := []struct {
		name  string
		usage string
		want  Usage
	}{
		{
			name:  "ephemeral split",
			usage: `{"input_tokens":3,"cache_creation_input_tokens":300,"cache_read_input_tokens":1000,"output_tokens":50,"cache_creation":{"ephemeral_5m_input_tokens":100,"ephemeral_1h_input_tokens":200}}`,
			want:  Usage{Input: 3, CacheWrite5m: 100, CacheWrite1h: 200, CacheRead: 1000, Output: 50},
		},
		{
			name:  "all 1h (2.1.119)",
			usage: `{"input_tokens":3,"cache_creation_input_tokens":30882,"cache_read_input_tokens":13921,"output_tokens":409,"cache_creation":{"ephemeral_1h_input_tokens":30882,"ephemeral_5m_input_tokens":0},"speed":"standard"}`,
			want:  Usage{Input: 3, CacheWrite1h: 30882, CacheRead: 13921, Output: 409},
		},
		{
			name:  "1.0.6x: no cache_creation object, all 5m",
			usage: `{"input_tokens":4,"cache_creation_input_tokens":700,"cache_read_input_tokens":9000,"output_tokens":2,"service_tier":"standard"}`,
			want:  Usage{Input: 4, CacheWrite5m: 700, CacheRead: 9000, Output: 2},
		},
		{
			name:  "split without the total",
			usage: `{"input_tokens":1,"output_tokens":1,"cache_creation":{"ephemeral_5m_input_tokens":40,"ephemeral_1h_input_tokens":60}}`,
			want:  Usage{Input: 1, CacheWrite5m: 40, CacheWrite1h: 60, Output: 1},
		},
		{
			name:  "DeepSeek: input and output only",
			usage: `{"input_tokens":5000,"output_tokens":300}`,
			want:  Usage{Input: 5000, Output: 300},
		},
		{
			name:  "synthetic zeros with nulls",
			usage: `{"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"service_tier":null,"cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":0},"iterations":null}`,
			want:  Usage{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line := `{"type":"assistant","message":{"id":"m","role":"assistant","usage":` + tt.usage + `}}`
			r := NewReader(strings.NewReader(line), "t")
			if !r.Scan() {
				t.Fatal("no record")
			}
			e, ok := r.Result().(*Entry)
			if !ok || e.Usage == nil {
				t.Fatalf("record = %+v", r.Result())
			}
			if *e.Usage != tt.want {
				t.Errorf("usage = %+v, want %+v", *e.Usage, tt.want)
			}
		})
	}
}

func TestUsageAdd(t *testing.T) {
	a := Usage{Input: 1, CacheWrite5m: 2, CacheWrite1h: 3, CacheRead: 4, Output: 5}
	b := Usage{Input: 10, CacheWrite5m: 20, CacheWrite1h: 30, CacheRead: 40, Output: 50}
	if got, want := a.Add(b), (Usage{11, 22, 33, 44, 55}); got != want {
		t.Errorf("Add = %+v, want %+v", got, want)
	}
	if a.Total() != 15 || a.Prompt() != 10 || a.CacheWrite() != 5 {
		t.Errorf("Total/Prompt/CacheWrite = %d/%d/%d, want 15/10/5", a.Total(), a.Prompt(), a.CacheWrite())
	}
}

func TestEstimate(t *testing.T) {
	// Math.round(n/4): 0, .25, .5→1, .75, 1, 1.25, 1.5→2, 1.75, 2, 2.25.
	want := []int{0, 0, 1, 1, 1, 1, 2, 2, 2, 2}
	for n, w := range want {
		if got := Estimate(n); got != w {
			t.Errorf("Estimate(%d) = %d, want %d", n, got, w)
		}
	}
	if got := Estimate(64 << 20); got != 16<<20 {
		t.Errorf("Estimate(64 MiB) = %d", got)
	}
}

func TestBlockKindString(t *testing.T) {
	want := map[BlockKind]string{
		BlockText: "text", BlockThinking: "thinking", BlockToolUse: "tool_use", BlockToolResult: "tool_result",
		BlockImage: "image", BlockDocument: "document", BlockOther: "other",
	}
	for k, w := range want {
		if k.String() != w {
			t.Errorf("%d.String() = %q, want %q", k, k.String(), w)
		}
	}
}

// FuzzRead checks the reader's contract on any input: it never panics, every
// non-blank line yields exactly one *Entry or *SyntaxError (a warning is
// followed by its entry, on the same line), line numbers increase, and the
// counts agree with an independent split of the input.
func FuzzRead(f *testing.F) {
	seeds := []string{
		`{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/w","sessionId":"s","version":"1.0.80","type":"user","message":{"role":"user","content":"hi"},"uuid":"u1","timestamp":"2025-08-06T16:45:18.724Z"}` + "\n",
		`{"parentUuid":"u1","type":"assistant","requestId":"req_1","message":{"id":"msg_1","role":"assistant","model":"claude-sonnet-4-20250514","content":[{"type":"tool_use","id":"toolu_1","name":"Read","input":{"file_path":"/a","offset":1,"limit":2}}],"usage":{"input_tokens":3,"cache_creation_input_tokens":5,"cache_read_input_tokens":7,"output_tokens":11,"cache_creation":{"ephemeral_5m_input_tokens":5,"ephemeral_1h_input_tokens":0}}},"uuid":"a1"}` + "\n",
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"x\u00e9😀"},{"type":"image"}],"is_error":true}]},"toolUseResult":{"agentId":"a"}}` + "\r\n\r\n",
		`{"type":"system","subtype":"compact_boundary","parentUuid":null,"compactMetadata":{"trigger":"auto","preTokens":1,"compactedToolIds":["a","b"]}}` + "\n// comment\n[1]\n",
		`{"type":"user","message":{"content":"caf` + "\xe9\x00" + `"}}` + "\n\n  \n{\"type\":",
		`{"message":{"content":"hi \u00e9\n"},"type":"user"}` + "\n" + `{"message":{"role":"user","content":"x"},"type":"assistant"}`,
		"{\"type\":\"attachment\",\"attachment\":{\"type\":\"file\"}}\n" + strings.Repeat(" ", 70) + "\n" + `{"x":` + strings.Repeat(`"abcdefgh",`, 10) + `1}`,
		"",
		"\n",
		"\x00\xff\xfe",
		"{\"type\":\"user\",\"toolUseResult\":{\"stdout\":\"a\x01b\\qc\",\"agentId\":\"a\\u12\"},\"snapshot\":[\"\\x\"]}\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, max := range []int{0, 64} {
			checkRead(t, bytes.NewReader(data), data, max)
		}
		// A byte per read, the last one with io.EOF: every line and
		// line end split across reads.
		checkRead(t, iotest.DataErrReader(iotest.OneByteReader(bytes.NewReader(data))), data, 64)
	})
}

// TestSkimmedFields: the values the reader does not decode (toolUseResult
// and the fields it reads past) are checked for structure only, so a fault
// inside one of their strings leaves the line readable; the same fault in a
// value it decodes, or a broken structure anywhere, makes the line invalid.
// agentId, the one string read from toolUseResult, is validated where it
// is read.
func TestSkimmedFields(t *testing.T) {
	msg := `"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}`
	for _, tt := range []struct {
		name, line string
		read       bool
		agent      string
	}{
		{"control character in toolUseResult", `{"type":"user",` + msg + ",\"toolUseResult\":{\"stdout\":\"a\x01b\",\"agentId\":\"ag1\"}}", true, "ag1"},
		{"invalid escape in toolUseResult", `{"type":"user",` + msg + `,"toolUseResult":{"stdout":"a\qb","agentId":"ag1"}}`, true, "ag1"},
		{"invalid escape in agentId", `{"type":"user",` + msg + `,"toolUseResult":{"agentId":"a\u12"}}`, true, ""},
		{"control character in a field read past", "{\"type\":\"user\"," + msg + ",\"snapshot\":{\"x\":\"\x1f\"}}", true, ""},
		{"control character in message", "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"a\x01b\"}}", false, ""},
		{"control character in an unknown field", "{\"type\":\"user\"," + msg + ",\"newField\":\"\x01\"}", false, ""},
		{"broken number in toolUseResult", `{"type":"user",` + msg + `,"toolUseResult":{"durationSeconds":2[x]00064}}`, false, ""},
		{"unterminated string in toolUseResult", `{"type":"user",` + msg + `,"toolUseResult":{"stdout":"a\"}}`, false, ""},
	} {
		r := NewReader(strings.NewReader(tt.line+"\n"), "t.jsonl")
		recs := readAll(r)
		if len(recs) != 1 {
			t.Fatalf("%s: %d records", tt.name, len(recs))
		}
		e, ok := recs[0].(*Entry)
		if ok != tt.read {
			t.Fatalf("%s: read %v (%v), want %v", tt.name, ok, recs[0], tt.read)
		}
		if !ok {
			continue
		}
		if e.Type != "user" || len(e.Blocks) != 1 || e.Blocks[0].Kind != BlockToolResult || e.Blocks[0].Chars != 2 {
			t.Errorf("%s: entry %+v", tt.name, e)
		}
		if e.ResultAgentID != tt.agent {
			t.Errorf("%s: ResultAgentID = %q, want %q", tt.name, e.ResultAgentID, tt.agent)
		}
	}
}

func checkRead(t *testing.T, in io.Reader, data []byte, max int) {
	// The lines, by an independent split.
	type line struct {
		text    []byte // without "\n" and one "\r"
		tooLong bool
		blank   bool
	}
	var lines []line
	rest := data
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		var raw []byte
		if i < 0 {
			raw, rest = rest, nil
		} else {
			raw, rest = rest[:i+1], rest[i+1:]
		}
		l := line{tooLong: max > 0 && len(raw) > max}
		l.text = bytes.TrimSuffix(bytes.TrimSuffix(raw, []byte("\n")), []byte("\r"))
		l.blank = len(bytes.Trim(l.text, " \t\r")) == 0
		lines = append(lines, l)
	}

	r := NewReader(in, "fuzz")
	r.MaxLineBytes = max
	recs := readAll(r)
	if err := r.Err(); err != nil {
		t.Fatalf("Err() = %v", err)
	}
	i := 0
	prev := 0
	for n, l := range lines {
		num := n + 1
		if l.blank && !l.tooLong {
			continue
		}
		if i >= len(recs) {
			t.Fatalf("max %d: line %d (%q) yielded no record", max, num, l.text)
		}
		rec := recs[i]
		i++
		if se, ok := rec.(*SyntaxError); ok && se.Warning {
			if se.Line != num {
				t.Fatalf("max %d: warning for line %d, want %d", max, se.Line, num)
			}
			if i >= len(recs) {
				t.Fatalf("max %d: warning for line %d not followed by its entry", max, num)
			}
			rec = recs[i]
			i++
			if _, ok := rec.(*Entry); !ok {
				t.Fatalf("max %d: warning for line %d followed by %T", max, num, rec)
			}
		}
		got := 0
		switch rr := rec.(type) {
		case *Entry:
			got = rr.Line
			if l.tooLong {
				t.Fatalf("max %d: line %d is %d bytes but gave an entry", max, num, len(l.text))
			}
			// Read: valid JSON once the strings of the values the
			// reader only skims are blanked.
			text := blankSkimmed(l.text)
			if !json.Valid(text) {
				t.Fatalf("max %d: line %d %q is not JSON but gave an entry", max, num, l.text)
			}
			crossCheck(t, text, rr)
		case *SyntaxError:
			got = rr.Line
			if rr.Warning {
				t.Fatalf("max %d: two warnings in a row on line %d", max, num)
			}
			if !l.tooLong && json.Valid(l.text) && bytes.TrimLeft(l.text, " \t\r")[0] == '{' {
				t.Fatalf("max %d: line %d %q is a JSON object but gave %v", max, num, l.text, rr)
			}
		default:
			t.Fatalf("record %T", rec)
		}
		if got != num || got <= prev {
			t.Fatalf("max %d: record for line %d says line %d (previous %d)", max, num, got, prev)
		}
		prev = got
	}
	if i != len(recs) {
		t.Fatalf("max %d: %d records for %d lines; extra: %v", max, len(recs), len(lines), recs[i:])
	}
	st := r.Stats()
	if st.Lines != len(lines) || st.BytesRead != int64(len(data)) {
		t.Fatalf("max %d: Stats Lines %d BytesRead %d, want %d, %d", max, st.Lines, st.BytesRead, len(lines), len(data))
	}
}

// blankSkimmed returns line with the strings of its top-level values that
// the reader only skims (skimmed) blanked by jsonscantest.BlankStrings; gjson, not the
// reader's walk, finds the values.
func blankSkimmed(line []byte) []byte {
	out := bytes.Clone(line)
	gjson.ParseBytes(line).ForEach(func(k, v gjson.Result) bool {
		if skimmed(k.String()) && v.Index > 0 {
			copy(out[v.Index:], jsonscantest.BlankStrings(v.Raw))
		}
		return true
	})
	return out
}

// crossCheck compares a few fields of an entry with what encoding/json
// reads from the same line: the type, the uuid, and the length of a string
// message.content. Lines with invalid UTF-8 are skipped (encoding/json
// replaces the bytes; the reader keeps them).
func crossCheck(t *testing.T, line []byte, e *Entry) {
	if !utf8.Valid(line) {
		return
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(line, &top); err != nil {
		t.Fatalf("line %q: encoding/json: %v", line, err)
	}
	asString := func(raw json.RawMessage) string {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return ""
		}
		return s
	}
	wantType := asString(top["type"])
	if wantType == "" {
		wantType = "(none)"
	}
	if e.Type != wantType {
		t.Fatalf("line %q: Type = %q, encoding/json reads %q", line, e.Type, wantType)
	}
	if want := asString(top["uuid"]); e.UUID != want {
		t.Fatalf("line %q: UUID = %q, encoding/json reads %q", line, e.UUID, want)
	}
	var msg map[string]json.RawMessage
	if json.Unmarshal(top["message"], &msg) != nil {
		return
	}
	var content string
	if json.Unmarshal(msg["content"], &content) != nil {
		return
	}
	want := len(utf16.Encode([]rune(content)))
	if len(e.Blocks) != 1 || e.Blocks[0].Chars != want || !e.StringContent {
		t.Fatalf("line %q: string content of %d units gave blocks %+v", line, want, e.Blocks)
	}
	// A user's text is kept, whatever the order of the keys.
	wantText := ""
	if wantType == "user" || asString(msg["role"]) == "user" {
		wantText = content
		if len(wantText) > MaxKeptText {
			wantText = wantText[:MaxKeptText]
			for !utf8.ValidString(wantText) {
				wantText = wantText[:len(wantText)-1]
			}
		}
	}
	if e.Blocks[0].Text != wantText {
		t.Fatalf("line %q: Text = %q, want %q", line, e.Blocks[0].Text, wantText)
	}
}

// With ReuseEntry, Scan refills one Entry, and what each entry pointed to
// (blocks, usage) stays as it was read: the records are those of a reader
// that allocates an Entry per line, copied field by field as Scan returns
// them, including an entry that follows its invalid-UTF-8 warning.
func TestReuseEntry(t *testing.T) {
	input := strings.Join([]string{
		`{"type":"user","uuid":"u1","message":{"role":"user","content":"first prompt"}}`,
		`{"type":"assistant","uuid":"a1","message":{"id":"m1","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"hello"},{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/a.go"}}],"usage":{"input_tokens":3,"cache_creation_input_tokens":100,"cache_read_input_tokens":0,"output_tokens":7}}}`,
		"{\"type\":\"user\",\"uuid\":\"u2\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t1\",\"content\":\"bad \xff byte\"}]}}",
		`{"type":"assistant","uuid":"a2","message":{"id":"m2","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"done"}],"usage":{"input_tokens":1,"cache_creation_input_tokens":20,"cache_read_input_tokens":100,"output_tokens":2}}}`,
	}, "\n") + "\n"
	var fresh []Entry
	for _, rec := range readAll(NewReader(strings.NewReader(input), "f.jsonl")) {
		if e, ok := rec.(*Entry); ok {
			fresh = append(fresh, *e)
		}
	}
	r := NewReader(strings.NewReader(input), "f.jsonl")
	r.ReuseEntry = true
	var reused []Entry
	var first *Entry
	for r.Scan() {
		if e, ok := r.Result().(*Entry); ok {
			if first == nil {
				first = e
			} else if e != first {
				t.Fatalf("line %d: a new Entry, want the reused one", e.Line)
			}
			reused = append(reused, *e)
		}
	}
	if len(fresh) != 4 || len(reused) != len(fresh) {
		t.Fatalf("%d entries with ReuseEntry, %d without; want 4 each", len(reused), len(fresh))
	}
	for i := range fresh {
		if !reflect.DeepEqual(reused[i], fresh[i]) {
			t.Errorf("entry %d with ReuseEntry:\n%+v\nwithout:\n%+v", i, reused[i], fresh[i])
		}
	}
}

// TestReaderRemembersLast checks the values a Reader carries from one line
// to the next (lit, usage): a value repeated, changed, escaped, or written
// with an escape the line before did not use reads as a Reader that keeps
// nothing would read it, and an entry's Usage is its own.
func TestReaderRemembersLast(t *testing.T) {
	line := func(cwd, id, usage string) string {
		return `{"type":"assistant","cwd":"` + cwd + `","message":{"id":"` + id + `","role":"assistant","content":[{"type":"text","text":"x"}],"usage":` + usage + `}}`
	}
	u1 := `{"input_tokens":3,"cache_creation_input_tokens":100,"cache_read_input_tokens":5,"output_tokens":7}`
	u2 := `{"input_tokens":1,"cache_creation_input_tokens":20,"cache_read_input_tokens":100,"output_tokens":2}`
	lines := []string{
		line(`C:\\Users\\a`, "m1", u1),
		line(`C:\\Users\\a`, "m1", u1),
		line(`C:\u005cUsers\u005ca`, "m1", u2), // the same directory, written otherwise
		line(`C:\\Users\\b`, "m\u0032", u2),
		line(`/home/a`, "m2", u1),
		line(`/home/a`, "", u1),
	}
	want := []struct {
		cwd, id string
		u       Usage
	}{
		{`C:\Users\a`, "m1", Usage{Input: 3, CacheWrite5m: 100, CacheRead: 5, Output: 7}},
		{`C:\Users\a`, "m1", Usage{Input: 3, CacheWrite5m: 100, CacheRead: 5, Output: 7}},
		{`C:\Users\a`, "m1", Usage{Input: 1, CacheWrite5m: 20, CacheRead: 100, Output: 2}},
		{`C:\Users\b`, "m2", Usage{Input: 1, CacheWrite5m: 20, CacheRead: 100, Output: 2}},
		{`/home/a`, "m2", Usage{Input: 3, CacheWrite5m: 100, CacheRead: 5, Output: 7}},
		{`/home/a`, "", Usage{Input: 3, CacheWrite5m: 100, CacheRead: 5, Output: 7}},
	}
	var got []*Entry
	for _, rec := range readAll(NewReader(strings.NewReader(strings.Join(lines, "\n")), "f.jsonl")) {
		e, ok := rec.(*Entry)
		if !ok {
			t.Fatalf("record %+v, want an entry", rec)
		}
		got = append(got, e)
	}
	if len(got) != len(want) {
		t.Fatalf("%d entries, want %d", len(got), len(want))
	}
	for i, w := range want {
		e := got[i]
		if e.Cwd != w.cwd || e.MessageID != w.id || e.Usage == nil || *e.Usage != w.u {
			t.Errorf("line %d: cwd %q id %q usage %+v, want %q %q %+v", i+1, e.Cwd, e.MessageID, e.Usage, w.cwd, w.id, w.u)
		}
	}
	if got[0].Usage == got[1].Usage {
		t.Error("lines 1 and 2 share one *Usage; each entry needs its own")
	}
}

// A file tool's result and input record the whole file's size; an
// attachment is estimated as what Claude Code sends the model.
func TestReaderFileFactsAndAttachments(t *testing.T) {
	read := func(line string) *Entry {
		t.Helper()
		recs := readAll(NewReader(strings.NewReader(line+"\n"), "t.jsonl"))
		e, ok := recs[0].(*Entry)
		if !ok {
			t.Fatalf("%s: %v", line, recs[0])
		}
		return e
	}
	msg := `"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}`
	// Read: the line counts follow the file's text; a text that holds
	// "numLines" in a string is not taken for the field.
	e := read(`{"type":"user",` + msg + `,"toolUseResult":{"type":"text","file":{"filePath":"a","content":"x\"numLines\":9 \"totalLines\":9","numLines":30, "startLine":1,"totalLines":120}}}`)
	if e.ResultFile != (FileFacts{ReadLines: 30, TotalLines: 120}) {
		t.Errorf("Read result: %+v", e.ResultFile)
	}
	// Edit: originalFile's length (of its JSON text, quotes left out)
	// and lines.
	e = read(`{"type":"user",` + msg + `,"toolUseResult":{"filePath":"a","oldString":"b","originalFile":"l1\nl2\nl3"}}`)
	if e.ResultFile != (FileFacts{OriginalChars: 10, OriginalLines: 3}) {
		t.Errorf("Edit result: %+v", e.ResultFile)
	}
	// Write and Edit inputs.
	e = read(`{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Write","input":{"file_path":"a","content":"ab\ncd"}},{"type":"tool_use","id":"t2","name":"Edit","input":{"file_path":"a","old_string":"abc","new_string":"abcdef"}}]}}`)
	if in := e.Blocks[0].Input; in.ContentChars != 6 || in.ContentLines != 2 {
		t.Errorf("Write input: %+v", in)
	}
	if in := e.Blocks[1].Input; in.OldChars != 3 || in.NewChars != 6 {
		t.Errorf("Edit input: %+v", in)
	}
	for _, tt := range []struct {
		name, att string
		want      int
	}{
		// 41 characters of JSON: 10.
		{"text", `{"type":"todo_reminder","content":"abcd"}`, 10},
		// A tool hook's output is shown, not sent; a prompt's hook adds context.
		{"PostToolUse hook", `{"type":"hook_success","hookEvent":"PostToolUse","content":"` + strings.Repeat("x", 400) + `"}`, 0},
		{"UserPromptSubmit hook", `{"type":"hook_success","hookEvent":"UserPromptSubmit","content":"abcdefgh"}`, 19}, // 75/4
		{"permissions", `{"type":"command_permissions","allowedTools":["Bash"]}`, 0},
		// An image is 2,000 whatever its data: 113 characters without the
		// data's 402 (quoted) are 28, plus 2,000.
		{"image", `{"type":"queued_command","prompt":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"` + strings.Repeat("A", 400) + `"}}]}`, 2028},
	} {
		e := read(`{"type":"attachment","attachment":` + tt.att + `}`)
		if e.AttachmentEst != tt.want {
			t.Errorf("%s: AttachmentEst %d (of %d characters), want %d", tt.name, e.AttachmentEst, e.AttachmentChars, tt.want)
		}
	}
}

// The opening of Claude Code's compaction summaries and the instruction
// to go on that ends those of its automatic compactions (SummaryText).
const (
	testOpening = "This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nAnalysis: the user asked for a report."
	testGoOn    = "\nPlease continue the conversation from where we left it off without asking the user any further questions. Continue with the last task that you were asked to work on."
)

// TestSummaryText: what a summary's text shows, whether its content is a
// string or blocks.
func TestSummaryText(t *testing.T) {
	str := func(s string) string { j, _ := json.Marshal(s); return string(j) }
	for _, c := range []struct {
		name   string
		blocks []Block
		want   SummaryText
	}{
		{"goes on", []Block{{Kind: BlockText, Text: str(testOpening + testGoOn)}}, SummaryGoOn},
		{"plain", []Block{{Kind: BlockText, Text: str(testOpening)}}, SummaryPlain},
		{"the instruction in the last of two blocks", []Block{{Kind: BlockText, Text: str(testOpening)}, {Kind: BlockImage}, {Kind: BlockText, Text: str("More." + testGoOn)}}, SummaryGoOn},
		{"the instruction not at the end", []Block{{Kind: BlockText, Text: str(testOpening + testGoOn + " Thanks.")}}, SummaryPlain},
		{"another opening", []Block{{Kind: BlockText, Text: str("Summary:" + testGoOn)}}, SummaryOther},
		{"no text", []Block{{Kind: BlockImage}}, SummaryOther},
		{"nothing", nil, SummaryOther},
	} {
		if got := summaryText(c.blocks); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestStatsMerge: a session's counts are the sum of its files', and a flag
// set in either stays set.
func TestStatsMerge(t *testing.T) {
	s := Stats{Lines: 3, Blank: 1, Bad: 1, BytesRead: 100, Types: map[string]int{"user": 2}, Unknown: map[string]int{"user.x": 1}}
	o := Stats{Lines: 5, Blank: 2, Bad: 3, BytesRead: 50, Truncated: true, Types: map[string]int{"user": 1, "assistant": 4}, Unknown: map[string]int{"y": 2}}
	s.Merge(&o)
	want := Stats{Lines: 8, Blank: 3, Bad: 4, BytesRead: 150, Truncated: true,
		Types: map[string]int{"user": 3, "assistant": 4}, Unknown: map[string]int{"user.x": 1, "y": 2}}
	if !reflect.DeepEqual(s, want) {
		t.Fatalf("merged %+v, want %+v", s, want)
	}
	s.Merge(&Stats{InvalidUTF: true})
	if !s.InvalidUTF || !s.Truncated || s.Lines != 8 {
		t.Fatalf("after an empty file with invalid UTF-8: %+v", s)
	}
}
