package sweep

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/internal/numstat"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/metric"
	"github.com/ctxlab/ctxlab/simulate/paired"
)

// Row is one session replayed at one grid point.
type Row struct {
	Point   int // index in the points
	Session string
	Project string
	Metrics simulate.Metrics
}

// Constraint bounds a metric of a point's totals: METRIC<=X, >=, < or >.
type Constraint struct {
	Metric metric.Metric
	Op     string
	Value  float64
}

func (c Constraint) String() string {
	return c.Metric.Name + c.Op + strconv.FormatFloat(c.Value, 'f', -1, 64)
}

// ParseConstraint reads 'METRIC<=X' (or >=, <, >).
func ParseConstraint(s string) (Constraint, error) {
	for _, op := range []string{"<=", ">=", "<", ">"} {
		name, v, ok := strings.Cut(s, op)
		if !ok {
			continue
		}
		if n, ok := strings.CutSuffix(strings.TrimSpace(name), "="); ok && len(op) == 1 {
			// "=<" and "=>" read as the metric "name=" and < or >.
			return Constraint{}, fmt.Errorf("%q: write %s%s=, not =%s", s, strings.TrimSpace(n), op, op)
		}
		m, err := metric.Lookup(strings.TrimSpace(name))
		if err != nil {
			return Constraint{}, fmt.Errorf("%q: %w", s, err)
		}
		x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			return Constraint{}, fmt.Errorf("%q: %q is not a number", s, strings.TrimSpace(v))
		}
		return Constraint{Metric: m, Op: op, Value: x}, nil
	}
	return Constraint{}, fmt.Errorf("%q: want METRIC<=X, METRIC>=X, METRIC<X or METRIC>X", s)
}

func (c Constraint) holds(m *simulate.Metrics) bool {
	v := c.Metric.Value(m)
	switch c.Op {
	case "<=":
		return v <= c.Value
	case ">=":
		return v >= c.Value
	case "<":
		return v < c.Value
	}
	return v > c.Value
}

// Total is one point over every session: its summed metrics, the spread of
// the objective across the sessions, and where it stands.
type Total struct {
	Point    int               `json:"-"`
	Policy   string            `json:"policy"`
	Values   map[string]string `json:"values"`
	Sessions int               `json:"sessions"`
	Metrics  simulate.Metrics  `json:"metrics"`
	// P10, Median and P90 are the objective's nearest-rank percentiles
	// over the values of the sessions with a call (internal/numstat:
	// Quantile, Median): a session without one has nothing to replay, and
	// would pull the spread to its empty run at every point. A cost
	// objective also leaves out the sessions whose cost is unknown (calls
	// of a model without a price, costed at $0), as Compare does.
	P10    float64 `json:"objective_p10"`
	Median float64 `json:"objective_median"`
	P90    float64 `json:"objective_p90"`
	// CILow and CIHigh bound the objective's total in its unit: its
	// interval against the baseline (Compare); nil when undefined.
	CILow  *float64 `json:"objective_ci_low"`
	CIHigh *float64 `json:"objective_ci_high"`
	// Comparison is the point against the baseline on the objective,
	// session by session (Compare); nil until Compare is called.
	Comparison *paired.Comparison `json:"comparison,omitempty"`
	// Feasible: every constraint holds on the totals. Rank orders the
	// points, 1 the best: feasible first, then by the objective.
	Feasible bool `json:"feasible"`
	Rank     int  `json:"rank"`
	// Pareto: no other point is at least as good on both Pareto metrics
	// and better on one (only with two Pareto metrics).
	Pareto bool `json:"pareto,omitempty"`
}

