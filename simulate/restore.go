package simulate

import (
	"cmp"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/replay"
)

// Claude Code keeps the files a session touched (its readFileState): the
// text a Read returned, or that an Edit or Write left, each dated, under
// its resolved path. After a full compaction it empties that state and
// re-attaches the most recent of them, re-read from disk; what it re-reads
// is the state's new content. The engine follows the same state
// (engine.files): the files of the main thread's tools and of the
// sub-agents' while they share it; a restarted process starts it over.
// docs/simulation.md gives the versions and the transcripts behind each
// rule.

// fileText is the size of a file's text: JavaScript length and lines.
type fileText struct{ chars, lines int }

// fileSizes follows the text of each file a session touched.
type fileSizes map[string]fileText

// FileSize is what a compaction would re-attach of a file: Claude Code's
// estimate (length/4) of its text as Read shows it, with line numbers
// (Est), and of its text alone (RawEst), which Claude Code's per-file
// limit measures; and its lines.
type FileSize struct{ Est, RawEst, Lines int }

func (t fileText) size() FileSize {
	return FileSize{Est: replay.Estimate(t.chars + claudecode.ReadLinePrefix.Value*t.lines), RawEst: replay.Estimate(t.chars), Lines: t.lines}
}

// firstLines is the size of the file's first n lines, at its average line.
func (s FileSize) firstLines(n int) FileSize {
	if s.Lines <= n || s.Lines <= 0 {
		return s
	}
	scale := func(v int) int { return int(int64(v) * int64(n) / int64(s.Lines)) }
	return FileSize{Est: scale(s.Est), RawEst: scale(s.RawEst), Lines: n}
}

// after returns the size of the whole file a successful file tool left,
// and whether the tool wrote it: the text a Read returned, scaled to the
// whole file when it returned part of it; a Write's text; an Edit's file
// before the edit (originalFile) with the replaced text swapped, or the
// last text known when the result does not record the file (Claude Code
// edits only a file the session has read). Zero when nothing tells.
func (fs fileSizes) after(t *replay.ToolCall) (FileSize, bool) {
	path, f := t.Input.FilePath, t.File
	var text fileText
	wrote := false
	switch t.Name {
	case "Read":
		text = fileText{chars: t.ResultChars, lines: f.ReadLines}
		if f.ReadLines > 0 {
			// The result carries the line numbers; the file does not.
			text.chars = max(0, text.chars-claudecode.ReadLinePrefix.Value*f.ReadLines)
		}
		if f.ReadLines > 0 && f.TotalLines > f.ReadLines {
			text = fileText{chars: int(int64(text.chars) * int64(f.TotalLines) / int64(f.ReadLines)), lines: f.TotalLines}
		}
	case "Write":
		wrote = true
		text = fileText{chars: t.Input.ContentChars, lines: t.Input.ContentLines}
	case "Edit", "MultiEdit", "NotebookEdit":
		wrote = true
		text = fs[path]
		if f.OriginalChars > 0 {
			text = fileText{chars: f.OriginalChars, lines: f.OriginalLines}
		}
		if text.chars > 0 {
			text.chars = max(0, text.chars+t.Input.NewChars-t.Input.OldChars)
		}
	default:
		return FileSize{}, false
	}
	fs[path] = text
	return text.size(), wrote
}

// wholeText reports whether a tool's result holds the whole file as a
// restarted Claude Code rebuilds its files from history (from
// claudecode.RestoreSeed): a Read given no offset or limit, or a Write.
func wholeText(t *replay.ToolCall) bool {
	return t.Name == "Write" || t.Name == "Read" && t.Input.Offset == 0 && t.Input.Limit == 0
}

// FileTouch is a file a sub-agent's tool read or wrote, when its result
// came (Trace.AgentFiles): before claudecode.SharedFiles ends sub-agents
// share the session's files.
type FileTouch struct {
	Path         string
	File         FileSize
	Wrote, Whole bool
	Time         int64
}

// agentFiles returns the files the session's sub-agents touched, in the
// order of their results (sidechains and sub-agent files; not the side
// requests Claude Code runs on the conversation).
func agentFiles(s *replay.Session) []FileTouch {
	var out []FileTouch
	for _, th := range s.Agents {
		if th.Kind != replay.KindAgent && th.Kind != replay.KindSidechain {
			continue
		}
		sizes := fileSizes{}
		for i := range th.Tools {
			t := &th.Tools[i]
			if !t.HasResult || t.IsError || t.Input.FilePath == "" || t.ResultMsg < 0 || t.ResultMsg >= len(th.Messages) {
				continue
			}
			size, wrote := sizes.after(t)
			if size == (FileSize{}) {
				continue
			}
			m := &th.Messages[t.ResultMsg]
			out = append(out, FileTouch{Path: fileKey(t.Input.FilePath, m.Cwd), File: size, Wrote: wrote, Whole: wholeText(t), Time: m.Time})
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Time < out[b].Time })
	return out
}

