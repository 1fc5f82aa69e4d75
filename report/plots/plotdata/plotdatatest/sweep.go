package plotdatatest

import (
	"fmt"

	"github.com/ctxlab/ctxlab/report/plots/plotdata"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/metric"
	"github.com/ctxlab/ctxlab/simulate/sweep"
)

// SweepGrid is a hand-made study: two bases, one with both parameters,
// one session per point (two at the first, costing 4 and 6), summarized (and ranked) by sweep.Summarize with
// a Pareto front of cost and peak context.
func SweepGrid() ([]sweep.Point, []sweep.Total) {
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

// Metric is the registered metric name; it panics on an unknown name.
func Metric(name string) metric.Metric {
	m, err := metric.Lookup(name)
	if err != nil {
		panic(err)
	}
	return m
}

// GeometricGrid is a study of n bases over k = 2, 4, 8, 16, 32, two
// sessions per point: base i's sessions cost i+k/32 and i+1+k/32, so its
// median is their mean, i+0.5+k/32, its p10 (nearest rank) i+k/32 and its
// p90 i+1+k/32. Its peak context is 1,000 × (n−i) at every k: the front
// is each base's k=2, cheaper and larger the lower i. A base listed in
// same costs and peaks exactly as the base it maps to.
func GeometricGrid(n int, same map[int]int) ([]sweep.Point, []sweep.Total) {
	var points []sweep.Point
	var rows []sweep.Row
	for i := range n {
		base := fmt.Sprintf("p%d", i)
		cost := i
		if j, ok := same[i]; ok {
			cost = j
		}
		for _, k := range []int{2, 4, 8, 16, 32} {
			v := fmt.Sprint(k)
			points = append(points, sweep.Point{Spec: base + ":k=" + v, Base: base, Values: map[string]string{"k": v}})
			pi := len(points) - 1
			for s := range 2 {
				c := float64(cost+s) + float64(k)/32
				rows = append(rows, sweep.Row{Point: pi, Session: fmt.Sprint(s), Metrics: simulate.Metrics{Calls: 1, TotalCost: c, PeakContext: int64(1000 * (n - cost))}})
			}
		}
	}
	c, _ := metric.Lookup("total_cost_usd")
	pk, _ := metric.Lookup("peak_context")
	return points, sweep.Summarize(points, rows, c, nil, []metric.Metric{c, pk})
}

// Pareto: four bases; p0 and p1 tie on the front at one place for
// every k (p0's k=2 and k=4, p1's k=2), p2 alone, p3 behind.
func Pareto() plotdata.ParetoData {
	pt := func(base string, i int, v map[string]string, a, b float64) plotdata.ParetoPoint {
		return plotdata.ParetoPoint{Policy: base, Base: base, Point: i, Values: v, A: a, B: b}
	}
	k := func(v string) map[string]string { return map[string]string{"k": v} }
	front := []plotdata.ParetoPoint{
		pt("p2:w=1", 5, nil, 1, 30),
		pt("p0", 1, k("4"), 2, 20), pt("p0", 0, k("2"), 2, 20), pt("p1", 3, k("2"), 2, 20),
		pt("p1", 4, k("8"), 3, 10),
	}
	all := append(append([]plotdata.ParetoPoint(nil), front...), pt("p3:w=1", 6, nil, 4, 40), pt("p1", 2, k("4"), 3.5, 25))
	return plotdata.ParetoData{A: Metric("total_cost_usd"), B: Metric("peak_context"), Bases: []string{"p0", "p1", "p2:w=1", "p3:w=1"}, Points: all, Front: front}
}
