package plotdata

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/simulate/metric"
	"github.com/ctxlab/ctxlab/simulate/paired"
	"github.com/ctxlab/ctxlab/simulate/sweep"
)

// SweepLine is one series of a sweep plot: one base policy (and one
// combination of the other swept parameters' values) across a parameter,
// with the objective's per-session median and p10–p90 spread at each
// value, and the mean per session (the total ÷ the sessions) with its
// interval against the baseline (the total's, Total.CILow and CIHigh,
// ÷ the sessions; NaN without one).
type SweepLine struct {
	Label            string
	X                []float64
	Median, P10, P90 []float64
	Mean, Low, High  []float64
	Points           []int // the points drawn, indexes into the grid
}

// SweepData is the numbers behind a sweep plot. Ticks name the x values
// when the parameter's values are not all numbers (then X is their rank).
// Values are the numeric values, ascending; Log is set when they form a
// geometric grid (2, 4, 8, 16, 32), which a log axis spaces evenly.
type SweepData struct {
	Param     string
	Objective metric.Metric
	Lines     []SweepLine
	Ticks     []string
	Values    []float64
	Log       bool
	// Interval names the lines' intervals; zero: none drawn.
	Interval Interval
	// Refs are runs drawn across the plot for comparison (the baseline,
	// Claude Code's own scheme): a horizontal line at each one's median
	// per session, the statistic the series' lines draw.
	Refs []RefLine
	// LowerBound: some point's total of the objective rests on
	// placeholder output counts, as the tables mark it.
	LowerBound bool
}

// RefLine is a reference run in a sweep plot: its label and its median of
// the objective per session, a lower bound when its total is.
type RefLine struct {
	Label      string
	Y          float64
	LowerBound bool
}

// SweepRefs are the reference runs' lines of a sweep plot of objective.
func SweepRefs(refs []sweep.Reference, objective metric.Metric) []RefLine {
	out := make([]RefLine, len(refs))
	for i, r := range refs {
		out[i] = RefLine{Label: r.Label, Y: r.Total.Median, LowerBound: objective.LowerBound(&r.Total.Metrics)}
	}
	return out
}

// SweepSeries extracts the objective against param from the sweep's
// totals (in any order: Total.Point indexes points), a line per series in
// the grid's order, its points by x. Points whose base does not have param
// are left out.
func SweepSeries(points []sweep.Point, totals []sweep.Total, param string, objective metric.Metric) SweepData {
	d := SweepData{Param: param, Objective: objective}
	byPoint := make([]*sweep.Total, len(points))
	for i := range totals {
		byPoint[totals[i].Point] = &totals[i]
	}
	numeric := true
	var values []string
	seen := map[string]bool{}
	for _, p := range points {
		v, ok := p.Values[param]
		if !ok {
			continue
		}
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			numeric = false
		}
		if !seen[v] {
			seen[v] = true
			values = append(values, v)
		}
	}
	rank := map[string]float64{}
	if !numeric {
		d.Ticks = values
		for i, v := range values {
			rank[v] = float64(i)
		}
	} else {
		for _, v := range values {
			x, _ := strconv.ParseFloat(v, 64)
			d.Values = append(d.Values, x)
		}
		sort.Float64s(d.Values)
		d.Values = slices.Compact(d.Values) // "8" and "8.0"
		d.Log = geometric(d.Values)
	}
	index := map[string]int{}
	for pi, p := range points {
		v, ok := p.Values[param]
		t := byPoint[pi]
		if !ok || t == nil {
			continue
		}
		key := lineLabel(p, param)
		li, ok := index[key]
		if !ok {
			li = len(d.Lines)
			index[key] = li
			d.Lines = append(d.Lines, SweepLine{Label: key})
		}
		x := rank[v]
		if numeric {
			x, _ = strconv.ParseFloat(v, 64)
		}
		l := &d.Lines[li]
		l.X = append(l.X, x)
		l.Median, l.P10, l.P90 = append(l.Median, t.Median), append(l.P10, t.P10), append(l.P90, t.P90)
		mean, lo, hi := math.NaN(), math.NaN(), math.NaN()
		if n := float64(t.Sessions); n > 0 && t.CILow != nil && t.CIHigh != nil {
			mean, lo, hi = objective.Value(&t.Metrics)/n, *t.CILow/n, *t.CIHigh/n
		}
		l.Mean, l.Low, l.High = append(l.Mean, mean), append(l.Low, lo), append(l.High, hi)
		l.Points = append(l.Points, pi)
		d.LowerBound = d.LowerBound || objective.LowerBound(&t.Metrics)
	}
	for i := range d.Lines {
		sortLine(&d.Lines[i])
	}
	return d
}

