package view

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ctxlab/ctxlab/accounting/sizing"
	"github.com/ctxlab/ctxlab/report/table"

	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/simulate"
)

// simulationTables renders one session's simulated run: its metrics next
// to the recorded run's (rec, nil: alone) and, with calls, every simulated
// API call and summarizer call.
func simulationTables(r *simulate.Result, rec *simulate.Metrics, calls bool) []*table.Table {
	out := []*table.Table{metricsTable(r, rec)}
	if calls {
		out = append(out, callsTable(r), summariesTable(r))
	}
	return out
}

// metricsTable is the run's metrics, one per row with plain names: with
// the recorded run, side by side with it and their difference.
func metricsTable(r *simulate.Result, rec *simulate.Metrics) *table.Table {
	m := r.Metrics
	l := r.Limits
	note := fmt.Sprintf("trace-driven replay of the main thread (sizes from %s); window %s, auto-compact threshold %s, warning %s (first call's model and version)",
		methodText(r.Method), numtext.Int(l.Window), numtext.Int(l.Threshold), numtext.Int(l.Warning))
	lb := LowerBoundNote(m.TotalLowerBound(), m.Unpriced+m.AgentsUnpriced)
	if rec != nil {
		lb = LowerBoundNote(m.TotalLowerBound() || rec.TotalLowerBound(), max(m.Unpriced+m.AgentsUnpriced, rec.Unpriced+rec.AgentsUnpriced))
	}
	note = withNote(note, lb)
	t := &table.Table{Name: "simulation", Title: "Simulation: " + r.Policy, Note: note, KeyValue: true,
		Columns: []table.Column{{Name: "Field", Kind: table.Prose}, {Name: "Value", Kind: table.Prose}}}
	if rec != nil {
		t.Columns = []table.Column{{Name: "Field", Kind: table.Prose}, {Name: "Recorded", Right: true}, {Name: "Simulated", Right: true}, {Name: "Δ", Right: true}}
		t.Legend = "recorded: the session as it happened (policy observed); Δ: simulated − recorded; " +
			"cache rebuild: a call that re-wrote a cached prompt the cache had lost"
	}
	// row adds a field: pretty and raw values of the simulated run, and
	// with the recorded run its values and the difference.
	row := func(k, pretty, raw, recPretty, recRaw, delta, rawDelta string) {
		if rec == nil {
			t.Add([]string{k, pretty}, []string{k, raw})
			return
		}
		t.Add([]string{k, recPretty, pretty, delta}, []string{k, recRaw, raw, rawDelta})
	}
	text := func(k, v, recV string) { row(k, v, v, recV, recV, "", "") }
	n := func(k string, v int64, recV int64) {
		row(k, numtext.Int(v), raw(v), numtext.Int(recV), raw(recV), signedNum(v-recV), raw(v-recV))
	}
	money := func(k, pretty string, v float64, recPretty string, recV float64) {
		row(k, pretty, rawUSD(v), recPretty, rawUSD(recV), signedUSD(v-recV), rawUSD(v-recV))
	}
	var o simulate.Metrics
	if rec != nil {
		o = *rec
	}
	text("policy", r.Policy, "observed")
	text("method", string(r.Method), string(r.Method))
	n("calls", int64(m.Calls), int64(o.Calls))
	n("peak context", m.PeakContext, o.PeakContext)
	n("calls above the warning level", int64(m.AboveWarning), int64(o.AboveWarning))
	n("calls over the window", int64(m.Overflows), int64(o.Overflows))
	n("compactions", int64(m.Compactions), int64(o.Compactions))
	first := func(c int) string {
		if c > 0 {
			return "call " + numtext.Int(c)
		}
		return "none"
	}
	row("first compaction", first(m.FirstCompaction), raw(m.FirstCompaction), first(o.FirstCompaction), raw(o.FirstCompaction), "", "")
	n("tool-result clearings", int64(m.Clearings), int64(o.Clearings))
	n("tokens freed", m.TokensFreed, o.TokensFreed)
	n("summary tokens", m.SummaryTokens, o.SummaryTokens)
	hitDiff, hitDiffRaw := "", ""
	if hasPrompt(&m) && hasPrompt(&o) {
		d := m.Usage().HitRatio() - o.Usage().HitRatio() // of the exact ratios, as HitText shows them
		hitDiff, hitDiffRaw = strings.TrimSuffix(signedPct(d*100), "%")+" pt", strconv.FormatFloat(d, 'f', 4, 64)
	}
	row("cache hit ratio", HitText(&m), HitRaw(&m), HitText(&o), HitRaw(&o), hitDiff, hitDiffRaw)
	n("cache rebuilds", int64(m.CacheBreaks), int64(o.CacheBreaks))
	n("cache rebuilds after an edit", int64(m.PolicyBreaks), int64(o.PolicyBreaks))
	n("input", m.Input, o.Input)
	n("cache write 5m", m.CacheWrite5m, o.CacheWrite5m)
	n("cache write 1h", m.CacheWrite1h, o.CacheWrite1h)
	n("cache read", m.CacheRead, o.CacheRead)
	// A Δ of outputs or costs is exact: both runs bill the same recorded
	// outputs, placeholders and all, which cancel.
	row("output", atLeast(m.Output, m.OutputLowerBound), raw(m.Output), atLeast(o.Output, o.OutputLowerBound), raw(o.Output), signedNum(m.Output-o.Output), raw(m.Output-o.Output))
	flag := func(k string, v, recV bool) {
		if v || recV {
			yes := func(b bool) string { return map[bool]string{true: "yes", false: "no"}[b] }
			row(k, yes(v), strconv.FormatBool(v), yes(recV), strconv.FormatBool(recV), "", "")
		}
	}
	flag("output lower bound", m.OutputLowerBound, o.OutputLowerBound)
	flag("agents output lower bound", m.AgentsOutputLowerBound, o.AgentsOutputLowerBound)
	money("cost (main thread + summarizer)", CostText(m.Cost, m.Unpriced, m.Calls, m.OutputLowerBound), m.Cost, CostText(o.Cost, o.Unpriced, o.Calls, o.OutputLowerBound), o.Cost)
	money("summarizer cost", numtext.USD(m.SummarizerCost), m.SummarizerCost, numtext.USD(o.SummarizerCost), o.SummarizerCost)
	money("agents cost (observed)", agentsText(m), m.AgentsCost, agentsText(o), o.AgentsCost)
	money("total cost", TotalText(m), m.TotalCost, TotalText(o), o.TotalCost)
	n("user messages kept verbatim", int64(m.UsersVerbatim), int64(o.UsersVerbatim))
	n("user messages only summarised", int64(m.UsersSummarised), int64(o.UsersSummarised))
	n("likely re-reads", int64(m.LikelyRereads), int64(o.LikelyRereads))
	return t
}

