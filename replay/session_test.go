package replay

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// loadString loads a transcript given as text, through standard input.
func loadString(t *testing.T, transcript string) *Session {
	t.Helper()
	s, err := Load(Source{Path: "-"}, Options{Stdin: strings.NewReader(transcript)})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	for _, w := range s.Warnings {
		t.Errorf("unexpected warning %v", w)
	}
	return s
}

// writeTree writes files (slash-separated paths relative to a new temporary
// directory) and returns the directory.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func usages(th *Thread) []Usage {
	var out []Usage
	for _, c := range th.Calls {
		out = append(out, c.Usage)
	}
	return out
}

func msgLines(th *Thread) []int {
	var out []int
	for _, m := range th.Messages {
		out = append(out, m.Line)
	}
	return out
}

func TestCallDedup(t *testing.T) {
	tests := []struct {
		name       string
		transcript string
		want       []Usage // main-thread calls
		wantKeys   []string
		wantBlocks []int // blocks per assistant message
	}{
		{
			name: "1.0.x: output_tokens grows over the sibling lines",
			transcript: `{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s1","version":"1.0.80","message":{"role":"user","content":"go"}}
{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s1","version":"1.0.80","requestId":"req_1","message":{"id":"msg_1","role":"assistant","model":"claude-sonnet-4-20250514","content":[{"type":"thinking","thinking":"hmm","signature":"s"}],"stop_reason":null,"usage":{"input_tokens":10,"cache_creation_input_tokens":100,"cache_read_input_tokens":1000,"output_tokens":4,"service_tier":"standard"}}}
{"type":"assistant","uuid":"a2","parentUuid":"a1","sessionId":"s1","version":"1.0.80","requestId":"req_1","message":{"id":"msg_1","role":"assistant","model":"claude-sonnet-4-20250514","content":[{"type":"text","text":"Reading."}],"stop_reason":null,"usage":{"input_tokens":10,"cache_creation_input_tokens":100,"cache_read_input_tokens":1000,"output_tokens":60,"service_tier":"standard"}}}
{"type":"assistant","uuid":"a3","parentUuid":"a2","sessionId":"s1","version":"1.0.80","requestId":"req_1","message":{"id":"msg_1","role":"assistant","model":"claude-sonnet-4-20250514","content":[{"type":"tool_use","id":"toolu_1","name":"Read","input":{"file_path":"/x"}}],"stop_reason":"tool_use","usage":{"input_tokens":10,"cache_creation_input_tokens":100,"cache_read_input_tokens":1000,"output_tokens":133,"service_tier":"standard"}}}
`,
			want:       []Usage{{Input: 10, CacheWrite5m: 100, CacheRead: 1000, Output: 133}},
			wantKeys:   []string{"msg_1\x00req_1"},
			wantBlocks: []int{3},
		},
		{
			name: "2.1.63: start usage on the first lines, final usage on the last",
			transcript: `{"type":"assistant","uuid":"a1","parentUuid":null,"version":"2.1.63","requestId":"req_9","message":{"id":"msg_9","role":"assistant","model":"claude-opus-4-6","content":[{"type":"thinking","thinking":"","signature":"s"}],"stop_reason":null,"usage":{"input_tokens":3,"cache_creation_input_tokens":500,"cache_read_input_tokens":2000,"output_tokens":1,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":500}}}}
{"type":"assistant","uuid":"a2","parentUuid":"a1","version":"2.1.63","requestId":"req_9","message":{"id":"msg_9","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"Done"}],"stop_reason":null,"usage":{"input_tokens":3,"cache_creation_input_tokens":500,"cache_read_input_tokens":2000,"output_tokens":1,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":500}}}}
{"type":"assistant","uuid":"a3","parentUuid":"a2","version":"2.1.63","requestId":"req_9","message":{"id":"msg_9","role":"assistant","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"toolu_2","name":"Bash","input":{"command":"ls"}}],"stop_reason":"tool_use","usage":{"input_tokens":3,"cache_creation_input_tokens":500,"cache_read_input_tokens":2000,"output_tokens":250,"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":"standard","cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":500},"inference_geo":"","iterations":[{"input_tokens":3,"output_tokens":250}],"speed":"standard"}}}
`,
			want:       []Usage{{Input: 3, CacheWrite1h: 500, CacheRead: 2000, Output: 250}},
			wantKeys:   []string{"msg_9\x00req_9"},
			wantBlocks: []int{3},
		},
		{
			name: "2.1.118: the final usage copied on every line is counted once",
			transcript: `{"type":"assistant","uuid":"a1","version":"2.1.118","requestId":"r","message":{"id":"m","role":"assistant","content":[{"type":"text","text":"a"}],"stop_reason":"tool_use","usage":{"input_tokens":3,"cache_creation_input_tokens":30882,"cache_read_input_tokens":13921,"output_tokens":409,"cache_creation":{"ephemeral_1h_input_tokens":30882,"ephemeral_5m_input_tokens":0}}}}
{"type":"assistant","uuid":"a2","version":"2.1.118","requestId":"r","message":{"id":"m","role":"assistant","content":[{"type":"text","text":"b"}],"stop_reason":"tool_use","usage":{"input_tokens":3,"cache_creation_input_tokens":30882,"cache_read_input_tokens":13921,"output_tokens":409,"cache_creation":{"ephemeral_1h_input_tokens":30882,"ephemeral_5m_input_tokens":0}}}}
{"type":"assistant","uuid":"a3","version":"2.1.118","requestId":"r","message":{"id":"m","role":"assistant","content":[{"type":"text","text":"c"}],"stop_reason":"tool_use","usage":{"input_tokens":3,"cache_creation_input_tokens":30882,"cache_read_input_tokens":13921,"output_tokens":409,"cache_creation":{"ephemeral_1h_input_tokens":30882,"ephemeral_5m_input_tokens":0}}}}
`,
			want:       []Usage{{Input: 3, CacheWrite1h: 30882, CacheRead: 13921, Output: 409}},
			wantKeys:   []string{"m\x00r"},
			wantBlocks: []int{3},
		},
		{
			name: "the record with the most tokens wins, not the last one",
			transcript: `{"type":"assistant","uuid":"a1","requestId":"r","message":{"id":"m","role":"assistant","content":[],"usage":{"input_tokens":10,"cache_read_input_tokens":1000,"output_tokens":133}}}
{"type":"assistant","uuid":"a2","requestId":"r","message":{"id":"m","role":"assistant","content":[],"usage":{"input_tokens":10,"cache_read_input_tokens":1000,"output_tokens":4}}}
`,
			want:       []Usage{{Input: 10, CacheRead: 1000, Output: 133}},
			wantKeys:   []string{"m\x00r"},
			wantBlocks: []int{0},
		},
		{
			name: "DeepSeek: no requestId, deduplicated on message.id",
			transcript: `{"type":"user","uuid":"u1","parentUuid":null,"version":"2.1.118","message":{"role":"user","content":"hi"}}
{"type":"assistant","uuid":"a1","parentUuid":"u1","version":"2.1.118","message":{"id":"msg_ds1","role":"assistant","model":"deepseek-v4-pro","content":[{"type":"thinking","thinking":"","signature":"x"}],"usage":{"input_tokens":5000,"output_tokens":10}}}
{"type":"assistant","uuid":"a2","parentUuid":"a1","version":"2.1.118","message":{"id":"msg_ds1","role":"assistant","model":"deepseek-v4-pro","content":[{"type":"text","text":"hello"}],"usage":{"input_tokens":5000,"output_tokens":300}}}
{"type":"user","uuid":"u2","parentUuid":"a2","version":"2.1.118","message":{"role":"user","content":"more"}}
{"type":"assistant","uuid":"a3","parentUuid":"u2","version":"2.1.118","message":{"id":"msg_ds2","role":"assistant","model":"deepseek-v4-pro","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":6000,"output_tokens":20}}}
`,
			want:       []Usage{{Input: 5000, Output: 300}, {Input: 6000, Output: 20}},
			wantKeys:   []string{"msg_ds1", "msg_ds2"},
			wantBlocks: []int{2, 1},
		},
		{
			name: "siblings split by a tool result stay one call",
			transcript: `{"type":"assistant","uuid":"a1","requestId":"r","message":{"id":"m","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{}}],"usage":{"input_tokens":1,"output_tokens":5}}}
{"type":"user","uuid":"u1","parentUuid":"a1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"x"}]}}
{"type":"assistant","uuid":"a2","parentUuid":"a1","requestId":"r","message":{"id":"m","role":"assistant","content":[{"type":"tool_use","id":"t2","name":"Read","input":{}}],"usage":{"input_tokens":1,"output_tokens":9}}}
`,
			want:       []Usage{{Input: 1, Output: 9}},
			wantKeys:   []string{"m\x00r"},
			wantBlocks: []int{2},
		},
		{
			name: "different responses are different calls",
			transcript: `{"type":"assistant","uuid":"a1","requestId":"r1","message":{"id":"m1","role":"assistant","content":[],"usage":{"input_tokens":1,"output_tokens":2}}}
{"type":"assistant","uuid":"a2","requestId":"r2","message":{"id":"m2","role":"assistant","content":[],"usage":{"input_tokens":3,"output_tokens":4}}}
`,
			want:       []Usage{{Input: 1, Output: 2}, {Input: 3, Output: 4}},
			wantKeys:   []string{"m1\x00r1", "m2\x00r2"},
			wantBlocks: []int{0, 0},
		},
		{
			name: "interleaved siblings find their own message and call",
			transcript: `{"type":"assistant","uuid":"a1","requestId":"r1","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"a"}],"usage":{"input_tokens":1,"output_tokens":1}}}
{"type":"assistant","uuid":"a2","requestId":"r1","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"b"}],"usage":{"input_tokens":2,"output_tokens":2}}}
{"type":"assistant","uuid":"a3","requestId":"r2","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"c"}],"usage":{"input_tokens":3,"output_tokens":3}}}
{"type":"assistant","uuid":"a4","requestId":"r1","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"d"}],"usage":{"input_tokens":1,"output_tokens":7}}}
{"type":"assistant","uuid":"a5","requestId":"r1","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"e"}],"usage":{"input_tokens":2,"output_tokens":1}}}
`,
			want:       []Usage{{Input: 1, Output: 7}, {Input: 2, Output: 2}, {Input: 3, Output: 3}},
			wantKeys:   []string{"m1\x00r1", "m2\x00r1", "m1\x00r2"},
			wantBlocks: []int{2, 2, 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := loadString(t, tt.transcript)
			if got := usages(s.Main); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("calls' usage = %+v, want %+v", got, tt.want)
			}
			var keys []string
			for _, c := range s.Main.Calls {
				keys = append(keys, c.Key())
				if !c.HasUsage || c.Duplicate {
					t.Errorf("call %+v: want HasUsage, not Duplicate", c)
				}
				if m := s.Main.Messages[c.Msg]; m.Role != RoleAssistant || s.Main.Calls[m.Call].Key() != c.Key() {
					t.Errorf("call %s points at message %+v", c.Key(), m)
				}
			}
			if !reflect.DeepEqual(keys, tt.wantKeys) {
				t.Errorf("keys = %q, want %q", keys, tt.wantKeys)
			}
			var blocks []int
			for _, m := range s.Main.Messages {
				if m.Role == RoleAssistant {
					blocks = append(blocks, len(m.Blocks))
				}
			}
			if !reflect.DeepEqual(blocks, tt.wantBlocks) {
				t.Errorf("blocks per assistant message = %v, want %v", blocks, tt.wantBlocks)
			}
		})
	}
}