// lineLabel names a point's series: its base policy, and the values of
// the swept parameters other than param.
func lineLabel(p sweep.Point, param string) string {
	var others []string
	for k, v := range p.Values {
		if k != param {
			others = append(others, k+"="+v)
		}
	}
	sort.Strings(others)
	if len(others) == 0 {
		return p.Base
	}
	return p.Base + " (" + strings.Join(others, ", ") + ")"
}

// sortLine orders a line's points by x.
func sortLine(l *SweepLine) {
	idx := make([]int, len(l.X))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return l.X[idx[a]] < l.X[idx[b]] })
	perm := func(s []float64) []float64 {
		out := make([]float64, len(s))
		for i, j := range idx {
			out[i] = s[j]
		}
		return out
	}
	pts := make([]int, len(idx))
	for i, j := range idx {
		pts[i] = l.Points[j]
	}
	l.X, l.Median, l.P10, l.P90, l.Points = perm(l.X), perm(l.Median), perm(l.P10), perm(l.P90), pts
	l.Mean, l.Low, l.High = perm(l.Mean), perm(l.Low), perm(l.High)
}

// HeatCell is one cell of a heatmap: the objective's total at one value
// of each of the two parameters.
type HeatCell struct {
	X, Y  string
	Value float64
}

// HeatmapData is the numbers behind a heatmap of one base policy.
type HeatmapData struct {
	Base, ParamX, ParamY, Objective string
	Xs, Ys                          []string // in grid order
	Cells                           []HeatCell
	// LowerBound: some cell's total rests on placeholder output counts;
	// every cell is then marked ≥ (the sessions are the same).
	LowerBound bool
}

