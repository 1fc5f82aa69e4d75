package accounting

import (
	"sort"

	"github.com/ctxlab/ctxlab/replay"
)

// DuplicateRead is one file (and read range) read more than once in a
// thread.
type DuplicateRead struct {
	Session string `json:"session,omitempty"` // corpus reports only
	Path    string `json:"path"`
	Offset  int    `json:"offset,omitempty"`
	Limit   int    `json:"limit,omitempty"`
	Reads   int    `json:"reads"`
	Tokens  int    `json:"tokens"` // estimated tokens of all reads
	// Overhead is Claude Code's duplicate-read overhead
	// floor(tokens/reads) × (reads−1), as Claude Code's own token
	// accounting (buildTokenAccounting in its bundled cli.js) computes it.
	Overhead int `json:"overhead"`
	// Re-reads by reason. Justified: the file was edited or written in
	// between, or the content read differs. Forced: a compaction or a
	// micro-compaction had cleared the earlier read. Waste: neither.
	Justified   int `json:"justified"`
	Forced      int `json:"forced"`
	Waste       int `json:"waste"`
	WasteTokens int `json:"waste_tokens"`
}

// EditTool reports the tools that change a file's content, so that a later
// read of it is justified.
func EditTool(name string) bool {
	switch name {
	case "Edit", "Write", "MultiEdit", "NotebookEdit":
		return true
	}
	return false
}

type readKey struct {
	path          string
	offset, limit int
}

// duplicateReads classifies every successful Read whose file and range were
// read before in the same thread. It walks each thread once.
func duplicateReads(s *replay.Session) []DuplicateRead {
	rows := map[readKey]*DuplicateRead{}
	for _, th := range s.Threads() {
		type prev struct {
			use, result int // message indexes
			id          string
			hash        uint64
		}
		last := map[readKey]prev{}
		reads := map[readKey][]int{} // tokens of each read, this thread
		lastEdit := map[string]int{} // path → message index of the latest edit
		cleared := map[string]int{}  // tool id → message index of the micro-compaction
		var fullAt []int             // message indexes of full compactions
		for _, c := range th.Compactions {
			if c.Kind == replay.CompactMicro {
				for _, id := range c.CompactedToolIDs {
					cleared[id] = c.Msg
				}
				continue
			}
			fullAt = append(fullAt, c.Msg)
		}
		for _, t := range th.Tools {
			if EditTool(t.Name) && t.Input.FilePath != "" {
				lastEdit[t.Input.FilePath] = t.UseMsg
				continue
			}
			if t.Name != "Read" || !t.HasResult || t.IsError || t.Input.FilePath == "" {
				continue
			}
			k := readKey{t.Input.FilePath, t.Input.Offset, t.Input.Limit}
			reads[k] = append(reads[k], t.ResultEst)
			p, seen := last[k]
			last[k] = prev{use: t.UseMsg, result: t.ResultMsg, id: t.ID, hash: t.ResultHash}
			if !seen {
				continue
			}
			row := rows[k]
			if row == nil {
				row = &DuplicateRead{Path: k.path, Offset: k.offset, Limit: k.limit}
				rows[k] = row
			}
			switch {
			case lastEdit[k.path] > p.use || t.ResultHash != p.hash:
				row.Justified++
			case compactedBetween(fullAt, p.result, t.UseMsg) || clearedBefore(cleared, p.id, t.UseMsg):
				row.Forced++
			default:
				row.Waste++
				row.WasteTokens += t.ResultEst
			}
		}
		for k, toks := range reads {
			if len(toks) < 2 {
				continue
			}
			row := rows[k]
			total := 0
			for _, n := range toks {
				total += n
			}
			row.Reads += len(toks)
			row.Tokens += total
			row.Overhead += total / len(toks) * (len(toks) - 1)
		}
	}
	out := make([]DuplicateRead, 0, len(rows))
	for _, r := range rows {
		out = append(out, *r)
	}
	SortDuplicates(out)
	return out
}

// SortDuplicates orders rows as the report lists them: by wasted tokens,
// then overhead, then path and range (then session, in a corpus).
func SortDuplicates(out []DuplicateRead) {
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		switch {
		case a.WasteTokens != b.WasteTokens:
			return a.WasteTokens > b.WasteTokens
		case a.Overhead != b.Overhead:
			return a.Overhead > b.Overhead
		case a.Path != b.Path:
			return a.Path < b.Path
		case a.Offset != b.Offset:
			return a.Offset < b.Offset
		case a.Limit != b.Limit:
			return a.Limit < b.Limit
		}
		return a.Session < b.Session
	})
}

// compactedBetween reports whether a full compaction boundary lies after
// message from and at or before message to. at is sorted.
func compactedBetween(at []int, from, to int) bool {
	i := sort.SearchInts(at, from+1)
	return i < len(at) && at[i] <= to
}

func clearedBefore(cleared map[string]int, id string, to int) bool {
	at, ok := cleared[id]
	return ok && at <= to
}