// TestCallDedupKeyIsIDAndRequest: ctxlab (and ccusage) key a call by
// (message.id, requestId), so two requests answered under one message.id are
// two calls, and two messages.
func TestCallDedupKeyIsIDAndRequest(t *testing.T) {
	s := loadString(t, `{"type":"assistant","uuid":"a1","requestId":"r1","message":{"id":"m","role":"assistant","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}
{"type":"assistant","uuid":"a2","requestId":"r2","message":{"id":"m","role":"assistant","content":[],"usage":{"input_tokens":2,"output_tokens":2}}}
`)
	if got, want := usages(s.Main), []Usage{{Input: 1, Output: 1}, {Input: 2, Output: 2}}; !reflect.DeepEqual(got, want) {
		t.Errorf("calls' usage = %+v, want %+v", got, want)
	}
	if got := msgLines(s.Main); !reflect.DeepEqual(got, []int{1, 2}) {
		t.Errorf("messages start on lines %v, want [1 2]", got)
	}
}

func TestCallFields(t *testing.T) {
	s := loadString(t, `{"type":"assistant","uuid":"a1","sessionId":"s","version":"2.1.97","requestId":"r1","timestamp":"2026-01-01T00:00:01.000Z","message":{"id":"m1","role":"assistant","model":"claude-sonnet-4-6","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}
{"type":"assistant","uuid":"a2","sessionId":"s","version":"2.1.97","timestamp":"2026-01-01T00:00:02.000Z","isApiErrorMessage":true,"error":"rate_limit","message":{"id":"m2","role":"assistant","model":"<synthetic>","content":[{"type":"text","text":"API Error"}],"usage":{"input_tokens":0,"output_tokens":0}}}
{"type":"assistant","uuid":"a3","sessionId":"s","version":"2.1.118","timestamp":"2026-01-01T00:00:03.000Z","requestId":"r3","message":{"id":"m3","role":"assistant","model":"claude-haiku-4-5-20251001","content":[]}}
{"type":"assistant","uuid":"a4","sessionId":"s","version":"2.1.118","requestId":"r3","message":{"id":"m3","role":"assistant","model":"claude-haiku-4-5-20251001","content":[],"usage":{"input_tokens":7,"output_tokens":8}}}
`)
	cs := s.Main.Calls
	if len(cs) != 3 {
		t.Fatalf("%d calls, want 3", len(cs))
	}
	c0 := cs[0]
	if c0.MessageID != "m1" || c0.RequestID != "r1" || c0.Model != "claude-sonnet-4-6" || c0.Version != "2.1.97" ||
		c0.SessionID != "s" || c0.Line != 1 || c0.Time != 1767225601000 || c0.Synthetic || c0.APIError {
		t.Errorf("call 0 = %+v", c0)
	}
	if c1 := cs[1]; !c1.Synthetic || !c1.APIError || c1.RequestID != "" || c1.Line != 2 {
		t.Errorf("synthetic call = %+v", c1)
	}
	// A response first written without usage takes it from a later sibling.
	if c2 := cs[2]; !c2.HasUsage || c2.Usage != (Usage{Input: 7, Output: 8}) || c2.Line != 3 {
		t.Errorf("call 2 = %+v", c2)
	}
	if want := []string{"claude-haiku-4-5-20251001", "claude-sonnet-4-6"}; !reflect.DeepEqual(s.Models, want) {
		t.Errorf("Models = %q, want %q (no <synthetic>)", s.Models, want)
	}
	if want := []string{"2.1.97", "2.1.118"}; !reflect.DeepEqual(s.Versions, want) { // version order
		t.Errorf("Versions = %q, want %q", s.Versions, want)
	}
	if s.Start() != 1767225601000 || s.End() != 1767225603000 {
		t.Errorf("Start, End = %d, %d", s.Start(), s.End())
	}
	if s.ID != "-" || len(s.Threads()) != 1 || s.Threads()[0] != s.Main || s.Main.Kind != KindMain {
		t.Errorf("session %q threads %v", s.ID, s.Threads())
	}
}

