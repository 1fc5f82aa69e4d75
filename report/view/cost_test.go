package view_test

import (
	"testing"

	"github.com/ctxlab/ctxlab/report/view"
	"github.com/ctxlab/ctxlab/simulate"
)

// A cost is as wide as its dollars and one ≥ at most, however many calls
// it leaves out, so that a totals row never widens its column.
func TestCostText(t *testing.T) {
	for _, c := range []struct {
		cost            float64
		unpriced, calls int
		lower           bool
		want            string
	}{
		{428.88, 0, 10, false, "$428.88"},
		{428.88, 264, 1000, false, "≥$428.88"},
		{428.88, 0, 10, true, "≥$428.88"},
		{428.88, 1, 10, true, "≥$428.88"},
		{0, 3, 3, false, "unpriced"},
		{0, 0, 0, false, "$0.00"},
	} {
		if got := view.CostText(c.cost, c.unpriced, c.calls, c.lower); got != c.want {
			t.Errorf("CostText(%v, %d, %d, %v) = %q, want %q", c.cost, c.unpriced, c.calls, c.lower, got, c.want)
		}
	}
	for _, c := range []struct {
		m    simulate.Metrics
		want string
	}{
		{simulate.Metrics{TotalCost: 5}, "$5.00"},
		{simulate.Metrics{TotalCost: 5, AgentsUnpriced: 2}, "≥$5.00"},
		{simulate.Metrics{TotalCost: 5, OutputLowerBound: true}, "≥$5.00"},
		{simulate.Metrics{Unpriced: 4}, "unpriced"},
	} {
		if got := view.TotalText(c.m); got != c.want {
			t.Errorf("TotalText(%+v) = %q, want %q", c.m, got, c.want)
		}
	}
}

func TestLowerBoundNote(t *testing.T) {
	for _, c := range []struct {
		placeholders bool
		unpriced     int
		want         string
	}{
		{false, 0, ""},
		{true, 0, "≥: a lower bound: output counts are Claude Code 2.1.9–2.1.41 placeholders"},
		{false, 1, "≥: a lower bound: the cost leaves out 1 call of a model without a price"},
		{true, 1264, "≥: a lower bound: output counts are Claude Code 2.1.9–2.1.41 placeholders; the cost leaves out 1,264 calls of models without a price"},
	} {
		if got := view.LowerBoundNote(c.placeholders, c.unpriced); got != c.want {
			t.Errorf("LowerBoundNote(%v, %d) = %q, want %q", c.placeholders, c.unpriced, got, c.want)
		}
	}
}
