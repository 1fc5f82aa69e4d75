package simulate

import (
	"reflect"
	"testing"

	"github.com/ctxlab/ctxlab/replay"
)

// fileSizes.after sizes the whole file each tool leaves, in Claude Code's
// estimate of Read's format (7 characters of line number per line).
func TestFileSizesAfter(t *testing.T) {
	fs := fileSizes{}
	steps := []struct {
		name  string
		tool  replay.ToolCall
		want  FileSize
		wrote bool
	}{
		// A whole Read: 1,070 characters with its 10 line numbers are 1,000
		// of text; 1,070/4 and 1,000/4.
		{"read whole", replay.ToolCall{Name: "Read", Input: replay.ToolInput{FilePath: "a"}, ResultChars: 1070, File: replay.FileFacts{ReadLines: 10, TotalLines: 10}},
			FileSize{Est: 268, RawEst: 250}, false},
		// An Edit without originalFile: the last text (1,000) with 40
		// characters replaced by 440: 1,400 and 10 lines.
		{"edit", replay.ToolCall{Name: "Edit", Input: replay.ToolInput{FilePath: "a", OldChars: 40, NewChars: 440}},
			FileSize{Est: 368, RawEst: 350}, true},
		// A Read of 10 of 40 lines: 1,000 of text scaled to 4,000, 40 lines.
		{"partial read", replay.ToolCall{Name: "Read", Input: replay.ToolInput{FilePath: "b", Limit: 10}, ResultChars: 1070, File: replay.FileFacts{ReadLines: 10, TotalLines: 40}},
			FileSize{Est: 1070, RawEst: 1000}, false},
		// An Edit with originalFile (2,000 characters, 20 lines): 2,000 + 100
		// − 50 = 2,050; 2,190/4 and 2,050/4, rounded as Claude Code rounds.
		{"edit original", replay.ToolCall{Name: "Edit", Input: replay.ToolInput{FilePath: "b", OldChars: 50, NewChars: 100}, File: replay.FileFacts{OriginalChars: 2000, OriginalLines: 20}},
			FileSize{Est: 548, RawEst: 513}, true},
		// A Write: its text, 800 characters in 8 lines.
		{"write", replay.ToolCall{Name: "Write", Input: replay.ToolInput{FilePath: "c", ContentChars: 800, ContentLines: 8}},
			FileSize{Est: 214, RawEst: 200}, true},
		// An Edit of a file nothing sized: unknown.
		{"edit unknown", replay.ToolCall{Name: "Edit", Input: replay.ToolInput{FilePath: "d", OldChars: 5, NewChars: 9}}, FileSize{}, true},
		// Not a file tool.
		{"bash", replay.ToolCall{Name: "Bash", Input: replay.ToolInput{FilePath: "e"}}, FileSize{}, false},
	}
	for _, s := range steps {
		got, wrote := fs.after(&s.tool)
		if got != s.want || wrote != s.wrote {
			t.Errorf("%s: %+v wrote %v, want %+v wrote %v", s.name, got, wrote, s.want, s.wrote)
		}
	}
}

// file is a successful file tool's result in a test context.
func file(path string, est int, wrote bool) Item {
	return Item{Kind: KindToolResult, Tool: "Read", Path: path, Tokens: int64(est), Est: est, File: FileSize{Est: est, RawEst: est}, Wrote: wrote}
}