func TestOutputLowerBound(t *testing.T) {
	tests := []struct {
		version string
		want    bool
	}{
		{"", false},
		{"1.0.80", false},
		{"2.0.76", false},
		{"2.1.5", false},
		{"2.1.8", false},
		{"2.1.9", true},
		{"2.1.14", true},
		{"2.1.19", true},
		{"2.1.41", true},
		{"2.1.42", false},
		{"2.1.63", false},
		{"2.1.100", false},
		{"2.1.146", false},
	}
	for _, tt := range tests {
		line := `{"type":"assistant","uuid":"a","version":"` + tt.version + `","requestId":"r","message":{"id":"m","role":"assistant","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}`
		s := loadString(t, line)
		if len(s.Main.Calls) != 1 {
			t.Fatalf("%s: %d calls", tt.version, len(s.Main.Calls))
		}
		if got := s.Main.Calls[0].OutputLowerBound; got != tt.want {
			t.Errorf("version %q: OutputLowerBound = %v, want %v", tt.version, got, tt.want)
		}
	}
}

func TestToolPairing(t *testing.T) {
	s := loadString(t, `{"type":"user","uuid":"u1","parentUuid":null,"message":{"role":"user","content":"read it"}}
{"type":"assistant","uuid":"a1","parentUuid":"u1","requestId":"r1","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"toolu_read","name":"Read","input":{"file_path":"/a/b.go","offset":10,"limit":20}}],"usage":{"input_tokens":1,"output_tokens":2}}}
{"type":"assistant","uuid":"a2","parentUuid":"a1","requestId":"r1","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"toolu_bash","name":"Bash","input":{"command":"ls -la"}}],"usage":{"input_tokens":1,"output_tokens":9}}}
{"type":"user","uuid":"u2","parentUuid":"a2","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_read","content":"hello\nworld"}]},"toolUseResult":{"type":"text"}}
{"type":"user","uuid":"u3","parentUuid":"u2","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_bash","is_error":true,"content":[{"type":"text","text":"boom"},{"type":"image","source":{}}]},{"type":"tool_result","tool_use_id":"toolu_ghost","content":"?"}]}}
{"type":"assistant","uuid":"a3","parentUuid":"u3","requestId":"r2","message":{"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"toolu_task","name":"Task","input":{"prompt":"x"}}],"usage":{"input_tokens":1,"output_tokens":1}}}
`)
	th := s.Main
	if got, want := msgLines(th), []int{1, 2, 4, 5, 6}; !reflect.DeepEqual(got, want) {
		t.Errorf("message lines = %v, want %v", got, want)
	}
	if len(th.Tools) != 3 {
		t.Fatalf("%d tool calls, want 3", len(th.Tools))
	}
	// Input sizes: {"file_path":"/a/b.go","offset":10,"limit":20} is 46
	// characters (est 12), {"command":"ls -la"} 20 (est 5), {"prompt":"x"}
	// 14 (est 4). Results: "hello\nworld" is 11 (est 3); "boom" is 4 (est 1)
	// plus an image (2000).
	want := []ToolCall{
		{
			ID: "toolu_read", Name: "Read", Input: ToolInput{FilePath: "/a/b.go", Offset: 10, Limit: 20},
			InputChars: 46, InputEst: 12, UseMsg: 1, Call: 0,
			HasResult: true, ResultMsg: 2, ResultChars: 11, ResultEst: 3,
		},
		{
			ID: "toolu_bash", Name: "Bash", Input: ToolInput{Command: "ls -la"},
			InputChars: 20, InputEst: 5, UseMsg: 1, Call: 0,
			HasResult: true, ResultMsg: 3, ResultChars: 4, ResultEst: 2001, IsError: true,
		},
		{
			ID: "toolu_task", Name: "Task", InputChars: 14, InputEst: 4, UseMsg: 4, Call: 1,
			ResultMsg: -1,
		},
	}
	for i := range want {
		got := th.Tools[i]
		if i < 2 && got.ResultHash == 0 {
			t.Errorf("tool %d: no result hash", i)
		}
		got.ResultHash = 0
		if !reflect.DeepEqual(got, want[i]) {
			t.Errorf("tool %d =\n%+v, want\n%+v", i, got, want[i])
		}
	}
	if th.OrphanResults != 1 {
		t.Errorf("OrphanResults = %d, want 1", th.OrphanResults)
	}
	if len(th.Calls) != 2 || th.Calls[0].Usage.Output != 9 {
		t.Errorf("calls = %+v", th.Calls)
	}
	// The tool_use blocks stay in the message; their inputs live in Tools.
	for _, b := range th.Messages[1].Blocks {
		if b.Kind != BlockToolUse || b.Input != nil {
			t.Errorf("message block %+v", b)
		}
	}
}

