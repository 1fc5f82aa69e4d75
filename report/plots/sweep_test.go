package plots

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"reflect"
	"testing"

	"github.com/ctxlab/ctxlab/report/plots/plotdata/plotdatatest"
	"github.com/ctxlab/ctxlab/simulate/metric"
)

func TestSweepFilesRender(t *testing.T) {
	points, totals := plotdatatest.SweepGrid()
	files := SweepFiles(points, totals, []string{"x", "y"}, plotdatatest.Metric("total_cost_usd"),
		[]metric.Metric{plotdatatest.Metric("total_cost_usd"), plotdatatest.Metric("peak_context")}, nil, 3, Interval{}, nil, "png", Options{})
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
