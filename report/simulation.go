package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/simulate"
)

// simulationTables renders one session's simulated run: its metrics and,
// with calls, every simulated API call and summarizer call.
func simulationTables(r *simulate.Result, calls bool) []*Table {
	out := []*Table{metricsTable(r)}
	if calls {
		out = append(out, callsTable(r), summariesTable(r))
	}
	return out
}

func metricsTable(r *simulate.Result) *Table {
	m := r.Metrics
	l := r.Limits
	note := fmt.Sprintf("trace-driven replay of the main thread (sizes from %s); window %s, auto-compact threshold %s, warning %s (first call's model and version)",
		methodText(r.Method), num(l.Window), num(l.Threshold), num(l.Warning))
	t := &Table{Name: "simulation", Title: "Simulation: " + r.Policy, Note: note, Columns: []string{"Field", "Value"}}
	kv := func(k, pretty, raw string) { t.add([]string{k, pretty}, []string{k, raw}) }
	n := func(k string, v int64) { kv(k, num(v), raw(v)) }
	kv("policy", r.Policy, r.Policy)
	kv("method", string(r.Method), string(r.Method))
	n("calls", int64(m.Calls))
	n("peak context", m.PeakContext)
	n("calls above warning", int64(m.AboveWarning))
	n("overflows", int64(m.Overflows))
	n("compactions", int64(m.Compactions))
	first := "none"
	if m.FirstCompaction > 0 {
		first = "call " + num(m.FirstCompaction)
	}
	kv("first compaction", first, raw(m.FirstCompaction))
	n("clearings", int64(m.Clearings))
	n("tokens freed", m.TokensFreed)
	n("summary tokens", m.SummaryTokens)
	kv("cache hit ratio", pct(m.CacheHitRatio*100), strconv.FormatFloat(m.CacheHitRatio, 'f', 4, 64))
	n("cache breaks", int64(m.CacheBreaks))
	n("cache breaks by policy", int64(m.PolicyBreaks))
	n("input", m.Input)
	n("cache write 5m", m.CacheWrite5m)
	n("cache write 1h", m.CacheWrite1h)
	n("cache read", m.CacheRead)
	out := num(m.Output)
	if m.OutputLowerBound {
		out = "≥" + out
	}
	kv("output", out, raw(m.Output))
	kv("cost (main thread + summarizer)", costText(m.Cost, m.Unpriced, m.Calls), rawUSD(m.Cost))
	kv("summarizer cost", usd(m.SummarizerCost), rawUSD(m.SummarizerCost))
	kv("agents cost (observed)", agentsText(m), rawUSD(m.AgentsCost))
	kv("total cost", totalText(m), rawUSD(m.TotalCost))
	n("users verbatim", int64(m.UsersVerbatim))
	n("users summarised", int64(m.UsersSummarised))
	n("likely re-reads", int64(m.LikelyRereads))
	return t
}

func methodText(method accounting.Method) string {
	if method == accounting.MethodEstimate {
		return "Claude Code's estimate: the session has no usage"
	}
	return "usage deltas"
}

// costText prints a cost, flagging calls whose model has no price.
func costText(cost float64, unpriced, calls int) string {
	switch {
	case unpriced > 0 && unpriced == calls:
		return "unpriced"
	case unpriced > 0:
		return fmt.Sprintf("%s + %d unpriced", usd(cost), unpriced)
	}
	return usd(cost)
}

// runCallsTables are compare's per-call tables of one run: replay's, with
// the policy in a first column (so that CSV rows of every run share one
// header) and in the titles.
func runCallsTables(r *simulate.Result) []*Table {
	out := []*Table{callsTable(r), summariesTable(r)}
	for _, t := range out {
		t.Title += ": " + r.Policy
		t.Columns = append([]string{"Policy"}, t.Columns...)
		t.Right = append([]bool{false}, t.Right...)
		for i := range t.Rows {
			t.Rows[i] = append([]string{r.Policy}, t.Rows[i]...)
			t.Raw[i] = append([]string{r.Policy}, t.Raw[i]...)
		}
	}
	return out
}

func callsTable(r *simulate.Result) *Table {
	t := &Table{
		Name: "simulated_calls", Title: "Simulated calls",
		Note:    "prompt = input + cache write + cache read as simulated; recorded: the transcript's prompt; state against the thresholds: ok, warning, compact, blocking, overflow",
		Columns: []string{"Call", "Time", "Model", "Prompt", "Recorded", "Input", "Cache write", "Cache read", "Output", "State", "Actions", "Cost"},
		Right:   []bool{true, false, false, true, true, true, true, true, true, false, false, true},
	}
	for _, c := range r.Calls {
		w := c.Write5m + c.Write1h
		cost, rc := usd(c.Cost), rawUSD(c.Cost)
		if !c.Priced {
			cost, rc = "unpriced", ""
		}
		t.add(
			[]string{num(c.Call), c.Time, c.Model, num(c.Prompt), num(c.Recorded), num(c.Input), num(w), num(c.Read), num(c.Output), string(c.State), strings.Join(c.Actions, "\n"), cost},
			[]string{raw(c.Call), c.Time, c.Model, raw(c.Prompt), raw(c.Recorded), raw(c.Input), raw(w), raw(c.Read), raw(c.Output), string(c.State), strings.Join(c.Actions, "; "), rc},
		)
	}
	return t
}

func summariesTable(r *simulate.Result) *Table {
	t := &Table{
		Name: "summarizer_calls", Title: "Summarizer calls",
		Note:    "the fake summarizer's forks: they read the conversation's cached prefix and write the rest plus their prompt",
		Columns: []string{"Label", "Before call", "Replaced", "Cache read", "Cache write", "Output", "Cost"},
		Right:   []bool{false, true, true, true, true, true, true},
	}
	for _, s := range r.Summaries {
		t.add(
			[]string{s.Label, num(s.BeforeCall), num(s.Replaced), num(s.Read), num(s.Write), num(s.Output), usd(s.Cost)},
			[]string{s.Label, raw(s.BeforeCall), raw(s.Replaced), raw(s.Read), raw(s.Write), raw(s.Output), rawUSD(s.Cost)},
		)
	}
	return t
}

// agentsText is the sub-agents' observed cost, naming the calls it leaves
// out for want of a price.
func agentsText(m simulate.Metrics) string {
	if m.AgentsUnpriced > 0 {
		return fmt.Sprintf("%s + %d unpriced", usd(m.AgentsCost), m.AgentsUnpriced)
	}
	return usd(m.AgentsCost)
}

// totalText is the run's total cost, naming the unpriced calls of the main
// thread and the sub-agents it leaves out.
func totalText(m simulate.Metrics) string {
	n := m.Unpriced + m.AgentsUnpriced
	switch {
	case n > 0 && m.TotalCost == 0:
		return "unpriced"
	case n > 0:
		return fmt.Sprintf("%s + %d unpriced", usd(m.TotalCost), n)
	}
	return usd(m.TotalCost)
}
