// Package restore follows the files Claude Code keeps during a run and
// picks what it re-attaches after a full compaction: the newest files,
// whole, cut or as a note by version, within its budgets, then the todo
// list and the plan file.
package restore

import (
	"cmp"
	"path"
	"slices"
	"strings"

	"github.com/ctxlab/ctxlab/accounting/sizing"
	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate/filestate"
	"github.com/ctxlab/ctxlab/simulate/item"
)

// Claude Code keeps the files a session touched (its readFileState): the
// text a Read returned, or that an Edit or Write left, each dated, under
// its resolved path. After a full compaction it empties that state and
// re-attaches the most recent of them, re-read from disk; what it re-reads
// is the state's new content. A run follows the same state (Files): the
// files of the main thread's tools and of the sub-agents' while they
// share it; a restarted process starts it over.
// docs/simulation.md gives the versions and the transcripts behind each
// rule.

// Config is what the restoration reads of the simulator's
// configuration: simulate.Config's fields of the same names.
type Config struct {
	RestoreFiles                                                int
	RestoreFileTokens, RestoreFileTokensOld, RestoreTotalTokens int64
	RestoreWrittenFrom, RestoreReferenceFrom, RestoreSeedFrom   string
	SharedFilesUntil, PlanFileFrom, RestoreEstimateFrom         string
}

// Files is Claude Code's state of a session's files as a run follows it.
// files are the files it keeps, seq orders their touches, and agentNext
// is the next of the sub-agents' touches (agents) to apply; plan is the
// session's plan file, the last it wrote (filestate.IsPlan), and planSize
// its size; projectDir is the directory the session started in, once
// memoryFile has looked for it. thread is the main thread, whose messages
// date the tools' results and give their directories, and ratio the
// trace's tokens per unit of Claude Code's estimate.
type Files struct {
	cfg        Config
	thread     *replay.Thread
	agents     []filestate.Touch
	ratio      float64
	files      map[string]*fileState
	seq        int64
	agentNext  int
	plan       string
	planSize   filestate.Size
	projectDir *string
}

// New returns the state of no file for a run under cfg of the main thread
// th, whose sub-agents touched agents (simulate.Trace.AgentFiles), at
// ratio tokens per unit of estimate (simulate.Trace.Ratio).
func New(cfg Config, th *replay.Thread, agents []filestate.Touch, ratio float64) Files {
	return Files{cfg: cfg, thread: th, agents: agents, ratio: ratio}
}

// estimate is est in tokens at the trace's ratio (simulate.Trace.Estimate).
func (st *Files) estimate(est int) int64 { return sizing.AtRatio(int64(est), st.ratio) }

// fileState is the entry of a file Claude Code keeps: its size,
// when the session last touched it and last wrote it (the order of
// touches; write -1 when it never wrote it), and whether that touch held
// the whole file (filestate.Whole).
type fileState struct {
	size         filestate.Size
	touch, write int64
	whole        bool
}

// touchFile records a tool's touch of a file.
func (st *Files) touchFile(path string, size filestate.Size, wrote, whole bool) {
	if st.files == nil {
		st.files = map[string]*fileState{}
	}
	st.seq++
	f := st.files[path]
	if f == nil {
		f = &fileState{write: -1}
		st.files[path] = f
	}
	f.size, f.touch, f.whole = size, st.seq, whole
	if wrote {
		f.write = st.seq
	}
}

// AgentsUntil applies the sub-agents' touches up to time t, under the
// version of the call being replayed: while claudecode.SharedFiles holds
// they are the session's files too.
func (st *Files) AgentsUntil(t int64, version string) {
	shared := claudecode.Before(version, st.cfg.SharedFilesUntil)
	for ; st.agentNext < len(st.agents) && st.agents[st.agentNext].Time <= t; st.agentNext++ {
		if a := &st.agents[st.agentNext]; shared {
			st.touchFile(a.Path, a.File, a.Wrote, a.Whole)
		}
	}
}

// Note follows Claude Code's files as an item joins the context: a
// successful file tool's result, after what the sub-agents touched
// before it.
func (st *Files) Note(it *item.Item, version string) {
	if it.Kind != item.ToolResult || it.Path == "" || it.IsError || it.File == (filestate.Size{}) {
		return
	}
	if th := st.thread; th != nil && it.Msg >= 0 && it.Msg < len(th.Messages) && th.Messages[it.Msg].Time > 0 {
		st.AgentsUntil(th.Messages[it.Msg].Time, version)
	}
	key := st.itemKey(it)
	st.touchFile(key, it.File, it.Wrote, it.Whole)
	if filestate.IsPlan(key) && (it.Wrote || key == st.plan) {
		st.plan, st.planSize = key, it.File
	}
}

