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
// statistics leave out (a cost with unpriced calls) is left out here too.
//
// The objective's interval in its unit (Total.CILow, CIHigh) is the
// baseline's total times 1 + the change's interval: the point's total
// as its change against the baseline leaves it uncertain. It is set when
// the objective's total is the sessions' sum (metric.Summed) over every
// session of the point, so that it stands beside the total it bounds.
func Compare(totals []Total, rows []Row, base []simulate.Metrics, name string, objective metric.Metric, opt paired.Options) {
	baseVals := make([]float64, len(base))
	for k := range base {
		baseVals[k] = objective.PairValue(&base[k])
	}
	per := pointValues(rows, objective)
	pairs := make([]paired.Pair, len(totals))
	of := make([]metric.Metric, len(totals))
	for i := range totals {
		pairs[i] = paired.Pair{Baseline: baseVals, Values: at(per, totals[i].Point)}
		of[i] = objective
	}
	for i, st := range metric.CompareAll(pairs, of, opt) {
		t := &totals[i]
		t.Comparison = &paired.Comparison{Policy: t.Policy, Baseline: name, Metric: objective.Name, Stats: st}
		t.CILow, t.CIHigh = nil, nil
		if lo, hi, ok := st.TotalInterval(); ok && objective.Summed && st.Sessions == t.Sessions {
			t.CILow, t.CIHigh = &lo, &hi
		}
	}
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
// with no rows has none.
func pointValues(rows []Row, m metric.Metric) [][]float64 {
	n := 0
	for _, r := range rows {
		n = max(n, r.Point+1)
	}
	out := make([][]float64, n)
	for _, r := range rows {
		out[r.Point] = append(out[r.Point], m.PairValue(&r.Metrics))
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
