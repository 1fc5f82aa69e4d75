package filestate

import (
	"fmt"
	"path"
	"testing"

	"github.com/ctxlab/ctxlab/replay"
)

// Sizes.After sizes the whole file each tool leaves, in Claude Code's
// estimate of Read's format (7 characters of line number per line).
func TestFileSizesAfter(t *testing.T) {
	fs := Sizes{}
	steps := []struct {
		name  string
		tool  replay.ToolCall
		want  Size
		wrote bool
	}{
		// A whole Read: 1,070 characters with its 10 line numbers are 1,000
		// of text; 1,070/4 and 1,000/4.
		{"read whole", replay.ToolCall{Name: "Read", Input: replay.ToolInput{FilePath: "a"}, ResultChars: 1070, File: replay.FileFacts{ReadLines: 10, TotalLines: 10}},
			Size{Est: 268, RawEst: 250, Lines: 10}, false},
		// An Edit without originalFile: the last text (1,000) with 40
		// characters replaced by 440: 1,400 and 10 lines.
		{"edit", replay.ToolCall{Name: "Edit", Input: replay.ToolInput{FilePath: "a", OldChars: 40, NewChars: 440}},
			Size{Est: 368, RawEst: 350, Lines: 10}, true},
		// A Read of 10 of 40 lines: 1,000 of text scaled to 4,000, 40 lines.
		{"partial read", replay.ToolCall{Name: "Read", Input: replay.ToolInput{FilePath: "b", Limit: 10}, ResultChars: 1070, File: replay.FileFacts{ReadLines: 10, TotalLines: 40}},
			Size{Est: 1070, RawEst: 1000, Lines: 40}, false},
		// An Edit with originalFile (2,000 characters, 20 lines): 2,000 + 100
		// − 50 = 2,050; 2,190/4 and 2,050/4, rounded as Claude Code rounds.
		{"edit original", replay.ToolCall{Name: "Edit", Input: replay.ToolInput{FilePath: "b", OldChars: 50, NewChars: 100}, File: replay.FileFacts{OriginalChars: 2000, OriginalLines: 20}},
			Size{Est: 548, RawEst: 513, Lines: 20}, true},
		// A Write: its text, 800 characters in 8 lines.
		{"write", replay.ToolCall{Name: "Write", Input: replay.ToolInput{FilePath: "c", ContentChars: 800, ContentLines: 8}},
			Size{Est: 214, RawEst: 200, Lines: 8}, true},
		// An Edit of a file nothing sized: unknown.
		{"edit unknown", replay.ToolCall{Name: "Edit", Input: replay.ToolInput{FilePath: "d", OldChars: 5, NewChars: 9}}, Size{}, true},
		// Not a file tool.
		{"bash", replay.ToolCall{Name: "Bash", Input: replay.ToolInput{FilePath: "e"}}, Size{}, false},
	}
	for _, s := range steps {
		got, wrote := fs.After(&s.tool)
		if got != s.want || wrote != s.wrote {
			t.Errorf("%s: %+v wrote %v, want %+v wrote %v", s.name, got, wrote, s.want, s.wrote)
		}
	}
}

// A file is known by its path resolved as Claude Code resolves it: against
// the working directory, with Windows' separators on a Windows path.
func TestFileKey(t *testing.T) {
	for _, c := range []struct{ path, cwd, want string }{
		{"/src/a.go", "/home/u/p", "/src/a.go"},
		{"src/../b.go", "/home/u/p", "/home/u/p/b.go"},
		{"./c.go", "", "c.go"},
		{`C:\Src\a.cs`, `C:\Src`, `C:\Src\a.cs`},
		{"C:/Src/a.cs", `C:\Src`, `C:\Src\a.cs`},
		{`AI\Dags\x.json`, `C:\Source\cloud`, `C:\Source\cloud\AI\Dags\x.json`},
		{"AI/Dags/x.json", `C:\Source\cloud`, `C:\Source\cloud\AI\Dags\x.json`},
		{`\Windows\a.txt`, `D:\work`, `D:\Windows\a.txt`},
		{`\\server\share\a.txt`, `C:\x`, `\\server\share\a.txt`},
		{"", "/p", ""},
	} {
		for range 2 { // the second from the cache of Windows keys
			if got := Key(c.path, c.cwd); got != c.want {
				t.Errorf("Key(%q, %q) = %q, want %q", c.path, c.cwd, got, c.want)
			}
		}
	}
}

// The cache of Windows keys starts again when full, and gives what it
// computed.
func TestWinKeyCache(t *testing.T) {
	var c winKeyCache
	for i := range winKeyMax + 10 {
		p := fmt.Sprintf(`dir\f%d.txt`, i)
		if got, want := c.key(p, `C:\x`), fmt.Sprintf(`C:\x\dir\f%d.txt`, i); got != want {
			t.Fatalf("key(%q) = %q, want %q", p, got, want)
		}
	}
	if len(c.m) != 10 {
		t.Errorf("%d keys kept after %d, want 10", len(c.m), winKeyMax+10)
	}
}

