package budget

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/internal/numstat"
	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/metric"
)

// Schema names a gate's JSON document; SchemaVersion is its version.
const (
	Schema        = "ctxlab.gate"
	SchemaVersion = 1
)

// Result is a budget evaluated over a set of sessions.
type Result struct {
	Schema  string `json:"schema"`
	Version int    `json:"version"`
	// Budget names the budget file; Sessions counts the sessions read.
	Budget   string    `json:"budget"`
	Sessions int       `json:"sessions"`
	Pass     bool      `json:"pass"`
	Failed   int       `json:"failed"`
	Limits   []Outcome `json:"limits"`
	Baseline string    `json:"baseline,omitempty"`
}

// Outcome is one limit's evaluation.
type Outcome struct {
	Limit   string      `json:"limit"` // Limit.Key
	Index   int         `json:"index"` // in the budget's limits
	Measure string      `json:"measure"`
	Of      Aggregation `json:"of"`
	Policy  string      `json:"policy,omitempty"`
	Unit    metric.Unit `json:"unit"`
	// Sessions counts the sessions the limit selected.
	Sessions int `json:"sessions"`
	// Value is the aggregated measure; nil when it could not be computed
	// (Reasons says why).
	Value *float64 `json:"value"`
	// LowerBound: Value rests on placeholder output counts (Claude Code
	// 2.1.9–2.1.41) of some selected session, so the true value may be
	// higher; Reasons says how many sessions.
	LowerBound     bool     `json:"lower_bound,omitempty"`
	Max            *float64 `json:"max,omitempty"`
	Min            *float64 `json:"min,omitempty"`
	MaxIncrease    *float64 `json:"max_increase,omitempty"`
	MaxIncreasePct *float64 `json:"max_increase_pct,omitempty"`
	// Baseline is the same limit's value in the baseline; Change and
	// ChangePct (two decimals) the difference; ChangePct is nil when the
	// baseline is 0.
	Baseline  *float64 `json:"baseline,omitempty"`
	Change    *float64 `json:"change,omitempty"`
	ChangePct *float64 `json:"change_pct,omitempty"`
	// Headroom is the distance to the nearest bound, in the measure's unit
	// (a relative bound counts from the baseline); negative when broken.
	Headroom *float64 `json:"headroom,omitempty"`
	Pass     bool     `json:"pass"`
	// Reasons say why the limit failed, what it ignored, or why its value
	// is a lower bound.
	Reasons []string `json:"reasons,omitempty"`
	// Top are the three sessions that weigh most on the value; a session
	// whose value is 0 weighs nothing on a bound above and is not listed.
	Top []Contributor `json:"top,omitempty"`
}

// Contributor is one session's value of a limit's measure.
type Contributor struct {
	Session string  `json:"session"`
	Project string  `json:"project,omitempty"`
	Value   float64 `json:"value"`
	// LowerBound: the session's value rests on placeholder output counts.
	LowerBound bool `json:"lower_bound,omitempty"`
}

// Evaluate checks every limit of f over the samples; baseline, when not
// nil, is an earlier evaluation whose values the relative bounds compare
// with. Outcomes come in the budget's order.
func Evaluate(f *File, name string, samples []Sample, baseline *Result) *Result {
	res := &Result{Schema: Schema, Version: SchemaVersion, Budget: name, Sessions: len(samples), Pass: true, Limits: []Outcome{}}
	base := map[string]*float64{}
	if baseline != nil {
		res.Baseline = baseline.Budget
		for _, o := range baseline.Limits {
			base[o.Limit] = o.Value
		}
	}
	for i := range f.Limits {
		o := evaluate(&f.Limits[i], i, samples, base, baseline != nil)
		if !o.Pass {
			res.Pass = false
			res.Failed++
		}
		res.Limits = append(res.Limits, o)
	}
	return res
}

