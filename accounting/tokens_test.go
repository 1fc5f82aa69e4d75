package accounting

import (
	"reflect"
	"testing"
)

// TestTokenRounding: each text piece is Math.round(length/4), length in
// UTF-16 code units of the decoded text.
func TestTokenRounding(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{
		{"a", 0},          // round(0.25) = 0
		{"ab", 1},         // round(0.5) = 1: Math.round rounds halves up
		{"abcde", 1},      // round(1.25) = 1
		{"abcdef", 2},     // round(1.5) = 2
		{"abcdefg", 2},    // round(1.75) = 2
		{"abcdefghij", 3}, // round(2.5) = 3
		{"ab🙂", 1},        // 2 + 2 UTF-16 units = 4 → 1 (6 bytes would give 2)
		{"éééééé", 2},     // 6 units → 2 (12 bytes would give 3)
		{"ab\n\n\n\n", 2}, // 6 units → 2 (10 JSON-escaped bytes would give 3)
	} {
		m := newTr("r")
		m.user(tc.text)
		tok := estimates(analyze(t, m, nil).Tokens)
		want := []TokenRow{{Category: CategoryHuman, Count: 1, Tokens: tc.want, Percent: 100}}
		if tc.want == 0 {
			want[0].Percent = 0 // 0 of 0
		}
		if tok.Total != tc.want || !reflect.DeepEqual(tok.Rows, want) {
			t.Errorf("%q: total %d, rows %+v; want %d", tc.text, tok.Total, tok.Rows, tc.want)
		}
	}
}

// TestTokenPiecesRoundedApart: two 6-character prompts are 2 + 2 = 4 tokens,
// not round(12/4) = 3.
func TestTokenPiecesRoundedApart(t *testing.T) {
	m := newTr("p")
	m.user("abcdef")
	m.user("abcdef")
	tok := estimates(analyze(t, m, nil).Tokens)
	if tok.Total != 4 || len(tok.Rows) != 1 || tok.Rows[0] != (TokenRow{Category: CategoryHuman, Count: 2, Tokens: 4, Percent: 100}) {
		t.Errorf("tokens = %+v", tok)
	}
}

func TestTokenCategories(t *testing.T) {
	m := newTr("tok")
	m.user("abcdef") // human 2
	m.user("abcdef") // human 2
	// One response on four lines.
	m.line("msg_1", "req_1", sonnet45, use{in: 1}, thinking("abcdefg"))                            // assistant 2
	m.line("msg_1", "req_1", sonnet45, use{in: 1}, text("abcde"))                                  // assistant 1
	m.line("msg_1", "req_1", sonnet45, use{in: 1}, toolUse("t1", "Read", `{"file_path":"/a.go"}`)) // 21 chars → 5
	m.line("msg_1", "req_1", sonnet45, use{in: 1}, toolUse("t2", "Bash", `{"command":"ls"}`))      // 16 chars → 4
	m.user([]any{
		result("t1", rep("x", 40)), // Read 10
		result("t2", rep("y", 10)), // Bash round(2.5) = 3
		result("t9", rep("z", 8)),  // no tool_use t9: unknown 2
	})
	m.user("<local-command-stdout>ok</local-command-stdout>") // 22+2+23 = 47 → round(11.75) = 12
	// other/image 2000, human 1, other/document: {"source":{},"type":"document"} is 31 chars → round(7.75) = 8
	m.user([]any{image(), text("look"), map[string]any{"type": "document", "source": map[string]any{}}})
	m.attachment(`{"type":"todo_reminder","content":[]}`)                        // 37 chars → round(9.25) = 9
	m.attachment(`{"type":"date_change","newDate":"2026-01-02"}`)                // 45 chars → round(11.25) = 11
	m.attachment(`{"type":"todo_reminder","content":[]}`)                        // 9 again
	m.call(sonnet45, use{in: 1}, toolUse("t3", "Read", `{"file_path":"/a.go"}`)) // 5
	m.user([]any{result("t3", []any{text(rep("w", 20)), image()})})              // 5 + 2000 = 2005
	m.boundary(`{"trigger":"auto","preTokens":1000}`, rep("s", 400))             // compact_summary 100

	a := agentTr("tok", "a1")
	a.user("abcdefgh")                                                       // human 2
	a.call(haiku45, use{in: 1}, toolUse("t4", "Grep", `{"pattern":"TODO"}`)) // 18 chars → round(4.5) = 5
	a.user([]any{result("t4", rep("q", 6))})                                 // Grep 2

	tok := estimates(analyze(t, m, map[string]*tr{"a1": a}).Tokens)
	// Total: human 2+2+1+2 = 7, assistant 2+1 = 3, tool_request Read 5+5 = 10,
	// Bash 4, Grep 5, tool_result Read 10+2005 = 2015, Bash 3, unknown 2,
	// Grep 2, local_command 12, image 2000, document 8, todo_reminder
	// 9+9 = 18, date_change 11, compact_summary 100:
	// 7+3+10+4+5+2015+3+2+2+12+2000+8+18+11+100 = 4200.
	if tok.Method != "estimate" || tok.Total != 4200 {
		t.Errorf("Method, Total = %q, %d; want estimate, 4200", tok.Method, tok.Total)
	}
	// Largest first; ties by category, then name. Percent = tokens/4200 to
	// one decimal, halves up.
	want := []TokenRow{
		{Category: CategoryToolResult, Name: "Read", Count: 2, Tokens: 2015, Percent: 48.0},       // 47.976
		{Category: CategoryOther, Name: "image", Count: 1, Tokens: 2000, Percent: 47.6},           // 47.619
		{Category: CategoryCompactSummary, Name: "", Count: 1, Tokens: 100, Percent: 2.4},         // 2.381
		{Category: CategoryAttachment, Name: "todo_reminder", Count: 2, Tokens: 18, Percent: 0.4}, // 0.429
		{Category: CategoryLocalCommand, Name: "", Count: 1, Tokens: 12, Percent: 0.3},            // 0.286
		{Category: CategoryAttachment, Name: "date_change", Count: 1, Tokens: 11, Percent: 0.3},   // 0.262
		{Category: CategoryToolRequest, Name: "Read", Count: 2, Tokens: 10, Percent: 0.2},         // 0.238
		{Category: CategoryOther, Name: "document", Count: 1, Tokens: 8, Percent: 0.2},            // 0.190
		{Category: CategoryHuman, Name: "", Count: 4, Tokens: 7, Percent: 0.2},                    // 0.167
		{Category: CategoryToolRequest, Name: "Grep", Count: 1, Tokens: 5, Percent: 0.1},          // 0.119
		{Category: CategoryToolRequest, Name: "Bash", Count: 1, Tokens: 4, Percent: 0.1},          // 0.095
		{Category: CategoryAssistant, Name: "", Count: 2, Tokens: 3, Percent: 0.1},                // 0.071; "assistant" < "tool_result"
		{Category: CategoryToolResult, Name: "Bash", Count: 1, Tokens: 3, Percent: 0.1},
		{Category: CategoryToolResult, Name: "Grep", Count: 1, Tokens: 2, Percent: 0.0}, // 0.048; "Grep" < "unknown"
		{Category: CategoryToolResult, Name: "unknown", Count: 1, Tokens: 2, Percent: 0.0},
	}
	if !reflect.DeepEqual(tok.Rows, want) {
		t.Errorf("rows:")
		rowDiff(t, tok.Rows, want)
	}
}