func TestInlineSidechains(t *testing.T) {
	// Two 1.0.x Task agents run in parallel: their lines interleave, and only
	// the parentUuid chains tell them apart.
	s := loadString(t, `{"type":"user","uuid":"u1","parentUuid":null,"isSidechain":false,"sessionId":"s","version":"1.0.70","message":{"role":"user","content":"two agents"}}
{"type":"assistant","uuid":"a1","parentUuid":"u1","isSidechain":false,"sessionId":"s","version":"1.0.70","requestId":"r1","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Task","input":{"prompt":"A"}},{"type":"tool_use","id":"t2","name":"Task","input":{"prompt":"B"}}],"usage":{"input_tokens":1,"output_tokens":1}}}
{"type":"user","uuid":"sa1","parentUuid":null,"isSidechain":true,"sessionId":"s","version":"1.0.70","message":{"role":"user","content":"A"}}
{"type":"user","uuid":"sb1","parentUuid":null,"isSidechain":true,"sessionId":"s","version":"1.0.70","message":{"role":"user","content":"B"}}
{"type":"assistant","uuid":"sb2","parentUuid":"sb1","isSidechain":true,"sessionId":"s","version":"1.0.70","requestId":"rb1","message":{"id":"mb1","role":"assistant","content":[{"type":"text","text":"b"}],"usage":{"input_tokens":2,"output_tokens":20}}}
{"type":"assistant","uuid":"sa2","parentUuid":"sa1","isSidechain":true,"sessionId":"s","version":"1.0.70","requestId":"ra1","message":{"id":"ma1","role":"assistant","content":[{"type":"tool_use","id":"ta1","name":"Grep","input":{"pattern":"x"}}],"usage":{"input_tokens":3,"output_tokens":30}}}
{"type":"user","uuid":"sa3","parentUuid":"sa2","isSidechain":true,"sessionId":"s","version":"1.0.70","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"ta1","content":"found"}]}}
{"type":"assistant","uuid":"sb3","parentUuid":"sb2","isSidechain":true,"sessionId":"s","version":"1.0.70","requestId":"rb2","message":{"id":"mb2","role":"assistant","content":[{"type":"text","text":"b2"}],"usage":{"input_tokens":4,"output_tokens":40}}}
{"type":"assistant","uuid":"sa4","parentUuid":"sa3","isSidechain":true,"sessionId":"s","version":"1.0.70","requestId":"ra2","message":{"id":"ma2","role":"assistant","content":[{"type":"text","text":"a2"}],"usage":{"input_tokens":5,"output_tokens":50}}}
{"type":"user","uuid":"u2","parentUuid":"a1","isSidechain":false,"sessionId":"s","version":"1.0.70","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"A done"},{"type":"tool_result","tool_use_id":"t2","content":"B done"}]},"toolUseResult":{"content":[],"totalTokens":1}}
`)
	if got, want := msgLines(s.Main), []int{1, 2, 10}; !reflect.DeepEqual(got, want) {
		t.Errorf("main message lines = %v, want %v", got, want)
	}
	if len(s.Main.Tools) != 2 || !s.Main.Tools[0].HasResult || !s.Main.Tools[1].HasResult {
		t.Errorf("main tools = %+v", s.Main.Tools)
	}
	if len(s.Agents) != 2 {
		t.Fatalf("%d agent threads, want 2", len(s.Agents))
	}
	tests := []struct {
		id    string
		lines []int
		calls []Usage
	}{
		{"sidechain-1", []int{3, 6, 7, 9}, []Usage{{Input: 3, Output: 30}, {Input: 5, Output: 50}}},
		{"sidechain-2", []int{4, 5, 8}, []Usage{{Input: 2, Output: 20}, {Input: 4, Output: 40}}},
	}
	for i, tt := range tests {
		a := s.Agents[i]
		if a.Kind != KindSidechain || a.AgentID != tt.id {
			t.Errorf("agent %d: kind %s id %q, want sidechain %q", i, a.Kind, a.AgentID, tt.id)
		}
		if got := msgLines(a); !reflect.DeepEqual(got, tt.lines) {
			t.Errorf("%s message lines = %v, want %v", tt.id, got, tt.lines)
		}
		if got := usages(a); !reflect.DeepEqual(got, tt.calls) {
			t.Errorf("%s calls = %+v, want %+v", tt.id, got, tt.calls)
		}
	}
	if a := s.Agents[0]; len(a.Tools) != 1 || !a.Tools[0].HasResult || a.OrphanResults != 0 {
		t.Errorf("sidechain-1 tools = %+v, orphans %d", a.Tools, a.OrphanResults)
	}
	if len(s.Resumes) != 0 || !reflect.DeepEqual(s.SessionIDs, []string{"s"}) {
		t.Errorf("resumes %+v, session ids %q", s.Resumes, s.SessionIDs)
	}
}

func TestCompactions(t *testing.T) {
	tests := []struct {
		name       string
		transcript string
		want       []Compaction
		summaryMsg int // index of the isCompactSummary message, -1 for none
	}{
		{
			name: "2.0.76 boundary and summary",
			transcript: `{"type":"user","uuid":"u1","parentUuid":null,"version":"2.0.76","message":{"role":"user","content":"hi"}}
{"type":"assistant","uuid":"a1","parentUuid":"u1","version":"2.0.76","requestId":"r1","message":{"id":"m1","role":"assistant","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}
{"parentUuid":null,"logicalParentUuid":"a1","type":"system","subtype":"compact_boundary","content":"Conversation compacted","isMeta":false,"timestamp":"2026-01-01T10:12:48.351Z","uuid":"c1","level":"info","compactMetadata":{"trigger":"auto","preTokens":155548}}
{"parentUuid":"c1","type":"user","isCompactSummary":true,"isVisibleInTranscriptOnly":true,"uuid":"s1","message":{"role":"user","content":"Summary:\nCafé ✓"}}
{"type":"assistant","uuid":"a2","parentUuid":"s1","version":"2.0.76","requestId":"r2","message":{"id":"m2","role":"assistant","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}
`,
			// "Summary:\nCafé ✓" is 8 + 1 + 4 + 1 + 1 = 15 units, est 4.
			want: []Compaction{{
				Kind: CompactFull, Trigger: "auto", TriggerFrom: TriggerRecorded, Line: 3, Time: 1767262368351, UUID: "c1", Msg: 2, CallsBefore: 1,
				PreTokens: 155548, SummaryChars: 15, SummaryEst: 4, SummaryLine: 4,
			}},
			summaryMsg: 2,
		},
		{
			name: "2.1.146 boundary with postTokens, then re-attached files",
			transcript: `{"type":"user","uuid":"u1","parentUuid":null,"version":"2.1.146","message":{"role":"user","content":"hi"}}
{"type":"assistant","uuid":"a1","parentUuid":"u1","requestId":"r1","message":{"id":"m1","role":"assistant","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}
{"type":"assistant","uuid":"a2","parentUuid":"a1","requestId":"r2","message":{"id":"m2","role":"assistant","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}
{"parentUuid":null,"logicalParentUuid":"a2","type":"system","subtype":"compact_boundary","uuid":"c1","compactMetadata":{"trigger":"auto","preTokens":170719,"postTokens":17071,"durationMs":105411}}
{"parentUuid":"c1","type":"user","isCompactSummary":true,"isVisibleInTranscriptOnly":true,"uuid":"s1","message":{"role":"user","content":[{"type":"text","text":"0123456789"}]}}
{"parentUuid":"s1","type":"attachment","uuid":"t1","attachment":{"type":"compact_file_reference","filename":"/a"}}
`,
			want: []Compaction{{
				Kind: CompactFull, Trigger: "auto", TriggerFrom: TriggerRecorded, Line: 4, UUID: "c1", Msg: 3, CallsBefore: 2,
				PreTokens: 170719, PostTokens: 17071, DurationMs: 105411, SummaryChars: 10, SummaryEst: 3, SummaryLine: 5,
			}},
			summaryMsg: 3,
		},
		{
			name: "1.0.x summary line only",
			transcript: `{"type":"user","uuid":"u1","parentUuid":null,"version":"1.0.69","message":{"role":"user","content":"hi"}}
{"type":"assistant","uuid":"a1","parentUuid":"u1","version":"1.0.69","requestId":"r1","message":{"id":"m1","role":"assistant","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}
{"parentUuid":null,"version":"1.0.69","type":"user","message":{"role":"user","content":"This session is being continued from a previous conversation."},"isCompactSummary":true,"uuid":"s1","timestamp":"2025-08-06T16:45:18.724Z"}
{"type":"assistant","uuid":"a2","parentUuid":"s1","version":"1.0.69","requestId":"r2","message":{"id":"m2","role":"assistant","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}
`,
			// The summary is 61 characters, est 15.
			want: []Compaction{{
				Kind: CompactSummaryOnly, Line: 3, Time: 1754498718724, UUID: "s1", Msg: 2, CallsBefore: 1,
				SummaryChars: 61, SummaryEst: 15, SummaryLine: 3,
			}},
			summaryMsg: 2,
		},
		{
			name: "microcompaction",
			transcript: `{"type":"user","uuid":"u1","parentUuid":null,"version":"2.1.19","message":{"role":"user","content":"hi"}}
{"type":"assistant","uuid":"a1","parentUuid":"u1","requestId":"r1","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Read","input":{"file_path":"/f"}}],"usage":{"input_tokens":1,"output_tokens":1}}}
{"type":"user","uuid":"u2","parentUuid":"a1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"data"}]}}
{"type":"assistant","uuid":"a2","parentUuid":"u2","requestId":"r2","message":{"id":"m2","role":"assistant","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}
{"parentUuid":"a2","type":"system","subtype":"microcompact_boundary","content":"Context microcompacted","isMeta":false,"level":"info","uuid":"mc1","microcompactMetadata":{"trigger":"auto","preTokens":59492,"tokensSaved":21761,"compactedToolIds":["toolu_1","toolu_9"],"clearedAttachmentUUIDs":[]}}
{"type":"user","uuid":"u3","parentUuid":"mc1","message":{"role":"user","content":"next"}}
`,
			want: []Compaction{{
				Kind: CompactMicro, Trigger: "auto", TriggerFrom: TriggerRecorded, Line: 5, UUID: "mc1", Msg: 4, CallsBefore: 2,
				PreTokens: 59492, TokensSaved: 21761, CompactedToolIDs: []string{"toolu_1", "toolu_9"},
			}},
			summaryMsg: -1,
		},
		{
			name: "two manual compactions",
			transcript: `{"type":"user","uuid":"u1","parentUuid":null,"message":{"role":"user","content":"hi"}}
{"parentUuid":null,"type":"system","subtype":"compact_boundary","uuid":"c1","compactMetadata":{"trigger":"manual","preTokens":100448,"postTokens":9024,"durationMs":44459}}
{"parentUuid":"c1","type":"user","isCompactSummary":true,"uuid":"s1","message":{"role":"user","content":"abcd"}}
{"type":"assistant","uuid":"a1","parentUuid":"s1","message":{"id":"m1","role":"assistant","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}
{"parentUuid":null,"type":"system","subtype":"compact_boundary","uuid":"c2","compactMetadata":{"trigger":"manual","preTokens":83885,"postTokens":11000,"durationMs":52119}}
{"parentUuid":"c2","type":"user","isCompactSummary":true,"uuid":"s2","message":{"role":"user","content":"abcdefgh"}}
`,
			want: []Compaction{
				{Kind: CompactFull, Trigger: "manual", TriggerFrom: TriggerRecorded, Continued: true, Line: 2, UUID: "c1", Msg: 1, PreTokens: 100448, PostTokens: 9024, DurationMs: 44459, SummaryChars: 4, SummaryEst: 1, SummaryLine: 3},
				{Kind: CompactFull, Trigger: "manual", TriggerFrom: TriggerRecorded, Line: 5, UUID: "c2", Msg: 3, CallsBefore: 1, PreTokens: 83885, PostTokens: 11000, DurationMs: 52119, SummaryChars: 8, SummaryEst: 2, SummaryLine: 6},
			},
			summaryMsg: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := loadString(t, tt.transcript)
			got := s.Main.Compactions
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("compactions =\n%+v, want\n%+v", got, tt.want)
			}
			for i, m := range s.Main.Messages {
				if m.CompactSummary && i < tt.summaryMsg || i == tt.summaryMsg && !m.CompactSummary {
					t.Errorf("message %d (line %d): CompactSummary = %v", i, m.Line, m.CompactSummary)
				}
			}
		})
	}
}

