package plots

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/report/plots/axis"
	"github.com/ctxlab/ctxlab/report/plots/plotdata"
	"github.com/ctxlab/ctxlab/simulate/metric"
	"github.com/ctxlab/ctxlab/simulate/paired"
	"github.com/ctxlab/ctxlab/simulate/sweep"
)

// Sweep plot kinds, as they appear in file names.
const (
	KindSweep   = "sweep"
	KindHeatmap = "heatmap"
	KindPareto  = "pareto"
)

// Reference styles: near-black for the baseline, grey for the next, each
// dashed its own way and neither a series' colour, so that they read as
// reference, not as one more series; on the Pareto plot, a × and a +.
var (
	refLines = []draw.LineStyle{
		{Color: colorObserved, Width: vg.Points(1.1), Dashes: []vg.Length{vg.Points(6), vg.Points(2), vg.Points(1.5), vg.Points(2)}},
		{Color: colorMuted, Width: vg.Points(1.1), Dashes: []vg.Length{vg.Points(7), vg.Points(3)}},
	}
	refGlyphs = []draw.GlyphStyle{
		{Color: colorObserved, Radius: vg.Points(4.5), Shape: crossGlyph{width: vg.Points(1.6)}},
		{Color: colorMuted, Radius: vg.Points(4.5), Shape: crossGlyph{plus: true, width: vg.Points(1.6)}},
	}
)

// refStyle is the i-th reference's line and marker.
func refStyle(i int) (draw.LineStyle, draw.GlyphStyle) {
	return refLines[i%len(refLines)], refGlyphs[i%len(refGlyphs)]
}

// crossGlyph is a × (or with plus a +) stroked at width: thicker than
// gonum's, so that it holds its own among filled markers.
type crossGlyph struct {
	plus  bool
	width vg.Length
}

func (g crossGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	ls := draw.LineStyle{Color: sty.Color, Width: g.width}
	r := sty.Radius
	if g.plus {
		c.StrokeLine2(ls, pt.X-r, pt.Y, pt.X+r, pt.Y)
		c.StrokeLine2(ls, pt.X, pt.Y-r, pt.X, pt.Y+r)
		return
	}
	d := r * 0.8
	c.StrokeLine2(ls, pt.X-d, pt.Y-d, pt.X+d, pt.Y+d)
	c.StrokeLine2(ls, pt.X-d, pt.Y+d, pt.X+d, pt.Y-d)
}

// Series styles of the sweep and Pareto plots. Each series has its own
// colour and marker shape, so that series stay apart in grey print too.
// At most filledBands series get a filled p10–p90 band, light enough
// (bandAlpha) that what is under it shows; with more, overlapping fills
// would mix into one brown area, so each series' p10 and p90 are thin
// dotted lines in its colour instead.
const (
	filledBands = 2
	bandAlpha   = 0x30
	dashLength  = 5 // points: the dash of series drawn over an identical one
)

var (
	medianWidth = vg.Points(1.4)
	edgeStyle   = draw.LineStyle{Width: vg.Points(0.7), Dashes: []vg.Length{vg.Points(1), vg.Points(1.6)}}
	markRadius  = vg.Points(2.6)
	// seriesGlyphs are the series' marker shapes, in order.
	seriesGlyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}, diamond{}, triangleDown{},
		draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}}
)

// seriesStyle is series i's colour and marker shape.
func seriesStyle(i int) (color.RGBA, draw.GlyphDrawer) {
	return palette[i%len(palette)], seriesGlyphs[i%len(seriesGlyphs)]
}

// tiedRadius is the marker size of the k-th of several series or points
// drawn at one place: each smaller than the one before, so that it shows
// inside it.
func tiedRadius(k int) vg.Length {
	return max(vg.Points(3.4)-vg.Points(0.9)*vg.Length(k), vg.Points(1.3))
}