func TestPercent(t *testing.T) {
	for _, tc := range []struct {
		n, total int
		want     float64
	}{
		{0, 0, 0},
		{5, 5, 100},
		{1, 3, 33.3},   // 33.33
		{2, 3, 66.7},   // 66.67
		{1, 8, 12.5},   // exact
		{1, 16, 6.3},   // 6.25, half up
		{7, 80, 8.8},   // 8.75, half up
		{1, 2000, 0.1}, // 0.05, half up
		{1, 2001, 0},   // 0.0499
	} {
		if got := percent(tc.n, tc.total); got != tc.want {
			t.Errorf("percent(%d, %d) = %v, want %v", tc.n, tc.total, got, tc.want)
		}
	}
}

// estimates drops the measured sizes, which TestTokensMeasured checks, so
// these tests pin Claude Code's estimates alone.
func estimates(t Tokens) Tokens {
	t.MeasuredTotal, t.MeasuredExact, t.exact = 0, 0, 0
	rows := make([]TokenRow, len(t.Rows))
	for i, r := range t.Rows {
		r.Measured = 0
		rows[i] = r
	}
	t.Rows = rows
	return t
}

// TestTokensMeasured: the measured sizes come from the prompt growth
// between calls, split by the estimates (SizeThread).
func TestTokensMeasured(t *testing.T) {
	m := newTr("meas")
	m.user(rep("u", 40))                                                                // human, estimate 10
	m.call(sonnet45, use{in: 5, w5: 1995}, toolUse("t1", "Read", `{"file_path":"/a"}`)) // prompt 2,000; tool_use 18 chars → 5
	m.user([]any{result("t1", rep("r", 400))})                                          // Read result, estimate 100
	m.call(sonnet45, use{in: 5, read: 1995, w5: 210}, text("done"))                     // prompt 2,210
	tok := analyze(t, m, nil).Tokens
	// Call 2's prompt grew 2,210 − 2,000 = 210 over the tool_use (5) and the
	// result (100): 210 × 5/105 = 10, 210 × 100/105 = 200, both exact.
	// Ratio 210/105 = 2, so the first prompt (before any delta) is sized by
	// it: 10 × 2 = 20; the final response ("done", estimate 1) too: 2.
	// Measured total 20 + 10 + 200 + 2 = 232, of which 210 exact: 0.905.
	want := map[tokenKey]int64{
		{CategoryHuman, ""}: 20, {CategoryToolRequest, "Read"}: 10, {CategoryToolResult, "Read"}: 200, {CategoryAssistant, ""}: 2,
	}
	got := map[tokenKey]int64{}
	for _, r := range tok.Rows {
		got[tokenKey{r.Category, r.Name}] = r.Measured
	}
	if !reflect.DeepEqual(got, want) || tok.MeasuredTotal != 232 || tok.MeasuredExact != 0.905 {
		t.Errorf("measured %v, total %d, exact share %v; want %v, 232, 0.905", got, tok.MeasuredTotal, tok.MeasuredExact, want)
	}
}
