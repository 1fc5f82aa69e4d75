package simulate

import (
	"cmp"
	"path"
	"slices"
	"strings"

	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate/filestate"
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
	if filestate.IsPlan(key) && (it.Wrote || key == e.plan) {
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
	return filestate.Key(it.Path, cwd)
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
	if dir := *e.projectDir; dir != "" && (key == filestate.Key("CLAUDE.md", dir) || key == filestate.Key("CLAUDE.local.md", dir)) {
		return true
	}
	home, ok := strings.CutSuffix(strings.ReplaceAll(key, `\`, "/"), "/.claude/CLAUDE.md")
	if !ok {
		return false
	}
	parent, _ := path.Split(home)
	return home == "/root" || parent == "/home/" || parent == "/Users/" || len(parent) == len("C:/Users/") && parent[1] == ':' && strings.EqualFold(parent[2:], "/Users/")
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
		size, note = size.FirstLines(claudecode.ReadLineLimit.Value), claudecode.TruncatedChars.Value+len(p)
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
