package sweep

import (
	"math"
	"sort"
	"testing"

	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/metric"
	"github.com/ctxlab/ctxlab/simulate/paired"
)

func mustMetric(t *testing.T, name string) metric.Metric {
	t.Helper()
	m, err := metric.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// costRows are rows of points whose sessions cost costs[p][k] with peak
// contexts peaks[p][k].
func costRows(costs [][]float64, peaks [][]int64) []Row {
	var rows []Row
	for p := range costs {
		for k := range costs[p] {
			m := simulate.Metrics{Calls: 1, TotalCost: costs[p][k]}
			if peaks != nil {
				m.PeakContext = peaks[p][k]
			}
			rows = append(rows, Row{Point: p, Session: string(rune('a' + k)), Metrics: m})
		}
	}
	return rows
}

func points(n int) []Point {
	out := make([]Point, n)
	for i := range out {
		out[i] = Point{Spec: string(rune('p' + i)), Base: "x"}
	}
	return out
}

// TestCompare pins each point's comparison with the baseline by hand:
// twice the baseline in every session (a change of +100% in every
// resample, so the interval is [+100%, +100%] and the objective's
// interval its total), the baseline itself, and a point one of whose
// sessions has an unpriced call (left out, so the interval, which would
// not bound the total of all four sessions, is not set).
func TestCompare(t *testing.T) {
	base := []float64{1, 2, 4, 8}
	costs := [][]float64{
		{2, 4, 8, 16}, // twice: differences 1, 2, 4, 8, all positive
		{1, 2, 4, 8},  // the baseline's own values
		{3, 2, 4, 8},  // one session's cost unknown
	}
	rows := costRows(costs, nil)
	rows[8].Metrics.Unpriced = 1 // point 2, session a
	cost := mustMetric(t, "total_cost_usd")
	totals := Summarize(points(3), rows, cost, nil, nil)
	bm := make([]simulate.Metrics, len(base))
	for k, v := range base {
		bm[k] = simulate.Metrics{Calls: 1, TotalCost: v}
	}
	Compare(totals, rows, bm, "observed", cost, paired.Options{Resamples: 500})
	byPoint := map[int]Total{}
	for _, tot := range totals {
		byPoint[tot.Point] = tot
		if c := tot.Comparison; c == nil || c.Policy != tot.Policy || c.Baseline != "observed" || c.Metric != "total_cost_usd" {
			t.Fatalf("point %d: comparison %+v", tot.Point, c)
		}
	}
	c := byPoint[0].Comparison
	// W+ = 1+2+3+4 = 10, the largest of 2⁴ equally likely sums: p = 2/16,
	// not significant by rank; every resample doubles, so the interval
	// [+100%, +100%] excludes 0 and decides: significant.
	if c.Sessions != 4 || c.BaselineTotal != 15 || c.Total != 30 || *c.TotalChangePct != 100 || *c.CILowPct != 100 || *c.CIHighPct != 100 ||
		*c.MedianChangePct != 100 || *c.GeomeanRatio != 2 || *c.WilcoxonP != 0.125 || c.WilcoxonSignificant || !c.Significant || !c.Disagree() {
		t.Errorf("twice the baseline: %+v", c.Stats)
	}
	if lo, hi := byPoint[0].CILow, byPoint[0].CIHigh; lo == nil || hi == nil || *lo != 30 || *hi != 30 {
		t.Errorf("twice the baseline: objective interval %v, %v; want 30, 30", lo, hi)
	}
	c = byPoint[1].Comparison
	if *c.TotalChangePct != 0 || c.WilcoxonP != nil || c.Significant || *byPoint[1].CILow != 15 || *byPoint[1].CIHigh != 15 {
		t.Errorf("the baseline's values: %+v, interval %v %v", c.Stats, *byPoint[1].CILow, *byPoint[1].CIHigh)
	}
	c = byPoint[2].Comparison
	if c.Sessions != 3 || c.BaselineTotal != 14 || c.Total != 14 || byPoint[2].CILow != nil || byPoint[2].CIHigh != nil {
		t.Errorf("an unknown cost: %+v, interval %v %v", c.Stats, byPoint[2].CILow, byPoint[2].CIHigh)
	}
	// Without resamples: the test, no interval.
	Compare(totals, rows, bm, "observed", cost, paired.Options{Resamples: -1})
	for _, tot := range totals {
		if tot.CILow != nil || tot.Comparison.CILowPct != nil || tot.Comparison.WilcoxonP == nil && tot.Point == 0 {
			t.Errorf("no resamples: point %d interval %v, %+v", tot.Point, tot.CILow, tot.Comparison.Stats)
		}
	}
}

// Dollar totals are rounded as costs are: 0.1 + 0.2 is $0.30, not
// 0.30000000000000004.
func TestCompareRoundsDollars(t *testing.T) {
	rows := costRows([][]float64{{0.1, 0.2}}, nil)
	cost := mustMetric(t, "total_cost_usd")
	totals := Summarize(points(1), rows, cost, nil, nil)
	Compare(totals, rows, []simulate.Metrics{{Calls: 1, TotalCost: 0.2}, {Calls: 1, TotalCost: 0.1}}, "observed", cost, paired.Options{Resamples: -1})
	if c := totals[0].Comparison; c.BaselineTotal != 0.3 || c.Total != 0.3 {
		t.Errorf("totals %v, %v; want 0.3, 0.3", c.BaselineTotal, c.Total)
	}
}

// The objective's interval stands beside its total only when the total
// is the sessions' sum: not for the peak context (the largest session's)
// nor the cache hit ratio (recomputed from the sums).
func TestCompareNotSummed(t *testing.T) {
	peaks := [][]int64{{200, 400}}
	rows := costRows([][]float64{{1, 1}}, peaks)
	bm := []simulate.Metrics{{Calls: 1, PeakContext: 100}, {Calls: 1, PeakContext: 200}}
	for _, name := range []string{"peak_context", "cache_hit_ratio"} {
		obj := mustMetric(t, name)
		totals := Summarize(points(1), rows, obj, nil, nil)
		Compare(totals, rows, bm, "observed", obj, paired.Options{Resamples: 100})
		if totals[0].CILow != nil || totals[0].CIHigh != nil || totals[0].Comparison == nil {
			t.Errorf("%s: interval %v %v, comparison %+v", name, totals[0].CILow, totals[0].CIHigh, totals[0].Comparison)
		}
	}
	obj := mustMetric(t, "peak_context")
	totals := Summarize(points(1), rows, obj, nil, nil)
	Compare(totals, rows, bm, "observed", obj, paired.Options{Resamples: 100})
	// As compare's statistics: the sessions' peaks summed, 300 → 600.
	if c := totals[0].Comparison; c.BaselineTotal != 300 || c.Total != 600 || *c.TotalChangePct != 100 {
		t.Errorf("peak context: %+v", c.Stats)
	}
	// A point without rows compares no session.
	totals = Summarize(points(2), rows, obj, nil, nil)
	Compare(totals, rows, bm, "observed", obj, paired.Options{Resamples: 100})
	for _, tot := range totals {
		if tot.Point == 1 && (tot.Comparison.Sessions != 0 || tot.Comparison.TotalChangePct != nil) {
			t.Errorf("no rows: %+v", tot.Comparison.Stats)
		}
	}
}

// bruteWilcoxon is the exact two-sided p-value of the signed-rank test of
// untied, non-zero differences, by enumerating every assignment of signs
// to the ranks: twice the smaller tail of W+, at most 1.
func bruteWilcoxon(t *testing.T, diffs []float64) float64 {
	t.Helper()
	abs := make([]float64, len(diffs))
	for i, d := range diffs {
		abs[i] = math.Abs(d)
	}
	sort.Float64s(abs)
	rank := func(d float64) int { return sort.SearchFloat64s(abs, math.Abs(d)) + 1 }
	w := 0
	for i, d := range diffs {
		if d == 0 || i > 0 && abs[i] == abs[i-1] {
			t.Fatalf("bruteWilcoxon: zero or tied differences %v", diffs)
		}
		if d > 0 {
			w += rank(d)
		}
	}
	n := len(diffs)
	var below, above int
	for mask := range 1 << n {
		s := 0
		for r := range n {
			if mask&(1<<r) != 0 {
				s += r + 1
			}
		}
		if s <= w {
			below++
		}
		if s >= w {
			above++
		}
	}
	return min(1, 2*float64(min(below, above))/float64(int(1)<<n))
}

// TestFrontSteps: each point of the front against the one before it, on
// both metrics, the p-values pinned by enumerating the signs; a point off
// the front is in no step.
func TestFrontSteps(t *testing.T) {
	costs := [][]float64{
		{1, 2, 3, 4, 5, 6},            // cheapest, highest peaks
		{2, 3.5, 5, 6.5, 8, 9.5},      // costs more in every session
		{2.5, 3.1, 4.3, 5.6, 7.8, 12}, // more still, the lowest peaks
		{10, 10, 10, 10, 10, 10},      // off the front: dearest, and a high peak
	}
	peaks := [][]int64{
		{900, 800, 700, 600, 500, 400},
		{850, 810, 640, 620, 420, 470}, // −50, +10, −60, +20, −80, +70
		{100, 100, 100, 100, 100, 100},
		{900, 900, 900, 900, 900, 900},
	}
	rows := costRows(costs, peaks)
	cost, peak := mustMetric(t, "total_cost_usd"), mustMetric(t, "peak_context")
	totals := Summarize(points(4), rows, cost, nil, []metric.Metric{cost, peak})
	steps := FrontSteps(totals, rows, cost, peak, paired.Options{Resamples: 200})
	want := []struct {
		from, to, metric string
		a, b             int // points
	}{
		{"p", "q", "total_cost_usd", 0, 1}, {"p", "q", "peak_context", 0, 1},
		{"q", "r", "total_cost_usd", 1, 2}, {"q", "r", "peak_context", 1, 2},
	}
	if len(steps) != len(want) {
		t.Fatalf("%d steps, want %d: %+v", len(steps), len(want), steps)
	}
	for i, w := range want {
		s := steps[i]
		if s.Baseline != w.from || s.Policy != w.to || s.Metric != w.metric || s.Sessions != 6 {
			t.Errorf("step %d: %s → %s on %s (%d sessions), want %s → %s on %s", i, s.Baseline, s.Policy, s.Metric, s.Sessions, w.from, w.to, w.metric)
			continue
		}
		diffs := make([]float64, 6)
		var sb, sv float64
		for k := range diffs {
			va, vb := costs[w.a][k], costs[w.b][k]
			if w.metric == "peak_context" {
				va, vb = float64(peaks[w.a][k]), float64(peaks[w.b][k])
			}
			diffs[k], sb, sv = vb-va, sb+va, sv+vb
		}
		p := bruteWilcoxon(t, diffs)
		if s.WilcoxonP == nil || *s.WilcoxonP != p || s.WilcoxonSignificant != (p < 0.05) || math.Abs(*s.TotalChangePct-100*(sv/sb-1)) > 1e-9 {
			t.Errorf("step %d (%s): p %v, significant %v, change %v; want p %v, change %v", i, w.metric, s.WilcoxonP, s.WilcoxonSignificant, *s.TotalChangePct, p, 100*(sv/sb-1))
		}
		if s.Significant != (*s.CILowPct > 0 || *s.CIHighPct < 0) {
			t.Errorf("step %d (%s): interval [%v, %v], significant %v", i, w.metric, *s.CILowPct, *s.CIHighPct, s.Significant)
		}
	}
	// p → q costs more in all six sessions: p = 2/2⁶, the smallest there
	// is. Its peaks move both ways: W+ = 1 + 2 + 5 = 8 (the ranks of +10,
	// +20 and +70), and 22 of the 64 subsets of 1…6 sum to 8 or less, so
	// p = 2 × 22/64.
	if *steps[0].WilcoxonP != 2.0/64 || !steps[0].WilcoxonSignificant || *steps[1].WilcoxonP != 44.0/64 || steps[1].WilcoxonSignificant {
		t.Errorf("p → q: cost %+v, peak %+v", steps[0].Stats, steps[1].Stats)
	}
	// A front of two points has one step, on each metric.
	two := Summarize(points(4), rows, cost, nil, []metric.Metric{cost, peak})
	for i := range two {
		two[i].Pareto = two[i].Point == 0 || two[i].Point == 2
	}
	if got := FrontSteps(two, rows, cost, peak, paired.Options{Resamples: -1}); len(got) != 2 || got[0].Baseline != "p" || got[0].Policy != "r" {
		t.Errorf("two points: %+v", got)
	}
	// A front of one point has no step.
	if got := FrontSteps(Summarize(points(1), rows[:6], cost, nil, nil), rows[:6], cost, peak, paired.Options{}); len(got) != 0 || got == nil {
		t.Errorf("one point: %+v", got)
	}
}

// TestWithoutCalls: a session whose main thread made no call (nothing to
// replay: the same run at every point, here its sub-agents' $0.05) is
// left out of the spread and of the comparisons, which then cover the
// other sessions; the objective's interval in its unit still bounds the
// point's total, the fixed session's value added. Counted in, it would
// pull p10 to its $0.05 at every point and add a zero difference.
func TestWithoutCalls(t *testing.T) {
	cost := mustMetric(t, "total_cost_usd")
	empty := simulate.Metrics{TotalCost: 0.05, AgentsCost: 0.05}
	var rows []Row
	for p, costs := range [][]float64{{1, 2, 3, 4}, {2, 4, 6, 8}} {
		for k, c := range costs {
			rows = append(rows, Row{Point: p, Session: string(rune('a' + k)), Metrics: simulate.Metrics{Calls: 3, TotalCost: c}})
		}
		rows = append(rows, Row{Point: p, Session: "e", Metrics: empty})
	}
	totals := Summarize(points(2), rows, cost, nil, nil)
	for _, tot := range totals {
		if tot.Sessions != 5 || tot.P10 < 1 {
			t.Errorf("%s: %d sessions, p10 %v: want 5 sessions, p10 of the four with calls", tot.Policy, tot.Sessions, tot.P10)
		}
	}
	base := []simulate.Metrics{{Calls: 3, TotalCost: 1}, {Calls: 3, TotalCost: 2}, {Calls: 3, TotalCost: 3}, {Calls: 3, TotalCost: 4}, empty}
	Compare(totals, rows, base, "observed", cost, paired.Options{Resamples: 500})
	for _, tot := range totals {
		c := tot.Comparison
		if c.Sessions != 4 || c.BaselineTotal != 10 || tot.CILow == nil {
			t.Fatalf("%s: %+v, interval %v: want the four sessions with calls", tot.Policy, c.Stats, tot.CILow)
		}
		if lo, hi := 10*(1+*c.CILowPct/100)+0.05, 10*(1+*c.CIHighPct/100)+0.05; math.Abs(*tot.CILow-lo) > 1e-9 || math.Abs(*tot.CIHigh-hi) > 1e-9 ||
			*tot.CILow > tot.Metrics.TotalCost || *tot.CIHigh < tot.Metrics.TotalCost {
			t.Errorf("%s: interval [%v, %v] around %v, want [%v, %v]", tot.Policy, *tot.CILow, *tot.CIHigh, tot.Metrics.TotalCost, lo, hi)
		}
	}
}

// TestUnpricedSpread: a session whose cost is unknown (calls of a model
// without a price, costed at $0) is left out of a cost objective's
// spread, as the comparisons leave it out; counted in, it put p10 at
// $0.00 on the calibration transcripts, whose two DeepSeek sessions have
// no price, as if a tenth of the sessions had cost nothing. A measure
// that is not a cost keeps it.
func TestUnpricedSpread(t *testing.T) {
	unpriced := simulate.Metrics{Calls: 5, Unpriced: 5, PeakContext: 1000}
	var rows []Row
	for k, c := range []float64{1, 2, 3, 4} {
		rows = append(rows, Row{Point: 0, Session: string(rune('a' + k)), Metrics: simulate.Metrics{Calls: 3, TotalCost: c, PeakContext: 100 * int64(k+1)}})
	}
	rows = append(rows, Row{Point: 0, Session: "u", Metrics: unpriced})
	cost := Summarize(points(1), rows, mustMetric(t, "total_cost_usd"), nil, nil)[0]
	if cost.Sessions != 5 || cost.P10 != 1 || cost.Median != 2.5 || cost.P90 != 4 {
		t.Errorf("total_cost_usd: %d sessions, p10 %v, median %v, p90 %v: want 5 sessions and the spread of the four priced ones (1, 2.5, 4)", cost.Sessions, cost.P10, cost.Median, cost.P90)
	}
	peak := Summarize(points(1), rows, mustMetric(t, "peak_context"), nil, nil)[0]
	if peak.P90 != 1000 {
		t.Errorf("peak_context: p90 %v, want 1000 (the unpriced session's peak is known)", peak.P90)
	}
}