// A file's first n lines are its size at its average line; a file of n
// lines or fewer, or of none, is itself.
func TestFirstLines(t *testing.T) {
	s := Size{Est: 1000, RawEst: 800, Lines: 40}
	for _, c := range []struct {
		n    int
		want Size
	}{
		{10, Size{Est: 250, RawEst: 200, Lines: 10}},
		{39, Size{Est: 975, RawEst: 780, Lines: 39}},
		{40, s},
		{41, s},
	} {
		if got := s.FirstLines(c.n); got != c.want {
			t.Errorf("FirstLines(%d) = %+v, want %+v", c.n, got, c.want)
		}
	}
	if empty := (Size{Est: 7}); empty.FirstLines(3) != empty {
		t.Errorf("a file of no lines changed: %+v", empty.FirstLines(3))
	}
}

// A Write, and a Read given no offset or limit, hold the whole file.
func TestWhole(t *testing.T) {
	for _, c := range []struct {
		tool replay.ToolCall
		want bool
	}{
		{replay.ToolCall{Name: "Write"}, true},
		{replay.ToolCall{Name: "Read"}, true},
		{replay.ToolCall{Name: "Read", Input: replay.ToolInput{Offset: 5}}, false},
		{replay.ToolCall{Name: "Read", Input: replay.ToolInput{Limit: 5}}, false},
		{replay.ToolCall{Name: "Edit"}, false},
	} {
		if got := Whole(&c.tool); got != c.want {
			t.Errorf("%s %+v: whole %v, want %v", c.tool.Name, c.tool.Input, got, c.want)
		}
	}
}

// A plan is a Markdown file in the plans folder of a .claude folder,
// whatever the separators.
func TestIsPlan(t *testing.T) {
	for p, want := range map[string]bool{
		"/home/u/.claude/plans/bright-plan.md":    true,
		`C:\Users\u\.claude\plans\bright-plan.md`: true,
		"/home/u/.claude/plans/notes.txt":         false,
		"/home/u/project/plans/bright-plan.md":    false,
		"/home/u/.claude/plans.md":                false,
	} {
		if got := IsPlan(p); got != want {
			t.Errorf("IsPlan(%q) = %v, want %v", p, got, want)
		}
	}
}

// The sub-agents' files: each successful file tool's result of a Task
// sub-agent or a sidechain, keyed in its message's directory, in the order
// of their times; side requests, failed or unanswered tools, tools of no
// file and results that size nothing are left out.
func TestAgentTouches(t *testing.T) {
	read := func(path string, msg int) replay.ToolCall {
		return replay.ToolCall{Name: "Read", Input: replay.ToolInput{FilePath: path}, HasResult: true, ResultMsg: msg,
			ResultChars: 400, File: replay.FileFacts{ReadLines: 4, TotalLines: 4}}
	}
	msgs := []replay.Message{{Cwd: "/p", Time: 30}, {Cwd: "/p", Time: 10}, {Cwd: "/q", Time: 20}}
	failed := read("/p/failed.go", 0)
	failed.IsError = true
	unanswered := read("/p/unanswered.go", 0)
	unanswered.HasResult = false
	s := &replay.Session{Agents: []*replay.Thread{
		{Kind: replay.KindAgent, Messages: msgs, Tools: []replay.ToolCall{
			read("a.go", 0), failed, unanswered, read("", 0), read("/p/far.go", 7), read("/p/neg.go", -1),
			{Name: "Bash", Input: replay.ToolInput{FilePath: "/p/x"}, HasResult: true, ResultMsg: 1},
			{Name: "Write", Input: replay.ToolInput{FilePath: "w.go", ContentChars: 80, ContentLines: 2}, HasResult: true, ResultMsg: 1},
		}},
		{Kind: replay.KindCompact, Messages: msgs, Tools: []replay.ToolCall{read("/p/compact.go", 0)}},
		{Kind: replay.KindSidechain, Messages: msgs, Tools: []replay.ToolCall{read("b.go", 2)}},
	}}
	got := AgentTouches(s)
	// 400 characters less 4 line numbers of 7: 372, and 400 with them.
	readSize := Size{Est: 100, RawEst: 93, Lines: 4}
	want := []Touch{
		{Path: "/p/w.go", File: Size{Est: 24, RawEst: 20, Lines: 2}, Wrote: true, Whole: true, Time: 10},
		{Path: "/q/b.go", File: readSize, Whole: true, Time: 20},
		{Path: "/p/a.go", File: readSize, Whole: true, Time: 30},
	}
	if len(got) != len(want) {
		t.Fatalf("touches %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("touch %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestCleanSlash checks Key's quick path.Clean against path.Clean.
func TestCleanSlash(t *testing.T) {
	for _, p := range []string{"", ".", "..", "/", "//", "a", "/a", "a/", "a//b", "./a", "../a", "../..", "a/..", "a/.", "/..", "/../a",
		"a/./b", "a/../b", "/home/u/p/src/a.go", "C:/Src/a.cs", ".../a", "a/...", "a/.b/..c", "x/./", "/./", "//srv/share/a"} {
		if got, want := cleanSlash(p), path.Clean(p); got != want {
			t.Errorf("cleanSlash(%q) = %q, want %q", p, got, want)
		}
	}
}
