package plots

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/ctxlab/ctxlab/report/plots/axis"
	"github.com/ctxlab/ctxlab/report/plots/plotdata"
	"github.com/ctxlab/ctxlab/report/plots/plotdata/plotdatatest"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/metric"
	"github.com/ctxlab/ctxlab/simulate/paired"
	"github.com/ctxlab/ctxlab/simulate/sweep"
)

func sweepFigure(t *testing.T, n int, same map[int]int) (plotdata.SweepData, *Figure) {
	t.Helper()
	points, totals := plotdatatest.GeometricGrid(n, same)
	d := plotdata.SweepSeries(points, totals, "k", plotdatatest.Metric("total_cost_usd"))
	return d, Sweep(d, 2, Options{})
}

// A geometric grid (2, 4, …, 32) is drawn on a log axis, a tick at each
// value: 8 falls halfway between 2 and 32.
func TestSweepLogAxis(t *testing.T) {
	d, f := sweepFigure(t, 1, nil)
	if !d.Log || !reflect.DeepEqual(d.Values, []float64{2, 4, 8, 16, 32}) {
		t.Fatalf("log %v, values %v", d.Log, d.Values)
	}
	if l := d.Lines[0]; l.Median[0] != 0.5625 || l.P10[0] != 0.0625 || l.P90[4] != 2 {
		t.Errorf("line %+v", l)
	}
	p := f.Panels[0]
	if _, ok := p.X.Scale.(axis.Log2Scale); !ok {
		t.Fatalf("x scale %T, want axis.Log2Scale", p.X.Scale)
	}
	var vals []float64
	var labels []string
	for _, tk := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
		vals, labels = append(vals, tk.Value), append(labels, tk.Label)
	}
	if !reflect.DeepEqual(vals, []float64{2, 4, 8, 16, 32}) || !reflect.DeepEqual(labels, []string{"2", "4", "8", "16", "32"}) {
		t.Errorf("x ticks %v %q", vals, labels)
	}
	if got := p.X.Norm(8); got != 0.5 {
		t.Errorf("8 at %v of the axis, want 0.5", got)
	}
	if p.X.Label.Text != "k (log scale)" {
		t.Errorf("x label %q", p.X.Label.Text)
	}
}

// The y axis names the metric and its unit, and its ticks are in the
// unit's style.
func TestSweepAxisUnits(t *testing.T) {
	_, f := sweepFigure(t, 1, nil)
	p := f.Panels[0]
	if p.Y.Label.Text != "Total cost per session (USD)" {
		t.Errorf("y label %q", p.Y.Label.Text)
	}
	// Costs from $0.0625 (p10 at k=2) to $2 (p90 at k=32), padded by 6%
	// of the span: ticks every $0.50 (the first round step ≥ 2.17/5),
	// two decimals.
	if got, _ := majorLabels(p.Y.Tick.Marker, p.Y.Min, p.Y.Max); !reflect.DeepEqual(got, []string{"$0.00", "$0.50", "$1.00", "$1.50", "$2.00"}) {
		t.Errorf("y ticks %q (range %v to %v)", got, p.Y.Min, p.Y.Max)
	}
	for _, c := range []struct {
		metric, label string
		lo, hi        float64
		ticks         []string
	}{
		{"total_cost_usd", "Total cost per session (USD)", 0, 3, []string{"$0", "$1", "$2", "$3"}},
		{"peak_context", "Peak context per session (tokens)", 0, 200000, []string{"0", "50,000", "100,000", "150,000", "200,000"}},
		{"cache_hit_ratio", "Cache hit ratio per session (%)", 0.5, 1, []string{"50%", "60%", "70%", "80%", "90%", "100%"}},
		{"compactions", "Compactions per session", 0, 4, []string{"0", "1", "2", "3", "4"}},
		{"overflows", "Overflows per session (calls)", 0, 4, []string{"0", "1", "2", "3", "4"}},
	} {
		m := plotdatatest.Metric(c.metric)
		if got := axisLabel(m, "per session"); got != c.label {
			t.Errorf("%s: label %q, want %q", c.metric, got, c.label)
		}
		if got, _ := majorLabels(unitTicks(m.Unit), c.lo, c.hi); !reflect.DeepEqual(got, c.ticks) {
			t.Errorf("%s: ticks %q, want %q", c.metric, got, c.ticks)
		}
	}
	// A ratio's ticks sit at the ratio, labelled in percent.
	ts := unitTicks(metric.Ratio).Ticks(0, 1)
	if ts[1].Value != 0.2 || ts[1].Label != "20%" {
		t.Errorf("ratio tick %+v", ts[1])
	}
}

