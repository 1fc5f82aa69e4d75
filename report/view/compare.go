package view

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/ctxlab/ctxlab/accounting/sizing"
	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/table"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/fidelity"
)

// writeCompare draws a comparison in opt.Format (Top and report.Sections do
// not apply); with opt.Calls, the text formats add each run's calls when
// the runs carry them.
func writeCompare(w io.Writer, doc *report.CompareDocument, opt report.Options, l layout) error {
	var secs []section
	add := func(name, title string, c *report.Compared) {
		ts := CompareTables(c, false)
		for i := range c.Runs {
			if r := c.Runs[i].Result(c); r != nil && opt.Calls {
				ts = append(ts, RunCallsTables(r)...)
			}
		}
		secs = append(secs, section{name: name, title: title, tables: ts})
	}
	switch {
	case len(doc.Sessions) == 1:
		s := doc.Sessions[0]
		add(s.ID, "session "+s.ID, s)
	default:
		if len(doc.Sessions) > 1 && len(doc.Policies) > 0 {
			secs = append(secs, section{name: "total", tables: []*table.Table{compareOverviewTable(doc)}})
		}
		if opt.PerSession {
			for _, s := range doc.Sessions {
				add(s.ID, "session "+s.ID, s)
			}
		}
		add("total", "all "+numtext.Count(doc.Total.Sessions, "session", "sessions"), doc.Total)
		if ShowComparisons(doc) {
			secs = append(secs, section{name: "total", title: "is the difference real?", tables: []*table.Table{ComparisonsTable(doc, false)}})
		}
	}
	if doc.Fidelity != nil {
		name := "total"
		if len(doc.Sessions) == 1 {
			name = doc.Sessions[0].ID
		}
		secs = append(secs, section{name: name, title: "fidelity", tables: FidelityTables(doc, false)})
	}
	return l.write(w, secs, opt.Width)
}

// CompareCSVTables lists the tables compare's CSV can write, one per
// stream (opt.Sections[0] picks it); the first is the default.
var CompareCSVTables = []string{"compare", "comparisons", "simulated_calls", "summarizer_calls", "fidelity", "fidelity_reasons", "fidelity_summary", "fidelity_groups"}

// ShowComparisons says whether the reports people read show the paired
// statistics: with more than one session (one session's change is its
// own, with nothing to test) and something compared.
func ShowComparisons(doc *report.CompareDocument) bool {
	return len(doc.Sessions) > 1 && len(doc.Comparisons) > 0
}