// fileState is the engine's entry for a file Claude Code keeps: its size,
// when the session last touched it and last wrote it (the order of
// touches; write -1 when it never wrote it), and whether that touch held
// the whole file (wholeText).
type fileState struct {
	size         FileSize
	touch, write int64
	whole        bool
}

// touchFile records a tool's touch of a file.
func (e *engine) touchFile(path string, size FileSize, wrote, whole bool) {
	if e.files == nil {
		e.files = map[string]*fileState{}
	}
	e.fileSeq++
	f := e.files[path]
	if f == nil {
		f = &fileState{write: -1}
		e.files[path] = f
	}
	f.size, f.touch, f.whole = size, e.fileSeq, whole
	if wrote {
		f.write = e.fileSeq
	}
}

// agentFilesUntil applies the sub-agents' touches up to time t, under the
// version of the call being replayed: while claudecode.SharedFiles holds
// they are the session's files too.
func (e *engine) agentFilesUntil(t int64, version string) {
	shared := claudecode.Before(version, e.cfg.SharedFilesUntil)
	for ; e.agentNext < len(e.tr.AgentFiles) && e.tr.AgentFiles[e.agentNext].Time <= t; e.agentNext++ {
		if a := &e.tr.AgentFiles[e.agentNext]; shared {
			e.touchFile(a.Path, a.File, a.Wrote, a.Whole)
		}
	}
}

// noteFile follows Claude Code's files as an item joins the context: a
// successful file tool's result, after what the sub-agents touched
// before it.
func (e *engine) noteFile(it *Item, version string) {
	if it.Kind != KindToolResult || it.Path == "" || it.IsError || it.File == (FileSize{}) {
		return
	}
	if th := e.tr.Thread; th != nil && it.Msg >= 0 && it.Msg < len(th.Messages) && th.Messages[it.Msg].Time > 0 {
		e.agentFilesUntil(th.Messages[it.Msg].Time, version)
	}
	key := e.itemKey(it)
	e.touchFile(key, it.File, it.Wrote, it.Whole)
	if isPlan(key) && (it.Wrote || key == e.plan) {
		e.plan, e.planSize = key, it.File
	}
}

// itemKey is the key of the file an item names (fileKey), in the
// working directory of its message.
func (e *engine) itemKey(it *Item) string {
	var cwd string
	if th := e.tr.Thread; th != nil && it.Msg >= 0 && it.Msg < len(th.Messages) {
		cwd = th.Messages[it.Msg].Cwd
	}
	return fileKey(it.Path, cwd)
}

