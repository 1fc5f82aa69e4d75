package accounting

import (
	"sort"
	"strings"

	"github.com/ctxlab/ctxlab/accounting/sizing"
	"github.com/ctxlab/ctxlab/replay"
)

// Category is a token category.
type Category string

// Token categories, after Claude Code's own token accounting
// (buildTokenAccounting in its bundled cli.js).
const (
	CategoryHuman          Category = "human"
	CategoryAssistant      Category = "assistant"
	CategoryToolRequest    Category = "tool_request"
	CategoryToolResult     Category = "tool_result"
	CategoryAttachment     Category = "attachment"
	CategoryLocalCommand   Category = "local_command"
	CategoryCompactSummary Category = "compact_summary"
	CategoryOther          Category = "other"
)

// Tokens is the content accounting: where the tokens of every message
// went, by category and tool, both as Claude Code estimates them and as the
// API counted them.
type Tokens struct {
	// Method names how Tokens were counted: MethodEstimate.
	Method sizing.Method `json:"method"`
	Total  int           `json:"total"`
	Rows   []TokenRow    `json:"rows"`
	// MeasuredTotal sums the rows' Measured sizes; MeasuredExact is the
	// share of it that came straight from usage deltas (the rest is sized
	// by the thread's calibrated ratio).
	MeasuredTotal int64   `json:"measured_total"`
	MeasuredExact float64 `json:"measured_exact_share"`

	exact int64 // measured tokens from usage deltas, for Merge
}

// TokenRow is one category (and tool or attachment type).
type TokenRow struct {
	Category Category `json:"category"`
	Name     string   `json:"name,omitempty"`
	Count    int      `json:"count"`
	Tokens   int      `json:"tokens"`
	// Measured is the row's size as the API counted it (SizeThread).
	Measured int64 `json:"measured"`
	// Percent is Tokens' share of Total, as Claude Code's
	// buildTokenMetrics reports it.
	Percent float64 `json:"percent"`
}

// tokens counts every message of every thread once. It follows Claude
// Code's categories and adds two it folds elsewhere: compaction summaries
// (Claude Code counts them as human text) and attachment tokens (it only
// counts attachments). Each block is also sized from usage deltas.
func tokens(s *replay.Session) Tokens {
	acc := map[tokenKey]*TokenRow{}
	var exact int64
	add := func(cat Category, name string, n int, measured int64, isExact bool) {
		k := tokenKey{cat, name}
		row := acc[k]
		if row == nil {
			row = &TokenRow{Category: cat, Name: name}
			acc[k] = row
		}
		row.Count++
		row.Tokens += n
		row.Measured += measured
		if isExact {
			exact += measured
		}
	}
	for _, th := range s.Threads() {
		sz := sizing.SizeThread(th)
		names := make(map[string]string, len(th.Tools))
		for _, t := range th.Tools {
			names[t.ID] = t.Name
		}
		for mi, m := range th.Messages {
			if m.Role == replay.RoleAttachment {
				add(CategoryAttachment, m.AttachmentType, m.AttachmentEst, sz.Blocks[mi][0], sz.Exact[mi])
				continue
			}
			for bi, b := range m.Blocks {
				cat, name := blockCategory(m, b, names)
				add(cat, name, b.Est, sz.Blocks[mi][bi], sz.Exact[mi])
			}
		}
	}
	t := Tokens{Method: sizing.MethodEstimate, Rows: make([]TokenRow, 0, len(acc)), exact: exact}
	for _, row := range acc {
		t.Rows = append(t.Rows, *row)
	}
	finishTokens(&t)
	return t
}

// finishTokens sets the totals and percentages (Claude Code's, of the
// estimated total) and sorts the rows, largest first.
func finishTokens(t *Tokens) {
	t.Total, t.MeasuredTotal = 0, 0
	for _, row := range t.Rows {
		t.Total += row.Tokens
		t.MeasuredTotal += row.Measured
	}
	if t.MeasuredTotal > 0 {
		t.MeasuredExact = float64(int64(float64(t.exact)*1000/float64(t.MeasuredTotal)+0.5)) / 1000
	}
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

func blockCategory(m replay.Message, b replay.Block, names map[string]string) (Category, string) {
	switch b.Kind {
	case replay.BlockText, replay.BlockThinking:
		if m.Role == replay.RoleAssistant {
			return CategoryAssistant, ""
		}
		if m.CompactSummary {
			return CategoryCompactSummary, ""
		}
		if strings.Contains(b.Text, "local-command-stdout") {
			return CategoryLocalCommand, ""
		}
		return CategoryHuman, ""
	case replay.BlockToolUse:
		return CategoryToolRequest, b.Name
	case replay.BlockToolResult:
		name := names[b.ToolID]
		if name == "" {
			name = "unknown"
		}
		return CategoryToolResult, name
	case replay.BlockImage:
		return CategoryOther, "image"
	}
	return CategoryOther, b.Name
}

// percent is n/total as a percentage rounded to one decimal.
func percent(n, total int) float64 {
	if total == 0 {
		return 0
	}
	return float64(int64(float64(n)*1000/float64(total)+0.5)) / 10
}

// tokenKey is a row of the accounting: a category and a tool name.
type tokenKey struct {
	cat  Category
	name string
}
