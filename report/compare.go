package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate"
)

// CompareDocument is everything `ctxlab compare` reports: for each session
// and for the whole input, one run per policy, each with its metrics and its
// difference from the first policy's run.
type CompareDocument struct {
	Schema   string      `json:"schema"`
	Version  int         `json:"version"`
	Prices   PriceInfo   `json:"prices"`
	Policies []string    `json:"policies"`
	Sessions []*Compared `json:"sessions"`
	Total    *Compared   `json:"total"`
	Fidelity []Fidelity  `json:"fidelity,omitempty"`
	// FidelitySummary sums the fidelity rows (with --fidelity).
	FidelitySummary *simulate.FidelitySummary `json:"fidelity_summary,omitempty"`
	// CostPartial and UnpricedModels: as in the replay document, with
	// each session's calls counted (a call repeated in a resumed session
	// counts twice).
	CostPartial    bool               `json:"cost_partial"`
	UnpricedModels []accounting.Count `json:"unpriced_models"`
	Errors         []string           `json:"errors"`
}

// Compared is one session (or, as the document's Total, every session) run
// under each policy, in the order the policies were given.
type Compared struct {
	Sessions int               `json:"sessions"`
	ID       string            `json:"id,omitempty"`
	Path     string            `json:"path,omitempty"`
	Project  string            `json:"project,omitempty"`
	Method   accounting.Method `json:"method,omitempty"`
	Runs     []Run             `json:"runs"`
}

// Run is one policy's run: simulate's metrics and the delta against the
// first policy and, with per-call results (compare --calls), the run's
// limits, simulated calls and summarizer calls, as in replay's
// "simulation" object. Limits is set exactly when the calls are included.
type Run struct {
	Policy  string           `json:"policy"`
	Metrics simulate.Metrics `json:"metrics"`
	Delta   simulate.Delta   `json:"delta"`

	Limits    *claudecode.Limits     `json:"limits,omitempty"`
	Calls     []simulate.CallResult  `json:"calls,omitempty"`
	Summaries []simulate.SummaryCall `json:"summaries,omitempty"`
}

// Result returns the run as a simulate.Result of the session c, for the
// per-call tables and the plots; nil when the run has no per-call results.
func (r *Run) Result(c *Compared) *simulate.Result {
	if r.Limits == nil {
		return nil
	}
	return &simulate.Result{
		Policy: r.Policy, Session: c.ID, Method: c.Method, Limits: *r.Limits,
		Calls: r.Calls, Summaries: r.Summaries, Metrics: r.Metrics,
	}
}

// NewCompared gathers one session's runs, one per policy in order; the
// first run is the baseline of the deltas. With calls, each run keeps its
// limits, simulated calls and summarizer calls.
func NewCompared(s *replay.Session, runs []*simulate.Result, calls bool) *Compared {
	c := &Compared{Sessions: 1, ID: s.ID, Path: s.Path, Project: s.Project, Runs: make([]Run, len(runs))}
	for i, r := range runs {
		c.Method = r.Method
		c.Runs[i] = Run{Policy: r.Policy, Metrics: r.Metrics}
		if calls {
			lim := r.Limits
			c.Runs[i].Limits, c.Runs[i].Calls, c.Runs[i].Summaries = &lim, r.Calls, r.Summaries
		}
	}
	setDeltas(c.Runs)
	return c
}

// NewCompareDocument assembles a comparison. Total sums the sessions' runs
// policy by policy (peak context is the largest of the sessions'). fidelity
// may be nil.
func NewCompareDocument(policies []string, sessions []*Compared, fidelity []Fidelity, prices *prices.Table, errs []string) *CompareDocument {
	if errs == nil {
		errs = []string{}
	}
	if sessions == nil {
		sessions = []*Compared{}
	}
	total := &Compared{Sessions: len(sessions), Runs: make([]Run, len(policies))}
	for i, p := range policies {
		ms := make([]simulate.Metrics, 0, len(sessions))
		for _, s := range sessions {
			ms = append(ms, s.Runs[i].Metrics)
		}
		total.Runs[i] = Run{Policy: p, Metrics: simulate.SumMetrics(ms)}
	}
	setDeltas(total.Runs)
	doc := &CompareDocument{
		Schema: SchemaCompare, Version: SchemaVersion,
		Prices:   PriceInfo{Date: prices.Date, Source: prices.Source},
		Policies: policies, Sessions: sessions, Total: total, Fidelity: fidelity, Errors: errs,
		UnpricedModels: []accounting.Count{},
	}
	if fidelity != nil {
		sum := simulate.SummarizeFidelity(fidelity, simulate.DefaultFidelityTolerances())
		doc.FidelitySummary = &sum
	}
	return doc
}

