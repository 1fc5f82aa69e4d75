package accounting

import (
	"sort"
	"strings"

	"github.com/ctxlab/ctxlab/replay"
)

// Token categories, after Claude Code's buildTokenAccounting (seed 004).
const (
	CatHuman          = "human"
	CatAssistant      = "assistant"
	CatToolRequest    = "tool_request"
	CatToolResult     = "tool_result"
	CatAttachment     = "attachment"
	CatLocalCommand   = "local_command"
	CatCompactSummary = "compact_summary"
	CatOther          = "other"
)

// Tokens is the content accounting: where the estimated tokens of every
// message went, by category and tool.
type Tokens struct {
	// Method names how tokens were counted: "estimate" is Claude Code's
	// round(length/4) per text piece, 2000 per image.
	Method string     `json:"method"`
	Total  int        `json:"total"`
	Rows   []TokenRow `json:"rows"`
}

// TokenRow is one category (and tool or attachment type).
type TokenRow struct {
	Category string  `json:"category"`
	Name     string  `json:"name,omitempty"`
	Count    int     `json:"count"`
	Tokens   int     `json:"tokens"`
	Percent  float64 `json:"percent"`
}

// tokens counts every message of every thread once. It follows Claude
// Code's categories and adds two it folds elsewhere: compaction summaries
// (Claude Code counts them as human text) and attachment tokens (it only
// counts attachments).
func tokens(s *replay.Session) Tokens {
	acc := map[[2]string]*TokenRow{}
	add := func(cat, name string, n int) {
		k := [2]string{cat, name}
		row := acc[k]
		if row == nil {
			row = &TokenRow{Category: cat, Name: name}
			acc[k] = row
		}
		row.Count++
		row.Tokens += n
	}
	for _, th := range s.Threads() {
		names := make(map[string]string, len(th.Tools))
		for _, t := range th.Tools {
			names[t.ID] = t.Name
		}
		for _, m := range th.Messages {
			if m.Role == replay.RoleAttachment {
				add(CatAttachment, m.AttachmentType, replay.Estimate(m.AttachmentChars))
				continue
			}
			for _, b := range m.Blocks {
				cat, name := blockCategory(m, b, names)
				add(cat, name, b.Est)
			}
		}
	}
	t := Tokens{Method: "estimate", Rows: make([]TokenRow, 0, len(acc))}
	for _, row := range acc {
		t.Total += row.Tokens
		t.Rows = append(t.Rows, *row)
	}
	finishTokens(&t)
	return t
}

// finishTokens sets the percentages and sorts the rows, largest first.
func finishTokens(t *Tokens) {
	for i := range t.Rows {
		t.Rows[i].Percent = percent(t.Rows[i].Tokens, t.Total)
	}
	sort.Slice(t.Rows, func(i, j int) bool {
		a, b := t.Rows[i], t.Rows[j]
		if a.Tokens != b.Tokens {
			return a.Tokens > b.Tokens
		}
		if a.Category != b.Category {
			return a.Category < b.Category
		}
		return a.Name < b.Name
	})
}

func blockCategory(m replay.Message, b replay.Block, names map[string]string) (string, string) {
	switch b.Kind {
	case replay.BlockText, replay.BlockThinking:
		if m.Role == replay.RoleAssistant {
			return CatAssistant, ""
		}
		if m.CompactSummary {
			return CatCompactSummary, ""
		}
		if strings.Contains(b.Text, "local-command-stdout") {
			return CatLocalCommand, ""
		}
		return CatHuman, ""
	case replay.BlockToolUse:
		return CatToolRequest, b.Name
	case replay.BlockToolResult:
		name := names[b.ToolID]
		if name == "" {
			name = "unknown"
		}
		return CatToolResult, name
	case replay.BlockImage:
		return CatOther, "image"
	}
	return CatOther, b.Name
}

// percent is n/total as a percentage rounded to one decimal.
func percent(n, total int) float64 {
	if total == 0 {
		return 0
	}
	return float64(int64(float64(n)*1000/float64(total)+0.5)) / 10
}
