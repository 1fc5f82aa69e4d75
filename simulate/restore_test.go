package simulate

import (
	"path"
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
			FileSize{Est: 268, RawEst: 250, Lines: 10}, false},
		// An Edit without originalFile: the last text (1,000) with 40
		// characters replaced by 440: 1,400 and 10 lines.
		{"edit", replay.ToolCall{Name: "Edit", Input: replay.ToolInput{FilePath: "a", OldChars: 40, NewChars: 440}},
			FileSize{Est: 368, RawEst: 350, Lines: 10}, true},
		// A Read of 10 of 40 lines: 1,000 of text scaled to 4,000, 40 lines.
		{"partial read", replay.ToolCall{Name: "Read", Input: replay.ToolInput{FilePath: "b", Limit: 10}, ResultChars: 1070, File: replay.FileFacts{ReadLines: 10, TotalLines: 40}},
			FileSize{Est: 1070, RawEst: 1000, Lines: 40}, false},
		// An Edit with originalFile (2,000 characters, 20 lines): 2,000 + 100
		// − 50 = 2,050; 2,190/4 and 2,050/4, rounded as Claude Code rounds.
		{"edit original", replay.ToolCall{Name: "Edit", Input: replay.ToolInput{FilePath: "b", OldChars: 50, NewChars: 100}, File: replay.FileFacts{OriginalChars: 2000, OriginalLines: 20}},
			FileSize{Est: 548, RawEst: 513, Lines: 20}, true},
		// A Write: its text, 800 characters in 8 lines.
		{"write", replay.ToolCall{Name: "Write", Input: replay.ToolInput{FilePath: "c", ContentChars: 800, ContentLines: 8}},
			FileSize{Est: 214, RawEst: 200, Lines: 8}, true},
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

// noteFiles gives the engine the files of items, in order, as a run that
// appends them keeps them (noteFile), or as an earlier compaction leaves
// the files it re-attached.
func noteFiles(e *engine, version string, items ...Item) {
	for i := range items {
		it := &items[i]
		if it.Kind == KindRestored && it.File != (FileSize{}) {
			e.touchFile(it.Path, it.File, it.Wrote, false)
			continue
		}
		e.noteFile(it, version)
	}
}

// restoreRun is restore after noteFiles of replaced and kept, on a fresh
// engine whose session started in /p (the items' message 0 records no
// directory): the re-attached items, as path/tool, and their tokens.
func restoreRun(cfg Config, version string, replaced, kept []Item) (names []string, tokens []int64) {
	th := &replay.Thread{Messages: []replay.Message{{}, {Cwd: "/p"}}}
	e := &engine{tr: &Trace{Ratio: 2, Thread: th}, cfg: cfg}
	noteFiles(e, version, replaced...)
	noteFiles(e, version, kept...)
	for _, it := range e.restore(replaced, kept, version) {
		names = append(names, it.Path+"/"+it.Tool)
		tokens = append(tokens, it.Tokens)
	}
	return names, tokens
}

// restoreCfg is the configuration of the restoration tests: Claude Code's
// cut-offs, and a total small enough to stop files.
func restoreCfg(total int64) Config {
	return Config{RestoreFiles: 5, RestoreFileTokens: 5000, RestoreFileTokensOld: 10_000, RestoreTotalTokens: total,
		RestoreWrittenFrom: "1.0.114", RestoreReferenceFrom: "1.0.85", PlanFileFrom: "2.0.56", RestoreSeedFrom: "2.0.59", SharedFilesUntil: "1.0.117"}
}

