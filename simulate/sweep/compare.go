package sweep

import (
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/metric"
	"github.com/ctxlab/ctxlab/simulate/paired"
)

// Compare sets each total's comparison with a baseline on the objective,
// session by session (simulate/paired, as compare's comparisons): base[k]
// is the baseline's metrics of session k, the k-th row of each point
// being the same session (the rows of a point in session order, as sweep
// runs them). name is the baseline's canonical spec. A value compare's
// statistics leave out (a cost with unpriced calls, a session without a
// call) is left out here too.
//
// The objective's interval in its unit (Total.CILow, CIHigh) is the
// baseline's total times 1 + the change's interval: the point's total
// as its change against the baseline leaves it uncertain, plus the
// sessions without a call, whose value (their sub-agents' cost, say) no
// policy changes. It is set when the objective's total is the sessions'
// sum (metric.Summed) and every session of the point has a value, so
// that it stands beside the total it bounds.
func Compare(totals []Total, rows []Row, base []simulate.Metrics, name string, objective metric.Metric, opt paired.Options) {
	baseVals := make([]float64, 0, len(base))
	for k := range base {
		if base[k].Calls > 0 { // as pointValues: the same sessions at every point
			baseVals = append(baseVals, objective.PairValue(&base[k]))
		}
	}
	per := pointValues(rows, objective)
	pairs := make([]paired.Pair, len(totals))
	of := make([]metric.Metric, len(totals))
	for i := range totals {
		pairs[i] = paired.Pair{Baseline: baseVals, Values: at(per, totals[i].Point)}
		of[i] = objective
	}
	fixed := fixedValues(rows, objective)
	for i, st := range metric.CompareAll(pairs, of, opt) {
		t := &totals[i]
		t.Comparison = &paired.Comparison{Policy: t.Policy, Baseline: name, Metric: objective.Name, Stats: st}
		t.CILow, t.CIHigh = nil, nil
		f := fixed[t.Point]
		if lo, hi, ok := st.TotalInterval(); ok && objective.Summed && f.known && st.Sessions+f.sessions == t.Sessions {
			lo, hi = lo+f.sum, hi+f.sum
			t.CILow, t.CIHigh = &lo, &hi
		}
	}
}

// fixed is a point's sessions without a call: how many, their values'
// sum, and whether every value is known.
type fixed struct {
	sessions int
	sum      float64
	known    bool
}

// fixedValues is each point's sessions without a call (by Row.Point).
func fixedValues(rows []Row, m metric.Metric) map[int]fixed {
	out := map[int]fixed{}
	for _, r := range rows {
		f, seen := out[r.Point]
		if !seen {
			f.known = true
		}
		if r.Metrics.Calls == 0 {
			v, ok := m.RunValue(&r.Metrics)
			f.sessions++
			f.sum += v
			f.known = f.known && ok
		}
		out[r.Point] = f
	}
	return out
}

// FrontSteps compares each point of the Pareto front of a and b with the
// one before it (Front's order: best first on a), session by session, on
// a and then on b: does a step along the front change either metric more
// than the choice of sessions would? Each comparison's policy is the
// later point, its baseline the earlier one.
func FrontSteps(totals []Total, rows []Row, a, b metric.Metric, opt paired.Options) []paired.Comparison {
	front := Front(totals, a)
	if len(front) < 2 {
		return []paired.Comparison{}
	}
	ms := []metric.Metric{a, b}
	per := make([][][]float64, len(ms))
	for j, mt := range ms {
		per[j] = pointValues(rows, mt)
	}
	var pairs []paired.Pair
	var of []metric.Metric
	var out []paired.Comparison
	for i := 1; i < len(front); i++ {
		from, to := front[i-1], front[i]
		for j, mt := range ms {
			pairs = append(pairs, paired.Pair{Baseline: at(per[j], from.Point), Values: at(per[j], to.Point)})
			of = append(of, mt)
			out = append(out, paired.Comparison{Policy: to.Policy, Baseline: from.Policy, Metric: mt.Name})
		}
	}
	for i, st := range metric.CompareAll(pairs, of, opt) {
		out[i].Stats = st
	}
	return out
}

// pointValues is each point's values of m, its rows in order; a point
// with no rows has none. The sessions without a call are left out, not
// resampled as empty ones: nothing was replayed, and a session makes no
// call at one point and calls at another only if the points ran
// different sessions, which a grid never does.
func pointValues(rows []Row, m metric.Metric) [][]float64 {
	n := 0
	for _, r := range rows {
		n = max(n, r.Point+1)
	}
	out := make([][]float64, n)
	for _, r := range rows {
		if r.Metrics.Calls > 0 {
			out[r.Point] = append(out[r.Point], m.PairValue(&r.Metrics))
		}
	}
	return out
}

// at is point i's values, none past the last point with rows.
func at(per [][]float64, i int) []float64 {
	if i < 0 || i >= len(per) {
		return nil
	}
	return per[i]
}