func methodText(method sizing.Method) string {
	if method == sizing.MethodEstimate {
		return "Claude Code's estimate: the session has no usage"
	}
	return "usage deltas"
}

// CostText prints a cost for people: "unpriced" when no call had a
// price, and marked ≥ when it is a lower bound, because some calls have no
// price or some output counts are placeholders (lower). It never grows
// with the number of unpriced calls, so that a totals row does not widen
// its column: the table's note says what ≥ stands for (LowerBoundNote).
func CostText(cost float64, unpriced, calls int, lower bool) string {
	switch {
	case unpriced > 0 && unpriced == calls:
		return "unpriced"
	case unpriced > 0 || lower:
		return "≥" + numtext.USD(cost)
	}
	return numtext.USD(cost)
}

// LowerBoundNote says what a ≥ in a table stands for: placeholder output
// counts (Claude Code 2.1.9–2.1.41 wrote them), and the unpriced calls a
// cost leaves out. It is empty when neither is the case.
func LowerBoundNote(placeholders bool, unpriced int) string {
	var why []string
	if placeholders {
		why = append(why, "output counts are Claude Code 2.1.9–2.1.41 placeholders")
	}
	switch {
	case unpriced == 1:
		why = append(why, "the cost leaves out 1 call of a model without a price")
	case unpriced > 1:
		why = append(why, "the cost leaves out "+numtext.Int(unpriced)+" calls of models without a price")
	}
	if len(why) == 0 {
		return ""
	}
	return "≥: a lower bound: " + strings.Join(why, "; ")
}

// withNote joins a table's note and another part.
func withNote(note, more string) string {
	switch {
	case more == "":
		return note
	case note == "":
		return more
	}
	return note + "; " + more
}

// RunCallsTables are compare's per-call tables of one run: replay's, with
// the policy in a first column (so that CSV rows of every run share one
// header) and in the titles.
func RunCallsTables(r *simulate.Result) []*table.Table {
	out := []*table.Table{callsTable(r), summariesTable(r)}
	for _, t := range out {
		t.Title += ": " + r.Policy
		// The title names the policy: people's formats need not repeat it.
		t.Columns = append([]table.Column{{Name: "Policy", Kind: table.Text, MachineOnly: true}}, t.Columns...)
		for i := range t.Rows {
			t.Rows[i] = append([]table.Cell{table.Same(r.Policy)}, t.Rows[i]...)
		}
	}
	return out
}