// evaluate checks one limit: it picks the sessions, aggregates the
// measure, and checks the absolute bounds, then the bounds relative to the
// baseline.
func evaluate(l *Limit, index int, samples []Sample, base map[string]*float64, haveBase bool) Outcome {
	m, _ := metric.LookupMeasure(l.Measure) // checked by Parse
	o := Outcome{
		Limit: l.Key(), Index: index, Measure: m.Name, Of: l.Of, Policy: l.policy, Unit: m.Unit,
		Max: l.Max, Min: l.Min, MaxIncrease: l.MaxIncrease, MaxIncreasePct: l.MaxIncreasePct, Pass: true,
	}
	p, problem := pick(l, m, samples)
	if problem != "" {
		o.fail("%s", problem)
		return o
	}
	o.Sessions = len(p.samples)
	if p.undefined > 0 {
		o.Reasons = append(o.Reasons, fmt.Sprintf("%s without main-thread usage left out: %s is undefined for them", numtext.Count(p.undefined, "session", "sessions"), m.Name))
	}
	if o.Sessions == 0 {
		o.fail("no session matches the limit")
		return o
	}
	if m.Cost && p.unpriced > 0 {
		if l.Unpriced != "ignore" {
			o.fail("%s without a price: the cost is unknown (price them with --prices, or set the limit's \"unpriced\": \"ignore\")", numtext.Count(p.unpriced, "call of a model", "calls of models"))
			return o
		}
		o.Reasons = append(o.Reasons, numtext.Count(p.unpriced, "call of a model without a price is", "calls of models without a price are")+" left out (\"unpriced\": \"ignore\")")
	}
	v := aggregate(l.Of, m, p.samples, p.runs, p.values)
	o.Value = &v
	o.Top = top(m, l, p.samples, p.values, p.lowers)
	headroom := o.checkBounds(l, v)
	if b := base[o.Limit]; b != nil {
		o.Baseline = b
		ch := prices.RoundUSD(v - *b)
		o.Change = &ch
		o.ChangePct = numstat.PctPtr(ch, *b)
	}
	if l.MaxIncrease != nil || l.MaxIncreasePct != nil {
		switch {
		case !haveBase:
			o.fail("max_increase and max_increase_pct need a baseline (--baseline)")
		case o.Baseline == nil:
			o.fail("the baseline has no value for this limit")
		default:
			headroom = min(headroom, o.checkIncrease(l, v))
		}
	}
	if !math.IsInf(headroom, 1) {
		h := prices.RoundUSD(headroom)
		if m.Unit.Whole() {
			// A count moves by whole steps: the headroom is the most it
			// may grow and still pass (negative: the least it must
			// shrink), not the distance to a bound a percentage puts
			// between two whole numbers.
			h = math.Floor(h)
		}
		o.Headroom = &h
	}
	if p.lower > 0 {
		// After the verdict's reasons: this one says how far to trust it.
		o.LowerBound = true
		o.Reasons = append(o.Reasons, fmt.Sprintf("%s is a lower bound: the output counts of %s are Claude Code 2.1.9–2.1.41 placeholders",
			o.num(v), numtext.Count(p.lower, "session", "sessions")))
	}
	return o
}

func (o *Outcome) fail(format string, a ...any) {
	o.Pass = false
	o.Reasons = append(o.Reasons, fmt.Sprintf(format, a...))
}

// picked is what a limit reads: the sessions it selects, their runs of
// its policy, the measure's value in each, and the calls left unpriced.
type picked struct {
	samples  []*Sample
	runs     []simulate.Metrics
	values   []float64
	unpriced int
	// undefined counts sessions left out because the measure, a ratio,
	// has nothing to divide: a session without main-thread usage (an
	// auxiliary transcript read without its session).
	undefined int
	// lower counts the sessions whose value rests on placeholder output
	// counts, lowers says which.
	lower  int
	lowers []bool
}

// pick selects the samples a limit applies to: those its selection picks
// that have a run of its policy. problem says why the measure cannot be
// read at all.
func pick(l *Limit, m metric.Metric, samples []Sample) (p picked, problem string) {
	for i := range samples {
		s := &samples[i]
		if !l.sel.Picks(s.Project, s.Session, s.Start, s.End) {
			continue
		}
		run, ok := s.Runs[l.policy]
		if !ok {
			continue // the session has no main-thread calls to replay
		}
		if !s.knows(m.Name) {
			return p, m.Name + " is not in the report the sessions were read from"
		}
		if m.Unit == metric.Ratio && run.Usage().Total() == 0 {
			p.undefined++
			continue
		}
		p.samples, p.runs = append(p.samples, s), append(p.runs, run)
		p.values = append(p.values, m.ValueOf(&s.Recorded, &run))
		lower := m.LowerBound(&run)
		if lower {
			p.lower++
		}
		p.lowers = append(p.lowers, lower)
		p.unpriced += m.Unpriced(&s.Recorded, &run)
	}
	return p, ""
}

