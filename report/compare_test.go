package report

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/metric"
	"github.com/ctxlab/ctxlab/simulate/paired"
)

func TestDeltas(t *testing.T) {
	runs := []Run{
		{Policy: "a", Metrics: simulate.Metrics{TotalCost: 2, PeakContext: 1000}},
		{Policy: "b", Metrics: simulate.Metrics{TotalCost: 3.5, PeakContext: 400}},
	}
	setDeltas(runs)
	if d := runs[0].Delta; d.TotalCost != 0 || d.PeakContext != 0 || d.TotalCostPct == nil || *d.TotalCostPct != 0 {
		t.Errorf("baseline delta %+v, want zeros", d)
	}
	if d := runs[1].Delta; d.TotalCost != 1.5 || d.PeakContext != -600 || d.TotalCostPct == nil || *d.TotalCostPct != 75 {
		t.Errorf("delta %+v, want +1.5 USD, +75%%, -600 tokens", d)
	}
	free := []Run{{Metrics: simulate.Metrics{}}, {Metrics: simulate.Metrics{TotalCost: 1}}}
	setDeltas(free)
	if free[1].Delta.TotalCostPct != nil || free[1].Delta.TotalCost != 1 {
		t.Errorf("delta against a free baseline %+v: want no percentage", free[1].Delta)
	}
}

// TestCompare: the comparisons come metric by metric, then policy by
// policy, each against the chosen baseline; a session with an unpriced
// call has no cost and is left out of the cost comparisons only; a
// session without a call is left out of every comparison, and counted;
// dollar totals are rounded as costs are.
func TestCompare(t *testing.T) {
	run := func(p string, cost float64, unpriced, peak int) Run {
		return Run{Policy: p, Metrics: simulate.Metrics{Calls: 2, TotalCost: cost, Unpriced: unpriced, PeakContext: int64(peak)}}
	}
	// Its sub-agents' cost, the same under every policy, and no call.
	empty := func(p string) Run {
		return Run{Policy: p, Metrics: simulate.Metrics{TotalCost: 0.05, AgentsCost: 0.05}}
	}
	sessions := []*Compared{
		{Sessions: 1, Runs: []Run{run("a", 0.1, 0, 100), run("b", 0.2, 0, 150), run("c", 0.3, 0, 80)}},
		{Sessions: 1, Runs: []Run{empty("a"), empty("b"), empty("c")}},
		{Sessions: 1, Runs: []Run{run("a", 0.2, 0, 200), run("b", 0.4, 0, 240), run("c", 0.1, 0, 210)}},
		{Sessions: 1, Runs: []Run{run("a", 1.0, 1, 300), run("b", 9.0, 0, 300), run("c", 0.5, 0, 330)}},
	}
	doc := NewCompareDocument([]string{"a", "b", "c"}, sessions, nil, prices.Default(), nil)
	cost, _ := metric.LookupMeasure("total_cost_usd")
	peak, _ := metric.LookupMeasure("peak_context")
	doc.Compare(1, []metric.Metric{cost, peak}, paired.Options{Resamples: -1})
	var got []string
	for _, c := range doc.Comparisons {
		got = append(got, fmt.Sprintf("%s %s/%s n=%d %v→%v", c.Metric, c.Policy, c.Baseline, c.Sessions, c.BaselineTotal, c.Total))
	}
	want := []string{
		"total_cost_usd a/b n=2 0.6→0.3", // 0.2 + 0.4 and 0.1 + 0.2, rounded: no 0.30000000000000004
		"total_cost_usd c/b n=3 9.6→0.9",
		"peak_context a/b n=3 690→600",
		"peak_context c/b n=3 690→620",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if s := doc.ComparisonSettings; s.Baseline != "b" || !slices.Equal(s.Metrics, []string{"total_cost_usd", "peak_context"}) || s.Resamples != 0 || s.Confidence != 0.95 {
		t.Errorf("settings %+v", s)
	}
	if doc.SessionsWithoutCalls != 1 || doc.Total.Sessions != 4 || doc.Total.Runs[0].Metrics.TotalCost != 1.35 {
		t.Errorf("%d sessions without calls, total %d sessions costing %v: want 1, and all four in the total", doc.SessionsWithoutCalls, doc.Total.Sessions, doc.Total.Runs[0].Metrics.TotalCost)
	}
}

// TotalCostIntervals: the baseline's total times 1 + the change's
// interval, for the comparisons of total cost over every session.
func TestTotalCostIntervals(t *testing.T) {
	f := func(x float64) *float64 { return &x }
	comps := []Comparison{
		{Policy: "b", Baseline: "a", Metric: "total_cost_usd", Stats: paired.Stats{Sessions: 4, BaselineTotal: 10, CILowPct: f(-10), CIHighPct: f(20)}},
		{Policy: "c", Baseline: "a", Metric: "total_cost_usd", Stats: paired.Stats{Sessions: 3, BaselineTotal: 10, CILowPct: f(-10), CIHighPct: f(20)}},
		{Policy: "d", Baseline: "a", Metric: "total_cost_usd", Stats: paired.Stats{Sessions: 4, BaselineTotal: 10}},
		{Policy: "b", Baseline: "a", Metric: "peak_context", Stats: paired.Stats{Sessions: 4, BaselineTotal: 100, CILowPct: f(-50), CIHighPct: f(50)}},
	}
	total := &Compared{Sessions: 4, Runs: make([]Run, 4)}
	low, high := TotalCostIntervals([]string{"a", "b", "c", "d"}, total, 0, comps)
	if low[1] != 9 || high[1] != 12 {
		t.Errorf("b: [%v, %v], want [9, 12]", low[1], high[1])
	}
	for _, i := range []int{0, 2, 3} { // the baseline; fewer sessions than the total; no interval
		if !math.IsNaN(low[i]) || !math.IsNaN(high[i]) {
			t.Errorf("policy %d: [%v, %v], want none", i, low[i], high[i])
		}
	}
	// A fifth session without a call, $0.50 of sub-agents under every
	// policy: left out of the comparisons, added to the intervals.
	total = &Compared{Sessions: 5, Runs: []Run{{Metrics: simulate.Metrics{TotalCost: 10.5}}, {Metrics: simulate.Metrics{TotalCost: 11.5}}, {}, {}}}
	comps[0].Total = 11
	low, high = TotalCostIntervals([]string{"a", "b", "c", "d"}, total, 1, comps)
	if low[1] != 9.5 || high[1] != 12.5 || !math.IsNaN(low[2]) {
		t.Errorf("with a session without a call: b [%v, %v], want [9.5, 12.5]; c %v, want none", low[1], high[1], low[2])
	}
}