// sameAs returns, for each line, the first earlier line with the same
// points (x, median, p10 and p90), or -1: two policies that behave alike
// over the grid draw one line, and the plot must still show both.
func sameAs(lines []plotdata.SweepLine) []int {
	out := make([]int, len(lines))
	for i, l := range lines {
		out[i] = -1
		for j := range i {
			m := lines[j]
			if out[j] == -1 && slices.Equal(l.X, m.X) && slices.Equal(l.Median, m.Median) && slices.Equal(l.P10, m.P10) && slices.Equal(l.P90, m.P90) {
				out[i] = j
				break
			}
		}
	}
	return out
}

// seriesDraw is how one series of a sweep plot is drawn.
type seriesDraw struct {
	Median draw.LineStyle
	Glyph  draw.GlyphStyle
	Band   band
	// Same is the index of the first identical series, or -1.
	Same int
}

// sweepStyles gives each line its style. Lines identical to an earlier
// one share its path: each of m such lines is drawn dashed, its dashes
// falling in the others' gaps, so that the colours alternate along the
// path; their markers shrink one after the other, so that each shows
// inside the one under it.
func sweepStyles(lines []plotdata.SweepLine) []seriesDraw {
	same := sameAs(lines)
	groups := map[int][]int{} // first line → the lines identical to it, itself first
	for i, s := range same {
		root := i
		if s >= 0 {
			root = s
		}
		groups[root] = append(groups[root], i)
	}
	out := make([]seriesDraw, len(lines))
	for i := range lines {
		c, g := seriesStyle(i)
		root := i
		if same[i] >= 0 {
			root = same[i]
		}
		group := groups[root]
		k := slices.Index(group, i)
		sd := seriesDraw{
			Median: draw.LineStyle{Color: c, Width: medianWidth},
			Glyph:  draw.GlyphStyle{Color: c, Shape: g, Radius: markRadius},
			Same:   same[i],
		}
		if m := len(group); m > 1 {
			dash := vg.Points(dashLength)
			sd.Median.Dashes = []vg.Length{dash, dash * vg.Length(m-1)}
			sd.Median.DashOffs = dash * vg.Length((m-k)%m)
			sd.Glyph.Radius = tiedRadius(k)
		}
		if len(lines) <= filledBands {
			sd.Band.Fill = color.NRGBA{c.R, c.G, c.B, bandAlpha}
		} else {
			sd.Band.Edge = edgeStyle
			sd.Band.Edge.Color = c
		}
		out[i] = sd
	}
	return out
}

