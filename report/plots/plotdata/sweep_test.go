package plotdata_test

import (
	"math"
	"reflect"
	"testing"

	"github.com/ctxlab/ctxlab/internal/numstat"
	"github.com/ctxlab/ctxlab/report/plots/plotdata"
	"github.com/ctxlab/ctxlab/report/plots/plotdata/plotdatatest"
)

// withoutIntervals checks that lines have no interval (NaN at every
// point: the totals were not compared) and returns them without.
func withoutIntervals(t *testing.T, lines []plotdata.SweepLine) []plotdata.SweepLine {
	t.Helper()
	out := make([]plotdata.SweepLine, len(lines))
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
	points, totals := plotdatatest.SweepGrid()
	for i := range totals {
		if totals[i].Point == 0 { // two sessions, $10 in all
			totals[i].CILow, totals[i].CIHigh = ptr(8), ptr(13)
		}
		if totals[i].Point == 1 {
			totals[i].CILow, totals[i].CIHigh = ptr(2.5), ptr(3.5)
		}
	}
	d := plotdata.SweepSeries(points, totals, "x", plotdatatest.Metric("total_cost_usd"))
	l := d.Lines[0] // a (y=p): x=1 point 0, x=10 point 1
	if l.Mean[0] != 5 || l.Low[0] != 4 || l.High[0] != 6.5 || l.Mean[1] != 3 || l.Low[1] != 2.5 || l.High[1] != 3.5 {
		t.Errorf("a (y=p): mean %v, low %v, high %v", l.Mean, l.Low, l.High)
	}
	if !math.IsNaN(d.Lines[1].Low[0]) {
		t.Errorf("a (y=q) has no interval: %v", d.Lines[1].Low)
	}
}

func ptr(x float64) *float64 { return &x }

func TestSweepSeries(t *testing.T) {
	points, totals := plotdatatest.SweepGrid()
	d := plotdata.SweepSeries(points, totals, "x", plotdatatest.Metric("total_cost_usd"))
	// One session per point: its cost is the median and both percentiles;
	// the first point's two spread from 4 to 6.
	two := []float64{4, 6}
	want := []plotdata.SweepLine{
		{Label: "a (y=p)", X: []float64{1, 10}, Median: []float64{numstat.Median(two), 3}, P10: []float64{numstat.Quantile(two, 0.1), 3}, P90: []float64{numstat.Quantile(two, 0.9), 3}, Points: []int{0, 1}},
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
	d = plotdata.SweepSeries(points, totals, "y", plotdatatest.Metric("total_cost_usd"))
	if !reflect.DeepEqual(d.Ticks, []string{"p", "q"}) || len(d.Lines) != 2 || !reflect.DeepEqual(d.Lines[0].X, []float64{0, 1}) || d.Lines[0].Label != "a (x=1)" {
		t.Errorf("y: ticks %v, lines %+v", d.Ticks, d.Lines)
	}
}

func TestHeatmapSeries(t *testing.T) {
	points, totals := plotdatatest.SweepGrid()
	hs := plotdata.HeatmapSeries(points, totals, "x", "y", plotdatatest.Metric("total_cost_usd"))
	want := []plotdata.HeatmapData{{
		Base: "a", ParamX: "x", ParamY: "y", Objective: "total_cost_usd",
		Xs: []string{"1", "10"}, Ys: []string{"p", "q"},
		Cells: []plotdata.HeatCell{{"1", "p", 10}, {"10", "p", 3}, {"1", "q", 2}, {"10", "q", 5}},
	}}
	if !reflect.DeepEqual(hs, want) {
		t.Errorf("heatmap\n%+v\nwant\n%+v", hs, want)
	}
}

// The front is the points no other beats on both metrics, checked by
// brute force here.
func TestParetoSeries(t *testing.T) {
	points, totals := plotdatatest.SweepGrid()
	d := plotdata.ParetoSeries(points, totals, plotdatatest.Metric("total_cost_usd"), plotdatatest.Metric("peak_context"))
	if len(d.Points) != len(totals) {
		t.Fatalf("%d points, want %d", len(d.Points), len(totals))
	}
	var front []plotdata.ParetoPoint
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
	want := []plotdata.ParetoPoint{
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

// Each place of the front is labelled by its points' policies and swept
// values; ties share a label, in the grid's order.
func TestFrontLabels(t *testing.T) {
	got := plotdata.FrontLabels(plotdatatest.Pareto())
	want := []plotdata.FrontLabel{
		{1, 30, "p2:w=1"},
		{2, 20, "p0 k=2, 4; p1 k=2"},
		{3, 10, "p1 k=8"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("labels\n%+v\nwant\n%+v", got, want)
	}
	// The golden study: each base's k=2, p4's tied with p2's.
	points, totals := plotdatatest.GeometricGrid(5, map[int]int{4: 2})
	d5 := plotdata.ParetoSeries(points, totals, plotdatatest.Metric("total_cost_usd"), plotdatatest.Metric("peak_context"))
	var texts []string
	for _, l := range plotdata.FrontLabels(d5) {
		texts = append(texts, l.Text)
	}
	if want := []string{"p0 k=2", "p1 k=2", "p2 k=2; p4 k=2", "p3 k=2"}; !reflect.DeepEqual(texts, want) {
		t.Errorf("labels %q, want %q", texts, want)
	}
	// Two bases of one policy are named by their specs; past two bases,
	// the points left are counted; points of a base apart in two
	// parameters are each named.
	kv := func(k, v string) map[string]string { return map[string]string{"k": k, "v": v} }
	d := plotdata.ParetoData{Bases: []string{"a:w=1", "a:w=2", "b", "c"}, Front: []plotdata.ParetoPoint{
		{Base: "a:w=1", Point: 0, Values: kv("1", "x")}, {Base: "a:w=1", Point: 1, Values: kv("2", "y")},
		{Base: "a:w=2", Point: 2, Values: kv("1", "x")},
		{Base: "b", Point: 3, Values: kv("1", "x")}, {Base: "c", Point: 4, Values: kv("1", "x")}, {Base: "c", Point: 5, Values: kv("2", "x")},
	}}
	if got := plotdata.FrontLabels(d); len(got) != 1 || got[0].Text != "a:w=1 k=1, v=x; a:w=1 k=2, v=y; a:w=2 k=1, v=x; 3 more points" {
		t.Errorf("labels %+v", got)
	}
}