// memoryFile reports whether a file is one Claude Code leaves out of
// what it re-attaches because it puts it in the context anyway, the
// memory files: CLAUDE.md and CLAUDE.local.md in the directory the
// session started in (the first working directory its transcript
// records), and the user's own CLAUDE.md in the .claude directory of a
// home directory.
func (e *engine) memoryFile(key string) bool {
	if e.projectDir == nil {
		dir := ""
		if th := e.tr.Thread; th != nil {
			for i := range th.Messages {
				if dir = th.Messages[i].Cwd; dir != "" {
					break
				}
			}
		}
		e.projectDir = &dir
	}
	if dir := *e.projectDir; dir != "" && (key == fileKey("CLAUDE.md", dir) || key == fileKey("CLAUDE.local.md", dir)) {
		return true
	}
	home, ok := strings.CutSuffix(strings.ReplaceAll(key, `\`, "/"), "/.claude/CLAUDE.md")
	if !ok {
		return false
	}
	parent, _ := path.Split(home)
	return home == "/root" || parent == "/home/" || parent == "/Users/" || len(parent) == len("C:/Users/") && parent[1] == ':' && strings.EqualFold(parent[2:], "/Users/")
}

// fileKey is the key Claude Code keeps a file under: its path resolved
// against the working directory the tool ran in, as Node's path.resolve
// does, with backslashes on Windows (a drive letter or a backslash in the
// path or the directory). Two spellings of a file are one file.
func fileKey(p, cwd string) string {
	if p == "" {
		return ""
	}
	win := winPath(p) || winPath(cwd)
	if !win {
		if !strings.HasPrefix(p, "/") && cwd != "" {
			p = cwd + "/" + p
		}
		return cleanSlash(p)
	}
	q := strings.ReplaceAll(p, `\`, "/")
	if !(len(q) >= 2 && q[1] == ':') && !strings.HasPrefix(q, "//") && cwd != "" {
		dir := strings.ReplaceAll(cwd, `\`, "/") // only a relative path needs it
		if strings.HasPrefix(q, "/") && len(dir) >= 2 && dir[1] == ':' {
			q = dir[:2] + q // rooted on the directory's drive
		} else {
			q = dir + "/" + q
		}
	}
	unc := strings.HasPrefix(q, "//")
	q = cleanSlash(q)
	if unc {
		q = "/" + q
	}
	return strings.ReplaceAll(q, "/", `\`)
}

// cleanSlash is path.Clean(p), without its pass over every byte when p
// plainly has nothing to clean (no empty, . or .. element, no trailing
// slash), as most paths a tool names have not: fileKey runs for every
// file tool's result in every policy's run.
func cleanSlash(p string) string {
	if p == "" || p[len(p)-1] == '/' || strings.HasPrefix(p, "./") || strings.HasSuffix(p, "/.") || strings.HasSuffix(p, "/..") ||
		strings.Contains(p, "//") || strings.Contains(p, "/./") || strings.Contains(p, "/../") {
		return path.Clean(p)
	}
	return p
}

// winPath reports whether a path is a Windows one: a drive letter, or a
// backslash.
func winPath(p string) bool {
	return len(p) >= 2 && p[1] == ':' || strings.Contains(p, `\`)
}

// isPlan reports whether a path is a plan mode plan file: a Markdown file
// in the plans directory of Claude Code's own (.claude) directory. The
// session's plan is the last the session wrote; Claude Code names it
// after the session's slug, which ctxlab does not read.
func isPlan(p string) bool {
	dir, name := path.Split(strings.ReplaceAll(p, `\`, "/"))
	return strings.HasSuffix(name, ".md") && strings.HasSuffix(dir, "/.claude/plans/")
}

// restartFiles is a new Claude Code process (a resumed conversation, a
// new version): before claudecode.RestoreSeed it starts with no files;
// from it, with those the history it loads shows whole.
func (e *engine) restartFiles(version string) {
	seed := version == "" || claudecode.AtLeast(version, e.cfg.RestoreSeedFrom)
	for p, f := range e.files {
		if !seed || !f.whole {
			delete(e.files, p)
		}
	}
}

// restoreRules are the rules of restoration a Claude Code version
// follows (claudecode.RestoreWritten, RestoreReference, PlanFile).
type restoreRules struct {
	byWrite, reference, plan, counted bool
	limit                             int64 // the per-file limit, in tokens; negative: none
}

func (e *engine) restoreRules(version string) restoreRules {
	r := restoreRules{
		byWrite:   version == "" || claudecode.AtLeast(version, e.cfg.RestoreWrittenFrom),
		reference: version == "" || claudecode.AtLeast(version, e.cfg.RestoreReferenceFrom),
		plan:      version == "" || claudecode.AtLeast(version, e.cfg.PlanFileFrom),
		counted:   version != "" && claudecode.Before(version, e.cfg.RestoreEstimateFrom),
	}
	r.limit = e.cfg.RestoreFileTokens
	if !r.reference {
		r.limit = e.cfg.RestoreFileTokensOld
	}
	return r
}

// restore picks what Claude Code re-attaches after a compaction that
// replaced items and left kept in the context, for a Claude Code version:
// of the files it keeps (less the memory files, which the context holds
// anyway, and files a Read in the kept items already shows), the
// RestoreFiles newest: before claudecode.RestoreWritten those the session
// last touched, from it files a tool wrote first, by their last write.
// Each comes back whole when its text is within the version's per-file
// limit (Claude Code counts its tokens with the API; the model takes its
// estimate); over it, from claudecode.RestoreReference, as a note that
// names it, and before, as its first ReadLineLimit lines when those are
// within the limit, else not at all. The files stop at
// RestoreTotalTokens, by Claude Code's estimate of the attachments.
// Then the latest todo list of replaced, and from claudecode.PlanFile the
// plan file. Claude Code's files are then the files re-attached.
func (e *engine) restore(replaced, kept []Item, version string) []Item {
	e.agentFilesUntil(e.now, version)
	rules := e.restoreRules(version)
	plan := rules.plan && e.plan != ""
	inKept := map[string]bool{}
	for _, it := range kept {
		if it.Kind == KindToolResult && it.Tool == "Read" && it.Path != "" {
			inKept[e.itemKey(&it)] = true
		}
	}
	type file struct {
		path string
		*fileState
	}
	cand := make([]file, 0, len(e.files))
	for p, f := range e.files {
		if !inKept[p] && !e.memoryFile(p) && !(plan && p == e.plan) {
			cand = append(cand, file{p, f})
		}
	}
	slices.SortFunc(cand, func(a, b file) int {
		if rules.byWrite && a.write != b.write {
			return cmp.Compare(b.write, a.write)
		}
		if a.touch != b.touch {
			return cmp.Compare(b.touch, a.touch)
		}
		return strings.Compare(a.path, b.path)
	})
	cand = cand[:min(len(cand), max(0, e.cfg.RestoreFiles))]
	var out []Item
	next := map[string]*fileState{}
	var total int64
	for _, f := range cand {
		it, budget, ok := e.restoreFile(f.path, f.size, rules)
		if !ok || total+budget > e.cfg.RestoreTotalTokens {
			continue
		}
		total += budget
		if it.Tool == "Read" {
			it.Wrote = f.write >= 0
		}
		out = append(out, it)
		if it.Tool == "Read" {
			// Re-read from disk, not by a tool call: a restarted process
			// does not find it in the history it loads.
			next[f.path] = &fileState{size: it.File, touch: f.touch, write: f.write}
		}
	}
	e.files = next
	for j := len(replaced) - 1; j >= 0; j-- {
		if replaced[j].Kind == KindToolUse && replaced[j].Tool == "TodoWrite" {
			out = append(out, Item{Kind: KindRestored, Tokens: replaced[j].Tokens, Msg: -1, Tool: "TodoWrite", Exact: true})
			break
		}
	}
	if plan {
		// Read from disk whole, whatever its size, with no line numbers.
		est := e.planSize.RawEst + replay.Estimate(claudecode.PlanChars.Value+len(e.plan))
		out = append(out, Item{Kind: KindRestored, Tokens: e.tr.Estimate(est), Est: est, Msg: -1, Path: e.plan, Tool: "plan_file_reference", Exact: true})
	}
	return out
}

// restoreFile is what Claude Code re-attaches of a file of a size under
// rules: the item, its share of RestoreTotalTokens (Claude Code's
// estimate of the attachment's JSON: the text with each newline escaped,
// the path twice and the fields around them), and false when nothing
// comes back.
func (e *engine) restoreFile(p string, size FileSize, rules restoreRules) (Item, int64, bool) {
	// Claude Code counts a file's tokens with the API only when its
	// estimate is above a quarter of the limit (claudecode.RestoreCounted);
	// the model takes the session's tokens per unit of estimate for that
	// count, and from RestoreEstimateFrom the estimate itself, as a count
	// that fails gives there (claudecode.ReadCountFallback).
	over := func(s FileSize) bool {
		if rules.limit < 0 {
			return true
		}
		if !rules.counted {
			return int64(s.RawEst) > rules.limit
		}
		return int64(s.RawEst) > rules.limit/4 && e.tr.Estimate(s.RawEst) > rules.limit
	}
	note := 0
	if over(size) {
		if rules.reference {
			est := replay.Estimate(claudecode.ReferenceChars.Value + len(p))
			budget := int64(replay.Estimate(claudecode.ReferenceJSONChars.Value + len(p)))
			return Item{Kind: KindRestored, Tokens: e.tr.Estimate(est), Est: est, Msg: -1, Path: p, Tool: "compact_file_reference", Exact: true}, budget, true
		}
		if size.Lines <= claudecode.ReadLineLimit.Value {
			return Item{}, 0, false
		}
		size, note = size.firstLines(claudecode.ReadLineLimit.Value), claudecode.TruncatedChars.Value+len(p)
		if over(size) {
			return Item{}, 0, false
		}
	}
	budget := int64(size.RawEst) + int64(replay.Estimate(size.Lines+2*len(p)+claudecode.AttachmentJSONChars.Value))
	// Sent as Read's text (with line numbers) in a JSON string, each
	// newline escaped, in Claude Code's notes around it.
	est := size.Est + replay.Estimate(size.Lines+claudecode.RestoreWrapChars.Value+len(p)+note)
	return Item{Kind: KindRestored, Tokens: e.tr.Estimate(est), Est: est, File: size, Msg: -1, Path: p, Tool: "Read", Exact: true}, budget, true
}
