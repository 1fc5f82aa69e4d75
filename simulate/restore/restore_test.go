package restore

import (
	"cmp"
	"reflect"
	"slices"
	"testing"

	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate/filestate"
	"github.com/ctxlab/ctxlab/simulate/item"
)

// file is a successful file tool's result in a test context.
func file(path string, est int, wrote bool) item.Item {
	return item.Item{Kind: item.ToolResult, Tool: "Read", Path: path, Tokens: int64(est), Est: est, File: filestate.Size{Est: est, RawEst: est}, Wrote: wrote}
}

// noteFiles gives the engine the files of items, in order, as a run that
// appends them keeps them (noteFile), or as an earlier compaction leaves
// the files it re-attached.
func noteFiles(st *Files, version string, items ...item.Item) {
	for i := range items {
		it := &items[i]
		if it.Kind == item.Restored && it.File != (filestate.Size{}) {
			st.touchFile(it.Path, it.File, it.Wrote, false)
			continue
		}
		st.Note(it, version)
	}
}

// restoreRun is restore after noteFiles of replaced and kept, on a fresh
// engine whose session started in /p (the items' message 0 records no
// directory): the re-attached items, as path/tool, and their tokens.
func restoreRun(cfg Config, version string, replaced, kept []item.Item) (names []string, tokens []int64) {
	th := &replay.Thread{Messages: []replay.Message{{}, {Cwd: "/p"}}}
	st := New(cfg, th, nil, 2)
	noteFiles(&st, version, replaced...)
	noteFiles(&st, version, kept...)
	for _, it := range st.Restore(replaced, kept, version, 0) {
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
	replaced := []item.Item{
		file("w1", 1000, true),
		file("r1", 1000, false),
		file("big", 6000, true), // over 5,000: a note takes its place
		file("w2", 3000, true),
		file("r2", 4000, false),
		file("kept", 500, false),        // read again in the kept items
		file("/p/CLAUDE.md", 100, true), // in the context anyway
		{Kind: item.Restored, Tool: "Read", Path: "old", Tokens: 2000, Est: 1000, File: filestate.Size{Est: 1000, RawEst: 1000}},
		{Kind: item.ToolUse, Tool: "TodoWrite", Tokens: 70},
		{Kind: item.ToolResult, Tool: "Read", Path: "failed", IsError: true, File: filestate.Size{Est: 10, RawEst: 10}},
	}
	kept := []item.Item{file("kept", 500, false)}
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
	long := item.Item{Kind: item.ToolResult, Tool: "Read", Path: "long", File: filestate.Size{Est: 14_000, RawEst: 12_000, Lines: 3000}}
	wide := item.Item{Kind: item.ToolResult, Tool: "Read", Path: "wide", File: filestate.Size{Est: 24_000, RawEst: 22_000, Lines: 2500}}
	// long's first 2,000 of 3,000 lines: 8,000 of text, 9,333 with the
	// line numbers; sent with 2,000 newlines escaped, 172 characters, the
	// path and the note (204 and the path): 9,333 + 596, at ratio 2.
	// wide's first 2,000 lines hold 17,600 of text, over 10,000.
	names, tokens := restoreRun(restoreCfg(50_000), "1.0.84", []item.Item{long, wide}, nil)
	if want := []string{"long/Read"}; !reflect.DeepEqual(names, want) || !reflect.DeepEqual(tokens, []int64{2 * (9333 + 596)}) {
		t.Errorf("1.0.84: %v %v, want %v [%d]", names, tokens, want, 2*(9333+596))
	}
	cfg := restoreCfg(50_000)
	cfg.RestoreFileTokensOld = -1
	if names, _ := restoreRun(cfg, "1.0.84", []item.Item{file("small", 10, false)}, nil); names != nil {
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
	replaced := []item.Item{file("c", 1200, false), file("b", 3000, false), file("a", 2000, false)}
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
	d := []item.Item{file("d", 6000, false)}
	if names, _ := restoreRun(cfg, "1.0.84", d, nil); names != nil {
		t.Errorf("1.0.84, counted: %v, want nothing", names)
	}
	cfg.RestoreEstimateFrom = "0"
	if names, tokens := restoreRun(cfg, "1.0.84", d, nil); !reflect.DeepEqual(names, []string{"d/Read"}) || !reflect.DeepEqual(tokens, []int64{12086}) {
		t.Errorf("1.0.84, by the estimate: %v %v, want [d/Read] [12086]", names, tokens)
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
		st := New(Config{}, &replay.Thread{Messages: []replay.Message{{}, {Cwd: dir}}}, nil, 0)
		for key, want := range cases {
			if got := st.memoryFile(key); got != want {
				t.Errorf("started in %s: memoryFile(%s) = %v, want %v", dir, key, got, want)
			}
		}
	}
}

// edgeTraceFile is a successful file tool's result: Est the file as Read
// shows it, raw its text alone.
func edgeTraceFile(path, tool string, est, raw int, wrote bool) item.Item {
	return item.Item{Kind: item.ToolResult, Tool: tool, Path: path, Tokens: int64(est), Est: est,
		File: filestate.Size{Est: est, RawEst: raw}, Wrote: wrote, Msg: 3}
}

// edgeTraceRestored is what a test checks of a re-attached item.
type edgeTraceRestored struct {
	Path, Tool string
	Tokens     int64
	Wrote      bool
	Msg        int
}

// Restore, at its edges: a version exactly at RestoreWrittenFrom puts
// written files first, which come back marked written (the first item
// replaced too), and one just before it takes the last touch first; both
// limits are inclusive (a file whose text is exactly the per-file limit,
// files whose shares are exactly RestoreTotalTokens, come back), and a
// file one over the limit comes back as a note (from
// RestoreReferenceFrom) while one that does not fit leaves its place
// empty; a file the kept items edited is the newest; a todo list that is
// the first item replaced comes back. Every re-attached item is simulated
// (Msg -1), sized at the trace's ratio (1 here): a file is its text and
// 43 of Claude Code's notes around it (172 characters and a path of one),
// its share of the total its text and 66 (the path twice and 261
// characters of JSON); a note is 45 (180 characters and the path), 42 of
// the total.
func TestRestoreEdges(t *testing.T) {
	todo := item.Item{Kind: item.ToolUse, Tool: "TodoWrite", Tokens: 70, Msg: 2}
	for _, c := range []struct {
		name           string
		files, total   int64 // RestoreFileTokens, RestoreTotalTokens
		version        string
		replaced, kept []item.Item
		want           []edgeTraceRestored
	}{
		{"written, at the version", 5000, 8500, "1.0.114",
			[]item.Item{edgeTraceFile("w", "Edit", 1000, 900, true), edgeTraceFile("r", "Read", 500, 450, false)}, nil,
			[]edgeTraceRestored{{"w", "Read", 1043, true, -1}, {"r", "Read", 543, false, -1}}},
		{"before the version", 5000, 8500, "1.0.113",
			[]item.Item{edgeTraceFile("w", "Edit", 1000, 900, true), edgeTraceFile("r", "Read", 500, 450, false)}, nil,
			[]edgeTraceRestored{{"r", "Read", 543, false, -1}, {"w", "Read", 1043, true, -1}}},
		// Newest first: b (its text 900: 966 of the total), then a (its
		// text exactly 1,000: 1,066): 2,032 in all, exactly the total.
		{"limits inclusive", 1000, 2032, "2.1.0",
			[]item.Item{edgeTraceFile("a", "Read", 1000, 1000, false), edgeTraceFile("b", "Read", 2000, 900, false)}, nil,
			[]edgeTraceRestored{{"b", "Read", 2043, false, -1}, {"a", "Read", 1043, false, -1}}},
		// a is one over 999: a note.
		{"over the file limit", 999, 2032, "2.1.0",
			[]item.Item{edgeTraceFile("a", "Read", 1000, 1000, false), edgeTraceFile("b", "Read", 2000, 900, false)}, nil,
			[]edgeTraceRestored{{"b", "Read", 2043, false, -1}, {"a", "compact_file_reference", 45, false, -1}}},
		{"over the total", 1000, 2031, "2.1.0",
			[]item.Item{edgeTraceFile("a", "Read", 1000, 1000, false), edgeTraceFile("b", "Read", 2000, 900, false)}, nil,
			[]edgeTraceRestored{{"b", "Read", 2043, false, -1}}},
		// Edits of a, b, c replaced; k edited in the kept items after two
		// responses: k, c, b, a.
		{"kept edit newest", 5000, 8500, "2.1.0",
			[]item.Item{edgeTraceFile("a", "Edit", 100, 100, true), edgeTraceFile("b", "Edit", 100, 100, true), edgeTraceFile("c", "Edit", 100, 100, true)},
			[]item.Item{item.Item{Kind: item.Assistant, Tokens: 10}, item.Item{Kind: item.Assistant, Tokens: 10}, edgeTraceFile("k", "Edit", 100, 100, true)},
			[]edgeTraceRestored{{"k", "Read", 143, true, -1}, {"c", "Read", 143, true, -1}, {"b", "Read", 143, true, -1}, {"a", "Read", 143, true, -1}}},
		{"todo list first", 5000, 8500, "2.1.0",
			[]item.Item{todo, edgeTraceFile("r", "Read", 500, 450, false)}, nil,
			[]edgeTraceRestored{{"r", "Read", 543, false, -1}, {"", "TodoWrite", 70, false, -1}}},
	} {
		st := New(Config{RestoreFiles: 5, RestoreFileTokens: c.files, RestoreTotalTokens: c.total,
			RestoreWrittenFrom: "1.0.114", RestoreReferenceFrom: "1.0.85"}, nil, nil, 1)
		noteFiles(&st, c.version, c.replaced...)
		noteFiles(&st, c.version, c.kept...)
		var got []edgeTraceRestored
		for _, it := range st.Restore(c.replaced, c.kept, c.version, 0) {
			if it.Kind != item.Restored {
				t.Errorf("%s: %+v is not a restored item", c.name, it)
			}
			got = append(got, edgeTraceRestored{it.Path, it.Tool, it.Tokens, it.Wrote, it.Msg})
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.want)
		}
	}
}

// The files a run follows: a result's file is keyed in its message's
// directory, after the sub-agents' touches up to its message's time
// (while the version shares them); a message out of range or undated
// applies none. The plan is the last plan file written, and a Read of it
// resizes it. A restarted process keeps nothing before RestoreSeedFrom,
// and the files last touched whole from it.
func TestFilesFollowTouches(t *testing.T) {
	size := filestate.Size{Est: 5, RawEst: 5}
	th := &replay.Thread{Messages: []replay.Message{{Cwd: "/p", Time: 100}, {Cwd: "/q", Time: 200}, {Time: 300}}}
	agents := []filestate.Touch{
		{Path: "/a/one.go", File: size, Whole: true, Time: 100}, // at message 0's time: applied with it
		{Path: "/a/two.go", File: size, Time: 200},
		{Path: "/a/three.go", File: size, Whole: true, Time: 301},
	}
	cfg := Config{SharedFilesUntil: "1.0.117", RestoreSeedFrom: "2.0.59"}
	result := func(path string, msg int, whole bool) item.Item {
		return item.Item{Kind: item.ToolResult, Tool: "Read", Path: path, Msg: msg, File: size, Whole: whole}
	}
	order := func(st *Files) []string {
		keys := make([]string, 0, len(st.files))
		for k := range st.files {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(a, b string) int { return cmp.Compare(st.files[a].touch, st.files[b].touch) })
		return keys
	}
	st := New(cfg, th, agents, 1)
	for _, it := range []item.Item{result("x.go", 0, true), result("y.go", 1, false), result("z.go", 2, true), result("w.go", 5, true), result("v.go", -1, true)} {
		st.Note(&it, "1.0.100")
	}
	if got, want := order(&st), []string{"/a/one.go", "/p/x.go", "/a/two.go", "/q/y.go", "z.go", "w.go", "v.go"}; !slices.Equal(got, want) {
		t.Errorf("files %v, want %v", got, want)
	}
	notShared := New(cfg, th, agents, 1)
	it := result("x.go", 1, true)
	notShared.Note(&it, "1.0.117")
	if got := order(&notShared); !slices.Equal(got, []string{"/q/x.go"}) {
		t.Errorf("from SharedFilesUntil: files %v, want the session's own", got)
	}
	for _, c := range []struct {
		version string
		want    []string
	}{
		{"2.0.58", []string{}},
		{"2.0.59", []string{"/a/one.go", "/p/x.go", "z.go", "w.go", "v.go"}},
		{"", []string{"/a/one.go", "/p/x.go", "z.go", "w.go", "v.go"}},
	} {
		st := New(cfg, th, agents, 1)
		for _, it := range []item.Item{result("x.go", 0, true), result("y.go", 1, false), result("z.go", 2, true), result("w.go", 5, true), result("v.go", -1, true)} {
			st.Note(&it, "1.0.100")
		}
		st.Restart(c.version)
		if got := order(&st); !slices.Equal(got, c.want) {
			t.Errorf("restarted on %q: files %v, want %v", c.version, got, c.want)
		}
	}
	plans := New(Config{}, nil, nil, 1)
	note := func(path string, wrote bool, est int) {
		it := item.Item{Kind: item.ToolResult, Tool: "Read", Path: path, Msg: -1, File: filestate.Size{Est: est, RawEst: est}, Wrote: wrote}
		plans.Note(&it, "2.1.0")
	}
	note("/h/.claude/plans/a.md", false, 10) // read, never written: not the session's plan
	if plans.plan != "" {
		t.Errorf("a plan read and not written is the plan: %q", plans.plan)
	}
	note("/h/.claude/plans/a.md", true, 20)
	note("/h/.claude/plans/b.md", false, 30) // another plan, read
	note("/h/.claude/plans/a.md", false, 40) // the plan read again: its new size
	if plans.plan != "/h/.claude/plans/a.md" || plans.planSize.Est != 40 {
		t.Errorf("plan %q of %+v, want a.md of 40", plans.plan, plans.planSize)
	}
}