// itemKey is the key of the file an item names (fileKey), in the
// working directory of its message.
func (st *Files) itemKey(it *item.Item) string {
	var cwd string
	if th := st.thread; th != nil && it.Msg >= 0 && it.Msg < len(th.Messages) {
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
func (st *Files) memoryFile(key string) bool {
	if st.projectDir == nil {
		dir := ""
		if th := st.thread; th != nil {
			for i := range th.Messages {
				if dir = th.Messages[i].Cwd; dir != "" {
					break
				}
			}
		}
		st.projectDir = &dir
	}
	if dir := *st.projectDir; dir != "" && (key == filestate.Key("CLAUDE.md", dir) || key == filestate.Key("CLAUDE.local.md", dir)) {
		return true
	}
	home, ok := strings.CutSuffix(strings.ReplaceAll(key, `\`, "/"), "/.claude/CLAUDE.md")
	if !ok {
		return false
	}
	parent, _ := path.Split(home)
	return home == "/root" || parent == "/home/" || parent == "/Users/" || len(parent) == len("C:/Users/") && parent[1] == ':' && strings.EqualFold(parent[2:], "/Users/")
}

// Restart is a new Claude Code process (a resumed conversation, a
// new version): before claudecode.RestoreSeed it starts with no files;
// from it, with those the history it loads shows whole.
func (st *Files) Restart(version string) {
	seed := version == "" || claudecode.AtLeast(version, st.cfg.RestoreSeedFrom)
	for p, f := range st.files {
		if !seed || !f.whole {
			delete(st.files, p)
		}
	}
}

// restoreRules are the rules of restoration a Claude Code version
// follows (claudecode.RestoreWritten, RestoreReference, PlanFile).
type restoreRules struct {
	byWrite, reference, plan, counted bool
	limit                             int64 // the per-file limit, in tokens; negative: none
}

func (st *Files) restoreRules(version string) restoreRules {
	r := restoreRules{
		byWrite:   version == "" || claudecode.AtLeast(version, st.cfg.RestoreWrittenFrom),
		reference: version == "" || claudecode.AtLeast(version, st.cfg.RestoreReferenceFrom),
		plan:      version == "" || claudecode.AtLeast(version, st.cfg.PlanFileFrom),
		counted:   version != "" && claudecode.Before(version, st.cfg.RestoreEstimateFrom),
	}
	r.limit = st.cfg.RestoreFileTokens
	if !r.reference {
		r.limit = st.cfg.RestoreFileTokensOld
	}
	return r
}

// Restore picks at now what Claude Code re-attaches after a compaction that
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
func (st *Files) Restore(replaced, kept []item.Item, version string, now int64) []item.Item {
	st.AgentsUntil(now, version)
	rules := st.restoreRules(version)
	plan := rules.plan && st.plan != ""
	inKept := map[string]bool{}
	for _, it := range kept {
		if it.Kind == item.ToolResult && it.Tool == "Read" && it.Path != "" {
			inKept[st.itemKey(&it)] = true
		}
	}
	type file struct {
		path string
		*fileState
	}
	cand := make([]file, 0, len(st.files))
	for p, f := range st.files {
		if !inKept[p] && !st.memoryFile(p) && !(plan && p == st.plan) {
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
	cand = cand[:min(len(cand), max(0, st.cfg.RestoreFiles))]
	var out []item.Item
	next := map[string]*fileState{}
	var total int64
	for _, f := range cand {
		it, budget, ok := st.restoreFile(f.path, f.size, rules)
		if !ok || total+budget > st.cfg.RestoreTotalTokens {
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
	st.files = next
	for j := len(replaced) - 1; j >= 0; j-- {
		if replaced[j].Kind == item.ToolUse && replaced[j].Tool == "TodoWrite" {
			out = append(out, item.Item{Kind: item.Restored, Tokens: replaced[j].Tokens, Msg: -1, Tool: "TodoWrite", Exact: true})
			break
		}
	}
	if plan {
		// Read from disk whole, whatever its size, with no line numbers.
		est := st.planSize.RawEst + replay.Estimate(claudecode.PlanChars.Value+len(st.plan))
		out = append(out, item.Item{Kind: item.Restored, Tokens: st.estimate(est), Est: est, Msg: -1, Path: st.plan, Tool: "plan_file_reference", Exact: true})
	}
	return out
}

// restoreFile is what Claude Code re-attaches of a file of a size under
// rules: the item, its share of RestoreTotalTokens (Claude Code's
// estimate of the attachment's JSON: the text with each newline escaped,
// the path twice and the fields around them), and false when nothing
// comes back.
func (st *Files) restoreFile(p string, size filestate.Size, rules restoreRules) (item.Item, int64, bool) {
	// Claude Code counts a file's tokens with the API only when its
	// estimate is above a quarter of the limit (claudecode.RestoreCounted);
	// the model takes the session's tokens per unit of estimate for that
	// count, and from RestoreEstimateFrom the estimate itself, as a count
	// that fails gives there (claudecode.ReadCountFallback).
	over := func(s filestate.Size) bool {
		if rules.limit < 0 {
			return true
		}
		if !rules.counted {
			return int64(s.RawEst) > rules.limit
		}
		return int64(s.RawEst) > rules.limit/4 && st.estimate(s.RawEst) > rules.limit
	}
	note := 0
	if over(size) {
		if rules.reference {
			est := replay.Estimate(claudecode.ReferenceChars.Value + len(p))
			budget := int64(replay.Estimate(claudecode.ReferenceJSONChars.Value + len(p)))
			return item.Item{Kind: item.Restored, Tokens: st.estimate(est), Est: est, Msg: -1, Path: p, Tool: "compact_file_reference", Exact: true}, budget, true
		}
		if size.Lines <= claudecode.ReadLineLimit.Value {
			return item.Item{}, 0, false
		}
		size, note = size.FirstLines(claudecode.ReadLineLimit.Value), claudecode.TruncatedChars.Value+len(p)
		if over(size) {
			return item.Item{}, 0, false
		}
	}
	budget := int64(size.RawEst) + int64(replay.Estimate(size.Lines+2*len(p)+claudecode.AttachmentJSONChars.Value))
	// Sent as Read's text (with line numbers) in a JSON string, each
	// newline escaped, in Claude Code's notes around it.
	est := size.Est + replay.Estimate(size.Lines+claudecode.RestoreWrapChars.Value+len(p)+note)
	return item.Item{Kind: item.Restored, Tokens: st.estimate(est), Est: est, File: size, Msg: -1, Path: p, Tool: "Read", Exact: true}, budget, true
}