// Sweep draws the objective per session against one swept parameter: a
// line per series through the sessions' median, with their p10–p90 spread
// as a light band (or, with more than filledBands series, dotted lines).
// A geometric grid gets a log axis with a tick at each value.
func Sweep(d plotdata.SweepData, sessions int, opt Options) *Figure {
	xLabel := d.Param
	if d.Log {
		xLabel += " (log scale)"
	}
	lower := d.LowerBound || slices.ContainsFunc(d.Refs, func(r plotdata.RefLine) bool { return r.LowerBound })
	p := newPlot(xLabel, lowerAxis(axisLabel(d.Objective, "per session"), lower))
	p.Y.Tick.Marker = unitTicks(d.Objective.Unit)
	p.Add(grid(true))
	switch {
	case d.Ticks != nil:
		p.X.Tick.Marker = labelTicks(d.Ticks)
	case d.Log:
		p.X.Scale = axis.Log2Scale{}
		p.X.Tick.Marker = axis.GridTicks(d.Values, valueLabels(d.Values))
	}
	f := &Figure{Title: title("Sweep: "+strings.ToLower(metricTitle(d.Objective))+" per session against "+d.Param, sessionsTitle(sessions), "")}
	styles := sweepStyles(d.Lines)
	var bands, lines, markers, bars []plot.Plotter
	withBars := d.Interval.Confidence > 0 && hasInterval(d.Lines)
	for i, l := range d.Lines {
		if withBars {
			dodge := dodgeStep * vg.Length(float64(i)-float64(len(d.Lines)-1)/2)
			bars = append(bars, &errorBars{X: l.X, Low: l.Low, Mid: l.Mean, High: l.High, Color: styles[i].Median.Color, Dodge: dodge})
		}
		st := styles[i]
		bands = append(bands, bandPlotters(l, st.Band)...)
		xy := make([]plotdata.XY, len(l.X))
		for k := range l.X {
			xy[k] = plotdata.XY{X: l.X[k], Y: l.Median[k]}
		}
		ln := &line{XYs: xy, Style: st.Median}
		mk := &marks{XYs: xy, Glyph: st.Glyph}
		lines, markers = append(lines, ln), append(markers, mk)
		text := l.Label
		if st.Same >= 0 {
			text += " (= " + d.Lines[st.Same].Label + ")"
		}
		f.Legend = append(f.Legend, LegendEntry{Text: text, Thumbs: []plot.Thumbnailer{st.Band, ln, mk}})
	}
	// The references go under the series: they are the background the
	// series are read against.
	for i, r := range d.Refs {
		sty, _ := refStyle(i)
		h := &hline{Y: r.Y, Style: sty}
		p.Add(h)
		f.Legend = append(f.Legend, LegendEntry{Text: r.Label + ": its median per session, " + lowerText(d.Objective.Unit.Text(r.Y), r.LowerBound), Thumbs: []plot.Thumbnailer{h}})
	}
	// Every band under every line, every line under every marker: no
	// series' band hides another's line.
	p.Add(bands...)
	p.Add(lines...)
	p.Add(bars...)
	p.Add(markers...)
	switch {
	case len(d.Lines) == 0:
	case len(d.Lines) <= filledBands:
		p.Title.Text = "line: the sessions' median; shaded: their p10 to p90"
	default:
		p.Title.Text = "line: the sessions' median; dotted: their p10 and p90"
	}
	if withBars {
		// The bars are another statistic than the band: the mean, and
		// the uncertainty of the total, not the sessions' spread.
		p.Title.Text += "; bars: the mean and its " + d.Interval.Text()
		f.Legend = append(f.Legend, LegendEntry{Text: "mean per session (○) and its " + d.Interval.Text() + " (bootstrap over sessions)",
			Thumbs: []plot.Thumbnailer{&errorBars{Color: colorObserved}}})
	}
	f.Legend = append(f.Legend, lowerEntry(lower)...)
	f.Height = lowerHeight(lower)
	p.Title.TextStyle.Font = font.From(fontSans, labelSize)
	p.Title.TextStyle.Color = colorMuted
	sweepRanges(p, d)
	f.Panels = []*plot.Plot{p}
	return f
}

// sweepRanges sets a sweep plot's axes to its data with room around it,
// so that no marker sits on an axis or is cut by the frame.
func sweepRanges(p *plot.Plot, d plotdata.SweepData) {
	xlo, xhi, ylo, yhi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, l := range d.Lines {
		for k := range l.X {
			xlo, xhi = min(xlo, l.X[k]), max(xhi, l.X[k])
			ylo, yhi = min(ylo, l.P10[k], l.Median[k], l.P90[k]), max(yhi, l.P10[k], l.Median[k], l.P90[k])
			if d.Interval.Confidence > 0 && k < len(l.Low) && !math.IsNaN(l.Low[k]) && !math.IsNaN(l.High[k]) {
				ylo, yhi = min(ylo, l.Low[k]), max(yhi, l.High[k])
			}
		}
	}
	for _, r := range d.Refs {
		ylo, yhi = min(ylo, r.Y), max(yhi, r.Y)
	}
	switch {
	case d.Ticks != nil:
		p.X.Min, p.X.Max = -0.3, float64(len(d.Ticks))-0.7
	case d.Log:
		p.X.Min, p.X.Max = axis.PadRange(d.Values[0], d.Values[len(d.Values)-1], 0.04, true)
	default:
		p.X.Min, p.X.Max = axis.PadRange(xlo, xhi, 0.04, false)
	}
	p.Y.Min, p.Y.Max = axis.PadRange(ylo, yhi, 0.06, false)
}