// restore takes the files Claude Code keeps: from RestoreWrittenFrom
// written files first, newest first, then files read; before it, by the
// session's last touch, read or written. A file over the per-file limit
// keeps its place and comes back as a note from RestoreReferenceFrom; the
// total (the files' text and the attachment's JSON, by the estimate)
// stops files that do not fit; a Read in the kept items leaves its file
// out, and so does the project's CLAUDE.md; a file an earlier compaction
// re-attached is one of the files.
func TestRestore(t *testing.T) {
	replaced := []Item{
		file("w1", 1000, true),
		file("r1", 1000, false),
		file("big", 6000, true), // over 5,000: a note takes its place
		file("w2", 3000, true),
		file("r2", 4000, false),
		file("kept", 500, false),        // read again in the kept items
		file("/p/CLAUDE.md", 100, true), // in the context anyway
		{Kind: KindRestored, Tool: "Read", Path: "old", Tokens: 2000, Est: 1000, File: FileSize{Est: 1000, RawEst: 1000}},
		{Kind: KindToolUse, Tool: "TodoWrite", Tokens: 70},
		{Kind: KindToolResult, Tool: "Read", Path: "failed", IsError: true, File: FileSize{Est: 10, RawEst: 10}},
	}
	kept := []Item{file("kept", 500, false)}
	// A file's share of the total is its text and the JSON around it: its
	// path twice and 261 characters, 66 for a path of 2 characters (67
	// for 3). It is sent with 172 characters and its path around it: 44
	// more of the estimate, and its tokens are the estimate at the
	// trace's ratio, 2. A note is 180 characters and the path (46 for
	// big), 43 of the total.
	for _, c := range []struct {
		version string
		names   []string
		tokens  []int64
	}{
		// Written: w2, big, w1; then read: old (re-attached, last
		// touched after r2), r2. r2 does not fit in 8,500 after 3,066 +
		// 43 + 1,066 + 1,067.
		{"2.1.100", []string{"w2/Read", "big/compact_file_reference", "w1/Read", "old/Read", "/TodoWrite"}, []int64{6088, 92, 2088, 2088, 70}},
		// By the last touch: old, r2, w2, big, r1; r1 no longer fits
		// after 1,067 + 4,066 + 3,066 + 43.
		{"1.0.89", []string{"old/Read", "r2/Read", "w2/Read", "big/compact_file_reference", "/TodoWrite"}, []int64{2088, 8088, 6088, 92, 70}},
		// Up to 1.0.84 the limit is 10,000: big is within it but not
		// within the total, and nothing takes its place.
		{"1.0.84", []string{"old/Read", "r2/Read", "w2/Read", "/TodoWrite"}, []int64{2088, 8088, 6088, 70}},
	} {
		names, tokens := restoreRun(restoreCfg(8500), c.version, replaced, kept)
		if !reflect.DeepEqual(names, c.names) || !reflect.DeepEqual(tokens, c.tokens) {
			t.Errorf("%s: restored %v %v, want %v %v", c.version, names, tokens, c.names, c.tokens)
		}
	}
}

// Up to 1.0.84 a file over the limit comes back as its first 2,000 lines
// when those are within it (with Claude Code's note after them), else not
// at all; a negative limit re-attaches no file.
func TestRestoreOldLimit(t *testing.T) {
	long := Item{Kind: KindToolResult, Tool: "Read", Path: "long", File: FileSize{Est: 14_000, RawEst: 12_000, Lines: 3000}}
	wide := Item{Kind: KindToolResult, Tool: "Read", Path: "wide", File: FileSize{Est: 24_000, RawEst: 22_000, Lines: 2500}}
	// long's first 2,000 of 3,000 lines: 8,000 of text, 9,333 with the
	// line numbers; sent with 2,000 newlines escaped, 172 characters, the
	// path and the note (204 and the path): 9,333 + 596, at ratio 2.
	// wide's first 2,000 lines hold 17,600 of text, over 10,000.
	names, tokens := restoreRun(restoreCfg(50_000), "1.0.84", []Item{long, wide}, nil)
	if want := []string{"long/Read"}; !reflect.DeepEqual(names, want) || !reflect.DeepEqual(tokens, []int64{2 * (9333 + 596)}) {
		t.Errorf("1.0.84: %v %v, want %v [%d]", names, tokens, want, 2*(9333+596))
	}
	cfg := restoreCfg(50_000)
	cfg.RestoreFileTokensOld = -1
	if names, _ := restoreRun(cfg, "1.0.84", []Item{file("small", 10, false)}, nil); names != nil {
		t.Errorf("no limit: %v, want nothing", names)
	}
}

