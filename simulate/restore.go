package simulate

import (
	"sort"
	"strings"

	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/replay"
)

// Claude Code keeps the files a session touched (its readFileState): the
// text a Read returned, or that an Edit or Write left. After a full
// compaction it re-attaches the most recent of them, newest first by the
// file's modification time, so a file the session wrote comes before one it
// only read (whose time is when it was last written, before the read).

// fileText is the size of a file's text: JavaScript length and lines.
type fileText struct{ chars, lines int }

// fileSizes follows the text of each file a session touched.
type fileSizes map[string]fileText

// FileSize is what a compaction would re-attach of a file: Claude Code's
// estimate (length/4) of its text as Read shows it, with line numbers
// (Est), and of its text alone (RawEst), which Claude Code's per-file
// limit measures.
type FileSize struct{ Est, RawEst int }

func (t fileText) size() FileSize {
	return FileSize{Est: replay.Estimate(t.chars + claudecode.ReadLinePrefix.Value*t.lines), RawEst: replay.Estimate(t.chars)}
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

// restore picks what Claude Code re-attaches after a compaction that
// replaced items and kept the rest, for a Claude Code version: of the files
// the context touched (the replaced and kept items, and what an earlier
// compaction re-attached), the RestoreFiles newest, leaving out files a
// Read in the kept messages already shows and CLAUDE.md files, which the
// context holds anyway (Claude Code tests that the path ends in
// "/CLAUDE.md", so a Windows path's file comes back). From RestoreWrittenFrom the
// files a tool wrote count, before the files only read; earlier versions
// re-attach files read. Each is re-attached whole when its text is at most
// RestoreFileTokens, while the re-attached files fit in RestoreTotalTokens
// (both by Claude Code's estimate, as it measures them). Then the latest
// todo list.
func (e *engine) restore(replaced, kept []Item, version string) []Item {
	written := version == "" || claudecode.AtLeast(version, e.cfg.RestoreWrittenFrom)
	type file struct {
		path        string
		size        FileSize
		last, write int // positions of the last touch and the last write; -1 none
		readKept    bool
	}
	files := map[string]*file{}
	touch := func(it Item, pos int, inKept bool) {
		if it.Path == "" || it.IsError || it.Kind != KindToolResult && it.Kind != KindRestored {
			return
		}
		if it.File == (FileSize{}) || it.Wrote && !written || strings.HasSuffix(it.Path, "/CLAUDE.md") {
			return
		}
		f := files[it.Path]
		if f == nil {
			f = &file{path: it.Path, write: -1}
			files[it.Path] = f
		}
		f.size, f.last = it.File, pos
		if it.Wrote {
			f.write = pos
		}
		if inKept && it.Kind == KindToolResult && it.Tool == "Read" {
			f.readKept = true
		}
	}
	for j, it := range replaced {
		touch(it, j, false)
	}
	for j, it := range kept {
		touch(it, len(replaced)+j, true)
	}
	cand := make([]*file, 0, len(files))
	for _, f := range files {
		if !f.readKept {
			cand = append(cand, f)
		}
	}
	// Newest first: files written by their last write, then files only
	// read by their last read.
	sort.Slice(cand, func(a, b int) bool {
		fa, fb := cand[a], cand[b]
		if fa.write != fb.write {
			return fa.write > fb.write
		}
		return fa.last > fb.last
	})
	cand = cand[:min(len(cand), max(0, e.cfg.RestoreFiles))]
	var out []Item
	var total int64
	for _, f := range cand {
		est := int64(f.size.Est)
		if int64(f.size.RawEst) > e.cfg.RestoreFileTokens || total+est > e.cfg.RestoreTotalTokens {
			continue
		}
		total += est
		out = append(out, Item{Kind: KindRestored, Tokens: e.tr.Estimate(f.size.Est), Est: f.size.Est, File: f.size, Wrote: f.write >= 0,
			Msg: -1, Path: f.path, Tool: "Read", Exact: true})
	}
	for j := len(replaced) - 1; j >= 0; j-- {
		if replaced[j].Kind == KindToolUse && replaced[j].Tool == "TodoWrite" {
			out = append(out, Item{Kind: KindRestored, Tokens: replaced[j].Tokens, Msg: -1, Tool: "TodoWrite", Exact: true})
			break
		}
	}
	return out
}