// hasInterval reports whether some line has an interval to draw.
func hasInterval(lines []plotdata.SweepLine) bool {
	for _, l := range lines {
		for k := range l.Low {
			if !math.IsNaN(l.Low[k]) && !math.IsNaN(l.High[k]) {
				return true
			}
		}
	}
	return false
}

// valueLabels writes grid values as tick labels: whole numbers
// thousand-separated, others as short as they are exact.
func valueLabels(vs []float64) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		if v == math.Trunc(v) && math.Abs(v) < 1e15 {
			out[i] = numtext.Float(v, 0)
		} else {
			out[i] = strconv.FormatFloat(v, 'g', 6, 64)
		}
	}
	return out
}

// bandPlotters draw a line's p10–p90 band: a filled polygon, or its two
// edges as lines.
func bandPlotters(l plotdata.SweepLine, b band) []plot.Plotter {
	if b.Fill != nil {
		if poly := bandPolygon(l); poly != nil {
			poly.Color = b.Fill
			poly.LineStyle.Width = 0
			return []plot.Plotter{poly}
		}
		return nil
	}
	var out []plot.Plotter
	for _, ys := range [][]float64{l.P10, l.P90} {
		xy := make([]plotdata.XY, len(l.X))
		for k := range l.X {
			xy[k] = plotdata.XY{X: l.X[k], Y: ys[k]}
		}
		if len(xy) > 1 {
			out = append(out, &line{XYs: xy, Style: b.Edge})
		}
	}
	return out
}

// band is how a series' p10–p90 spread is drawn, a fill or dotted edges;
// as a legend thumbnail it shows the same behind the series' line.
type band struct {
	Fill color.Color
	Edge draw.LineStyle
}

func (b band) Thumbnail(c *draw.Canvas) {
	h := c.Max.Y - c.Min.Y
	y0, y1 := c.Min.Y+h*0.1, c.Max.Y-h*0.1
	if b.Fill != nil {
		c.FillPolygon(b.Fill, []vg.Point{{X: c.Min.X, Y: y0}, {X: c.Max.X, Y: y0}, {X: c.Max.X, Y: y1}, {X: c.Min.X, Y: y1}})
	}
	if b.Edge.Width > 0 {
		c.StrokeLine2(b.Edge, c.Min.X, y0, c.Max.X, y0)
		c.StrokeLine2(b.Edge, c.Min.X, y1, c.Max.X, y1)
	}
}

// bandPolygon is the p10–p90 band of a line with at least two points.
func bandPolygon(l plotdata.SweepLine) *plotter.Polygon {
	if len(l.X) < 2 {
		return nil
	}
	var xy plotter.XYs
	for k := range l.X {
		xy = append(xy, plotter.XY{X: l.X[k], Y: l.P90[k]})
	}
	for k := len(l.X) - 1; k >= 0; k-- {
		xy = append(xy, plotter.XY{X: l.X[k], Y: l.P10[k]})
	}
	poly, err := plotter.NewPolygon(xy)
	if err != nil {
		return nil
	}
	return poly
}

// labelTicks names the ranks 0, 1, … of non-numeric values.
type labelTicks []string

func (t labelTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for i, s := range t {
		if float64(i) >= lo && float64(i) <= hi {
			out = append(out, plot.Tick{Value: float64(i), Label: s})
		}
	}
	return out
}