// restore picks written files first, newest first, then files read; a
// file over the per-file limit keeps its place and comes back as nothing;
// the total stops files that do not fit; a Read in the kept messages
// leaves its file out; a file restored before is a file of the context.
func TestRestore(t *testing.T) {
	tr := &Trace{Ratio: 2}
	e := &engine{tr: tr, cfg: Config{RestoreFiles: 5, RestoreFileTokens: 5000, RestoreTotalTokens: 8500, RestoreWrittenFrom: "2.0.0"}}
	replaced := []Item{
		file("w1", 1000, true),
		file("r1", 1000, false),
		file("big", 6000, true), // over 5,000: its place is taken, nothing comes back
		file("w2", 3000, true),
		file("r2", 4000, false),         // written files first: sixth, not picked
		file("kept", 500, false),        // read again in the kept messages
		file("/p/CLAUDE.md", 100, true), // in the context anyway
		{Kind: KindRestored, Tool: "Read", Path: "old", Tokens: 2000, Est: 1000, File: FileSize{Est: 1000, RawEst: 1000}},
		{Kind: KindToolUse, Tool: "TodoWrite", Tokens: 70},
		{Kind: KindToolResult, Tool: "Read", Path: "failed", IsError: true, File: FileSize{Est: 10, RawEst: 10}},
	}
	kept := []Item{file("kept", 500, false)}
	got := e.restore(replaced, kept, "2.1.100")
	// Written: w2, big, w1; then read: old (restored, last touched after
	// r2), r2. Five: w2, big, w1, old, r2. big is too big; r2 does not
	// fit in 8,500 after 3,000 + 1,000 + 1,000. Tokens are the estimate
	// at the trace's ratio.
	var paths []string
	var tokens []int64
	for _, it := range got {
		paths = append(paths, it.Path+"/"+it.Tool)
		tokens = append(tokens, it.Tokens)
	}
	if want := []string{"w2/Read", "w1/Read", "old/Read", "/TodoWrite"}; !reflect.DeepEqual(paths, want) {
		t.Errorf("restored %v, want %v", paths, want)
	}
	if want := []int64{6000, 2000, 2000, 70}; !reflect.DeepEqual(tokens, want) {
		t.Errorf("tokens %v, want %v", tokens, want)
	}
	// Before RestoreWrittenFrom only files read come back, newest first:
	// old, r2, r1 (6,000 of 8,500).
	paths = nil
	for _, it := range e.restore(replaced, kept, "1.0.89") {
		paths = append(paths, it.Path)
	}
	if want := []string{"old", "r2", "r1", ""}; !reflect.DeepEqual(paths, want) {
		t.Errorf("1.0.89 restored %v, want %v", paths, want)
	}
}

// The recorded prompts show micro-compaction off when a call kept results
// the size rule would have cleared; a micro-compaction before that call,
// or a count under the warning level, shows nothing.
func TestInferMicro(t *testing.T) {
	// Call 1 appends ten 7,000-token Read results (by the estimate); the
	// size rule keeps 3 and clears down to 40,000: 70,000 − 40,000 =
	// 30,000 ≥ 20,000. Claude Code's count before call 1 is call 0's usage
	// total and the estimate appended.
	trace := func(prev int64, micro bool) []TraceCall {
		var items []Item
		for k := range 10 {
			id := string(rune('a' + k))
			items = append(items, Item{Kind: KindToolUse, Tool: "Read", ToolID: id, Est: 10, Msg: 1},
				Item{Kind: KindToolResult, Tool: "Read", ToolID: id, Est: 7000, Msg: 2})
		}
		calls := []TraceCall{
			{Index: 0, Model: "claude-sonnet-4-5", Version: "2.1.19", Usage: replay.Usage{CacheRead: prev}},
			{Index: 1, Model: "claude-sonnet-4-5", Version: "2.1.19", Usage: replay.Usage{CacheRead: prev + 70_000}, Items: items},
		}
		if micro {
			calls[1].RealMicro = &replay.Compaction{Kind: replay.CompactMicro}
		}
		return calls
	}
	// 2.1.19: warning 135,000. 65,000 + 70,000 reaches it; 64,999 + 70,000
	// does not.
	// The oldest go while the rest exceed 40,000: 70,000, 63,000, 56,000,
	// 49,000, 42,000: five, 35,000.
	want := "call 2 was sent with its tool results whole although Claude Code's count (at least 135,000 tokens) was past the 135,000-token warning level and micro-compaction would have cleared 35,000 tokens of them (by Claude Code's estimate)"
	if ev := inferMicro(trace(65_000, false)); !ev.Off || ev.Reason != want {
		t.Errorf("past the warning level, kept: %+v, want off: %q", ev, want)
	}
	if ev := inferMicro(trace(64_999, false)); ev.Off {
		t.Errorf("under the warning level: %+v, want nothing", ev)
	}
	if ev := inferMicro(trace(65_000, true)); ev.Off {
		t.Errorf("micro-compacted: %+v, want nothing", ev)
	}
}