// checkBounds checks v against max and min, and returns the headroom:
// how far v may move before it fails (+Inf without bounds).
func (o *Outcome) checkBounds(l *Limit, v float64) float64 {
	headroom := math.Inf(1)
	if l.Max != nil {
		headroom = min(headroom, *l.Max-v)
		if v > *l.Max {
			a, b := o.pair(v, *l.Max)
			o.fail("%s above max %s", a, b)
		}
	}
	if l.Min != nil {
		headroom = min(headroom, v-*l.Min)
		if v < *l.Min {
			a, b := o.pair(v, *l.Min)
			o.fail("%s below min %s", a, b)
		}
	}
	return headroom
}

// checkIncrease checks v's change from the baseline against max_increase
// and max_increase_pct, and returns the headroom in the measure's unit.
func (o *Outcome) checkIncrease(l *Limit, v float64) float64 {
	headroom := math.Inf(1)
	b, ch := *o.Baseline, *o.Change
	if l.MaxIncrease != nil {
		headroom = min(headroom, b+*l.MaxIncrease-v)
		if ch > *l.MaxIncrease {
			o.fail("up %s from the baseline's %s, more than max_increase %s", o.num(ch), o.num(b), o.num(*l.MaxIncrease))
		}
	}
	if l.MaxIncreasePct != nil {
		// The most the value may reach is the baseline plus the percentage.
		headroom = min(headroom, b*(1+*l.MaxIncreasePct/100)-v)
		switch {
		case b != 0 && 100*ch/b > *l.MaxIncreasePct:
			o.fail("up %s%% from the baseline's %s, more than max_increase_pct %s%%", numtext.Float(*o.ChangePct, -1), o.num(b), numtext.Float(*l.MaxIncreasePct, -1))
		case b == 0 && ch > 0:
			o.fail("up %s from a baseline of 0: an unbounded increase", o.num(ch))
		}
	}
	return headroom
}

// aggregate folds the selected sessions' values; Total sums the runs'
// metrics (so a ratio is the summed usage's) and the recorded figures.
// Values keep six decimals, as costs do (prices.RoundUSD): float noise
// never shows.
func aggregate(a Aggregation, m metric.Metric, picked []*Sample, runs []simulate.Metrics, values []float64) float64 {
	if a != Total {
		return prices.RoundUSD(fold(a, values))
	}
	sum := simulate.SumMetrics(runs)
	var rec metric.Recorded
	for _, p := range picked {
		rec.BreakCost += p.BreakCost
		rec.DuplicateWaste += p.DuplicateWaste
	}
	return prices.RoundUSD(m.ValueOf(&rec, &sum))
}

// top returns the three sessions with the largest values (the smallest,
// for a measure where higher is better bounded only from below).
func top(m metric.Metric, l *Limit, picked []*Sample, values []float64, lowers []bool) []Contributor {
	idx := make([]int, len(picked))
	for i := range idx {
		idx[i] = i
	}
	low := m.HigherIsBetter && l.Min != nil && l.Max == nil
	sort.SliceStable(idx, func(a, b int) bool {
		va, vb := values[idx[a]], values[idx[b]]
		if va != vb {
			return (va > vb) != low
		}
		return picked[idx[a]].Session < picked[idx[b]].Session
	})
	var out []Contributor
	for _, i := range idx {
		v := prices.RoundUSD(values[i])
		if len(out) == 3 || (v == 0 && !low) {
			break // the rest weigh nothing on a total or a maximum
		}
		out = append(out, Contributor{Session: picked[i].Session, Project: picked[i].Project, Value: v, LowerBound: lowers[i]})
	}
	return out
}

// num formats a value for a reason: as short as it can be exactly.
// num is a value of the limit's measure as a person reads it: dollars and
// percentages as every report prints them, counts with a comma every three
// digits. JSON keeps every digit (Value, Max, …).
func (o *Outcome) num(x float64) string { return o.Unit.Text(x) }

// pair is a value and the bound it broke as num prints them, or with every
// digit when num's rounding would make them look equal.
func (o *Outcome) pair(v, bound float64) (string, string) {
	a, b := o.num(v), o.num(bound)
	if a == b {
		return strconv.FormatFloat(v, 'f', -1, 64), strconv.FormatFloat(bound, 'f', -1, 64)
	}
	return a, b
}
