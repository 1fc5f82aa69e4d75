package summary

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/simulate/item"
)

func TestSummarizerDeterministic(t *testing.T) {
	items := []item.Item{
		{Kind: item.User, Msg: 1, Text: "please fix the parser"},
		{Kind: item.ToolUse, Tool: "Read", Path: "p.go", Msg: 2},
		{Kind: item.ToolResult, Tool: "Read", Path: "p.go", Msg: 3, IsError: true},
		{Kind: item.ToolUse, Tool: "Edit", Path: "p.go", Msg: 4},
		{Kind: item.User, Msg: 5, Text: string(make([]byte, 3000))}, // over QuoteChars: only summarised
	}
	z := DefaultSummarizer()
	a, carried := z.Summarize(items, nil, 155_000)
	text := z.Text(items, nil)
	if text != z.Text(items, nil) {
		t.Error("same input, different summary")
	}
	// 1,200 + 155,000 × 8 / 1,000 = 2,440; 1,000,000 replaced is capped at 4,500; 0 at 1,200.
	if a.Tokens != 2440 {
		t.Errorf("tokens %d, want 2440", a.Tokens)
	}
	if s, _ := z.Summarize(items, nil, 1_000_000); s.Tokens != 4500 {
		t.Errorf("cap: %d", s.Tokens)
	}
	if s, _ := z.Summarize(items, nil, 0); s.Tokens != 1200 {
		t.Errorf("floor: %d", s.Tokens)
	}
	for _, sec := range []string{"1. Primary Request and Intent", "2. Key Technical Concepts", "3. Files and Code Sections",
		"4. Errors and fixes:\n1 tool errors", "5. Problem Solving", "6. All user messages", "7. Pending Tasks",
		"8. Current Work", "9. Optional Next Step", "- read p.go", "- edited p.go", `"please fix the parser"`} {
		if !strings.Contains(text, sec) {
			t.Errorf("summary lacks %q:\n%s", sec, text)
		}
	}
	if !reflect.DeepEqual(a.Quoted, []int{1}) || !reflect.DeepEqual(a.Cut, []int{5}) || len(carried) != 1 {
		t.Errorf("quoted %v cut %v carried %d", a.Quoted, a.Cut, len(carried))
	}
}

// TestSummaryCarried: a message quoted in full is carried into the next
// summary, which quotes it again, first; one cut is not carried.
func TestSummaryCarried(t *testing.T) {
	z := DefaultSummarizer()
	z.QuoteChars = 10
	say := func(msg int, text string) []item.Item { return []item.Item{{Kind: item.User, Msg: msg, Text: text}} }
	_, carried := z.Summarize(say(5, `say "hi"`), nil, 1000)
	_, none := z.Summarize(say(6, "a message over ten"), nil, 1000)
	if len(carried) != 1 || carried[0].Msg() != 5 || len(none) != 0 {
		t.Fatalf("carried %v and %v, want message 5 and none", carried, none)
	}
	next, again := z.Summarize(say(7, "bye"), carried, 1000)
	if !slices.Equal(next.Quoted, []int{5, 7}) || len(again) != 2 {
		t.Errorf("quoted %v, carried %d; want [5 7], 2", next.Quoted, len(again))
	}
	if text := z.Text(say(7, "bye"), carried); !strings.Contains(text, "6. All user messages:\n- \"say \\\"hi\\\"\"\n- \"bye\"\n") {
		t.Errorf("the carried message not quoted first: %q", text)
	}
}