// plotters are what p draws, in order (gonum's Plot keeps them
// unexported).
func plotters(p *plot.Plot) []plot.Plotter {
	f := reflect.ValueOf(p).Elem().FieldByName("plotters")
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Interface().([]plot.Plotter)
}

func majorLabels(tk plot.Ticker, lo, hi float64) ([]string, int) {
	var out []string
	minors := 0
	for _, k := range tk.Ticks(lo, hi) {
		if k.IsMinor() {
			minors++
			continue
		}
		out = append(out, k.Label)
	}
	return out, minors
}

// bands returns the panel's filled polygons and the dotted lines (the
// band edges), in drawing order, and where the first median line is.
func bands(p *plot.Plot) (polys []*plotter.Polygon, edges []*line, firstMedian int) {
	firstMedian = -1
	for i, pl := range plotters(p) {
		switch x := pl.(type) {
		case *plotter.Polygon:
			polys = append(polys, x)
		case *line:
			if x.Style.Width == edgeStyle.Width && x.Style.Dashes != nil {
				edges = append(edges, x)
			} else if firstMedian < 0 {
				firstMedian = i
			}
		}
	}
	return
}

// Two series: each band is filled in its series' colour, light
// (alpha 0x30 of 0xff), and the series' legend thumbnail draws the same
// fill under its line. Five: no fill (five light fills still mix into one
// area), each band's p10 and p90 dotted in its colour, shown so in the
// legend. Every band is drawn before every median line.
func TestSweepBands(t *testing.T) {
	for _, n := range []int{2, 5} {
		d, f := sweepFigure(t, n, nil)
		p := f.Panels[0]
		polys, edges, firstMedian := bands(p)
		if len(f.Legend) != n {
			t.Fatalf("%d series: %d legend entries, want one per series (no grey band entry)", n, len(f.Legend))
		}
		for i := range d.Lines {
			c := palette[i]
			thumb, ok := f.Legend[i].Thumbs[0].(band)
			if !ok {
				t.Fatalf("%d series: legend %d starts with %T, want its band", n, i, f.Legend[i].Thumbs[0])
			}
			if n == 2 {
				want := color.NRGBA{c.R, c.G, c.B, 0x30}
				if len(polys) != 2 || polys[i].Color != want || thumb.Fill != polys[i].Color {
					t.Errorf("2 series: band %d %v, legend %v, want %v", i, polys[i].Color, thumb.Fill, want)
				}
				continue
			}
			if len(polys) != 0 || len(edges) != 2*n {
				t.Fatalf("5 series: %d fills, %d edges", len(polys), len(edges))
			}
			for _, e := range edges[2*i : 2*i+2] {
				if e.Style.Color != c || thumb.Edge.Color != e.Style.Color || thumb.Fill != nil {
					t.Errorf("5 series: band %d edge %v, legend %+v, want %v", i, e.Style.Color, thumb, c)
				}
			}
			if ys := []float64{edges[2*i].XYs[0].Y, edges[2*i+1].XYs[0].Y}; ys[0] != d.Lines[i].P10[0] || ys[1] != d.Lines[i].P90[0] {
				t.Errorf("5 series: band %d from %v, want p10 %v and p90 %v", i, ys, d.Lines[i].P10[0], d.Lines[i].P90[0])
			}
		}
		last := 0
		for i, pl := range plotters(p) {
			if _, ok := pl.(*plotter.Polygon); ok {
				last = i
			}
			if l, ok := pl.(*line); ok && l.Style.Width == edgeStyle.Width {
				last = i
			}
		}
		if firstMedian < last {
			t.Errorf("%d series: a median line (plotter %d) under a band (plotter %d)", n, firstMedian, last)
		}
	}
}

