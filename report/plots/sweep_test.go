package plots

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"reflect"
	"testing"

	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/metric"
	"github.com/ctxlab/ctxlab/simulate/sweep"
)

// sweepGrid is a hand-made study: two bases, one with both parameters,
// one session per point (two at the first, costing 4 and 6), summarized (and ranked) by sweep.Summarize with
// a Pareto front of cost and peak context.
func sweepGrid() ([]sweep.Point, []sweep.Total) {
	points := []sweep.Point{
		{Spec: "a:x=1,y=p", Base: "a", Values: map[string]string{"x": "1", "y": "p"}},
		{Spec: "a:x=10,y=p", Base: "a", Values: map[string]string{"x": "10", "y": "p"}},
		{Spec: "a:x=1,y=q", Base: "a", Values: map[string]string{"x": "1", "y": "q"}},
		{Spec: "a:x=10,y=q", Base: "a", Values: map[string]string{"x": "10", "y": "q"}},
		{Spec: "b:x=5", Base: "b", Values: map[string]string{"x": "5"}},
	}
	cost := []float64{4, 3, 2, 5, 1}
	peak := []int64{100, 300, 200, 50, 400}
	var rows []sweep.Row
	for i := range points {
		rows = append(rows, sweep.Row{Point: i, Session: "s", Metrics: simulate.Metrics{Calls: 1, TotalCost: cost[i], PeakContext: peak[i]}})
	}
	rows = append(rows, sweep.Row{Point: 0, Session: "t", Metrics: simulate.Metrics{Calls: 1, TotalCost: 6, PeakContext: 10}})
	c, _ := metric.Lookup("total_cost_usd")
	pk, _ := metric.Lookup("peak_context")
	return points, sweep.Summarize(points, rows, c, nil, []metric.Metric{c, pk})
}

