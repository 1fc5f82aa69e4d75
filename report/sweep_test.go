package report

import (
	"slices"
	"testing"

	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/metric"
	"github.com/ctxlab/ctxlab/simulate/sweep"
)

// NewSweepDocument orders the rows by point, then as the inputs came,
// names the study's choices, and never leaves a list null.
func TestNewSweepDocument(t *testing.T) {
	points := []sweep.Point{{Spec: "keep-last-n:n=2", Values: map[string]string{"n": "2"}}, {Spec: "keep-last-n:n=4", Values: map[string]string{"n": "4"}}}
	obj, _ := metric.Lookup("total_cost_usd")
	peak, _ := metric.Lookup("peak_context")
	con, err := sweep.ParseConstraint("peak_context<=100")
	if err != nil {
		t.Fatal(err)
	}
	rows := []sweep.Row{
		{Point: 1, Session: "a", Metrics: simulate.Metrics{Calls: 1, TotalCost: 4}},
		{Point: 0, Session: "a", Metrics: simulate.Metrics{Calls: 1, TotalCost: 1}},
		{Point: 1, Session: "b", Metrics: simulate.Metrics{Calls: 1, TotalCost: 5}},
		{Point: 0, Session: "b", Metrics: simulate.Metrics{Calls: 1, TotalCost: 2}},
	}
	doc := NewSweepDocument("v1", SweepGrid{Points: points}, obj, []sweep.Constraint{con}, []metric.Metric{obj, peak}, nil, rows, nil)
	var got []string
	for _, r := range doc.Rows {
		got = append(got, r.Policy+"/"+r.Session)
	}
	if want := []string{"keep-last-n:n=2/a", "keep-last-n:n=2/b", "keep-last-n:n=4/a", "keep-last-n:n=4/b"}; !slices.Equal(got, want) {
		t.Errorf("rows %v, want %v", got, want)
	}
	if doc.Schema != SchemaSweep || doc.Ctxlab != "v1" || doc.Objective != "total_cost_usd" || doc.Rows[2].Values["n"] != "4" {
		t.Errorf("document %+v", doc)
	}
	if !slices.Equal(doc.Constraints, []string{con.String()}) || !slices.Equal(doc.Pareto, []string{"total_cost_usd", "peak_context"}) {
		t.Errorf("constraints %q, pareto %q", doc.Constraints, doc.Pareto)
	}
	if doc.Errors == nil || doc.Inputs == nil || len(doc.Totals) != 2 || doc.Totals[0].Policy != "keep-last-n:n=2" {
		t.Errorf("errors %v, inputs %v, totals %+v", doc.Errors, doc.Inputs, doc.Totals)
	}
}

// A session without a call is counted once, however many points.
func TestSweepWithoutCalls(t *testing.T) {
	points := []sweep.Point{{Spec: "keep-last-n:n=2"}, {Spec: "keep-last-n:n=4"}}
	obj, _ := metric.Lookup("total_cost_usd")
	rows := []sweep.Row{
		{Point: 0, Session: "a", Metrics: simulate.Metrics{Calls: 1, TotalCost: 1}},
		{Point: 0, Session: "b"},
		{Point: 1, Session: "a", Metrics: simulate.Metrics{Calls: 1, TotalCost: 2}},
		{Point: 1, Session: "b"},
	}
	if doc := NewSweepDocument("v1", SweepGrid{Points: points}, obj, nil, nil, nil, rows, nil); doc.SessionsWithoutCalls != 1 || doc.Totals[0].Sessions != 2 {
		t.Errorf("%d sessions without calls, %d sessions a point; want 1 and 2", doc.SessionsWithoutCalls, doc.Totals[0].Sessions)
	}
}