// Every series has its own colour and marker shape.
func TestSweepSeriesDistinct(t *testing.T) {
	_, f := sweepFigure(t, 12, nil)
	seen := map[string]int{}
	for i, e := range f.Legend {
		mk := e.Thumbs[2].(*marks)
		key := fmt.Sprintf("%v %T", mk.Glyph.Color, mk.Glyph.Shape)
		if j, ok := seen[key]; ok {
			t.Errorf("series %d and %d are both %s", j, i, key)
		}
		seen[key] = i
	}
	for i := range seriesGlyphs {
		for j := range i {
			if reflect.TypeOf(seriesGlyphs[i]) == reflect.TypeOf(seriesGlyphs[j]) {
				t.Errorf("glyphs %d and %d are both %T", i, j, seriesGlyphs[i])
			}
		}
	}
}

// A series identical to an earlier one stays visible: the legend says
// which it equals, and the rendered panel shows both colours (exact
// pixels of each: the later one's dashes leave gaps that show the
// earlier one, its markers are smaller).
func TestSweepIdenticalSeries(t *testing.T) {
	d, f := sweepFigure(t, 3, map[int]int{2: 0})
	if s := sameAs(d.Lines); !reflect.DeepEqual(s, []int{-1, -1, 0}) {
		t.Fatalf("sameAs %v", s)
	}
	if got := f.Legend[2].Text; got != "p2 (= p0)" {
		t.Errorf("legend %q", got)
	}
	if f.Legend[0].Text != "p0" {
		t.Errorf("legend %q", f.Legend[0].Text)
	}
	c := vgimg.New(5*vg.Inch, 3*vg.Inch)
	f.Panels[0].Draw(draw.New(c))
	img := c.Image()
	for _, i := range []int{0, 2} {
		if n := countColor(img, palette[i]); n < 100 {
			t.Errorf("series %d: %d pixels of its colour %v, want it visible", i, n, palette[i])
		}
	}
	st := sweepStyles(d.Lines)
	if st[0].Median.Dashes == nil || st[0].Median.DashOffs == st[2].Median.DashOffs || st[2].Glyph.Radius >= st[0].Glyph.Radius {
		t.Errorf("identical series drawn alike: %+v and %+v", st[0], st[2])
	}
	if st[1].Median.Dashes != nil || st[1].Glyph.Radius != markRadius {
		t.Errorf("a series alone is dashed or resized: %+v", st[1])
	}
}

func countColor(img image.Image, c color.RGBA) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if uint8(r>>8) == c.R && uint8(g>>8) == c.G && uint8(bl>>8) == c.B {
				n++
			}
		}
	}
	return n
}

// Every marker sits inside the axes with room to spare: 4% of a
// geometric axis' log span, 6% of the y span, on each side.
func TestSweepPadded(t *testing.T) {
	d, f := sweepFigure(t, 2, nil)
	p := f.Panels[0]
	for _, l := range d.Lines {
		for k := range l.X {
			x, y := p.X.Norm(l.X[k]), p.Y.Norm(l.P10[k])
			if x < 0.03 || x > 0.97 || y < 0.05 || y > 0.95 {
				t.Errorf("point (%v, %v) at (%.3f, %.3f) of the axes", l.X[k], l.P10[k], x, y)
			}
		}
	}
}