// Heatmap draws one base policy's objective over two parameters: a cell
// per pair, shaded from the best value (light) to the worst (dark), with
// its value written in it.
func Heatmap(d plotdata.HeatmapData, higherIsBetter bool, sessions int, opt Options) *Figure {
	p := newPlot(d.ParamX, d.ParamY)
	p.X.Tick.Marker = labelTicks(d.Xs)
	p.Y.Tick.Marker = labelTicks(d.Ys)
	p.X.Min, p.X.Max = -0.5, float64(len(d.Xs))-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(len(d.Ys))-0.5
	p.Add(&heatCells{d: d, higherIsBetter: higherIsBetter})
	return &Figure{
		Title: title("Sweep: "+d.Objective, sessionsTitle(sessions), d.Base),
		Legend: append([]LegendEntry{{Text: "lighter is better; each cell's value is the total over the sessions", Thumbs: []plot.Thumbnailer{swatch{heatColor(0)}}}},
			lowerEntry(d.LowerBound)...),
		Panels: []*plot.Plot{p},
		Height: lowerHeight(d.LowerBound),
	}
}

// heatCells draws a heatmap's cells and their values.
type heatCells struct {
	d              plotdata.HeatmapData
	higherIsBetter bool
}

func (h *heatCells) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, cell := range h.d.Cells {
		lo, hi = min(lo, cell.Value), max(hi, cell.Value)
	}
	sty := textStyle(fontSans, tickSize, color.Black)
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	for _, cell := range h.d.Cells {
		x, y := float64(index(h.d.Xs, cell.X)), float64(index(h.d.Ys, cell.Y))
		frac := 0.0
		if hi > lo {
			frac = (cell.Value - lo) / (hi - lo) // 0 best for a cost
		}
		if h.higherIsBetter {
			frac = 1 - frac
		}
		col := heatColor(frac)
		x0, x1, y0, y1 := tx(x-0.5), tx(x+0.5), ty(y-0.5), ty(y+0.5)
		c.FillPolygon(col, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
		ts := sty
		if frac > 0.55 {
			ts.Color = color.White
		}
		c.FillText(ts, vg.Point{X: (x0 + x1) / 2, Y: (y0 + y1) / 2}, lowerText(numtext.Float(cell.Value, decimalsFor(cell.Value)), h.d.LowerBound))
	}
}

func (h *heatCells) DataRange() (xmin, xmax, ymin, ymax float64) {
	return -0.5, float64(len(h.d.Xs)) - 0.5, -0.5, float64(len(h.d.Ys)) - 0.5
}