func setDeltas(runs []Run) {
	if len(runs) == 0 {
		return
	}
	for i := range runs {
		runs[i].Delta = simulate.NewDelta(runs[0].Metrics, runs[i].Metrics)
	}
}

// Fidelity is one session's fidelity row (simulate.NewFidelity computes it).
type Fidelity = simulate.Fidelity

// WriteCompare renders a comparison in opt.Format (Top and Sections do
// not apply); with opt.Calls, the text formats add each run's calls when
// the runs carry them.
func WriteCompare(w io.Writer, doc *CompareDocument, opt Options) error {
	switch opt.Format {
	case "json":
		ms := []member{
			{name: "schema", value: doc.Schema},
			{name: "version", value: doc.Version},
			{name: "prices", value: doc.Prices},
			{name: "policies", value: doc.Policies},
			list("sessions", doc.Sessions, len(doc.Sessions), func(i int) any { return doc.Sessions[i] }),
			{name: "total", value: doc.Total},
		}
		if len(doc.Fidelity) > 0 {
			ms = append(ms, list("fidelity", doc.Fidelity, len(doc.Fidelity), func(i int) any { return doc.Fidelity[i] }))
		}
		if doc.FidelitySummary != nil {
			ms = append(ms, member{name: "fidelity_summary", value: doc.FidelitySummary})
		}
		return writeObject(w, append(ms,
			member{name: "cost_partial", value: doc.CostPartial},
			member{name: "unpriced_models", value: doc.UnpricedModels},
			member{name: "errors", value: doc.Errors}))
	case "html":
		return writeCompareHTML(w, doc, opt)
	}
	if opt.Format == "csv" {
		return writeCompareCSV(w, doc, opt)
	}
	var secs []section
	add := func(name, title string, c *Compared) {
		ts := compareTables(c, opt.Format)
		for i := range c.Runs {
			if r := c.Runs[i].Result(c); r != nil && opt.Calls {
				ts = append(ts, runCallsTables(r)...)
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
			secs = append(secs, section{tables: []*Table{compareOverviewTable(doc)}})
		}
		if opt.PerSession {
			for _, s := range doc.Sessions {
				add(s.ID, "session "+s.ID, s)
			}
		}
		add("total", fmt.Sprintf("all %d sessions", doc.Total.Sessions), doc.Total)
	}
	if doc.Fidelity != nil {
		name := "total"
		if len(doc.Sessions) == 1 {
			name = doc.Sessions[0].ID
		}
		secs = append(secs, section{name: name, title: "fidelity", tables: fidelityTables(doc.Fidelity, doc.FidelitySummary)})
	}
	return render(w, opt.Format, opt.Width, secs)
}

// CompareCSVTables lists the tables compare's CSV can write, one per
// stream (opt.Sections[0] picks it); the first is the default.
var CompareCSVTables = []string{"compare", "simulated_calls", "summarizer_calls", "fidelity", "fidelity_reasons", "fidelity_summary"}

// writeCompareCSV writes one table, so that a spreadsheet or a database
// reads the stream as it is: compare (a row per scope and policy; the
// scope is a session id or "total"), a run table (a row per session,
// policy and call; needs the runs' calls) or a fidelity table (needs
// --fidelity).
func writeCompareCSV(w io.Writer, doc *CompareDocument, opt Options) error {
	name := CompareCSVTables[0]
	if len(opt.Sections) > 0 && opt.Sections[0] != "" {
		name = opt.Sections[0]
	}
	cw := csv.NewWriter(w)
	header := true
	write := func(scope string, ts []*Table) error {
		for _, t := range ts {
			if t.Name != name {
				continue
			}
			if err := csvTable(cw, scope, t, header); err != nil {
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
			if err = write(s.ID, compareTables(s, "csv")); err != nil {
				return err
			}
		}
		if len(doc.Sessions) != 1 {
			err = write("total", compareTables(doc.Total, "csv"))
		}
	case "simulated_calls", "summarizer_calls":
		for _, s := range doc.Sessions {
			for i := range s.Runs {
				r := s.Runs[i].Result(s)
				if r == nil {
					return fmt.Errorf("CSV table %s needs the runs' calls (--calls)", name)
				}
				if err = write(s.ID, runCallsTables(r)); err != nil {
					return err
				}
			}
		}
	case "fidelity", "fidelity_reasons", "fidelity_summary":
		if doc.Fidelity == nil {
			return fmt.Errorf("CSV table %s needs --fidelity", name)
		}
		err = write("", fidelityTables(doc.Fidelity, doc.FidelitySummary))
	default:
		return fmt.Errorf("no CSV table %q (want one of %s)", name, strings.Join(CompareCSVTables, ", "))
	}
	if err != nil {
		return err
	}
	if header { // no rows and no header yet: write the header alone
		var ts []*Table
		switch name {
		case "compare":
			ts = compareTables(doc.Total, "csv")
		case "fidelity", "fidelity_reasons", "fidelity_summary":
			ts = fidelityTables(nil, doc.FidelitySummary)
		}
		for _, t := range ts {
			if t.Name == name {
				t.Rows, t.Raw = nil, nil
				if err := csvTable(cw, "", t, true); err != nil {
					return err
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// compareTables gives one table per scope in CSV, and two narrower ones,
// context and cost, in text and Markdown.
func compareTables(c *Compared, format string) []*Table {
	var notes []string
	if c.Sessions > 1 {
		notes = append(notes, "totals: sums over the sessions, peak: the largest session's; ")
	}
	if c.Method == accounting.MethodEstimate {
		notes = append(notes, "sizes are Claude Code's estimates (the session has no usage); ")
	}
	note := strings.Join(notes, "")
	if format == "csv" {
		t := &Table{Name: "compare", Title: "Policies", CSVColumns: []string{
			"policy", "calls", "peak_context", "peak_context_delta", "calls_above_warning", "overflows",
			"compactions", "clearings", "tokens_freed", "summary_tokens", "cache_hit_ratio", "cache_breaks",
			"policy_breaks", "input", "cache_write_5m", "cache_write_1h", "cache_read", "output", "cost",
			"summarizer_cost", "agents_cost", "total_cost", "total_cost_delta", "total_cost_delta_pct",
			"users_verbatim", "users_summarised", "likely_rereads", "unpriced_calls",
		}}
		for _, r := range c.Runs {
			m, d := r.Metrics, r.Delta
			dp := ""
			if d.TotalCostPct != nil {
				dp = strconv.FormatFloat(*d.TotalCostPct, 'f', 2, 64)
			}
			row := []string{
				r.Policy, raw(m.Calls), raw(m.PeakContext), raw(d.PeakContext), raw(m.AboveWarning), raw(m.Overflows),
				raw(m.Compactions), raw(m.Clearings), raw(m.TokensFreed), raw(m.SummaryTokens),
				strconv.FormatFloat(m.CacheHitRatio, 'f', 4, 64), raw(m.CacheBreaks),
				raw(m.PolicyBreaks), raw(m.Input), raw(m.CacheWrite5m), raw(m.CacheWrite1h), raw(m.CacheRead), raw(m.Output), rawUSD(m.Cost),
				rawUSD(m.SummarizerCost), rawUSD(m.AgentsCost), rawUSD(m.TotalCost), rawUSD(d.TotalCost), dp,
				raw(m.UsersVerbatim), raw(m.UsersSummarised), raw(m.LikelyRereads), raw(m.Unpriced),
			}
			t.addRow(row)
		}
		return []*Table{t}
	}
	ctx := &Table{
		Name: "compare_context", Title: "Context under each policy",
		Note: note + "Δ: against the first policy; ≥warning: calls at or above the warning level; freed, summary: tokens; " +
			"users: user messages verbatim / only summarised; re-reads: likely (docs/compare.md)",
		Columns: []string{"Policy", "Calls", "Peak", "Δ peak", "≥warning", "Overflows", "Compactions", "Clearings", "Freed", "Summary", "Users verbatim", "Users summarised", "Re-reads"},
		Right:   []bool{false, true, true, true, true, true, true, true, true, true, true, true, true},
		Short: map[string]string{"Overflows": "Overfl.", "Compactions": "Compact.", "Clearings": "Clear.",
			"Users verbatim": "Users kept", "Users summarised": "Users summ."},
		Drop: []string{"Calls", "Summary", "Freed", "≥warning", "Users summarised"},
	}
	cost := &Table{
		Name: "compare_cost", Title: "Cache and cost under each policy",
		Note: note + "rebuilds: calls that re-wrote a lost cached prompt; by policy: those right after the run edited the context; " +
			"cost: main thread + summarizer; agents: sub-agents as observed; total: both",
		Columns: []string{"Policy", "Hit ratio", "Rebuilds", "By policy", "Input", "Cache write", "Cache read", "Output", "Cost", "Agents", "Total", "Δ total", "Δ %"},
		Right:   []bool{false, true, true, true, true, true, true, true, true, true, true, true, true},
		Short:   map[string]string{"Hit ratio": "Hit", "Cache write": "Write", "Cache read": "Read"},
		Drop:    []string{"Input", "Output", "Cost", "Agents", "By policy", "Δ %"},
	}
	for i, r := range c.Runs {
		m, d := r.Metrics, r.Delta
		dPeak, dCost, dPct := signedNum(d.PeakContext), signedUSD(d.TotalCost), ""
		if d.TotalCostPct != nil {
			dPct = signedPct(*d.TotalCostPct)
		}
		if i == 0 {
			dPeak, dCost, dPct = "—", "—", "—"
		}
		out := numtext.Int(m.Output)
		if m.OutputLowerBound {
			out = "≥" + out
		}
		ctx.addRow([]string{r.Policy, numtext.Int(m.Calls), numtext.Int(m.PeakContext), dPeak, numtext.Int(m.AboveWarning), numtext.Int(m.Overflows),
			numtext.Int(m.Compactions), numtext.Int(m.Clearings), numtext.Int(m.TokensFreed), numtext.Int(m.SummaryTokens),
			numtext.Int(m.UsersVerbatim), numtext.Int(m.UsersSummarised), numtext.Int(m.LikelyRereads)})
		cost.addRow([]string{r.Policy, pct(m.CacheHitRatio * 100), numtext.Int(m.CacheBreaks), numtext.Int(m.PolicyBreaks),
			numtext.Int(m.Input), numtext.Int(m.CacheWrite5m + m.CacheWrite1h), numtext.Int(m.CacheRead), out,
			costText(m.Cost, m.Unpriced, m.Calls), agentsText(m), totalText(m), dCost, dPct})
	}
	return []*Table{ctx, cost}
}

// fidelityTables are the per-session table, the reasons for each
// disagreement, and the summary.
func fidelityTables(fs []Fidelity, sum *simulate.FidelitySummary) []*Table {
	reasons := &Table{
		Name: "fidelity_reasons", Title: "Why the replay differs",
		Note:       "each disagreement beyond the tolerances (cache reads ±2%, writes ±10%, a different first auto-compaction, a compaction where none happened, a prompt after the first auto-compaction more than 10% off), with its cause",
		Columns:    []string{"Session", "Reason"},
		CSVColumns: []string{"session", "reason"},
		Right:      []bool{false, false},
	}
	for _, f := range fs {
		for _, r := range f.Reasons {
			reasons.add([]string{f.Session, r}, []string{f.Session, r})
		}
	}
	ts := []*Table{fidelityTable(fs)}
	if len(reasons.Rows) > 0 {
		ts = append(ts, reasons)
	}
	if sum != nil {
		ts = append(ts, fidelitySummaryTable(sum))
	}
	return ts
}

func fidelitySummaryTable(s *simulate.FidelitySummary) *Table {
	t := &Table{
		Name: "fidelity_summary", Title: "Fidelity over all sessions",
		Note: "first auto-compaction: sessions where claude-code places it at the real call, or within one call, of those that auto-compacted; " +
			"false compactions: sessions that never auto-compacted but compact under claude-code; cache errors: simulated − recorded, % of recorded; " +
			"per-call: |simulated − recorded| writes summed over calls, % of recorded (errors of opposite sign cannot cancel); " +
			"writes within 10%: of the sessions that recorded writes; " +
			"prompt after the first auto-compaction: sessions where claude-code's is within 10% of the recorded, of those where both compacted, and the median |error|",
		Columns: []string{"Sessions", "Calls", "First auto-compaction exact", "First auto-compaction within one call", "False compactions",
			"Prompt mismatches", "Cache read error", "Cache write error", "Per-call write error", "Writes within 10%", "Unexplained",
			"Prompt after compaction within 10%", "Prompt after compaction median error"},
		CSVColumns: []string{"sessions", "calls", "auto_compacted", "exact", "within_one", "false_compactions", "prompt_mismatches",
			"cache_read_error_pct", "cache_write_error_pct", "writes_checked", "writes_within", "unexplained", "call_write_error_pct",
			"post_compaction_checked", "post_compaction_within", "post_compaction_median_error_pct"},
		Right:     []bool{true, true, true, true, true, true, true, true, true, true, true, true, true},
		Transpose: true,
	}
	re, rre := pctCells(s.CacheReadErrorPct, true)
	we, rwe := pctCells(s.CacheWriteErrorPct, true)
	ce, rce := pctCells(s.CallWriteErrorPct, false)
	pe, rpe := pctCells(s.PostCompactionMedianErrorPct, false)
	t.add(
		[]string{numtext.Int(s.Sessions), numtext.Int(s.Calls), fmt.Sprintf("%d of %d", s.Exact, s.AutoCompacted), fmt.Sprintf("%d of %d", s.WithinOne, s.AutoCompacted),
			numtext.Int(s.FalseCompactions), numtext.Int(s.PromptMismatches), re, we, ce, fmt.Sprintf("%d of %d", s.WritesWithin, s.WritesChecked), numtext.Int(s.Unexplained),
			fmt.Sprintf("%d of %d", s.PostCompactionWithin, s.PostCompactionChecked), pe},
		[]string{raw(s.Sessions), raw(s.Calls), raw(s.AutoCompacted), raw(s.Exact), raw(s.WithinOne), raw(s.FalseCompactions), raw(s.PromptMismatches),
			rre, rwe, raw(s.WritesChecked), raw(s.WritesWithin), raw(s.Unexplained), rce,
			raw(s.PostCompactionChecked), raw(s.PostCompactionWithin), rpe},
	)
	return t
}

// pctCells gives a percentage's table cell (signed when it is an error
// that has a sign) and its CSV cell; both empty when there is none.
func pctCells(p *float64, signed bool) (cell, csv string) {
	if p == nil {
		return "", ""
	}
	cell = pct(*p)
	if signed {
		cell = signedPct(*p)
	}
	return cell, strconv.FormatFloat(*p, 'f', 2, 64)
}

func fidelityTable(fs []Fidelity) *Table {
	t := &Table{
		Name: "fidelity", Title: "Fidelity of the replay",
		Note: "the cache model run over the recorded prompts against the transcript: main-thread cache reads and writes (error: simulated − recorded, % of recorded), " +
			"calls whose prompt differs from the recorded one (must be 0)\n" +
			"first auto-compaction: the call it came before, in the transcript and under claude-code; " +
			"n/a: before the first call (an earlier session's); after AC: claude-code's prompt after its first auto-compaction against the recorded one after the real one (error, % of recorded)",
		ColumnNotes: []ColumnNote{{"System prefix", "system prefix: the cached tools and system prompt the model falls back to; *: the first call's cache read, otherwise the first prompt less its messages"}},
		Columns: []string{"Session", "Calls", "Read recorded", "Read simulated", "Read error", "Write recorded", "Write simulated", "Write error",
			"Per call", "Prompt mismatches", "Real auto-compaction", "claude-code", "Match", "After AC", "System prefix"},
		CSVColumns: []string{"session", "calls", "cache_read_recorded", "cache_read_simulated", "cache_read_error_pct",
			"cache_write_recorded", "cache_write_simulated", "cache_write_error_pct", "prompt_mismatches",
			"real_auto_compaction_call", "claude_code_auto_compaction_call", "match", "system_prefix_tokens", "system_prefix_source", "call_write_error_pct",
			"clock_moved_calls", "clock_moved_ms", "base_prefix_tokens", "base_prefix_call", "system_prefix_read_tokens", "system_prefix_read_call",
			"real_auto_compaction_total", "claude_code_threshold", "system_prefix_kept_warm", "continued",
			"real_post_compaction_prompt", "simulated_post_compaction_prompt", "post_compaction_error_pct"},
		Right: []bool{false, true, true, true, true, true, true, true, true, true, true, true, false, true, true},
		Short: map[string]string{"Prompt mismatches": "Mismatches", "Real auto-compaction": "Real AC", "claude-code": "claude-code AC", "System prefix": "Sys prefix"},
		Drop:  []string{"Read recorded", "Write recorded", "Read simulated", "Write simulated", "System prefix", "Per call", "Calls"},
	}
	for _, f := range fs {
		re, rre := pctCells(f.CacheReadErrorPct, true)
		we, rwe := pctCells(f.CacheWriteErrorPct, true)
		ce, rce := pctCells(f.CallWriteErrorPct, false)
		pe, rpe := pctCells(f.PostCompactionErrorPct, true)
		match := ""
		switch {
		case f.RealAutoCompaction == 1:
			match = "n/a"
		case f.RealAutoCompaction > 1 && f.SimulatedAutoCompaction == f.RealAutoCompaction:
			match = "yes"
		case f.RealAutoCompaction > 1:
			match = "no"
		}
		sys := ""
		if f.SystemPrefix > 0 {
			sys = numtext.Int(f.SystemPrefix)
			if f.SystemPrefixSource == simulate.PrefixFromFirstRead {
				sys += "*"
			}
		}
		t.add(
			[]string{f.Session, numtext.Int(f.Calls), numtext.Int(f.RecordedCacheRead), numtext.Int(f.SimulatedCacheRead), re,
				numtext.Int(f.RecordedCacheWrite), numtext.Int(f.SimulatedCacheWrite), we, ce, numtext.Int(f.PromptMismatches),
				callOrBlank(f.RealAutoCompaction), callOrBlank(f.SimulatedAutoCompaction), match, pe, sys},
			[]string{f.Session, raw(f.Calls), raw(f.RecordedCacheRead), raw(f.SimulatedCacheRead), rre,
				raw(f.RecordedCacheWrite), raw(f.SimulatedCacheWrite), rwe, raw(f.PromptMismatches),
				raw(f.RealAutoCompaction), raw(f.SimulatedAutoCompaction), match, raw(f.SystemPrefix), f.SystemPrefixSource, rce,
				raw(f.ClockMoved), raw(f.ClockMovedMs), raw(f.BasePrefix), raw(f.BasePrefixCall), raw(f.SystemPrefixRead), raw(f.SystemPrefixReadCall),
				raw(f.RealAutoCompactionTotal), raw(f.ClaudeCodeThreshold), strconv.FormatBool(f.KeptWarm), strconv.FormatBool(f.Continued),
				raw(f.RealPostCompactionPrompt), raw(f.SimulatedPostCompactionPrompt), rpe},
		)
	}
	return t
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
		return "+" + usd(x)
	case x < 0:
		return "-" + usd(-x)
	}
	return usd(0)
}

func signedPct(x float64) string {
	if math.Round(x*10) == 0 {
		return pct(0)
	}
	if x > 0 {
		return "+" + pct(x)
	}
	return pct(x)
}

// compareOverviewTable is one line per session and the total: each
// policy's total cost (main thread, summarizer and sub-agents), the others
// with their difference from the first policy's.
func compareOverviewTable(doc *CompareDocument) *Table {
	t := &Table{
		Name: "compare_sessions", Title: "Sessions under each policy",
		Note: "cost: each run's total (main thread + summarizer + sub-agents as observed); in brackets: against " +
			doc.Policies[0] + "; the total row sums the sessions",
		Columns: []string{"Session", "Project", "Calls"},
		Right:   []bool{false, false, true},
		Drop:    []string{"Project", "Calls"},
	}
	for _, p := range doc.Policies {
		t.Columns = append(t.Columns, p)
		t.Right = append(t.Right, true)
	}
	row := func(id, project string, c *Compared) {
		r := []string{id, project, ""}
		if len(c.Runs) > 0 {
			r[2] = numtext.Int(c.Runs[0].Metrics.Calls)
		}
		for i, run := range c.Runs {
			cell := usd(run.Metrics.TotalCost)
			if i > 0 && run.Delta.TotalCostPct != nil {
				cell += " (" + signedPct(*run.Delta.TotalCostPct) + ")"
			}
			r = append(r, cell)
		}
		t.addRow(r)
	}
	for _, s := range doc.Sessions {
		row(s.ID, s.Project, s)
	}
	row("total", numtext.Int(doc.Total.Sessions)+" sessions", doc.Total)
	return t
}
