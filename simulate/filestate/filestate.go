// Package filestate follows the files a session's tools touched as Claude
// Code keeps them (its readFileState): the size of each file's text after
// a Read, Write or Edit, the key a file is kept under, and the files the
// sub-agents touched. The simulator re-attaches the newest of them after
// a compaction, as Claude Code does.
package filestate

import (
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/replay"
)

// fileText is the size of a file's text: JavaScript length and lines.
type fileText struct{ chars, lines int }

// Sizes follows the text of each file a session touched.
type Sizes map[string]fileText

// Size is what a compaction would re-attach of a file: Claude Code's
// estimate (length/4) of its text as Read shows it, with line numbers
// (Est), and of its text alone (RawEst), which Claude Code's per-file
// limit measures; and its lines.
type Size struct{ Est, RawEst, Lines int }

func (t fileText) size() Size {
	return Size{Est: replay.Estimate(t.chars + claudecode.ReadLinePrefix.Value*t.lines), RawEst: replay.Estimate(t.chars), Lines: t.lines}
}

// FirstLines is the size of the file's first n lines, at its average line.
func (s Size) FirstLines(n int) Size {
	if s.Lines <= n || s.Lines <= 0 {
		return s
	}
	scale := func(v int) int { return int(int64(v) * int64(n) / int64(s.Lines)) }
	return Size{Est: scale(s.Est), RawEst: scale(s.RawEst), Lines: n}
}

// After returns the size of the whole file a successful file tool left,
// and whether the tool wrote it: the text a Read returned, scaled to the
// whole file when it returned part of it; a Write's text; an Edit's file
// before the edit (originalFile) with the replaced text swapped, or the
// last text known when the result does not record the file (Claude Code
// edits only a file the session has read). Zero when nothing tells.
func (fs Sizes) After(t *replay.ToolCall) (Size, bool) {
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
		return Size{}, false
	}
	fs[path] = text
	return text.size(), wrote
}

// Whole reports whether a tool's result holds the whole file as a
// restarted Claude Code rebuilds its files from history (from
// claudecode.RestoreSeed): a Read given no offset or limit, or a Write.
func Whole(t *replay.ToolCall) bool {
	return t.Name == "Write" || t.Name == "Read" && t.Input.Offset == 0 && t.Input.Limit == 0
}

// Touch is a file a sub-agent's tool read or wrote, when its result
// came (simulate.Trace.AgentFiles): before claudecode.SharedFiles ends sub-agents
// share the session's files.
type Touch struct {
	Path         string
	File         Size
	Wrote, Whole bool
	Time         int64
}

// AgentTouches returns the files the session's sub-agents touched, in the
// order of their results (sidechains and sub-agent files; not the side
// requests Claude Code runs on the conversation).
func AgentTouches(s *replay.Session) []Touch {
	var out []Touch
	for _, th := range s.Agents {
		if th.Kind != replay.KindAgent && th.Kind != replay.KindSidechain {
			continue
		}
		sizes := Sizes{}
		for i := range th.Tools {
			t := &th.Tools[i]
			if !t.HasResult || t.IsError || t.Input.FilePath == "" || t.ResultMsg < 0 || t.ResultMsg >= len(th.Messages) {
				continue
			}
			size, wrote := sizes.After(t)
			if size == (Size{}) {
				continue
			}
			m := &th.Messages[t.ResultMsg]
			out = append(out, Touch{Path: Key(t.Input.FilePath, m.Cwd), File: size, Wrote: wrote, Whole: Whole(t), Time: m.Time})
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Time < out[b].Time })
	return out
}

// Key is the key Claude Code keeps a file under: its path resolved
// against the working directory the tool ran in, as Node's path.resolve
// does, with backslashes on Windows (a drive letter or a backslash in the
// path or the directory). Two spellings of a file are one file.
func Key(p, cwd string) string {
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
	return winKeys.key(p, cwd)
}

// winKeyCache remembers the keys of Windows paths: a session names its
// files again and again, and each of its runs asks for their keys, while
// a Windows path takes three conversions between separators and the
// cleaning of its elements. At most winKeyMax keys are kept (the cache
// starts again when full), so memory stays bounded whatever the corpus.
type winKeyCache struct {
	mu sync.Mutex
	m  map[[2]string]string
}

const winKeyMax = 4096

var winKeys winKeyCache

func (c *winKeyCache) key(p, cwd string) string {
	c.mu.Lock()
	k, ok := c.m[[2]string{p, cwd}]
	c.mu.Unlock()
	if ok {
		return k
	}
	k = winKey(p, cwd)
	c.mu.Lock()
	if len(c.m) >= winKeyMax || c.m == nil {
		c.m = make(map[[2]string]string)
	}
	c.m[[2]string{p, cwd}] = k
	c.mu.Unlock()
	return k
}

// winKey is Key for a Windows path or working directory.
func winKey(p, cwd string) string {
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
// slash), as most paths a tool names have not: Key runs for every file
// tool's result in every policy's run.
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

// IsPlan reports whether a path is a plan mode plan file: a Markdown file
// in the plans directory of Claude Code's own (.claude) directory. The
// session's plan is the last the session wrote; Claude Code names it
// after the session's slug, which ctxlab does not read.
func IsPlan(p string) bool {
	if !strings.HasSuffix(p, ".md") { // most files: no need to convert a Windows path
		return false
	}
	dir, name := path.Split(strings.ReplaceAll(p, `\`, "/"))
	return strings.HasSuffix(name, ".md") && strings.HasSuffix(dir, "/.claude/plans/")
}