func index(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// heatColor runs from a light to a dark blue as frac goes from 0 to 1.
func heatColor(frac float64) color.Color {
	lerp := func(a, b uint8) uint8 { return uint8(float64(a) + (float64(b)-float64(a))*frac + 0.5) }
	return color.RGBA{lerp(0xea, 0x08), lerp(0xf2, 0x30), lerp(0xfb, 0x6b), 0xff}
}

// decimalsFor shows small values with more decimals (dollar costs below
// 100, ratios).
func decimalsFor(v float64) int {
	switch a := math.Abs(v); {
	case a == math.Trunc(a) && a >= 100:
		return 0
	case a < 1:
		return 4
	case a < 100:
		return 2
	}
	return 0
}

// Front styles: a dark staircase, and a ring around each front point.
var (
	frontLine = draw.LineStyle{Color: colorObserved, Width: vg.Points(0.9)}
	// sameLine is a step the paired test found no difference along.
	sameLine   = draw.LineStyle{Color: colorObserved, Width: vg.Points(0.9), Dashes: []vg.Length{vg.Points(3), vg.Points(2.5)}}
	frontGlyph = draw.GlyphStyle{Color: colorObserved, Radius: vg.Points(5), Shape: ring{width: vg.Points(0.8)}}
)

// Pareto draws every point's totals of the two metrics, a colour and
// marker per base policy; the front as a staircase through the points no
// other point beats on both, each ringed and labelled with its policy and
// swept values (FrontLabels).
func Pareto(d plotdata.ParetoData, sessions int, opt Options) *Figure {
	lowerA := d.LowerA || slices.ContainsFunc(d.Refs, func(r plotdata.RefPoint) bool { return r.LowerA })
	lowerB := d.LowerB || slices.ContainsFunc(d.Refs, func(r plotdata.RefPoint) bool { return r.LowerB })
	p := newPlot(lowerAxis(axisLabel(d.A, "over all sessions"), lowerA), lowerAxis(axisLabel(d.B, "over all sessions"), lowerB))
	p.X.Tick.Marker = unitTicks(d.A.Unit)
	p.Y.Tick.Marker = unitTicks(d.B.Unit)
	p.Add(grid(true))
	f := &Figure{Title: title("Sweep: Pareto front of "+strings.ToLower(metricTitle(d.A))+" and "+strings.ToLower(metricTitle(d.B)), sessionsTitle(sessions), "")}
	scatter, all := paretoScatter(d, f)
	// The references: marked and labelled, in the legend, and kept in
	// view by the axes.
	var refMarks []plot.Plotter
	var refXYs []plotdata.XY
	for i, r := range d.Refs {
		_, g := refStyle(i)
		q := plotdata.XY{X: r.A, Y: r.B}
		m := &marks{XYs: []plotdata.XY{q}, Glyph: g}
		refMarks, refXYs = append(refMarks, m), append(refXYs, q)
		f.Legend = append(f.Legend, LegendEntry{Text: r.Label, Thumbs: []plot.Thumbnailer{&marks{Glyph: g}}})
	}
	pl := &pointLabels{Style: textStyle(fontSans, tickSize, color.Black), Obstacles: append(slices.Clip(all), refXYs...), Radius: frontGlyph.Radius,
		TowardA: d.A.HigherIsBetter, TowardB: d.B.HigherIsBetter}
	if len(d.Front) > 0 {
		front := make([]plotdata.XY, len(d.Front))
		for i, pt := range d.Front {
			front[i] = plotdata.XY{X: pt.A, Y: pt.B}
		}
		p.Add(frontSteps(front, d.Steps)...)
		p.Add(scatter...)
		p.Add(refMarks...)
		rings := &marks{XYs: front, Glyph: frontGlyph}
		p.Add(rings)
		labels := plotdata.FrontLabels(d)
		pl.Path = front
		for _, l := range labels {
			pl.XYs = append(pl.XYs, plotdata.XY{X: l.A, Y: l.B})
			pl.Texts = append(pl.Texts, l.Text)
		}
		f.Legend = append(f.Legend, LegendEntry{Text: fmt.Sprintf("Pareto front (%s, labelled)", numtext.Count(len(d.Front), "point", "points")),
			Thumbs: []plot.Thumbnailer{&hline{Style: frontLine}, &marks{Glyph: frontGlyph}}})
		if slices.Contains(d.Steps, plotdata.StepSame) {
			f.Legend = append(f.Legend, LegendEntry{Text: "step with no significant difference on either metric (paired test)",
				Thumbs: []plot.Thumbnailer{&hline{Style: sameLine}}})
		}
	} else {
		p.Add(scatter...)
		p.Add(refMarks...)
	}
	// No number of the plot is written out: the axes say which are lower
	// bounds, and the legend why.
	f.Legend = append(f.Legend, lowerEntry(lowerA || lowerB)...)
	f.Height = lowerHeight(lowerA || lowerB)
	for i, r := range d.Refs {
		pl.XYs = append(pl.XYs, refXYs[i])
		pl.Texts = append(pl.Texts, r.Name)
	}
	p.Add(pl)
	xlo, xhi, ylo, yhi := xyRange(append(slices.Clip(all), refXYs...))
	p.X.Min, p.X.Max = axis.PadRange(xlo, xhi, 0.08, false)
	p.Y.Min, p.Y.Max = axis.PadRange(ylo, yhi, 0.1, false)
	f.Panels = []*plot.Plot{p}
	return f
}

// paretoScatter is the Pareto plot's points, a colour and marker per base
// policy, each base's entry added to f's legend; all is every point drawn.
func paretoScatter(d plotdata.ParetoData, f *Figure) (scatter []plot.Plotter, all []plotdata.XY) {
	// Points of several bases at one place are drawn one inside the
	// other, the first base's largest, so that each shows (a base's own
	// points at one place are one marker).
	bases := map[plotdata.XY][]string{} // the bases at each place, in the order drawn
	for _, b := range d.Bases {
		for _, pt := range d.Points {
			q := plotdata.XY{X: pt.A, Y: pt.B}
			if pt.Base == b && !slices.Contains(bases[q], b) {
				bases[q] = append(bases[q], b)
			}
		}
	}
	for i, base := range d.Bases {
		c, g := seriesStyle(i)
		sty := draw.GlyphStyle{Color: c, Shape: g, Radius: markRadius}
		var xys []plotdata.XY
		byRadius := map[vg.Length]*marks{}
		var order []vg.Length
		for _, pt := range d.Points {
			if pt.Base != base {
				continue
			}
			q := plotdata.XY{X: pt.A, Y: pt.B}
			xys = append(xys, q)
			r := markRadius
			if bs := bases[q]; len(bs) > 1 {
				r = tiedRadius(slices.Index(bs, base))
			}
			if byRadius[r] == nil {
				byRadius[r] = &marks{Glyph: sty}
				byRadius[r].Glyph.Radius = r
				order = append(order, r)
			}
			byRadius[r].XYs = append(byRadius[r].XYs, q)
		}
		if len(xys) == 0 {
			continue
		}
		all = append(all, xys...)
		for _, r := range order {
			scatter = append(scatter, byRadius[r])
		}
		f.Legend = append(f.Legend, LegendEntry{Text: fmt.Sprintf("%s (%s)", base, numtext.Count(len(xys), "point", "points")), Thumbs: []plot.Thumbnailer{&marks{Glyph: sty}}})
	}
	return scatter, all
}

// frontSteps draws the front as a staircase, a step at a time: dashed
// where the paired test found no difference between its two points.
func frontSteps(front []plotdata.XY, steps []plotdata.StepTest) []plot.Plotter {
	if len(front) < 2 || steps == nil {
		return []plot.Plotter{&line{XYs: front, Style: frontLine, Step: true}}
	}
	out := make([]plot.Plotter, 0, len(front)-1)
	for k := 1; k < len(front); k++ {
		sty := frontLine
		if steps[k-1] == plotdata.StepSame {
			sty = sameLine
		}
		out = append(out, &line{XYs: front[k-1 : k+1], Style: sty, Step: true})
	}
	return out
}

// SweepFiles returns a sweep's plots: the objective against each swept
// parameter (with the totals' intervals, iv saying what they are), a
// heatmap per base policy when exactly two parameters are swept, and the
// Pareto front when pareto names two metrics, its steps marked by steps
// (the front's comparisons, MarkSteps). The sweep and Pareto plots draw
// refs beside the points: the runs the study is read against.
func SweepFiles(points []sweep.Point, totals []sweep.Total, params []string, objective metric.Metric, pareto []metric.Metric, steps []paired.Comparison, sessions int, iv Interval, refs []sweep.Reference, format string, opt Options) []File {
	var out []File
	for _, param := range params {
		d := plotdata.SweepSeries(points, totals, param, objective)
		d.Interval = iv
		d.Refs = plotdata.SweepRefs(refs, objective)
		out = append(out, File{Name: fileName(KindSweep, objective.Name, param, format), Figure: Sweep(d, sessions, opt)})
	}
	if len(params) == 2 {
		for _, h := range plotdata.HeatmapSeries(points, totals, params[0], params[1], objective) {
			out = append(out, File{Name: fileName(KindHeatmap, objective.Name, h.Base, format), Figure: Heatmap(h, objective.HigherIsBetter, sessions, opt)})
		}
	}
	if len(pareto) == 2 {
		d := plotdata.ParetoSeries(points, totals, pareto[0], pareto[1])
		d.MarkSteps(steps)
		d.Refs = plotdata.ParetoRefs(refs, pareto[0], pareto[1])
		out = append(out, File{Name: fileName(KindPareto, pareto[0].Name, pareto[1].Name, format), Figure: Pareto(d, sessions, opt)})
	}
	return out
}
