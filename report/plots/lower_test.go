package plots

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/report/plots/plotdata"
	"github.com/ctxlab/ctxlab/report/plots/plotdata/plotdatatest"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/sweep"
)

// TestLowerBoundsMarked: a figure that rests on placeholder output counts
// (Claude Code 2.1.9–2.1.41) is marked as the tables mark it: ≥ before
// each such number the plot writes (a run's cost in the legend, a bar's
// note, a reference's median, a heatmap's cells), "a lower bound" on its
// axis, and a legend entry that says why; the same figures without
// placeholders are marked nowhere.
func TestLowerBoundsMarked(t *testing.T) {
	cost, peak := plotdatatest.Metric("total_cost_usd"), plotdatatest.Metric("peak_context")
	for _, lower := range []bool{false, true} {
		runs := plotdatatest.Synthetic()
		for _, r := range runs {
			r.Metrics.OutputLowerBound = lower
		}
		pols, ms := plotdatatest.Policies()
		for i := range ms {
			ms[i].OutputLowerBound = lower
		}
		points, totals := plotdatatest.GeometricGrid(2, nil)
		for i := range totals {
			totals[i].Metrics.OutputLowerBound = lower
		}
		ref := sweep.NewReference("observed (baseline)", "observed", []simulate.Metrics{{Calls: 1, TotalCost: 1.5, OutputLowerBound: lower}}, cost)
		files := SweepFiles(points, totals, []string{"k", "k"}, cost, nil, nil, 2, Interval{}, []sweep.Reference{ref}, "svg", Options{})
		sw := files[0].Figure
		heat := files[len(files)-1].Figure
		pd := plotdata.ParetoSeries(points, totals, cost, peak)
		pd.Refs = plotdata.ParetoRefs([]sweep.Reference{ref}, cost, peak)
		figs := map[string]*Figure{
			"cost": Cost(runs, Options{Session: "synthetic"}), "total-cost": CostByPolicy(pols, ms, 7, CostIntervals{}, Options{}),
			"sweep": sw, "heatmap": heat, "pareto": Pareto(pd, 2, Options{}),
		}
		want := map[string][]string{ // what each writes marked
			"cost": {"observed ≥$", "claude-code ≥$"}, "total-cost": {"≥$15.96", "≥$16.56 (+3.8%)"},
			"sweep": {"its median per session, ≥$1.50"}, "heatmap": {">≥5.00<"},
		}
		for name, f := range figs {
			var b bytes.Buffer
			if err := f.Write(&b, "svg"); err != nil {
				t.Fatal(err)
			}
			svg := b.String()
			entry := slices.ContainsFunc(f.Legend, func(e LegendEntry) bool { return e.Text == lowerBoundNote })
			axis := strings.Contains(svg, ">≥ ")
			if entry != lower || (name != "heatmap" && axis != lower) {
				t.Errorf("lower %v, %s: legend entry %v, axis marked %v", lower, name, entry, axis)
			}
			for _, w := range want[name] {
				if strings.Contains(svg, w) != lower {
					t.Errorf("lower %v, %s: %q written %v", lower, name, w, !lower)
				}
			}
			if !lower && strings.Contains(svg, "≥") {
				t.Errorf("%s: ≥ without a lower bound", name)
			}
		}
	}
}