func approx(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

// Each base policy has its own colour and marker; the front's points are
// ringed and labelled; no point sits within 5% of an axis' ends.
func TestParetoFigure(t *testing.T) {
	d := plotdatatest.Pareto()
	f := Pareto(d, 3, Options{})
	p := f.Panels[0]
	var legend []string
	shapes := map[color.Color]string{} // each base's colour → its marker shape
	var labels *pointLabels
	var tied []vg.Length // the radii of the markers at (2, 20), in drawing order
	for _, pl := range plotters(p) {
		switch x := pl.(type) {
		case *marks:
			if x.Glyph.Shape == frontGlyph.Shape {
				if len(x.XYs) != len(d.Front) {
					t.Errorf("%d rings, want %d", len(x.XYs), len(d.Front))
				}
				continue
			}
			shape := fmt.Sprintf("%T", x.Glyph.Shape)
			if s, ok := shapes[x.Glyph.Color]; ok && s != shape {
				t.Errorf("colour %v drawn as %s and %s", x.Glyph.Color, s, shape)
			}
			shapes[x.Glyph.Color] = shape
			for _, q := range x.XYs {
				if q == (plotdata.XY{X: 2, Y: 20}) {
					tied = append(tied, x.Glyph.Radius)
				}
			}
		case *pointLabels:
			labels = x
		}
	}
	distinct := map[string]bool{}
	for _, s := range shapes {
		distinct[s] = true
	}
	if len(shapes) != 4 || len(distinct) != 4 {
		t.Errorf("base styles %v, want 4 colours and 4 shapes", shapes)
	}
	// Three points tie at (2, 20), two of p0 and one of p1: p0's drawn
	// alike (3.4 points), p1's inside them (0.9 smaller).
	if want := []vg.Length{3.4, 3.4, 2.5}; len(tied) != 3 || !approx(float64(tied[0]), 3.4) || !approx(float64(tied[1]), 3.4) || !approx(float64(tied[2]), 2.5) {
		t.Errorf("tied markers' radii %v, want %v", tied, want)
	}
	if labels == nil || !reflect.DeepEqual(labels.Texts, []string{"p2:w=1", "p0 k=2, 4; p1 k=2", "p1 k=8"}) {
		t.Fatalf("labels %+v", labels)
	}
	for _, e := range f.Legend {
		legend = append(legend, e.Text)
	}
	if want := []string{"p0 (2 points)", "p1 (3 points)", "p2:w=1 (1 point)", "p3:w=1 (1 point)", "Pareto front (5 points, labelled)"}; !reflect.DeepEqual(legend, want) {
		t.Errorf("legend %q, want %q", legend, want)
	}
	if p.X.Label.Text != "Total cost over all sessions (USD)" || p.Y.Label.Text != "Peak context over all sessions (tokens)" {
		t.Errorf("labels %q, %q", p.X.Label.Text, p.Y.Label.Text)
	}
	if got, _ := majorLabels(p.X.Tick.Marker, p.X.Min, p.X.Max); len(got) == 0 || !strings.HasPrefix(got[0], "$") {
		t.Errorf("x ticks %q", got)
	}
	for _, q := range d.Points {
		x, y := p.X.Norm(q.A), p.Y.Norm(q.B)
		if x < 0.05 || x > 0.95 || y < 0.05 || y > 0.95 {
			t.Errorf("%s at (%.3f, %.3f) of the axes", q.Policy, x, y)
		}
	}
}

// The front is drawn a step at a time when its steps were tested: dashed
// where neither metric differs significantly, solid where one does or
// where the step was not tested; the legend says what a dashed step is.
func TestParetoSteps(t *testing.T) {
	pt := func(policy string, a, b float64) plotdata.ParetoPoint {
		return plotdata.ParetoPoint{Policy: policy, Base: "p", A: a, B: b}
	}
	d := plotdata.ParetoData{A: plotdatatest.Metric("total_cost_usd"), B: plotdatatest.Metric("peak_context"), Bases: []string{"p"}}
	d.Front = []plotdata.ParetoPoint{pt("p:k=1", 1, 40), pt("p:k=2", 2, 30), pt("p:k=4", 3, 20), pt("p:k=8", 4, 10)}
	d.Points = d.Front
	// The interval decides: [1, 2] excludes 0, [−1, 1] holds it.
	cmp := func(from, to, m string, sig bool) paired.Comparison {
		lo, hi := -1.0, 1.0
		if sig {
			lo, hi = 1, 2
		}
		return paired.Comparison{Policy: to, Baseline: from, Metric: m, Stats: paired.Stats{Significant: sig, CILowPct: &lo, CIHighPct: &hi}}
	}
	frontLines := func(f *Figure) (steps int, dashed []int) {
		for _, pl := range plotters(f.Panels[0]) {
			if l, ok := pl.(*line); ok && l.Step {
				if l.Style.Dashes != nil {
					dashed = append(dashed, steps)
				}
				steps++
			}
		}
		return steps, dashed
	}
	legendHas := func(f *Figure, prefix string) bool {
		return slices.ContainsFunc(f.Legend, func(e LegendEntry) bool { return strings.HasPrefix(e.Text, prefix) })
	}
	// Untested: one staircase, no legend entry for dashed steps.
	f := Pareto(d, 3, Options{})
	if n, dashed := frontLines(f); n != 1 || dashed != nil || legendHas(f, "step with no") {
		t.Errorf("untested: %d lines, dashed %v", n, dashed)
	}
	d.MarkSteps([]paired.Comparison{
		cmp("p:k=1", "p:k=2", "total_cost_usd", false), cmp("p:k=1", "p:k=2", "peak_context", true),
		cmp("p:k=2", "p:k=4", "total_cost_usd", false), cmp("p:k=2", "p:k=4", "peak_context", false),
		cmp("p:k=1", "p:k=8", "total_cost_usd", false), // not a step of the front
	})
	if want := []plotdata.StepTest{plotdata.StepDiffers, plotdata.StepSame, plotdata.StepUntested}; !slices.Equal(d.Steps, want) {
		t.Fatalf("steps %v, want %v", d.Steps, want)
	}
	// Without intervals (--bootstrap 0) nothing decides: untested, even
	// where the signed-rank test finds a shift.
	noIv := d
	noIv.MarkSteps([]paired.Comparison{{Policy: "p:k=2", Baseline: "p:k=1", Metric: "peak_context", Stats: paired.Stats{WilcoxonSignificant: true}}})
	if want := []plotdata.StepTest{plotdata.StepUntested, plotdata.StepUntested, plotdata.StepUntested}; !slices.Equal(noIv.Steps, want) {
		t.Errorf("no intervals: steps %v, want %v", noIv.Steps, want)
	}
	f = Pareto(d, 3, Options{})
	if n, dashed := frontLines(f); n != 3 || !slices.Equal(dashed, []int{1}) || !legendHas(f, "step with no significant difference") {
		t.Errorf("tested: %d lines, dashed %v, legend %+v", n, dashed, f.Legend)
	}
	// Every step differs: drawn solid, and no legend entry for dashes.
	d.Steps = []plotdata.StepTest{plotdata.StepDiffers, plotdata.StepDiffers, plotdata.StepDiffers}
	if f = Pareto(d, 3, Options{}); legendHas(f, "step with no") {
		t.Error("legend names dashed steps where none is dashed")
	}
}

// Labels crowded along a front stay apart, inside the area, off every
// marker and off the lines to avoid.
func TestPlaceLabels(t *testing.T) {
	bounds := vg.Rectangle{Max: vg.Point{X: 400, Y: 200}}
	var anchors, sizes []vg.Point
	for i := range 6 {
		anchors = append(anchors, vg.Point{X: 150 + vg.Length(i)*30, Y: 150 - vg.Length(i)*20})
		sizes = append(sizes, vg.Point{X: 80, Y: 9})
	}
	obstacles := []vg.Point{{X: 190, Y: 170}, {X: 330, Y: 180}}
	avoid := []vg.Rectangle{box(0, 40, 400, 40, 1)}
	r := vg.Length(5)
	got := placeLabels(anchors, sizes, obstacles, avoid, r, bounds, false, false)
	for i, b := range got {
		if !inside(b, bounds) {
			t.Errorf("label %d %v outside", i, b)
		}
		if b.Max.X-b.Min.X != 80 || b.Max.Y-b.Min.Y != 9 {
			t.Errorf("label %d resized: %v", i, b)
		}
		for j := range i {
			if overlaps(b, got[j]) {
				t.Errorf("labels %d and %d overlap: %v %v", i, j, b, got[j])
			}
		}
		for _, o := range append(append([]vg.Point(nil), obstacles...), anchors...) {
			if overlaps(b, box(o.X, o.Y, o.X, o.Y, r)) {
				t.Errorf("label %d %v covers the marker at %v", i, b, o)
			}
		}
		if overlaps(b, avoid[0]) {
			t.Errorf("label %d %v crosses the line", i, b)
		}
	}
	// Lower is better on both: the first label goes below and left of
	// its point, where a front has no other point.
	if b := got[0]; b.Max.X > anchors[0].X || b.Max.Y > anchors[0].Y {
		t.Errorf("first label %v not below left of %v", b, anchors[0])
	}
	// Higher is better on both: above and right.
	up := placeLabels(anchors[:1], sizes[:1], nil, nil, r, bounds, true, true)
	if b := up[0]; b.Min.X < anchors[0].X || b.Min.Y < anchors[0].Y {
		t.Errorf("label %v not above right of %v", b, anchors[0])
	}
}

// The sweep and Pareto plots write as PDF too: the labels of the front
// and the axes' units are in its text, and the bands' transparency is an
// alpha graphics state (the PDF writer's way to draw a light fill).
func TestSweepPDF(t *testing.T) {
	figs := goldenFigures()
	text := pdfText(render(t, figs["pareto"], "pdf"))
	for _, want := range []string{"p2k=2;p4k=2", "Totalcostoverallsessions(USD)", "Peakcontextoverallsessions(tokens)", "$4"} {
		if !strings.Contains(text, want) {
			t.Errorf("pareto PDF text lacks %q: %q", want, text)
		}
	}
	_, two := sweepFigure(t, 2, nil)
	if b := render(t, two, "pdf"); !bytes.Contains(b, []byte("/ca 0.188")) {
		t.Errorf("the filled bands' PDF has no fill alpha 0x30/0xff")
	}
}

// Where a label goes, exactly: a gap of r+2 points from its point (¾ of
// it on each axis at a corner), nearest place first, the corner toward
// better first.
func TestPlaceLabelsExact(t *testing.T) {
	a := []vg.Point{{X: 100, Y: 100}}
	size := []vg.Point{{X: 10, Y: 10}}
	big := vg.Rectangle{Max: vg.Point{X: 200, Y: 200}}
	place := func(obstacles []vg.Point, avoid []vg.Rectangle, bounds vg.Rectangle) vg.Point {
		return placeLabels(a, size, obstacles, avoid, 1, bounds, false, false)[0].Min
	}
	// Gap 3, corner 2.25: below left at (100−2.25−10, 100−2.25−10).
	if got := place(nil, nil, big); got != (vg.Point{X: 87.75, Y: 87.75}) {
		t.Errorf("free: %v", got)
	}
	// That corner taken: to the left, centred (100−3−10, 100−5).
	if got := place([]vg.Point{{X: 92.75, Y: 92.75}}, nil, big); got != (vg.Point{X: 87, Y: 95}) {
		t.Errorf("corner taken: %v", got)
	}
	// Left taken too (by a line): below, centred (95, 100−3−10).
	if got := place([]vg.Point{{X: 92.75, Y: 92.75}}, []vg.Rectangle{box(80, 100, 90, 100, 1)}, big); got != (vg.Point{X: 95, Y: 87}) {
		t.Errorf("corner and left taken: %v", got)
	}
	// Every near place taken (a marker at each's centre): the corner
	// one box height further, gap 13, corner 9.75.
	var ring []vg.Point
	for _, d := range [][2]vg.Length{{-1, -1}, {-1, 0}, {0, -1}, {1, -1}, {-1, 1}, {1, 0}, {0, 1}, {1, 1}} {
		off := func(s vg.Length) vg.Length {
			switch {
			case s != 0 && d[0] != 0 && d[1] != 0:
				return s * (2.25 + 5)
			case s != 0:
				return s * (3 + 5)
			}
			return 0
		}
		ring = append(ring, vg.Point{X: 100 + off(d[0]), Y: 100 + off(d[1])})
	}
	if got := place(ring, nil, big); got != (vg.Point{X: 80.25, Y: 80.25}) {
		t.Errorf("near places taken: %v", got)
	}
	// Nowhere fits (no room at all): the first place.
	if got := place(nil, nil, vg.Rectangle{}); got != (vg.Point{X: 87.75, Y: 87.75}) {
		t.Errorf("no room: %v", got)
	}
	// Higher is better on x only: below right, (100+2.25, 87.75).
	if got := placeLabels(a, size, nil, nil, 1, big, true, false)[0].Min; got != (vg.Point{X: 102.25, Y: 87.75}) {
		t.Errorf("toward right: %v", got)
	}
	// Higher is better on y only: above left.
	if got := placeLabels(a, size, nil, nil, 1, big, false, true)[0].Min; got != (vg.Point{X: 87.75, Y: 102.25}) {
		t.Errorf("toward up: %v", got)
	}
}

func TestBoxes(t *testing.T) {
	if got := box(3, 4, 1, 0, 1); got != (vg.Rectangle{Min: vg.Point{X: 0, Y: -1}, Max: vg.Point{X: 4, Y: 5}}) {
		t.Errorf("box %v", got)
	}
	r := vg.Rectangle{Max: vg.Point{X: 1, Y: 1}}
	if !inside(r, r) || inside(r, vg.Rectangle{Max: vg.Point{X: 1, Y: 0.5}}) || inside(r, vg.Rectangle{Min: vg.Point{X: 0.5}, Max: vg.Point{X: 1, Y: 1}}) {
		t.Error("inside: a box is inside itself, not inside a smaller one")
	}
	right := vg.Rectangle{Min: vg.Point{X: 1}, Max: vg.Point{X: 2, Y: 1}}
	above := vg.Rectangle{Min: vg.Point{Y: 1}, Max: vg.Point{X: 1, Y: 2}}
	if overlaps(r, right) || overlaps(right, r) || overlaps(r, above) || overlaps(above, r) || !overlaps(r, r) {
		t.Error("overlaps: boxes that touch do not overlap; a box overlaps itself")
	}
	// A staircase from (0, 10) to (5, 0) to (8, -2): across, then down.
	got := stairBoxes([]vg.Point{{X: 0, Y: 10}, {X: 5, Y: 0}, {X: 8, Y: -2}}, 0)
	want := []vg.Rectangle{
		{Min: vg.Point{X: 0, Y: 10}, Max: vg.Point{X: 5, Y: 10}}, {Min: vg.Point{X: 5, Y: 0}, Max: vg.Point{X: 5, Y: 10}},
		{Min: vg.Point{X: 5, Y: 0}, Max: vg.Point{X: 8, Y: 0}}, {Min: vg.Point{X: 8, Y: -2}, Max: vg.Point{X: 8, Y: 0}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("stairBoxes %v, want %v", got, want)
	}
}

// A label set apart from its point gets a leader line (muted grey, 0.4
// points); one beside its point does not.
func TestLabelLeader(t *testing.T) {
	svg := func(obstacles []plotdata.XY) string {
		p := newPlot("", "")
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 100, 0, 100
		p.Add(&pointLabels{XYs: []plotdata.XY{{X: 50, Y: 50}}, Texts: []string{"label"}, Style: textStyle(fontSans, tickSize, color.Black),
			Obstacles: obstacles, Radius: vg.Points(5)})
		f := &Figure{Panels: []*plot.Plot{p}}
		return string(render(t, f, "svg"))
	}
	leader := "stroke:#606060"
	if s := svg(nil); strings.Contains(s, leader) {
		t.Error("a label beside its point has a leader")
	}
	// Markers all round the point, near: the label goes further out.
	var around []plotdata.XY
	for dx := -6.0; dx <= 6; dx += 2 {
		for dy := -6.0; dy <= 6; dy += 2 {
			if dx != 0 || dy != 0 {
				around = append(around, plotdata.XY{X: 50 + dx, Y: 50 + dy})
			}
		}
	}
	if s := svg(around); !strings.Contains(s, leader) {
		t.Error("a label set apart has no leader")
	}
}

// TestSweepReferences: the baseline and Claude Code's own scheme are
// drawn beside the swept points, so that a reader sees a grid that costs
// five times the baseline. The sweep plot draws each as a horizontal line
// at its median per session, the statistic of the series' lines, named
// in the legend with its value; the Pareto plot marks and labels each at
// its totals. Both keep them in view: a reference far from the points
// widens the axes rather than falling outside them.
func TestSweepReferences(t *testing.T) {
	points, totals := plotdatatest.GeometricGrid(2, nil) // medians from $0.56 up
	cost, peak := plotdatatest.Metric("total_cost_usd"), plotdatatest.Metric("peak_context")
	ref := func(label, policy string, perSession float64, peakContext int64) sweep.Reference {
		runs := []simulate.Metrics{{Calls: 1, TotalCost: perSession, PeakContext: peakContext}, {Calls: 1, TotalCost: perSession, PeakContext: peakContext}}
		return sweep.NewReference(label, policy, runs, cost)
	}
	refs := []sweep.Reference{ref("observed (baseline)", "observed", 0.1, 9000), ref("claude-code (reference)", "claude-code", 9, 500)}
	if refs[0].Total.Median != 0.1 || refs[0].Total.Sessions != 2 || refs[1].Total.Metrics.TotalCost != 18 {
		t.Fatalf("references %+v", refs)
	}
	files := SweepFiles(points, totals, []string{"k"}, cost, []metric.Metric{cost, peak}, nil, 2, Interval{}, refs, "svg", Options{})
	if len(files) != 2 {
		t.Fatalf("%d files", len(files))
	}
	sw, pa := files[0].Figure, files[1].Figure
	var ys []float64
	for _, pl := range plotters(sw.Panels[0]) {
		if h, ok := pl.(*hline); ok {
			ys = append(ys, h.Y)
		}
	}
	if !slices.Equal(ys, []float64{0.1, 9}) {
		t.Errorf("sweep plot: reference lines at %v, want 0.1 and 9", ys)
	}
	if p := sw.Panels[0]; p.Y.Min > 0.1 || p.Y.Max < 9 {
		t.Errorf("sweep plot: y from %v to %v hides a reference", p.Y.Min, p.Y.Max)
	}
	legend := func(f *Figure) string {
		var texts []string
		for _, e := range f.Legend {
			texts = append(texts, e.Text)
		}
		return strings.Join(texts, "; ")
	}
	if l := legend(sw); !strings.Contains(l, "observed (baseline): its median per session, $0.10") || !strings.Contains(l, "claude-code (reference): its median per session, $9.00") {
		t.Errorf("sweep legend: %s", l)
	}
	p := pa.Panels[0]
	if p.X.Min > 0.2 || p.X.Max < 18 || p.Y.Min > 500 || p.Y.Max < 9000 {
		t.Errorf("Pareto plot: x %v–%v, y %v–%v hides a reference", p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
	}
	var named []string
	for _, pl := range plotters(p) {
		if l, ok := pl.(*pointLabels); ok {
			named = l.Texts
		}
	}
	if !slices.Contains(named, "observed") || !slices.Contains(named, "claude-code") {
		t.Errorf("Pareto labels %q: want the references named", named)
	}
	if l := legend(pa); !strings.Contains(l, "observed (baseline)") || !strings.Contains(l, "claude-code (reference)") {
		t.Errorf("Pareto legend: %s", l)
	}
	// Without references, the plots are as they were.
	plain := SweepFiles(points, totals, []string{"k"}, cost, []metric.Metric{cost, peak}, nil, 2, Interval{}, nil, "svg", Options{})
	var a, b bytes.Buffer
	if err := plain[1].Figure.Write(&a, "svg"); err != nil {
		t.Fatal(err)
	}
	if err := Pareto(plotdata.ParetoSeries(points, totals, cost, peak), 2, Options{}).Write(&b, "svg"); err != nil || a.String() != b.String() {
		t.Errorf("Pareto without references differs from the plain figure (%v)", err)
	}
}

// TestHasInterval: the sweep plot draws interval bars when one line has
// an interval (plotdata's TestSweepSeriesIntervals gives the lines).
func TestHasInterval(t *testing.T) {
	points, totals := plotdatatest.SweepGrid()
	for i := range totals {
		if totals[i].Point == 0 {
			low, high := 8.0, 13.0
			totals[i].CILow, totals[i].CIHigh = &low, &high
		}
	}
	d := plotdata.SweepSeries(points, totals, "x", plotdatatest.Metric("total_cost_usd"))
	if !hasInterval(d.Lines) || hasInterval(d.Lines[1:]) {
		t.Errorf("intervals: %v, %v", d.Lines[0].Low, d.Lines[1].Low)
	}
}