// Before RestoreEstimateFrom the per-file limit is checked on the
// file's tokens as the API counts them, which the model takes at the
// session's ratio (2 here), and only when the estimate is above a
// quarter of the limit; from it, on the estimate.
func TestRestoreCountedLimit(t *testing.T) {
	cfg := restoreCfg(50_000)
	cfg.RestoreEstimateFrom = "2.1.6"
	replaced := []Item{file("c", 1200, false), file("b", 3000, false), file("a", 2000, false)}
	// a counts 4,000, within 5,000; b 6,000, over it; c's 1,200 is not
	// above a quarter of the limit, so it is not counted. A whole file is
	// its estimate and 43 more (173 characters), at ratio 2; a note 45
	// (181 characters).
	for _, c := range []struct {
		version string
		names   []string
		tokens  []int64
	}{
		{"1.0.95", []string{"a/Read", "b/compact_file_reference", "c/Read"}, []int64{4086, 90, 2486}},
		{"2.1.6", []string{"a/Read", "b/Read", "c/Read"}, []int64{4086, 6086, 2486}},
	} {
		names, tokens := restoreRun(cfg, c.version, replaced, nil)
		if !reflect.DeepEqual(names, c.names) || !reflect.DeepEqual(tokens, c.tokens) {
			t.Errorf("%s: restored %v %v, want %v %v", c.version, names, tokens, c.names, c.tokens)
		}
	}
	// Up to 1.0.84 a file that counts 12,000, over 10,000, whose first
	// 2,000 lines are all of it, does not come back; by the estimate
	// (6,000) it would.
	d := []Item{file("d", 6000, false)}
	if names, _ := restoreRun(cfg, "1.0.84", d, nil); names != nil {
		t.Errorf("1.0.84, counted: %v, want nothing", names)
	}
	cfg.RestoreEstimateFrom = "0"
	if names, tokens := restoreRun(cfg, "1.0.84", d, nil); !reflect.DeepEqual(names, []string{"d/Read"}) || !reflect.DeepEqual(tokens, []int64{12086}) {
		t.Errorf("1.0.84, by the estimate: %v %v, want [d/Read] [12086]", names, tokens)
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
		if got := fileKey(c.path, c.cwd); got != c.want {
			t.Errorf("fileKey(%q, %q) = %q, want %q", c.path, c.cwd, got, c.want)
		}
	}
}

// The memory files Claude Code leaves out are the project's CLAUDE.md and
// CLAUDE.local.md and the user's own CLAUDE.md; any other CLAUDE.md is a
// file like another.
func TestMemoryFile(t *testing.T) {
	for dir, cases := range map[string]map[string]bool{
		"/home/u/p": {"/home/u/p/CLAUDE.md": true, "/home/u/p/CLAUDE.local.md": true, "/home/u/.claude/CLAUDE.md": true,
			"/root/.claude/CLAUDE.md": true, "/Users/u/.claude/CLAUDE.md": true,
			"/home/u/p/sub/CLAUDE.md": false, "/home/u/q/CLAUDE.md": false, "/home/u/p/.claude/CLAUDE.md": false},
		`C:\Users\u\p`: {`C:\Users\u\p\CLAUDE.md`: true, `C:\Users\u\.claude\CLAUDE.md`: true,
			`C:\Users\u\docs\.claude\enterprise\CLAUDE.md`: false, `C:\Users\u\p\docs\CLAUDE.md`: false},
	} {
		e := &engine{tr: &Trace{Thread: &replay.Thread{Messages: []replay.Message{{}, {Cwd: dir}}}}}
		for key, want := range cases {
			if got := e.memoryFile(key); got != want {
				t.Errorf("started in %s: memoryFile(%s) = %v, want %v", dir, key, got, want)
			}
		}
	}
}