// The fake summary's sections: tool calls counted per tool, TodoWrite
// calls counted as todo updates, the last five tools as the current work
// (no line without tools); user messages quoted, newest first, when each
// is at most QuoteChars long and fits what is left of QuoteTotal, both
// limits inclusive; the request shown whole up to 500 characters, the
// next step up to 200.
func TestSummarySections(t *testing.T) {
	u := func(msg int, text string) item.Item { return item.Item{Kind: item.User, Msg: msg, Text: text} }
	use := func(tool, path string) item.Item { return item.Item{Kind: item.ToolUse, Tool: tool, Path: path} }
	a200, a500 := strings.Repeat("a", 200), strings.Repeat("a", 500)
	tests := []struct {
		name              string
		quoteChars, total int
		items             []item.Item
		quoted, cut       []int
		has, lacks        []string
	}{
		{"tools and todos", 2000, 16000,
			[]item.Item{u(1, "start"), use("Read", "a.go"), use("TodoWrite", ""), use("Read", "b.go"), use("TodoWrite", ""), use("Bash", ""), use("Grep", "")},
			[]int{1}, nil,
			[]string{"- Read (2 calls)\n", "- TodoWrite (2 calls)\n", "- Bash (1 calls)\n", "\n2 todo updates\n",
				"8. Current Work:\nlast tools: TodoWrite, Read, TodoWrite, Bash, Grep\n"},
			nil},
		{"no tools", 2000, 16000,
			[]item.Item{u(1, "start")},
			[]int{1}, nil,
			[]string{"\n0 todo updates\n", "8. Current Work:\n\n9. Optional Next Step:"},
			[]string{"last tools"}},
		// "hello" is exactly QuoteChars long; "hello!" is one over.
		{"a message of QuoteChars", 5, 100,
			[]item.Item{u(1, "hello"), u(2, "hello!")},
			[]int{1}, []int{2}, nil, nil},
		// Newest first: "wxyz" leaves 5 of 9, which "hello" fills
		// exactly; nothing is left for "abcd".
		{"messages filling QuoteTotal", 100, 9,
			[]item.Item{u(1, "abcd"), u(2, "hello"), u(3, "wxyz")},
			[]int{2, 3}, []int{1}, nil, nil},
		// 500 characters are the request in full; the next step cuts
		// them at 200.
		{"a 500-character request", 2000, 16000,
			[]item.Item{u(1, a500)},
			[]int{1}, nil,
			[]string{"Intent:\n" + a500 + "\n\n", "continue with: " + a200 + "…\n"}, nil},
		{"a 200-character request", 2000, 16000,
			[]item.Item{u(1, a200)},
			[]int{1}, nil,
			[]string{"Intent:\n" + a200 + "\n\n", "continue with: " + a200 + "\n"}, []string{"…"}},
		{"a 501-character request", 2000, 16000,
			[]item.Item{u(1, a500+"b")},
			[]int{1}, nil,
			[]string{"Intent:\n" + a500 + "…\n\n"}, nil},
	}
	for _, tt := range tests {
		z := DefaultSummarizer()
		z.QuoteChars, z.QuoteTotal = tt.quoteChars, tt.total
		sum, _ := z.Summarize(tt.items, nil, 0)
		text := z.Text(tt.items, nil)
		if !slices.Equal(sum.Quoted, tt.quoted) || !slices.Equal(sum.Cut, tt.cut) {
			t.Errorf("%s: quoted %v, cut %v; want %v, %v", tt.name, sum.Quoted, sum.Cut, tt.quoted, tt.cut)
		}
		for _, s := range tt.has {
			if !strings.Contains(text, s) {
				t.Errorf("%s: summary lacks %q:\n%s", tt.name, s, text)
			}
		}
		for _, s := range tt.lacks {
			if strings.Contains(text, s) {
				t.Errorf("%s: summary has %q:\n%s", tt.name, s, text)
			}
		}
	}
}

// TestSummaryWithoutUsers: a range without user messages gets an empty
// request and no next step, and quotes nothing.
func TestSummaryWithoutUsers(t *testing.T) {
	z := DefaultSummarizer()
	items := []item.Item{{Kind: item.ToolUse, Tool: "Bash"}}
	sum, carried := z.Summarize(items, nil, 0)
	text := z.Text(items, nil)
	if len(sum.Quoted)+len(sum.Cut)+len(carried) != 0 || !strings.HasPrefix(text, "1. Primary Request and Intent:\n\n\n2.") ||
		!strings.HasSuffix(text, "9. Optional Next Step:\n") {
		t.Errorf("quoted %v, cut %v, carried %d; text %q", sum.Quoted, sum.Cut, len(carried), text)
	}
}