func TestResume(t *testing.T) {
	s := loadString(t, `{"type":"summary","summary":"Earlier work","leafUuid":"elsewhere"}
{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"S1","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"hi"}}
{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"S1","requestId":"r1","message":{"id":"m1","role":"assistant","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}
{"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"S2","timestamp":"2026-01-02T00:00:00.000Z","message":{"role":"user","content":"again"}}
{"type":"assistant","uuid":"a2","parentUuid":"u2","sessionId":"S2","requestId":"r2","message":{"id":"m2","role":"assistant","content":[],"usage":{"input_tokens":2,"output_tokens":2}}}
{"type":"queue-operation","operation":"enqueue","sessionId":"S2"}
{"type":"user","uuid":"u3","parentUuid":"a2","sessionId":"S3","message":{"role":"user","content":"third"}}
`)
	if want := []string{"S1", "S2", "S3"}; !reflect.DeepEqual(s.SessionIDs, want) {
		t.Errorf("SessionIDs = %q, want %q", s.SessionIDs, want)
	}
	want := []Resume{
		{SessionID: "S2", Line: 4, Time: 1767312000000, Msg: 2, Calls: 1},
		{SessionID: "S3", Line: 7, Msg: 4, Calls: 2},
	}
	if !reflect.DeepEqual(s.Resumes, want) {
		t.Errorf("Resumes = %+v, want %+v", s.Resumes, want)
	}
	if s.Main.Calls[1].SessionID != "S2" || s.Main.Messages[2].SessionID != "S2" {
		t.Errorf("second call/message not tagged S2: %+v", s.Main.Calls[1])
	}
}

func TestReplayedLines(t *testing.T) {
	const u1 = `{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"S1","message":{"role":"user","content":"hi"}}`
	const a1 = `{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"S1","requestId":"r1","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"x"}],"usage":{"input_tokens":10,"cache_read_input_tokens":100,"output_tokens":5}}}`
	s := loadString(t, u1+"\n"+a1+"\n"+u1+"\n"+a1+"\n"+
		`{"type":"assistant","uuid":"a2","parentUuid":"a1","sessionId":"S1","requestId":"r2","message":{"id":"m2","role":"assistant","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}`+"\n")
	if s.ReplayedLines != 2 {
		t.Errorf("ReplayedLines = %d, want 2", s.ReplayedLines)
	}
	if got, want := msgLines(s.Main), []int{1, 2, 5}; !reflect.DeepEqual(got, want) {
		t.Errorf("message lines = %v, want %v", got, want)
	}
	if got, want := sessionTokens(s), (tokens{Input: 11, Output: 6, CacheRead: 100}); got != want {
		t.Errorf("tokens = %+v, want %+v", got, want)
	}
	if n := len(s.Main.Messages[1].Blocks); n != 1 {
		t.Errorf("replayed line added blocks: %d, want 1", n)
	}
}