// The files a run keeps follow Claude Code's: a restarted process (here a
// resumed conversation's first call) starts with none before 2.0.59 and,
// from it, with the files the history shows whole; a sub-agent's files
// are the session's before 1.0.117; a compaction leaves only the files it
// re-attached; from 2.0.56 the session's plan file comes back whole after
// the files, and is not one of them.
func TestRestoreFiles(t *testing.T) {
	whole := func(path string, est int, wrote bool) Item {
		it := file(path, est, wrote)
		it.Whole = true
		return it
	}
	part := file("part.go", 100, false) // a Read of part of the file
	plan := whole("/home/u/.claude/plans/tidy-plan.md", 300, true)
	plan.Tool = "Write"
	run := func(version string, restartAt int, agent *FileTouch, extra ...Item) [][]string {
		tr := build(
			step{0, "", []Item{user(500)}},
			step{1, "", append([]Item{whole("a.go", 100, false), part}, extra...)},
			step{2, "", []Item{user(50)}},
			step{3, "", []Item{whole("b.go", 100, false)}},
			step{4, "", []Item{asst(50)}},
			step{5, "", []Item{whole("c.go", 100, false)}},
			step{6, "", []Item{asst(50)}},
		)
		tr.Thread.Messages = make([]replay.Message, len(tr.Calls))
		for i := range tr.Calls {
			tr.Calls[i].Version = version
			tr.Thread.Messages[i].Time = tr.Calls[i].Time
		}
		if restartAt > 0 {
			tr.Calls[restartAt].Restarted = true
		}
		if agent != nil {
			tr.AgentFiles = []FileTouch{*agent}
		}
		var got [][]string
		Run(tr, policyFunc(func(s *State) {
			if s.Call == 4 || s.Call == 6 {
				s.Compact(Compaction{From: 1, To: len(s.Items), Restore: true, Label: "auto"})
				var names []string
				for _, it := range s.Items {
					if it.Kind == KindRestored {
						names = append(names, it.Path+"/"+it.Tool)
					}
				}
				got = append(got, names)
			}
		}), DefaultConfig())
		return got
	}
	agent := &FileTouch{Path: "x.go", File: FileSize{Est: 100, RawEst: 100}, Time: at(2)}
	for _, c := range []struct {
		name, version string
		restartAt     int
		agent         *FileTouch
		extra         []Item
		want          [][]string
	}{
		// Compacting at call 4, then at call 6: the second finds what
		// the first re-attached and c.go.
		{"one process", "1.0.89", 0, nil, nil,
			[][]string{{"b.go/Read", "part.go/Read", "a.go/Read"}, {"c.go/Read", "b.go/Read", "part.go/Read", "a.go/Read"}}},
		{"restarted, 1.0.89", "1.0.89", 2, nil, nil,
			[][]string{{"b.go/Read"}, {"c.go/Read", "b.go/Read"}}},
		// The whole Read of a.go is in the history; part.go's is not.
		{"restarted, 2.0.59", "2.0.59", 2, nil, nil,
			[][]string{{"b.go/Read", "a.go/Read"}, {"c.go/Read", "b.go/Read", "a.go/Read"}}},
		// The agent read x.go between a.go and b.go (before call 3).
		{"sub-agent, 1.0.115", "1.0.115", 0, agent, nil,
			[][]string{{"b.go/Read", "x.go/Read", "part.go/Read", "a.go/Read"}, {"c.go/Read", "b.go/Read", "x.go/Read", "part.go/Read", "a.go/Read"}}},
		{"sub-agent, 1.0.117", "1.0.117", 0, agent, nil,
			[][]string{{"b.go/Read", "part.go/Read", "a.go/Read"}, {"c.go/Read", "b.go/Read", "part.go/Read", "a.go/Read"}}},
		{"plan, 2.0.56", "2.0.56", 0, nil, []Item{plan},
			[][]string{{"b.go/Read", "part.go/Read", "a.go/Read", plan.Path + "/plan_file_reference"},
				{"c.go/Read", "b.go/Read", "part.go/Read", "a.go/Read", plan.Path + "/plan_file_reference"}}},
		// Before 2.0.56 a plan file is a file the session wrote, first
		// from 1.0.114.
		{"plan, 2.0.55", "2.0.55", 0, nil, []Item{plan},
			[][]string{{plan.Path + "/Read", "b.go/Read", "part.go/Read", "a.go/Read"}, {plan.Path + "/Read", "c.go/Read", "b.go/Read", "part.go/Read", "a.go/Read"}}},
	} {
		if got := run(c.version, c.restartAt, c.agent, c.extra...); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %v\nwant %v", c.name, got, c.want)
		}
	}
}

// TestCleanSlash checks fileKey's quick path.Clean against path.Clean.
func TestCleanSlash(t *testing.T) {
	for _, p := range []string{"", ".", "..", "/", "//", "a", "/a", "a/", "a//b", "./a", "../a", "../..", "a/..", "a/.", "/..", "/../a",
		"a/./b", "a/../b", "/home/u/p/src/a.go", "C:/Src/a.cs", ".../a", "a/...", "a/.b/..c", "x/./", "/./", "//srv/share/a"} {
		if got, want := cleanSlash(p), path.Clean(p); got != want {
			t.Errorf("cleanSlash(%q) = %q, want %q", p, got, want)
		}
	}
}
