package plots

import (
	"math"
	"testing"

	"github.com/ctxlab/ctxlab/simulate"
)

// The cost plot draws an interval only where one spans more than a point,
// and its axis reaches the highest.
func TestCostIntervals(t *testing.T) {
	nan := math.NaN()
	iv := Interval{Confidence: 0.95, Baseline: "observed"}
	for _, c := range []struct {
		ivs  CostIntervals
		rows int
		want bool
	}{
		{CostIntervals{Low: []float64{nan, 2}, High: []float64{nan, 3}, Interval: iv}, 2, true},
		{CostIntervals{Low: []float64{nan, 2}, High: []float64{nan, 3}}, 2, false},               // no confidence: none asked for
		{CostIntervals{Low: []float64{nan, 2}, High: []float64{nan, 2}, Interval: iv}, 2, false}, // a point
		{CostIntervals{Low: []float64{2}, High: []float64{3}, Interval: iv}, 2, false},           // not one per bar
	} {
		w := c.ivs.plotter(c.rows)
		if (w != nil) != c.want {
			t.Errorf("%+v: plotter %v, want one: %v", c.ivs, w, c.want)
			continue
		}
		if w == nil {
			continue
		}
		if _, xmax, ymin, ymax := w.DataRange(); xmax != 3 || ymin >= whiskerRow(0) || ymax != 1.5 {
			t.Errorf("range x ≤ %v, y %v…%v", xmax, ymin, ymax)
		}
	}
	if got := iv.Text(); got != "95% interval against observed" {
		t.Errorf("text %q", got)
	}
	ms := []simulate.Metrics{{TotalCost: 2.5, Cost: 2.5}, {TotalCost: 2.6, Cost: 2.6}}
	f := CostByPolicy([]string{"observed", "b"}, ms, 4, CostIntervals{Low: []float64{nan, 2}, High: []float64{nan, 3}, Interval: iv}, Options{})
	if n := len(f.Legend); n != 4 || f.Legend[n-1].Text != "the total's 95% interval against observed (bootstrap over sessions)" {
		t.Errorf("legend %+v", f.Legend)
	}
}