func callsTable(r *simulate.Result) *table.Table {
	t := &table.Table{
		Name: "simulated_calls", Title: "Simulated calls",
		Note: "prompt = input + cache write + cache read as simulated; recorded: the transcript's prompt; state against the thresholds: ok, warning, compact, blocking, overflow",
		Columns: []table.Column{
			{Name: "Call", Right: true},
			{Name: "Time", Kind: table.Time, Drop: 2},
			{Name: "Model", Kind: table.Text, Drop: 5},
			{Name: "Prompt", Right: true},
			{Name: "Recorded", Right: true, Short: "Rec.", Drop: 3},
			{Name: "Input", Right: true, Drop: 1},
			{Name: "Cache write", Right: true, Short: "Write"},
			{Name: "Cache read", Right: true, Short: "Read"},
			{Name: "Output", Right: true, Drop: 4},
			{Name: "Output lower bound", CSV: "output_lower_bound", MachineOnly: true}, // ≥ on Output and Cost
			{Name: "State"},
			{Name: "Actions", Kind: table.Text},
			{Name: "Cost", Right: true},
		},
	}
	lower := false
	for _, c := range r.Calls {
		w := c.Write5m + c.Write1h
		cost, rc := CostText(c.Cost, 0, 1, c.OutputLowerBound), rawUSD(c.Cost)
		if !c.Priced {
			cost, rc = "unpriced", ""
		}
		lower = lower || c.OutputLowerBound
		t.Add(
			[]string{numtext.Int(c.Call), c.Time.String(), c.Model, numtext.Int(c.Prompt), numtext.Int(c.Recorded), numtext.Int(c.Input), numtext.Int(w), numtext.Int(c.Read),
				atLeast(c.Output, c.OutputLowerBound), "", string(c.State), strings.Join(c.Actions, "\n"), cost},
			[]string{raw(c.Call), c.Time.String(), c.Model, raw(c.Prompt), raw(c.Recorded), raw(c.Input), raw(w), raw(c.Read),
				raw(c.Output), strconv.FormatBool(c.OutputLowerBound), string(c.State), strings.Join(c.Actions, "; "), rc},
		)
	}
	t.Note = withNote(t.Note, LowerBoundNote(lower, 0))
	return t
}

func summariesTable(r *simulate.Result) *table.Table {
	t := &table.Table{
		Name: "summarizer_calls", Title: "Summarizer calls",
		Note: "the fake summarizer's forks: they read the conversation's cached prefix and write the rest plus their prompt",
		Columns: []table.Column{{Name: "Label", Kind: table.Text}, {Name: "Before call", Right: true}, {Name: "Replaced", Right: true},
			{Name: "Cache read", Right: true}, {Name: "Cache write", Right: true}, {Name: "Output", Right: true}, {Name: "Cost", Right: true}},
	}
	for _, s := range r.Summaries {
		t.Add(
			[]string{s.Label, numtext.Int(s.BeforeCall), numtext.Int(s.Replaced), numtext.Int(s.Read), numtext.Int(s.Write), numtext.Int(s.Output), numtext.USD(s.Cost)},
			[]string{s.Label, raw(s.BeforeCall), raw(s.Replaced), raw(s.Read), raw(s.Write), raw(s.Output), rawUSD(s.Cost)},
		)
	}
	return t
}

// agentsText is the sub-agents' observed cost (≥ when it leaves out
// unpriced calls or rests on placeholder outputs).
func agentsText(m simulate.Metrics) string {
	return partCost(m.AgentsCost, m.AgentsUnpriced, m.AgentsOutputLowerBound)
}

// TotalText is the run's total cost: ≥ when it leaves out unpriced calls
// of the main thread or the sub-agents, or rests on placeholder outputs of
// either.
func TotalText(m simulate.Metrics) string {
	return partCost(m.TotalCost, m.Unpriced+m.AgentsUnpriced, m.TotalLowerBound())
}

// partCost is CostText for a sum whose calls are not counted: a zero
// cost with unpriced calls is taken for all of them unpriced.
func partCost(cost float64, unpriced int, lower bool) string {
	if unpriced > 0 && cost == 0 {
		return "unpriced"
	}
	return CostText(cost, unpriced, unpriced+1, lower)
}