// writeCompareCSV writes one table, so that a spreadsheet or a database
// reads the stream as it is: compare (a row per scope and policy; the
// scope is a session id or "total"), a run table (a row per session,
// policy and call; needs the runs' calls) or a fidelity table (needs
// --fidelity).
func writeCompareCSV(w io.Writer, doc *report.CompareDocument, opt report.Options) error {
	name := CompareCSVTables[0]
	if len(opt.Sections) > 0 && opt.Sections[0] != "" {
		name = opt.Sections[0]
	}
	cw := csv.NewWriter(w)
	header := true
	write := func(scope string, ts []*table.Table) error {
		for _, t := range ts {
			if t.Name != name {
				continue
			}
			if err := t.WriteCSVRows(cw, scope, header); err != nil {
				return err
			}
			header = false
		}
		return nil
	}
	var err error
	switch name {
	case "compare":
		for _, s := range doc.Sessions {
			if err = write(s.ID, CompareTables(s, true)); err != nil {
				return err
			}
		}
		if len(doc.Sessions) != 1 {
			err = write("total", CompareTables(doc.Total, true))
		}
	case "comparisons":
		err = write("", []*table.Table{ComparisonsTable(doc, true)})
	case "simulated_calls", "summarizer_calls":
		for _, s := range doc.Sessions {
			for i := range s.Runs {
				r := s.Runs[i].Result(s)
				if r == nil {
					return fmt.Errorf("CSV table %s needs the runs' calls (--calls)", name)
				}
				if err = write(s.ID, RunCallsTables(r)); err != nil {
					return err
				}
			}
		}
	case "fidelity", "fidelity_reasons", "fidelity_summary", "fidelity_groups":
		if doc.Fidelity == nil {
			return fmt.Errorf("CSV table %s needs --fidelity", name)
		}
		err = write("", FidelityTables(doc, true))
	default:
		return fmt.Errorf("no CSV table %q (want one of %s)", name, strings.Join(CompareCSVTables, ", "))
	}
	if err != nil {
		return err
	}
	if header { // no rows and no header yet: write the header alone
		var ts []*table.Table
		switch name {
		case "compare":
			ts = CompareTables(doc.Total, true)
		case "fidelity", "fidelity_reasons", "fidelity_summary", "fidelity_groups":
			header := *doc
			header.Fidelity = nil
			ts = FidelityTables(&header, true)
		}
		for _, t := range ts {
			if t.Name == name {
				t.Rows = nil
				if err := t.WriteCSVRows(cw, "", true); err != nil {
					return err
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// CompareTables gives one table per scope in CSV, and two narrower ones,
// context and cost, in text and Markdown.
func CompareTables(c *report.Compared, machine bool) []*table.Table {
	var notes []string
	if c.Sessions > 1 {
		notes = append(notes, "totals: sums over the sessions, peak: the largest session's; ")
	}
	if c.Method == sizing.MethodEstimate {
		notes = append(notes, "sizes are Claude Code's estimates (the session has no usage); ")
	}
	note := strings.Join(notes, "")
	if machine {
		return []*table.Table{compareCSVTable(c)}
	}
	costNote := RunsLowerBoundNote(c.Runs)
	ctx := &table.Table{
		Name: "compare_context", Title: "Context under each policy",
		Note: note + "Δ: against the first policy",
		Columns: []table.Column{
			{Name: "Policy", Kind: table.Text, Distinct: true},
			{Name: "Calls", Right: true, Drop: 1},
			{Name: "Peak", Right: true},
			{Name: "Δ peak", Right: true},
			{Name: "≥warning", Right: true, Drop: 4, Note: "≥warning: calls at or above the warning level"},
			{Name: "Overflows", Right: true, Short: "Overfl.", Drop: 7},
			{Name: "Compactions", Right: true, Short: "Compact."},
			{Name: "Clearings", Right: true, Short: "Clear."},
			{Name: "Freed", Right: true, Drop: 3, Note: "freed: tokens"},
			{Name: "Summary", Right: true, Drop: 2, Note: "summary: tokens"},
			{Name: "Users verbatim", Right: true, Short: "Users kept", Drop: 6, Note: "users: user messages kept verbatim, or only summarised"},
			{Name: "Users summarised", Right: true, Short: "Users summ.", Drop: 5, Note: "users: user messages kept verbatim, or only summarised"},
			{Name: "Re-reads", Right: true, Note: "re-reads: likely (docs/compare.md)"},
		},
	}
	cost := &table.Table{
		Name: "compare_cost", Title: "Cache and cost under each policy",
		Note: withNote(note+"rebuilds: calls that re-wrote a lost cached prompt", costNote),
		Columns: []table.Column{
			{Name: "Policy", Kind: table.Text, Distinct: true},
			{Name: "Hit ratio", Right: true, Short: "Hit"},
			{Name: "Rebuilds", Right: true},
			{Name: "By policy", Right: true, Drop: 5, Note: "by policy: the rebuilds right after the run edited the context"},
			{Name: "Input", Right: true, Drop: 1},
			{Name: "Cache write", Right: true, Short: "Write"},
			{Name: "Cache read", Right: true, Short: "Read", Drop: 7},
			{Name: "Output", Right: true, Drop: 2},
			{Name: "Cost", Right: true, Drop: 3, Note: "cost: main thread + summarizer"},
			{Name: "Agents", Right: true, Drop: 4, Note: "agents: sub-agents as observed"},
			{Name: "Total", Right: true, Note: "total: main thread + summarizer + sub-agents"},
			{Name: "Δ total", Right: true},
			{Name: "Δ %", Right: true, Drop: 6},
		},
	}
	for i, r := range c.Runs {
		m, d := r.Metrics, r.Delta
		dPeak, dCost, dPct := signedNum(d.PeakContext), signedUSD(d.TotalCost), ""
		rPeak, rCost, rPct := raw(d.PeakContext), rawUSD(d.TotalCost), ""
		if d.TotalCostPct != nil {
			dPct, rPct = signedPct(*d.TotalCostPct), strconv.FormatFloat(*d.TotalCostPct, 'f', 2, 64)
		}
		if i == 0 {
			dPeak, dCost, dPct = "—", "—", "—"
			rPeak, rCost, rPct = "", "", ""
		}
		out := numtext.Int(m.Output)
		if m.OutputLowerBound {
			out = "≥" + out
		}
		ctx.Add([]string{r.Policy, numtext.Int(m.Calls), numtext.Int(m.PeakContext), dPeak, numtext.Int(m.AboveWarning), numtext.Int(m.Overflows),
			numtext.Int(m.Compactions), numtext.Int(m.Clearings), numtext.Int(m.TokensFreed), numtext.Int(m.SummaryTokens),
			numtext.Int(m.UsersVerbatim), numtext.Int(m.UsersSummarised), numtext.Int(m.LikelyRereads)},
			[]string{r.Policy, raw(m.Calls), raw(m.PeakContext), rPeak, raw(m.AboveWarning), raw(m.Overflows),
				raw(m.Compactions), raw(m.Clearings), raw(m.TokensFreed), raw(m.SummaryTokens),
				raw(m.UsersVerbatim), raw(m.UsersSummarised), raw(m.LikelyRereads)})
		cost.Add([]string{r.Policy, HitText(&m), numtext.Int(m.CacheBreaks), numtext.Int(m.PolicyBreaks),
			numtext.Int(m.Input), numtext.Int(m.CacheWrite5m + m.CacheWrite1h), numtext.Int(m.CacheRead), out,
			CostText(m.Cost, m.Unpriced, m.Calls, m.OutputLowerBound), agentsText(m), TotalText(m), dCost, dPct},
			[]string{r.Policy, HitRaw(&m), raw(m.CacheBreaks), raw(m.PolicyBreaks),
				raw(m.Input), raw(m.CacheWrite5m + m.CacheWrite1h), raw(m.CacheRead), raw(m.Output),
				rawUSD(m.Cost), rawUSD(m.AgentsCost), rawUSD(m.TotalCost), rCost, rPct})
	}
	return []*table.Table{ctx, cost}
}

// compareCSVTable is a scope's row per policy with every metric (CSV).
func compareCSVTable(c *report.Compared) *table.Table {
	t := &table.Table{Name: "compare", Title: "Policies", Columns: csvColumns(
		"policy", "calls", "peak_context", "peak_context_delta", "calls_above_warning", "overflows",
		"compactions", "clearings", "tokens_freed", "summary_tokens", "cache_hit_ratio", "cache_breaks",
		"policy_breaks", "input", "cache_write_5m", "cache_write_1h", "cache_read", "output", "output_lower_bound", "cost",
		"summarizer_cost", "agents_cost", "agents_output_lower_bound", "total_cost", "total_cost_delta", "total_cost_delta_pct",
		"users_verbatim", "users_summarised", "likely_rereads", "unpriced_calls",
	)}
	for _, r := range c.Runs {
		m, d := r.Metrics, r.Delta
		dp := ""
		if d.TotalCostPct != nil {
			dp = strconv.FormatFloat(*d.TotalCostPct, 'f', 2, 64)
		}
		t.AddRow(
			r.Policy, raw(m.Calls), raw(m.PeakContext), raw(d.PeakContext), raw(m.AboveWarning), raw(m.Overflows),
			raw(m.Compactions), raw(m.Clearings), raw(m.TokensFreed), raw(m.SummaryTokens),
			HitRaw(&m), raw(m.CacheBreaks),
			raw(m.PolicyBreaks), raw(m.Input), raw(m.CacheWrite5m), raw(m.CacheWrite1h), raw(m.CacheRead), raw(m.Output),
			strconv.FormatBool(m.OutputLowerBound), rawUSD(m.Cost), rawUSD(m.SummarizerCost), rawUSD(m.AgentsCost),
			strconv.FormatBool(m.AgentsOutputLowerBound), rawUSD(m.TotalCost), rawUSD(d.TotalCost), dp,
			raw(m.UsersVerbatim), raw(m.UsersSummarised), raw(m.LikelyRereads), raw(m.Unpriced),
		)
	}
	return t
}

// FidelityTables are the per-session table, the reasons for each
// disagreement, the summary and, with groups, the summary of each group;
// machine: with every CSV column.
func FidelityTables(doc *report.CompareDocument, machine bool) []*table.Table {
	fs, sum := doc.Fidelity, doc.FidelitySummary
	reasons := &table.Table{
		Name: "fidelity_reasons", Title: "Why the replay differs",
		Note:    "each disagreement beyond the tolerances (cache reads ±2%, writes ±10%, a different first auto-compaction, a compaction where none happened, a prompt after the first auto-compaction more than 10% off), with its cause",
		Columns: []table.Column{{Name: "Session", Kind: table.ID}, {Name: "Reason", Kind: table.Prose}},
	}
	for _, f := range fs {
		for _, r := range f.Reasons {
			reasons.AddRow(f.Session, r)
		}
	}
	ts := []*table.Table{fidelityTable(fs, machine)}
	if len(reasons.Rows) > 0 {
		ts = append(ts, reasons)
	}
	if sum != nil {
		ts = append(ts, fidelitySummaryTable(sum, machine))
	}
	if doc.FidelityBy != "" {
		ts = append(ts, fidelityGroupsTable(doc.FidelityBy, doc.FidelityGroups, machine))
	}
	return ts
}

func fidelitySummaryTable(s *fidelity.Summary, machine bool) *table.Table {
	t := &table.Table{Name: "fidelity_summary", Title: "Fidelity over all sessions"}
	text, raws := fidelitySummaryCells(s)
	if machine {
		t.Columns = csvColumns(fidelitySummaryCSV...)
		t.AddRow(raws...)
		return t
	}
	t.Note = fidelitySummaryNote
	t.Transpose = true
	for _, name := range []string{"Sessions", "Calls", "First auto-compaction exact", "First auto-compaction within one call", "False compactions",
		"Prompt mismatches", "Cache read error", "Cache write error", "Per-call write error", "Writes within 10%", "Unexplained",
		"Prompt after compaction within 10%", "Prompt after compaction median error", "Cache cost within 10%", "Auto-compactions below half the threshold"} {
		t.Columns = append(t.Columns, table.Column{Name: name, Right: true})
	}
	rawRow := []string{raws[0], raws[1], raws[3], raws[4], raws[5], raws[6], raws[7], raws[8], raws[12], raws[10], raws[11], raws[14], raws[15], raws[17], raws[18]}
	if s.CopiedCalls > 0 {
		// Only when some were: the cache figures above leave them out.
		t.Columns = append(t.Columns, table.Column{Name: "Calls recorded first in another session, left out", Right: true})
		rawRow = append(rawRow, raws[19])
	} else {
		text = text[:len(text)-1]
	}
	t.Add(text, rawRow)
	return t
}

const fidelitySummaryNote = "first auto-compaction: sessions where claude-code places it at the real call, or within one call, of those that auto-compacted; " +
	"false compactions: sessions that never auto-compacted but compact under claude-code; cache errors: simulated − recorded, % of recorded; " +
	"per-call: |simulated − recorded| writes summed over calls, % of recorded (errors of opposite sign cannot cancel); " +
	"writes within 10%: of the sessions that recorded writes; " +
	"prompt after the first auto-compaction: sessions where claude-code's is within 10% of the recorded, of those where both compacted, and the median |error|; " +
	"cache cost: 0.1 × reads + 1.25 × writes, sessions whose simulated cost is within 10% of the recorded, of those whose recorded cost is 100,000 input tokens or more; " +
	"below half the threshold: sessions whose first auto-compaction followed a usage total below half of claude-code's threshold (a /compact the transcript does not mark as one, or a lowered threshold)"

// fidelitySummaryCSV are the summary's CSV columns, in the order
// fidelitySummaryCells gives their values.
var fidelitySummaryCSV = []string{"sessions", "calls", "auto_compacted", "exact", "within_one", "false_compactions", "prompt_mismatches",
	"cache_read_error_pct", "cache_write_error_pct", "writes_checked", "writes_within", "unexplained", "call_write_error_pct",
	"post_compaction_checked", "post_compaction_within", "post_compaction_median_error_pct",
	"cache_cost_checked", "cache_cost_within", "auto_below_half_threshold", "copied_calls"}

// fidelitySummaryCells returns a summary's figures as people read them
// (the rows of the summary table, in its order) and its CSV values.
func fidelitySummaryCells(s *fidelity.Summary) (text, raws []string) {
	re, rre := pctCells(s.CacheReadErrorPct, true)
	we, rwe := pctCells(s.CacheWriteErrorPct, true)
	ce, rce := pctCells(s.CallWriteErrorPct, false)
	pe, rpe := pctCells(s.PostCompactionMedianErrorPct, false)
	of := func(n, of int) string { return numtext.Int(n) + " of " + numtext.Int(of) }
	text = []string{numtext.Int(s.Sessions), numtext.Int(s.Calls), of(s.Exact, s.AutoCompacted), of(s.WithinOne, s.AutoCompacted),
		numtext.Int(s.FalseCompactions), numtext.Int(s.PromptMismatches), re, we, ce, of(s.WritesWithin, s.WritesChecked), numtext.Int(s.Unexplained),
		of(s.PostCompactionWithin, s.PostCompactionChecked), pe, of(s.CacheCostWithin, s.CacheCostChecked), numtext.Int(s.AutoBelowHalf),
		numtext.Int(s.CopiedCalls)}
	raws = []string{raw(s.Sessions), raw(s.Calls), raw(s.AutoCompacted), raw(s.Exact), raw(s.WithinOne), raw(s.FalseCompactions), raw(s.PromptMismatches),
		rre, rwe, raw(s.WritesChecked), raw(s.WritesWithin), raw(s.Unexplained), rce,
		raw(s.PostCompactionChecked), raw(s.PostCompactionWithin), rpe,
		raw(s.CacheCostChecked), raw(s.CacheCostWithin), raw(s.AutoBelowHalf), raw(s.CopiedCalls)}
	return text, raws
}

// fidelityGroupsTable is the summary of each group of sessions (compare
// --fidelity --by version or project): a row per group.
func fidelityGroupsTable(by string, gs []fidelity.Group, machine bool) *table.Table {
	t := &table.Table{Name: "fidelity_groups", Title: "Fidelity by " + by}
	if machine {
		t.Columns = csvColumns(append([]string{by}, fidelitySummaryCSV...)...)
		for i := range gs {
			_, raws := fidelitySummaryCells(&gs[i].Summary)
			t.AddRow(append([]string{gs[i].Key}, raws...)...)
		}
		return t
	}
	t.Note = "each row sums the sessions of one " + by + " as the summary above sums them all"
	name := "Project"
	if by == fidelity.ByVersion {
		t.Note += " (a session's version: the one most of its calls recorded)"
		name = "Version"
	}
	t.Columns = []table.Column{
		{Name: name, Kind: table.Text, Distinct: true},
		{Name: "Sessions", Right: true},
		{Name: "Calls", Right: true, Drop: 3},
		{Name: "AC exact", Right: true},
		{Name: "Within one", Right: true, Short: "±1", Drop: 6},
		{Name: "False", Right: true},
		{Name: "Mismatches", Right: true, Short: "Mism.", Drop: 2},
		{Name: "Read err.", Right: true},
		{Name: "Write err.", Right: true},
		{Name: "Per call", Right: true, Drop: 5},
		{Name: "Writes ±10%", Right: true, Drop: 1},
		{Name: "After AC ±10%", Right: true, Short: "After AC"},
		{Name: "After AC median", Right: true, Short: "Median", Drop: 4},
		{Name: "Cost ±10%", Right: true},
		{Name: "Below half", Right: true, Drop: 7},
	}
	for i := range gs {
		text, raws := fidelitySummaryCells(&gs[i].Summary)
		key := gs[i].Key
		if key == "" {
			key = "unknown"
		}
		t.Add([]string{key, text[0], text[1], text[2], text[3], text[4], text[5], text[6], text[7], text[8], text[9], text[11], text[12], text[13], text[14]},
			[]string{gs[i].Key, raws[0], raws[1], raws[3], raws[4], raws[5], raws[6], raws[7], raws[8], raws[12], raws[10], raws[14], raws[15], raws[17], raws[18]})
	}
	return t
}

// csvColumns are the columns of a table written only as CSV.
func csvColumns(names ...string) []table.Column {
	cols := make([]table.Column, len(names))
	for i, n := range names {
		cols[i] = table.Column{Name: n, CSV: n}
	}
	return cols
}

// pctCells gives a percentage's table cell (signed when it is an error
// that has a sign) and its CSV cell; both empty when there is none.
func pctCells(p *float64, signed bool) (cell, csv string) {
	if p == nil {
		return "", ""
	}
	cell = numtext.Pct(*p)
	if signed {
		cell = signedPct(*p)
	}
	return cell, strconv.FormatFloat(*p, 'f', 2, 64)
}

// fidelityTable is a row per session: as people read it, or with every
// CSV column (machine).
func fidelityTable(fs []report.Fidelity, machine bool) *table.Table {
	t := &table.Table{Name: "fidelity", Title: "Fidelity of the replay"}
	if machine {
		t.Columns = csvColumns("session", "calls", "cache_read_recorded", "cache_read_simulated", "cache_read_error_pct",
			"cache_write_recorded", "cache_write_simulated", "cache_write_error_pct", "prompt_mismatches",
			"real_auto_compaction_call", "claude_code_auto_compaction_call", "match", "system_prefix_tokens", "system_prefix_source", "call_write_error_pct",
			"clock_moved_calls", "clock_moved_ms", "base_prefix_tokens", "base_prefix_call", "system_prefix_read_tokens", "system_prefix_read_call",
			"real_auto_compaction_total", "claude_code_threshold", "system_prefix_kept_warm", "continued",
			"real_post_compaction_prompt", "simulated_post_compaction_prompt", "post_compaction_error_pct", "copied_calls")
		for _, f := range fs {
			_, rre := pctCells(f.CacheReadErrorPct, true)
			_, rwe := pctCells(f.CacheWriteErrorPct, true)
			_, rce := pctCells(f.CallWriteErrorPct, false)
			_, rpe := pctCells(f.PostCompactionErrorPct, true)
			t.AddRow(f.Session, raw(f.Calls), raw(f.RecordedCacheRead), raw(f.SimulatedCacheRead), rre,
				raw(f.RecordedCacheWrite), raw(f.SimulatedCacheWrite), rwe, raw(f.PromptMismatches),
				raw(f.RealAutoCompaction), raw(f.SimulatedAutoCompaction), fidelityMatch(f), raw(f.SystemPrefix), f.SystemPrefixSource, rce,
				raw(f.ClockMoved), raw(f.ClockMovedMs), raw(f.BasePrefix), raw(f.BasePrefixCall), raw(f.SystemPrefixRead), raw(f.SystemPrefixReadCall),
				raw(f.RealAutoCompactionTotal), raw(f.ClaudeCodeThreshold), strconv.FormatBool(f.KeptWarm), strconv.FormatBool(f.Continued),
				raw(f.RealPostCompactionPrompt), raw(f.SimulatedPostCompactionPrompt), rpe, raw(f.CopiedCalls))
		}
		return t
	}
	t.Note = "the cache model run over the recorded prompts against the transcript: main-thread cache reads and writes (error: simulated − recorded, % of recorded), " +
		"calls whose prompt differs from the recorded one (must be 0)\n" +
		"first auto-compaction: the call it came before, in the transcript and under claude-code; " +
		"n/a: before the first call (an earlier session's); after AC: claude-code's prompt after its first auto-compaction against the recorded one after the real one (error, % of recorded)"
	t.Columns = []table.Column{
		{Name: "Session", Kind: table.ID},
		{Name: "Calls", Right: true, Drop: 7},
		{Name: "Read recorded", Right: true, Drop: 1},
		{Name: "Read simulated", Right: true, Drop: 3},
		{Name: "Read error", Right: true},
		{Name: "Write recorded", Right: true, Drop: 2},
		{Name: "Write simulated", Right: true, Drop: 4},
		{Name: "Write error", Right: true},
		{Name: "Per call", Right: true, Drop: 6},
		{Name: "Prompt mismatches", Right: true, Short: "Mismatches", Drop: 8},
		{Name: "Real auto-compaction", Right: true, Short: "Real AC"},
		{Name: "claude-code", Right: true, Short: "claude-code AC"},
		{Name: "Match"},
		{Name: "After AC", Right: true},
		{Name: "System prefix", Right: true, Short: "Sys prefix", Drop: 5,
			Note: "system prefix: the cached tools and system prompt the model falls back to; *: the first call's cache read, otherwise the first prompt less its messages"},
	}
	for _, f := range fs {
		re, rre := pctCells(f.CacheReadErrorPct, true)
		we, rwe := pctCells(f.CacheWriteErrorPct, true)
		ce, rce := pctCells(f.CallWriteErrorPct, false)
		pe, rpe := pctCells(f.PostCompactionErrorPct, true)
		sys := ""
		if f.SystemPrefix > 0 {
			sys = numtext.Int(f.SystemPrefix)
			if f.SystemPrefixSource == simulate.PrefixFromFirstRead {
				sys += "*"
			}
		}
		match := fidelityMatch(f)
		t.Add(
			[]string{f.Session, numtext.Int(f.Calls), numtext.Int(f.RecordedCacheRead), numtext.Int(f.SimulatedCacheRead), re,
				numtext.Int(f.RecordedCacheWrite), numtext.Int(f.SimulatedCacheWrite), we, ce, numtext.Int(f.PromptMismatches),
				callOrBlank(f.RealAutoCompaction), callOrBlank(f.SimulatedAutoCompaction), match, pe, sys},
			[]string{f.Session, raw(f.Calls), raw(f.RecordedCacheRead), raw(f.SimulatedCacheRead), rre,
				raw(f.RecordedCacheWrite), raw(f.SimulatedCacheWrite), rwe, rce, raw(f.PromptMismatches),
				raw(f.RealAutoCompaction), raw(f.SimulatedAutoCompaction), match, rpe, raw(f.SystemPrefix)},
		)
	}
	return t
}

// fidelityMatch says whether claude-code's first auto-compaction is the
// real one: yes, no, n/a (before the first call), or blank (none).
func fidelityMatch(f report.Fidelity) string {
	switch {
	case f.RealAutoCompaction == 1:
		return "n/a"
	case f.RealAutoCompaction > 1 && f.SimulatedAutoCompaction == f.RealAutoCompaction:
		return "yes"
	case f.RealAutoCompaction > 1:
		return "no"
	}
	return ""
}

func callOrBlank(n int) string {
	if n == 0 {
		return ""
	}
	return numtext.Int(n)
}

func signedNum(n int64) string {
	if n > 0 {
		return "+" + numtext.Int(n)
	}
	return numtext.Int(n)
}

func signedUSD(x float64) string {
	switch {
	case x > 0:
		return "+" + numtext.USD(x)
	case x < 0:
		return "-" + numtext.USD(-x)
	}
	return numtext.USD(0)
}

func signedPct(x float64) string {
	if math.Round(x*10) == 0 {
		return numtext.Pct(0)
	}
	if x > 0 {
		return "+" + numtext.Pct(x)
	}
	return numtext.Pct(x)
}

// RunsLowerBoundNote is LowerBoundNote for the total costs of runs of
// the same calls: the unpriced calls are the most any run leaves out.
func RunsLowerBoundNote(runs []report.Run) string {
	placeholders, unpriced := false, 0
	for _, r := range runs {
		placeholders = placeholders || r.Metrics.TotalLowerBound()
		unpriced = max(unpriced, r.Metrics.Unpriced+r.Metrics.AgentsUnpriced)
	}
	return LowerBoundNote(placeholders, unpriced)
}

// compareOverviewTable is one line per session and the total: each
// policy's total cost (main thread, summarizer and sub-agents), the others
// with their difference from the first policy's.
func compareOverviewTable(doc *report.CompareDocument) *table.Table {
	t := &table.Table{
		Name: "compare_sessions", Title: "Sessions under each policy",
		Note: "cost: each run's total (main thread + summarizer + sub-agents as observed); in brackets: against " +
			withNote(doc.Policies[0]+"; the total row sums the sessions", RunsLowerBoundNote(doc.Total.Runs)),
		Columns: []table.Column{{Name: "Session", Kind: table.ID}, {Name: "Project", Kind: table.Text, Drop: 1, Distinct: true}, {Name: "Calls", Right: true, Drop: 2}},
	}
	for _, p := range doc.Policies {
		t.Columns = append(t.Columns, table.Column{Name: p, Right: true})
	}
	row := func(id, project string, c *report.Compared) {
		r := []string{id, project, ""}
		if len(c.Runs) > 0 {
			r[2] = numtext.Int(c.Runs[0].Metrics.Calls)
		}
		for i, run := range c.Runs {
			cell := TotalText(run.Metrics)
			if i > 0 && run.Delta.TotalCostPct != nil {
				cell += " (" + signedPct(*run.Delta.TotalCostPct) + ")"
			}
			r = append(r, cell)
		}
		t.AddRow(r...)
	}
	for _, s := range doc.Sessions {
		row(s.ID, s.Project, s)
	}
	row("total", numtext.Int(doc.Total.Sessions)+" sessions", doc.Total)
	return t
}
