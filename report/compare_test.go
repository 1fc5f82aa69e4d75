package report

import (
	"testing"

	"github.com/ctxlab/ctxlab/simulate"
)

func TestDeltas(t *testing.T) {
	runs := []Run{
		{Policy: "a", Metrics: simulate.Metrics{TotalCost: 2, PeakContext: 1000}},
		{Policy: "b", Metrics: simulate.Metrics{TotalCost: 3.5, PeakContext: 400}},
	}
	setDeltas(runs)
	if d := runs[0].Delta; d.TotalCost != 0 || d.PeakContext != 0 || d.TotalCostPct == nil || *d.TotalCostPct != 0 {
		t.Errorf("baseline delta %+v, want zeros", d)
	}
	if d := runs[1].Delta; d.TotalCost != 1.5 || d.PeakContext != -600 || d.TotalCostPct == nil || *d.TotalCostPct != 75 {
		t.Errorf("delta %+v, want +1.5 USD, +75%%, -600 tokens", d)
	}
	free := []Run{{Metrics: simulate.Metrics{}}, {Metrics: simulate.Metrics{TotalCost: 1}}}
	setDeltas(free)
	if free[1].Delta.TotalCostPct != nil || free[1].Delta.TotalCost != 1 {
		t.Errorf("delta against a free baseline %+v: want no percentage", free[1].Delta)
	}
}