// HeatmapSeries extracts, for each base policy that has both parameters,
// the objective's total at each pair of their values.
func HeatmapSeries(points []sweep.Point, totals []sweep.Total, px, py string, objective metric.Metric) []HeatmapData {
	byPoint := make([]*sweep.Total, len(points))
	for i := range totals {
		byPoint[totals[i].Point] = &totals[i]
	}
	var out []HeatmapData
	index := map[string]int{}
	for pi, p := range points {
		vx, okx := p.Values[px]
		vy, oky := p.Values[py]
		t := byPoint[pi]
		if !okx || !oky || t == nil {
			continue
		}
		hi, ok := index[p.Base]
		if !ok {
			hi = len(out)
			index[p.Base] = hi
			out = append(out, HeatmapData{Base: p.Base, ParamX: px, ParamY: py, Objective: objective.Name})
		}
		h := &out[hi]
		if !contains(h.Xs, vx) {
			h.Xs = append(h.Xs, vx)
		}
		if !contains(h.Ys, vy) {
			h.Ys = append(h.Ys, vy)
		}
		h.Cells = append(h.Cells, HeatCell{X: vx, Y: vy, Value: objective.Value(&t.Metrics)})
		h.LowerBound = h.LowerBound || objective.LowerBound(&t.Metrics)
	}
	return out
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// ParetoData is the numbers behind a Pareto plot: every point's totals of
// the two metrics (in the totals' order), the base policies in the grid's
// order, and the front, best first on the first metric.
type ParetoData struct {
	A, B   metric.Metric
	Bases  []string
	Points []ParetoPoint
	Front  []ParetoPoint
	// Steps says, for each step along the front (from Front[k-1] to
	// Front[k]), whether the paired test found the two points differ on
	// either metric; nil when the steps were not tested (MarkSteps).
	Steps []StepTest
	// Refs are runs drawn beside the points for comparison (the
	// baseline, Claude Code's own scheme), each marked and labelled at
	// its totals.
	Refs []RefPoint
	// LowerA and LowerB: some point's (or reference's) total of A, of B,
	// rests on placeholder output counts.
	LowerA, LowerB bool
}

// RefPoint is a reference run in a Pareto plot: its legend's label, the
// shorter name written beside it (its policy), its totals and whether
// they are lower bounds.
type RefPoint struct {
	Label, Name    string
	A, B           float64
	LowerA, LowerB bool
}

// ParetoRefs are the reference runs' points of a Pareto plot of a and b.
func ParetoRefs(refs []sweep.Reference, a, b metric.Metric) []RefPoint {
	out := make([]RefPoint, len(refs))
	for i, r := range refs {
		m := &r.Total.Metrics
		out[i] = RefPoint{Label: r.Label, Name: r.Total.Policy, A: a.Value(m), B: b.Value(m), LowerA: a.LowerBound(m), LowerB: b.LowerBound(m)}
	}
	return out
}

// StepTest is what the paired test said of one step along the front.
type StepTest int8

// A step along the front was not tested, or was and found a significant
// difference on either metric, or found none on both.
const (
	StepUntested StepTest = iota
	StepDiffers
	StepSame
)

// MarkSteps records which steps along the front differ significantly, from
// sweep's front comparisons (each point of the front against the one
// before it, on each metric; sweep.FrontSteps): a comparison's interval
// decides, and one without an interval leaves the step untested.
func (d *ParetoData) MarkSteps(cs []paired.Comparison) {
	if len(cs) == 0 || len(d.Front) < 2 {
		return
	}
	d.Steps = make([]StepTest, len(d.Front)-1)
	for k := range d.Steps {
		from, to := d.Front[k].Policy, d.Front[k+1].Policy
		for _, c := range cs {
			if c.Baseline != from || c.Policy != to {
				continue
			}
			switch {
			case !c.Decided(): // no interval (--bootstrap 0): no verdict
			case c.Significant:
				d.Steps[k] = StepDiffers
			case d.Steps[k] == StepUntested:
				d.Steps[k] = StepSame
			}
		}
	}
}

// ParetoPoint is one grid point's totals of the two metrics. Point indexes
// the grid; Values are its swept parameters' values.
type ParetoPoint struct {
	Policy string
	Base   string
	Point  int
	Values map[string]string
	A, B   float64
}

// ParetoSeries extracts the Pareto plot's numbers from the ranked totals
// of the grid's points.
func ParetoSeries(points []sweep.Point, totals []sweep.Total, a, b metric.Metric) ParetoData {
	d := ParetoData{A: a, B: b}
	for _, p := range points {
		if !slices.Contains(d.Bases, p.Base) {
			d.Bases = append(d.Bases, p.Base)
		}
	}
	pt := func(t *sweep.Total) ParetoPoint {
		q := ParetoPoint{Policy: t.Policy, Point: t.Point, Values: t.Values, A: a.Value(&t.Metrics), B: b.Value(&t.Metrics)}
		if t.Point >= 0 && t.Point < len(points) {
			q.Base = points[t.Point].Base
		}
		return q
	}
	for i := range totals {
		d.Points = append(d.Points, pt(&totals[i]))
		d.LowerA = d.LowerA || a.LowerBound(&totals[i].Metrics)
		d.LowerB = d.LowerB || b.LowerBound(&totals[i].Metrics)
	}
	for _, t := range sweep.Front(totals, a) {
		d.Front = append(d.Front, pt(&t))
	}
	return d
}

// FrontLabel is the text written next to one place of the front: the
// points there (several when they tie on both metrics), named by their
// base policy and swept values.
type FrontLabel struct {
	A, B float64
	Text string
}

// FrontLabels names the front's places, best first: "keep-last-n n=2".
// Points that tie on both metrics share one label (groupLabel): by base,
// the values of the one parameter a base's points differ in listed
// ("claude-code keep=2, 4, 8; partial keep=2"), at most maxLabelNames
// bases and a count of the other points. A base is named by its policy
// alone unless two bases share it.
func FrontLabels(d ParetoData) []FrontLabel {
	short := shortBases(d.Bases)
	var out []FrontLabel
	for i := 0; i < len(d.Front); {
		j := i + 1
		for j < len(d.Front) && d.Front[j].A == d.Front[i].A && d.Front[j].B == d.Front[i].B {
			j++
		}
		group := slices.Clone(d.Front[i:j])
		slices.SortStableFunc(group, func(x, y ParetoPoint) int { return x.Point - y.Point })
		out = append(out, FrontLabel{A: group[0].A, B: group[0].B, Text: groupLabel(group, short)})
		i = j
	}
	return out
}

// shortBases names each base by its policy (the spec before ":") when no
// other base has the same policy, else by its whole spec.
func shortBases(bases []string) map[string]string {
	count := map[string]int{}
	name := func(b string) string { n, _, _ := strings.Cut(b, ":"); return n }
	for _, b := range bases {
		count[name(b)]++
	}
	out := map[string]string{}
	for _, b := range bases {
		out[b] = b
		if count[name(b)] == 1 {
			out[b] = name(b)
		}
	}
	return out
}

// pointName is a point as a label names it: its base and swept values.
func pointName(p ParetoPoint, short map[string]string) string {
	base := short[p.Base]
	if base == "" {
		base = p.Policy
	}
	var kv []string
	for _, k := range sortedKeys(p.Values) {
		kv = append(kv, k+"="+p.Values[k])
	}
	if len(kv) == 0 {
		return p.Base
	}
	return base + " " + strings.Join(kv, ", ")
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// maxLabelNames is the most base policies one label of tied points names.
const maxLabelNames = 2

// groupLabel names tied points: by base policy, in the order of their
// first point, each base's points merged when they differ in one
// parameter; beyond maxLabelNames bases, a count of the points left.
func groupLabel(g []ParetoPoint, short map[string]string) string {
	var order []string
	byBase := map[string][]ParetoPoint{}
	for _, p := range g {
		if _, ok := byBase[p.Base]; !ok {
			order = append(order, p.Base)
		}
		byBase[p.Base] = append(byBase[p.Base], p)
	}
	var names []string
	for i, b := range order {
		if i == maxLabelNames {
			rest := 0
			for _, b := range order[i:] {
				rest += len(byBase[b])
			}
			names = append(names, numtext.Count(rest, "more point", "more points"))
			break
		}
		names = append(names, baseLabel(byBase[b], short))
	}
	return strings.Join(names, "; ")
}

// baseLabel names points of one base: one point by its values; points
// that differ in one parameter by that parameter's values ("claude-code
// keep=2, 4, 8"); others by each one's values.
func baseLabel(g []ParetoPoint, short map[string]string) string {
	if len(g) == 1 {
		return pointName(g[0], short)
	}
	k, ok := oneParamApart(g)
	if !ok {
		names := make([]string, len(g))
		for i, p := range g {
			names[i] = pointName(p, short)
		}
		return strings.Join(names, "; ")
	}
	var kv []string
	for _, key := range sortedKeys(g[0].Values) {
		if key != k {
			kv = append(kv, key+"="+g[0].Values[key])
		}
	}
	vals := make([]string, len(g))
	for i, p := range g {
		vals[i] = p.Values[k]
	}
	kv = append(kv, k+"="+strings.Join(vals, ", "))
	return short[g[0].Base] + " " + strings.Join(kv, ", ")
}

// oneParamApart reports the parameter in which points of one base differ,
// when they have the same parameters and differ in that one alone.
func oneParamApart(g []ParetoPoint) (string, bool) {
	keys := sortedKeys(g[0].Values)
	var differ []string
	for _, p := range g {
		if !slices.Equal(sortedKeys(p.Values), keys) {
			return "", false
		}
		for _, k := range keys {
			if p.Values[k] != g[0].Values[k] && !slices.Contains(differ, k) {
				differ = append(differ, k)
			}
		}
	}
	if len(differ) != 1 {
		return "", false
	}
	return differ[0], true
}

// geometric reports whether sorted distinct values form a geometric
// progression of at least three positive terms (2, 4, 8; 1, 10, 100): a
// grid swept by a factor, which a log axis spaces evenly.
func geometric(vs []float64) bool {
	if len(vs) < 3 || !(vs[0] > 0) {
		return false
	}
	r := vs[1] / vs[0]
	if !(r > 1) || math.IsInf(r, 0) {
		return false
	}
	for i := 2; i < len(vs); i++ {
		if q := vs[i] / vs[i-1]; math.Abs(q-r) > 1e-6*r {
			return false
		}
	}
	return true
}

// Interval says what the interval bars of a plot are: their confidence
// (0.95) and the run they are against ("observed"); a zero Interval
// draws none.
type Interval struct {
	Confidence float64
	Baseline   string
}

// Text is "95% interval against observed".
func (iv Interval) Text() string {
	return numtext.Float(math.Round(iv.Confidence*1e8)/1e6, -1) + "% interval against " + iv.Baseline
}