// TestAsideAgent: a /btw aside file replays parent lines, some with the
// parent's uuids (skipped) and some as new lines of an already counted
// response (Duplicate). The parent's copy is the one counted.
func TestAsideAgent(t *testing.T) {
	const sid = "11111111-2222-3333-4444-555555555555"
	const u1 = `{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"` + sid + `","version":"2.1.97","message":{"role":"user","content":"what's up"}}`
	const a1 = `{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"` + sid + `","version":"2.1.97","requestId":"r1","message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"hi"}],"usage":{"input_tokens":3,"cache_creation_input_tokens":1000,"output_tokens":50}}}`
	dir := writeTree(t, map[string]string{
		"proj/" + sid + ".jsonl": u1 + "\n" + a1 + "\n" +
			`{"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"` + sid + `","version":"2.1.97","message":{"role":"user","content":"continue"}}` + "\n" +
			`{"type":"assistant","uuid":"a2","parentUuid":"u2","sessionId":"` + sid + `","version":"2.1.97","requestId":"r2","message":{"id":"m2","role":"assistant","model":"claude-opus-4-6","content":[],"usage":{"input_tokens":1,"cache_creation_input_tokens":10,"cache_read_input_tokens":1000,"output_tokens":20}}}` + "\n",
		"proj/" + sid + "/subagents/agent-aside_question-0123456789abcdef.jsonl": u1 + "\n" + a1 + "\n" +
			`{"type":"assistant","uuid":"a2-copy","parentUuid":"a1","isSidechain":true,"agentId":"aside_question-0123456789abcdef","sessionId":"` + sid + `","version":"2.1.97","requestId":"r2","message":{"id":"m2","role":"assistant","model":"claude-opus-4-6","content":[],"usage":{"input_tokens":1,"cache_creation_input_tokens":10,"cache_read_input_tokens":1000,"output_tokens":20}}}` + "\n" +
			`{"type":"user","uuid":"x1","parentUuid":"a2-copy","isSidechain":true,"agentId":"aside_question-0123456789abcdef","sessionId":"` + sid + `","message":{"role":"user","content":"btw: what is X?"}}` + "\n" +
			`{"type":"assistant","uuid":"x2","parentUuid":"x1","isSidechain":true,"agentId":"aside_question-0123456789abcdef","sessionId":"` + sid + `","version":"2.1.97","requestId":"rx","message":{"id":"mx","role":"assistant","model":"claude-opus-4-6","content":[],"usage":{"input_tokens":5,"cache_read_input_tokens":1000,"output_tokens":30}}}` + "\n",
	})
	srcs, errs := Discover([]string{dir})
	if len(errs) != 0 || len(srcs) != 1 || len(srcs[0].Agents) != 1 {
		t.Fatalf("Discover = %+v, %v", srcs, errs)
	}
	s, err := Load(srcs[0], Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.ReplayedLines != 2 {
		t.Errorf("ReplayedLines = %d, want 2", s.ReplayedLines)
	}
	if len(s.Agents) != 1 {
		t.Fatalf("%d agents", len(s.Agents))
	}
	a := s.Agents[0]
	if a.Kind != KindAside || a.AgentID != "aside_question-0123456789abcdef" {
		t.Errorf("aside thread kind %s id %q", a.Kind, a.AgentID)
	}
	var dup []bool
	for _, c := range a.Calls {
		dup = append(dup, c.Duplicate)
	}
	if want := []bool{true, false}; !reflect.DeepEqual(dup, want) {
		t.Errorf("aside calls' Duplicate = %v, want %v", dup, want)
	}
	for _, c := range s.Main.Calls {
		if c.Duplicate {
			t.Errorf("main call %s marked Duplicate", c.Key())
		}
	}
	// m1 + m2 from the main file, mx from the aside file.
	want := tokens{Input: 3 + 1 + 5, Output: 50 + 20 + 30, CacheWrite: 1000 + 10, CacheRead: 1000 + 1000}
	if got := sessionTokens(s); got != want {
		t.Errorf("tokens = %+v, want %+v", got, want)
	}
	if want := []string{sid}; !reflect.DeepEqual(s.SessionIDs, want) || len(s.Resumes) != 0 {
		t.Errorf("SessionIDs %q, Resumes %+v: agent lines must not count as resumes", s.SessionIDs, s.Resumes)
	}
}

func TestAgentFiles(t *testing.T) {
	const sid = "aaaaaaaa-0000-0000-0000-000000000001"
	line := func(fields string) string {
		return `{"sessionId":"` + sid + `","version":"2.1.41",` + fields + "}\n"
	}
	dir := writeTree(t, map[string]string{
		"p/" + sid + ".jsonl": line(`"type":"user","uuid":"u1","parentUuid":null,"message":{"role":"user","content":"explore"}`) +
			line(`"type":"assistant","uuid":"a1","parentUuid":"u1","requestId":"r1","message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"toolu_task","name":"Task","input":{"prompt":"look"}}],"usage":{"input_tokens":1,"output_tokens":1}}`) +
			line(`"type":"user","uuid":"u2","parentUuid":"a1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_task","content":"found it"}]},"toolUseResult":{"status":"completed","agentId":"a1b2c3d","content":[]}`),
		"p/" + sid + "/subagents/agent-a1b2c3d.jsonl": line(`"type":"user","uuid":"g1","parentUuid":null,"isSidechain":true,"agentId":"a1b2c3d","message":{"role":"user","content":"look"}`) +
			line(`"type":"assistant","uuid":"g2","parentUuid":"g1","isSidechain":true,"agentId":"a1b2c3d","requestId":"rg","message":{"id":"mg","role":"assistant","model":"claude-haiku-4-5-20251001","content":[],"usage":{"input_tokens":9,"output_tokens":9}}`),
		"p/" + sid + "/subagents/agent-acompact-30e1f5.jsonl":           line(`"type":"assistant","uuid":"k1","parentUuid":"a1","isSidechain":true,"agentId":"acompact-30e1f5","requestId":"rk","message":{"id":"mk","role":"assistant","content":[],"usage":{"input_tokens":2,"output_tokens":2}}`),
		"p/" + sid + "/subagents/agent-aprompt_suggestion-abc123.jsonl": line(`"type":"assistant","uuid":"q1","parentUuid":"a1","isSidechain":true,"agentId":"aprompt_suggestion-abc123","requestId":"rq","message":{"id":"mq","role":"assistant","content":[],"usage":{"input_tokens":3,"output_tokens":3}}`),
	})
	srcs, errs := Discover([]string{dir})
	if len(errs) != 0 || len(srcs) != 1 {
		t.Fatalf("Discover = %+v, %v", srcs, errs)
	}
	s, err := Load(srcs[0], Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != sid || s.Project != "p" {
		t.Errorf("ID, Project = %q, %q", s.ID, s.Project)
	}
	want := []struct {
		id, parent string
		kind       ThreadKind
	}{
		{"a1b2c3d", "toolu_task", KindAgent},
		{"acompact-30e1f5", "", KindCompact},
		{"aprompt_suggestion-abc123", "", KindSuggest},
	}
	if len(s.Agents) != len(want) {
		t.Fatalf("%d agents, want %d", len(s.Agents), len(want))
	}
	for i, w := range want {
		a := s.Agents[i]
		if a.AgentID != w.id || a.ParentTool != w.parent || a.Kind != w.kind || len(a.Calls) != 1 || a.Calls[0].Duplicate {
			t.Errorf("agent %d = {%q %q %s, %d calls}, want %+v", i, a.AgentID, a.ParentTool, a.Kind, len(a.Calls), w)
		}
	}
	if s.Main.Tools[0].AgentID != "a1b2c3d" {
		t.Errorf("Task tool AgentID = %q", s.Main.Tools[0].AgentID)
	}
	if want := []string{"claude-haiku-4-5-20251001", "claude-opus-4-6"}; !reflect.DeepEqual(s.Models, want) {
		t.Errorf("Models = %q, want %q", s.Models, want)
	}
	if got, want := sessionTokens(s), (tokens{Input: 1 + 9 + 2 + 3, Output: 1 + 9 + 2 + 3}); got != want {
		t.Errorf("tokens = %+v, want %+v", got, want)
	}
}

// TestSideRequests: an away_summary system line is a side request on the
// thread, placed after the calls before it; it adds no message or call.
func TestSideRequests(t *testing.T) {
	s := loadString(t, `{"type":"user","uuid":"u1","parentUuid":null,"version":"2.1.119","message":{"role":"user","content":"hi"}}
{"type":"assistant","uuid":"a1","parentUuid":"u1","requestId":"r1","timestamp":"2026-04-28T13:14:50.000Z","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"done"}],"usage":{"input_tokens":1,"output_tokens":1}}}
{"parentUuid":"a1","isSidechain":false,"type":"system","subtype":"away_summary","content":"Building a thing. (disable recaps in /config)","timestamp":"2026-04-28T13:44:24.160Z","uuid":"w1","isMeta":false}
{"type":"user","uuid":"u2","parentUuid":"w1","timestamp":"2026-04-28T14:40:13.000Z","message":{"role":"user","content":"continue"}}
`)
	want := []SideRequest{{Kind: "away_summary", Line: 3, Time: 1777383864160, CallsBefore: 1}}
	if !reflect.DeepEqual(s.Main.SideRequests, want) {
		t.Errorf("SideRequests = %+v, want %+v", s.Main.SideRequests, want)
	}
	if len(s.Main.Messages) != 3 || len(s.Main.Calls) != 1 {
		t.Errorf("%d messages, %d calls; want 3 and 1", len(s.Main.Messages), len(s.Main.Calls))
	}
}

// TestToolRunTimes: a tool's recorded run time (toolUseResult
// totalDurationMs, durationMs, durationSeconds) is read onto its ToolCall,
// and a call's Clock is at least the issuing call's Clock plus it. Where
// the timestamps already show the time passing, Clock is Time.
func TestToolRunTimes(t *testing.T) {
	call := func(n int, at, tool string) string {
		ts := ""
		if at != "" {
			ts = `,"timestamp":"2026-01-01T10:` + at + `Z"`
		}
		content := `[{"type":"text","text":"ok"}]`
		if tool != "" {
			content = `[{"type":"tool_use","id":"` + tool + `","name":"Task","input":{}}]`
		}
		id := strconv.Itoa(n)
		return `{"type":"assistant","uuid":"a` + id + `","requestId":"r` + id + `"` + ts + `,"message":{"id":"m` + id + `","role":"assistant","model":"claude-opus-4-5","content":` + content + `,"usage":{"input_tokens":1,"output_tokens":1}}}` + "\n"
	}
	result := func(tool, toolUseResult string) string {
		return `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"` + tool + `","content":"done"}]},"toolUseResult":` + toolUseResult + "}\n"
	}
	s := loadString(t, ""+
		call(1, "00:00.000", "t1")+
		result("t1", `{"totalDurationMs":400000,"agentId":"x"}`)+
		call(2, "00:00.000", "t2")+ // the clock stopped: 400 s ahead
		result("t2", `{"durationSeconds":1.5}`)+
		call(3, "00:00.000", "t3")+ // 401.5 s ahead
		result("t3", `{"durationMs":"soon"}`)+
		call(4, "00:00.000", "t4")+ // still ahead: the clock never goes back
		result("t4", `{"durationMs":90000}`)+
		call(5, "20:00.000", "t5")+ // the timestamps have passed it
		result("t5", `{"durationMs":-5}`)+
		call(6, "", "")) // no timestamp: none
	wantDur := []int64{400_000, 1_500, 0, 90_000, 0}
	for i, tc := range s.Main.Tools {
		if tc.Duration != wantDur[i] {
			t.Errorf("tool %s: Duration %d, want %d", tc.ID, tc.Duration, wantDur[i])
		}
	}
	t0 := s.Main.Calls[0].Time
	wantAhead := []int64{0, 400_000, 401_500, 401_500, 0}
	for i, want := range wantAhead {
		c := s.Main.Calls[i]
		if c.Clock-c.Time != want {
			t.Errorf("call %d: Clock %d ms ahead of Time, want %d", i+1, c.Clock-c.Time, want)
		}
	}
	if c := s.Main.Calls[4]; c.Time != t0+20*60_000 || c.Clock != c.Time {
		t.Errorf("call 5: Time %d, Clock %d; want %d both", c.Time, c.Clock, t0+20*60_000)
	}
	if c := s.Main.Calls[5]; c.Time != 0 || c.Clock != 0 {
		t.Errorf("call 6: Time %d, Clock %d; want 0", c.Time, c.Clock)
	}
}

// TestMarkRestarts: the first call stamped later than a stretch of calls
// that share one timestamp (a resumed conversation's copied history)
// begins a new process; nothing else does.
func TestMarkRestarts(t *testing.T) {
	const t0 = 1_700_000_000_000
	for _, c := range []struct {
		name  string
		times []int64
		want  []int // the calls marked, from 0
	}{
		{"copied, then new", []int64{t0, t0, t0, t0 + 245_000, t0 + 250_000}, []int{3}},
		{"copied to the end", []int64{t0, t0, t0}, nil},
		{"each its own time", []int64{t0, t0 + 1, t0 + 2}, nil},
		{"a stretch of two", []int64{t0, t0 + 5, t0 + 5, t0 + 9}, []int{3}},
		{"no timestamps", []int64{0, 0, 5}, nil},
		{"a later shared stamp", []int64{t0, t0 + 9, t0 + 9}, nil},
	} {
		th := &Thread{}
		for _, tm := range c.times {
			th.Calls = append(th.Calls, Call{Time: tm})
		}
		th.markRestarts()
		var got []int
		for i := range th.Calls {
			if th.Calls[i].Restart {
				got = append(got, i)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: restarts at %v, want %v", c.name, got, c.want)
		}
	}
}

// TestMarkSkillChanges: the second call sent after a response that wrote
// a skill's SKILL.md, in a user's or a project's .claude/skills, is
// marked; a call not sent does not count, and other files, other tools
// and failed writes mark nothing.
func TestMarkSkillChanges(t *testing.T) {
	const skill = "/home/u/.claude/skills/vue/SKILL.md"
	for _, c := range []struct {
		name   string
		tool   ToolCall
		unsent int   // a call not sent, -1 for none
		want   []int // the calls marked, from 0
	}{
		{"write", ToolCall{Name: "Write", Input: ToolInput{FilePath: skill}, HasResult: true}, -1, []int{3}},
		{"edit in a project", ToolCall{Name: "Edit", Input: ToolInput{FilePath: "/repo/.claude/skills/x/SKILL.md"}, HasResult: true}, -1, []int{3}},
		{"multi-edit, Windows", ToolCall{Name: "MultiEdit", Input: ToolInput{FilePath: `C:\Users\u\.claude\skills\x\SKILL.md`}, HasResult: true}, -1, []int{3}},
		{"Zed's adapter", ToolCall{Name: "mcp__acp__Write", Input: ToolInput{FilePath: skill}, HasResult: true}, -1, []int{3}},
		{"a call not sent between", ToolCall{Name: "Write", Input: ToolInput{FilePath: skill}, HasResult: true}, 2, []int{4}},
		{"read", ToolCall{Name: "Read", Input: ToolInput{FilePath: skill}, HasResult: true}, -1, nil},
		{"failed", ToolCall{Name: "Write", Input: ToolInput{FilePath: skill}, HasResult: true, IsError: true}, -1, nil},
		{"no result", ToolCall{Name: "Write", Input: ToolInput{FilePath: skill}}, -1, nil},
		{"no call", ToolCall{Name: "Write", Input: ToolInput{FilePath: skill}, HasResult: true, Call: -1}, -1, nil},
		{"another file in the skill", ToolCall{Name: "Write", Input: ToolInput{FilePath: "/home/u/.claude/skills/vue/ref.md"}, HasResult: true}, -1, nil},
		{"a repository's skills", ToolCall{Name: "Write", Input: ToolInput{FilePath: "/repo/skills/x/SKILL.md"}, HasResult: true}, -1, nil},
	} {
		th := &Thread{Calls: make([]Call, 6)}
		if c.unsent >= 0 {
			th.Calls[c.unsent].Synthetic = true
		}
		if c.tool.Call == 0 {
			c.tool.Call = 1
		}
		th.Tools = []ToolCall{c.tool}
		th.markSkillChanges()
		var got []int
		for i := range th.Calls {
			if th.Calls[i].SkillsChanged {
				got = append(got, i)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: marked %v, want %v", c.name, got, c.want)
		}
	}
}

// TestTyped: only a prompt the user typed begins a turn.
func TestTyped(t *testing.T) {
	text := func(s string) Block { return Block{Kind: BlockText, Text: s} }
	for _, c := range []struct {
		name string
		m    Message
		want bool
	}{
		{"typed", Message{Role: RoleUser, Blocks: []Block{text("fix it")}}, true},
		{"typed with an image", Message{Role: RoleUser, Blocks: []Block{text("this"), {Kind: BlockImage}}}, true},
		{"tool result", Message{Role: RoleUser, Blocks: []Block{{Kind: BlockToolResult}}}, false},
		{"tool result and text", Message{Role: RoleUser, Blocks: []Block{{Kind: BlockToolResult}, text("note")}}, false},
		{"meta", Message{Role: RoleUser, Meta: true, Blocks: []Block{text("Caveat")}}, false},
		{"compaction summary", Message{Role: RoleUser, CompactSummary: true, Blocks: []Block{text("This session is being continued")}}, false},
		{"interruption", Message{Role: RoleUser, Blocks: []Block{text("[Request interrupted by user]")}}, false},
		{"no text", Message{Role: RoleUser}, false},
		{"assistant", Message{Role: RoleAssistant, Blocks: []Block{text("done")}}, false},
	} {
		if got := c.m.Typed(); got != c.want {
			t.Errorf("%s: Typed() = %v", c.name, got)
		}
	}
}

func TestHasThinking(t *testing.T) {
	for _, c := range []struct {
		blocks []Block
		want   bool
	}{
		{nil, false},
		{[]Block{{Kind: BlockText}, {Kind: BlockToolUse}}, false},
		{[]Block{{Kind: BlockText}, {Kind: BlockThinking}}, true},
	} {
		m := Message{Role: RoleAssistant, Blocks: c.blocks}
		if got := m.HasThinking(); got != c.want {
			t.Errorf("%v: HasThinking = %v, want %v", c.blocks, got, c.want)
		}
	}
}

func TestPromptBudget(t *testing.T) {
	text := func(s string) Block { return Block{Kind: BlockText, Text: s} }
	for _, c := range []struct {
		name string
		m    Message
		want int64
		ok   bool
	}{
		{"typed", Message{Role: RoleUser, Blocks: []Block{text("ultrathink: why")}}, 31_999, true},
		{"typed without keyword", Message{Role: RoleUser, Blocks: []Block{text("git push")}}, 0, true},
		{"strongest block", Message{Role: RoleUser, Blocks: []Block{text("think hard"), text("think"), {Kind: BlockImage}}}, 10_000, true},
		// A phrase does not run on from one block into the next.
		{"phrase across blocks", Message{Role: RoleUser, Blocks: []Block{text("think"), text("harder")}}, 4_000, true},
		{"meta", Message{Role: RoleUser, Meta: true, Blocks: []Block{text("ultrathink")}}, 0, false},
		{"summary", Message{Role: RoleUser, CompactSummary: true, Blocks: []Block{text("think")}}, 0, false},
		{"tool result", Message{Role: RoleUser, Blocks: []Block{{Kind: BlockToolResult}, text("think")}}, 0, false},
		{"interrupted", Message{Role: RoleUser, Blocks: []Block{text("[Request interrupted by user]")}}, 0, false},
		{"assistant", Message{Role: RoleAssistant, Blocks: []Block{text("think")}}, 0, false},
		{"image only", Message{Role: RoleUser, Blocks: []Block{{Kind: BlockImage}}}, 0, false},
	} {
		got, ok := c.m.PromptBudget()
		if got != c.want || ok != c.ok {
			t.Errorf("%s: %d, %v; want %d, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

// A thread continues a conversation when a full compaction comes before
// its first sent call; a micro-compaction there, or a compaction after it,
// does not make it one.
func TestContinues(t *testing.T) {
	full := Compaction{Kind: CompactFull}
	micro := Compaction{Kind: CompactMicro}
	at := func(c Compaction, msg int) Compaction { c.Msg = msg; return c }
	sent := func(msg int) Call { return Call{Msg: msg} }
	for _, c := range []struct {
		name string
		th   Thread
		want bool
	}{
		{"summary first", Thread{Calls: []Call{sent(2)}, Compactions: []Compaction{at(full, 0)}}, true},
		{"summary at the call's message", Thread{Calls: []Call{sent(2)}, Compactions: []Compaction{at(full, 2)}}, true},
		{"summary after", Thread{Calls: []Call{sent(2)}, Compactions: []Compaction{at(full, 3)}}, false},
		{"micro first", Thread{Calls: []Call{sent(2)}, Compactions: []Compaction{at(micro, 0)}}, false},
		{"micro, then summary", Thread{Calls: []Call{sent(2)}, Compactions: []Compaction{at(micro, 0), at(full, 1)}}, true},
		{"synthetic call first", Thread{Calls: []Call{{Msg: 1, Synthetic: true}, sent(4)}, Compactions: []Compaction{at(full, 2)}}, true},
		{"no sent call", Thread{Calls: []Call{{Msg: 1, Synthetic: true}}, Compactions: []Compaction{at(full, 0)}}, false},
		{"no call", Thread{Compactions: []Compaction{at(full, 0)}}, false},
	} {
		if got := c.th.Continues(); got != c.want {
			t.Errorf("%s: Continues = %v, want %v", c.name, got, c.want)
		}
	}
}

// A skill written in the session changes the skill list only in a version
// that reloads the skills while a session runs (from 2.1.0).
func TestSkillListChanged(t *testing.T) {
	for _, c := range []struct {
		call Call
		want bool
	}{
		{Call{SkillsChanged: true, Version: "2.1.0"}, true},
		{Call{SkillsChanged: true, Version: "2.1.22"}, true},
		{Call{SkillsChanged: true, Version: "2.0.76"}, false},
		{Call{SkillsChanged: true}, false},
		{Call{Version: "2.1.22"}, false},
	} {
		if got := c.call.SkillListChanged(); got != c.want {
			t.Errorf("%+v: %v, want %v", c.call, got, c.want)
		}
	}
}