// Summarize totals each point over its rows and ranks the points: feasible
// ones first, best objective first (lowest unless higher is better), then
// by spec. pareto is empty or two metrics.
func Summarize(points []Point, rows []Row, objective metric.Metric, cons []Constraint, pareto []metric.Metric) []Total {
	per := make([][]simulate.Metrics, len(points))
	for _, r := range rows {
		per[r.Point] = append(per[r.Point], r.Metrics)
	}
	out := make([]Total, len(points))
	for i, p := range points {
		t := total(p.Spec, per[i], objective)
		t.Point, t.Values, t.Feasible = i, p.Values, true
		for _, c := range cons {
			t.Feasible = t.Feasible && c.holds(&t.Metrics)
		}
		out[i] = t
	}
	better := func(m metric.Metric, a, b *simulate.Metrics) int {
		va, vb := m.Value(a), m.Value(b)
		switch {
		case va == vb:
			return 0
		case (va < vb) != m.HigherIsBetter:
			return -1
		}
		return 1
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := &out[i], &out[j]
		if a.Feasible != b.Feasible {
			return a.Feasible
		}
		if c := better(objective, &a.Metrics, &b.Metrics); c != 0 {
			return c < 0
		}
		return a.Policy < b.Policy
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	if len(pareto) == 2 {
		markPareto(out, pareto[0], pareto[1], better)
	}
	return out
}

// total sums a run's sessions and spreads the objective over those with a
// call and, for a cost, a price for every call (Total's P10, Median, P90).
func total(policy string, runs []simulate.Metrics, objective metric.Metric) Total {
	t := Total{Policy: policy, Sessions: len(runs), Metrics: simulate.SumMetrics(runs)}
	vs := make([]float64, 0, len(runs))
	for j := range runs {
		if runs[j].Calls > 0 && objective.Unpriced(nil, &runs[j]) == 0 {
			vs = append(vs, objective.Value(&runs[j]))
		}
	}
	sort.Float64s(vs)
	// Six decimals, as costs are: no float noise in a median.
	t.P10, t.Median, t.P90 = prices.RoundUSD(numstat.Quantile(vs, 0.1)), prices.RoundUSD(numstat.Median(vs)), prices.RoundUSD(numstat.Quantile(vs, 0.9))
	return t
}

// Reference is a run the study's plots draw beside the grid's points for
// comparison (the baseline; Claude Code's own scheme): Label names it in
// a legend, Total holds its totals and the objective's spread as a
// point's would be (Point −1, no rank).
type Reference struct {
	Label string
	Total Total
}

// NewReference sums a reference run's sessions as Summarize sums a
// point's.
func NewReference(label, policy string, runs []simulate.Metrics, objective metric.Metric) Reference {
	t := total(policy, runs, objective)
	t.Point = -1
	return Reference{Label: label, Total: t}
}

// markPareto marks the points no other point dominates on (a, b): sorted
// best-first by a (then b), a point is on the front when it is strictly
// better on b than every point before it, or equal on both to the last
// one on it. O(n log n).
func markPareto(ts []Total, a, b metric.Metric, better func(metric.Metric, *simulate.Metrics, *simulate.Metrics) int) {
	idx := make([]int, len(ts))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool {
		x, y := &ts[idx[i]].Metrics, &ts[idx[j]].Metrics
		if c := better(a, x, y); c != 0 {
			return c < 0
		}
		return better(b, x, y) < 0
	})
	var best *simulate.Metrics
	for _, i := range idx {
		m := &ts[i].Metrics
		// Equal to the last point on the front on both: neither dominates.
		tie := best != nil && better(a, m, best) == 0 && better(b, m, best) == 0
		if best == nil || better(b, m, best) < 0 || tie {
			ts[i].Pareto = true
			best = m
		}
	}
}

// Front returns the Pareto points, best first on the first metric.
func Front(ts []Total, a metric.Metric) []Total {
	var out []Total
	for _, t := range ts {
		if t.Pareto {
			out = append(out, t)
		}
	}
	slices.SortStableFunc(out, func(x, y Total) int {
		vx, vy := a.Value(&x.Metrics), a.Value(&y.Metrics)
		if a.HigherIsBetter {
			vx, vy = vy, vx
		}
		switch {
		case vx < vy:
			return -1
		case vx > vy:
			return 1
		}
		return 0
	})
	return out
}