func lookup(t *testing.T, name string) metric.Metric {
	t.Helper()
	m, err := metric.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// withoutIntervals checks that lines have no interval (NaN at every
// point: the totals were not compared) and returns them without.
func withoutIntervals(t *testing.T, lines []SweepLine) []SweepLine {
	t.Helper()
	out := make([]SweepLine, len(lines))
	for i, l := range lines {
		for k := range l.X {
			if !math.IsNaN(l.Mean[k]) || !math.IsNaN(l.Low[k]) || !math.IsNaN(l.High[k]) {
				t.Errorf("%s: interval %v %v %v without a comparison", l.Label, l.Mean[k], l.Low[k], l.High[k])
			}
		}
		l.Mean, l.Low, l.High = nil, nil, nil
		out[i] = l
	}
	return out
}

// The intervals drawn are the totals' divided by the sessions, beside
// the mean (the total divided by the sessions), sorted with their points.
func TestSweepSeriesIntervals(t *testing.T) {
	points, totals := sweepGrid()
	for i := range totals {
		if totals[i].Point == 0 { // two sessions, $10 in all
			totals[i].CILow, totals[i].CIHigh = ptr(8), ptr(13)
		}
		if totals[i].Point == 1 {
			totals[i].CILow, totals[i].CIHigh = ptr(2.5), ptr(3.5)
		}
	}
	d := SweepSeries(points, totals, "x", lookup(t, "total_cost_usd"))
	l := d.Lines[0] // a (y=p): x=1 point 0, x=10 point 1
	if l.Mean[0] != 5 || l.Low[0] != 4 || l.High[0] != 6.5 || l.Mean[1] != 3 || l.Low[1] != 2.5 || l.High[1] != 3.5 {
		t.Errorf("a (y=p): mean %v, low %v, high %v", l.Mean, l.Low, l.High)
	}
	if !math.IsNaN(d.Lines[1].Low[0]) || !hasInterval(d.Lines) || hasInterval(d.Lines[1:]) {
		t.Errorf("a (y=q) has no interval: %v", d.Lines[1].Low)
	}
}

func ptr(x float64) *float64 { return &x }

func TestSweepSeries(t *testing.T) {
	points, totals := sweepGrid()
	d := SweepSeries(points, totals, "x", lookup(t, "total_cost_usd"))
	// One session per point: its cost is the median and both percentiles;
	// the first point's two spread from 4 to 6.
	two := []float64{4, 6}
	want := []SweepLine{
		{Label: "a (y=p)", X: []float64{1, 10}, Median: []float64{simulate.Median(two), 3}, P10: []float64{simulate.Quantile(two, 10), 3}, P90: []float64{simulate.Quantile(two, 90), 3}, Points: []int{0, 1}},
		{Label: "a (y=q)", X: []float64{1, 10}, Median: []float64{2, 5}, P10: []float64{2, 5}, P90: []float64{2, 5}, Points: []int{2, 3}},
		{Label: "b", X: []float64{5}, Median: []float64{1}, P10: []float64{1}, P90: []float64{1}, Points: []int{4}},
	}
	if got := withoutIntervals(t, d.Lines); !reflect.DeepEqual(got, want) || d.Ticks != nil {
		t.Errorf("x: lines\n%+v\nwant\n%+v (ticks %v)", got, want, d.Ticks)
	}
	// 1, 5, 10: numbers, not a geometric grid.
	if !reflect.DeepEqual(d.Values, []float64{1, 5, 10}) || d.Log {
		t.Errorf("x: values %v, log %v", d.Values, d.Log)
	}
	// y's values are not numbers: ranks, named by ticks; b has no y.
	d = SweepSeries(points, totals, "y", lookup(t, "total_cost_usd"))
	if !reflect.DeepEqual(d.Ticks, []string{"p", "q"}) || len(d.Lines) != 2 || !reflect.DeepEqual(d.Lines[0].X, []float64{0, 1}) || d.Lines[0].Label != "a (x=1)" {
		t.Errorf("y: ticks %v, lines %+v", d.Ticks, d.Lines)
	}
}

func TestHeatmapSeries(t *testing.T) {
	points, totals := sweepGrid()
	hs := HeatmapSeries(points, totals, "x", "y", lookup(t, "total_cost_usd"))
	want := []HeatmapData{{
		Base: "a", ParamX: "x", ParamY: "y", Objective: "total_cost_usd",
		Xs: []string{"1", "10"}, Ys: []string{"p", "q"},
		Cells: []HeatCell{{"1", "p", 10}, {"10", "p", 3}, {"1", "q", 2}, {"10", "q", 5}},
	}}
	if !reflect.DeepEqual(hs, want) {
		t.Errorf("heatmap\n%+v\nwant\n%+v", hs, want)
	}
}

// The front is the points no other beats on both metrics, checked by
// brute force here.
func TestParetoSeries(t *testing.T) {
	points, totals := sweepGrid()
	d := ParetoSeries(points, totals, lookup(t, "total_cost_usd"), lookup(t, "peak_context"))
	if len(d.Points) != len(totals) {
		t.Fatalf("%d points, want %d", len(d.Points), len(totals))
	}
	var front []ParetoPoint
	for _, p := range d.Points {
		beaten := false
		for _, q := range d.Points {
			if q.A <= p.A && q.B <= p.B && (q.A < p.A || q.B < p.B) {
				beaten = true
			}
		}
		if !beaten {
			front = append(front, p)
		}
	}
	// best first on the first metric
	want := []ParetoPoint{
		{Policy: "b:x=5", Base: "b", Point: 4, Values: points[4].Values, A: 1, B: 400},
		{Policy: "a:x=1,y=q", Base: "a", Point: 2, Values: points[2].Values, A: 2, B: 200},
		{Policy: "a:x=10,y=q", Base: "a", Point: 3, Values: points[3].Values, A: 5, B: 50},
	}
	if !reflect.DeepEqual(d.Front, want) || len(front) != len(want) {
		t.Errorf("front %+v, want %+v (brute force: %+v)", d.Front, want, front)
	}
	if !reflect.DeepEqual(d.Bases, []string{"a", "b"}) {
		t.Errorf("bases %v, want a, b (the grid's order)", d.Bases)
	}
}

func TestSweepFilesRender(t *testing.T) {
	points, totals := sweepGrid()
	files := SweepFiles(points, totals, []string{"x", "y"}, lookup(t, "total_cost_usd"),
		[]metric.Metric{lookup(t, "total_cost_usd"), lookup(t, "peak_context")}, nil, 3, Interval{}, nil, "png", Options{})
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
		for _, format := range Formats {
			var b bytes.Buffer
			if err := f.Figure.Write(&b, format); err != nil || !drawn(b.Bytes(), format) {
				t.Errorf("%s %s: %v, %d bytes", f.Name, format, err, b.Len())
			}
		}
	}
	want := []string{"sweep-total_cost_usd-x.png", "sweep-total_cost_usd-y.png", "heatmap-total_cost_usd-a.png", "pareto-total_cost_usd-peak_context.png"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("files %v, want %v", names, want)
	}
}

// Twelve series get twelve colours, each far enough from the others (and
// from the observed run's near-black) to tell apart: at least 40 apart in
// RGB distance.
func TestPaletteTwelveDistinct(t *testing.T) {
	if len(palette) < 12 {
		t.Fatalf("%d colours, want 12", len(palette))
	}
	all := append([]color.RGBA{colorObserved}, palette...)
	for i := range all {
		for j := i + 1; j < len(all); j++ {
			a, b := all[i], all[j]
			dr, dg, db := float64(a.R)-float64(b.R), float64(a.G)-float64(b.G), float64(a.B)-float64(b.B)
			if d := math.Sqrt(dr*dr + dg*dg + db*db); d < 40 {
				t.Errorf("colours %d and %d are %.0f apart: %v %v", i, j, d, a, b)
			}
		}
	}
	names := make([]string, 13)
	for i := range names {
		names[i] = fmt.Sprintf("p%d", i)
	}
	cs := policyColors(names)
	for i := 0; i < 12; i++ {
		for j := i + 1; j < 12; j++ {
			if cs[i] == cs[j] {
				t.Errorf("series %d and %d share a colour", i, j)
			}
		}
	}
}
