package plots

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/simulate/metric"
	"github.com/ctxlab/ctxlab/simulate/sweep"
)

// Sweep plot kinds, as they appear in file names.
const (
	KindSweep   = "sweep"
	KindHeatmap = "heatmap"
	KindPareto  = "pareto"
)

// SweepLine is one series of a sweep plot: one base policy (and one
// combination of the other swept parameters' values) across a parameter,
// with the objective's per-session median and p10–p90 spread at each
// value.
type SweepLine struct {
	Label            string
	X                []float64
	Median, P10, P90 []float64
	Points           []int // the points drawn, indexes into the grid
}

// SweepData is the numbers behind a sweep plot. Ticks name the x values
// when the parameter's values are not all numbers (then X is their rank).
type SweepData struct {
	Param, Objective string
	Lines            []SweepLine
	Ticks            []string
}

// SweepSeries extracts the objective against param from the sweep's
// totals (in any order: Total.Point indexes points), a line per series in
// the grid's order, its points by x. Points whose base does not have param
// are left out.
func SweepSeries(points []sweep.Point, totals []sweep.Total, param, objective string) SweepData {
	d := SweepData{Param: param, Objective: objective}
	byPoint := make([]*sweep.Total, len(points))
	for i := range totals {
		byPoint[totals[i].Point] = &totals[i]
	}
	numeric := true
	var values []string
	seen := map[string]bool{}
	for _, p := range points {
		v, ok := p.Values[param]
		if !ok {
			continue
		}
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			numeric = false
		}
		if !seen[v] {
			seen[v] = true
			values = append(values, v)
		}
	}
	rank := map[string]float64{}
	if !numeric {
		d.Ticks = values
		for i, v := range values {
			rank[v] = float64(i)
		}
	}
	index := map[string]int{}
	for pi, p := range points {
		v, ok := p.Values[param]
		t := byPoint[pi]
		if !ok || t == nil {
			continue
		}
		key := lineLabel(p, param)
		li, ok := index[key]
		if !ok {
			li = len(d.Lines)
			index[key] = li
			d.Lines = append(d.Lines, SweepLine{Label: key})
		}
		x := rank[v]
		if numeric {
			x, _ = strconv.ParseFloat(v, 64)
		}
		l := &d.Lines[li]
		l.X = append(l.X, x)
		l.Median, l.P10, l.P90 = append(l.Median, t.Median), append(l.P10, t.P10), append(l.P90, t.P90)
		l.Points = append(l.Points, pi)
	}
	for i := range d.Lines {
		sortLine(&d.Lines[i])
	}
	return d
}

// lineLabel names a point's series: its base policy, and the values of
// the swept parameters other than param.
func lineLabel(p sweep.Point, param string) string {
	var others []string
	for k, v := range p.Values {
		if k != param {
			others = append(others, k+"="+v)
		}
	}
	sort.Strings(others)
	if len(others) == 0 {
		return p.Base
	}
	return p.Base + " (" + strings.Join(others, ", ") + ")"
}

// sortLine orders a line's points by x.
func sortLine(l *SweepLine) {
	idx := make([]int, len(l.X))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return l.X[idx[a]] < l.X[idx[b]] })
	perm := func(s []float64) []float64 {
		out := make([]float64, len(s))
		for i, j := range idx {
			out[i] = s[j]
		}
		return out
	}
	pts := make([]int, len(idx))
	for i, j := range idx {
		pts[i] = l.Points[j]
	}
	l.X, l.Median, l.P10, l.P90, l.Points = perm(l.X), perm(l.Median), perm(l.P10), perm(l.P90), pts
}

// Sweep draws the objective against one swept parameter: a line per
// series through the per-session median, and a band from p10 to p90.
func Sweep(d SweepData, sessions int, opt Options) *Figure {
	p := newPlot(d.Param, d.Objective+" per session")
	p.Add(grid(true))
	if d.Ticks != nil {
		p.X.Tick.Marker = labelTicks(d.Ticks)
	}
	f := &Figure{Title: title("Sweep: "+d.Objective+" against "+d.Param, sessionsTitle(sessions), "")}
	for i, l := range d.Lines {
		c := palette[i%len(palette)]
		if band := bandPolygon(l); band != nil {
			band.Color = color.NRGBA{c.R, c.G, c.B, 0x38}
			band.LineStyle.Width = 0
			p.Add(band)
		}
		xy := make(plotter.XYs, len(l.X))
		for k := range l.X {
			xy[k] = plotter.XY{X: l.X[k], Y: l.Median[k]}
		}
		ln, pts, err := plotter.NewLinePoints(xy)
		if err != nil {
			continue
		}
		ln.Color, ln.Width = c, vg.Points(1.4)
		pts.Color, pts.Shape, pts.Radius = c, draw.CircleGlyph{}, vg.Points(2)
		p.Add(ln, pts)
		f.Legend = append(f.Legend, LegendEntry{Text: l.Label, Thumbs: []plot.Thumbnailer{ln, pts}})
	}
	if len(d.Lines) > 0 {
		f.Legend = append(f.Legend, LegendEntry{Text: "band: p10–p90 of the sessions", Thumbs: []plot.Thumbnailer{swatch{color.Gray{Y: 0xd0}}}})
	}
	f.Panels = []*plot.Plot{p}
	return f
}

// bandPolygon is the p10–p90 band of a line with at least two points.
func bandPolygon(l SweepLine) *plotter.Polygon {
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

// HeatCell is one cell of a heatmap: the objective's total at one value
// of each of the two parameters.
type HeatCell struct {
	X, Y  string
	Value float64
}

// HeatmapData is the numbers behind a heatmap of one base policy.
type HeatmapData struct {
	Base, ParamX, ParamY, Objective string
	Xs, Ys                          []string // in grid order
	Cells                           []HeatCell
}

// HeatmapSeries extracts, for each base policy that has both parameters,
// the objective's total at each pair of their values.
func HeatmapSeries(points []sweep.Point, totals []sweep.Total, px, py string, objective metric.Metric) []HeatmapData {
	byPoint := make([]*sweep.Total, len(points))
	for i := range totals {
		byPoint[totals[i].Point] = &totals[i]
	}
	var out []HeatmapData
	index := map[string]int{}
	for pi, p := range points {
		vx, okx := p.Values[px]
		vy, oky := p.Values[py]
		t := byPoint[pi]
		if !okx || !oky || t == nil {
			continue
		}
		hi, ok := index[p.Base]
		if !ok {
			hi = len(out)
			index[p.Base] = hi
			out = append(out, HeatmapData{Base: p.Base, ParamX: px, ParamY: py, Objective: objective.Name})
		}
		h := &out[hi]
		if !contains(h.Xs, vx) {
			h.Xs = append(h.Xs, vx)
		}
		if !contains(h.Ys, vy) {
			h.Ys = append(h.Ys, vy)
		}
		h.Cells = append(h.Cells, HeatCell{X: vx, Y: vy, Value: objective.Value(&t.Metrics)})
	}
	return out
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// Heatmap draws one base policy's objective over two parameters: a cell
// per pair, shaded from the best value (light) to the worst (dark), with
// its value written in it.
func Heatmap(d HeatmapData, higherIsBetter bool, sessions int, opt Options) *Figure {
	p := newPlot(d.ParamX, d.ParamY)
	p.X.Tick.Marker = labelTicks(d.Xs)
	p.Y.Tick.Marker = labelTicks(d.Ys)
	p.X.Min, p.X.Max = -0.5, float64(len(d.Xs))-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(len(d.Ys))-0.5
	p.Add(&heatCells{d: d, higherIsBetter: higherIsBetter})
	return &Figure{
		Title:  title("Sweep: "+d.Objective, sessionsTitle(sessions), d.Base),
		Legend: []LegendEntry{{Text: "lighter is better; each cell's value is the total over the sessions", Thumbs: []plot.Thumbnailer{swatch{heatColor(0)}}}},
		Panels: []*plot.Plot{p},
	}
}

// heatCells draws a heatmap's cells and their values.
type heatCells struct {
	d              HeatmapData
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
		c.FillText(ts, vg.Point{X: (x0 + x1) / 2, Y: (y0 + y1) / 2}, numtext.Float(cell.Value, decimalsFor(cell.Value)))
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

// ParetoData is the numbers behind a Pareto plot: every point's totals of
// the two metrics, and the front, best first on the first metric.
type ParetoData struct {
	A, B   string
	Points []ParetoPoint
	Front  []ParetoPoint
}

// ParetoPoint is one grid point's totals of the two metrics.
type ParetoPoint struct {
	Policy string
	A, B   float64
}

// ParetoSeries extracts the Pareto plot's numbers from the ranked totals.
func ParetoSeries(totals []sweep.Total, a, b metric.Metric) ParetoData {
	d := ParetoData{A: a.Name, B: b.Name}
	for i := range totals {
		t := &totals[i]
		d.Points = append(d.Points, ParetoPoint{Policy: t.Policy, A: a.Value(&t.Metrics), B: b.Value(&t.Metrics)})
	}
	for _, t := range sweep.Front(totals, a) {
		d.Front = append(d.Front, ParetoPoint{Policy: t.Policy, A: a.Value(&t.Metrics), B: b.Value(&t.Metrics)})
	}
	return d
}

// Pareto draws every point's two metrics and the front through the points
// no other point beats on both.
func Pareto(d ParetoData, sessions int, opt Options) *Figure {
	p := newPlot(d.A, d.B)
	p.Add(grid(true))
	f := &Figure{Title: title("Sweep: Pareto front of "+d.A+" and "+d.B, sessionsTitle(sessions), "")}
	all := make(plotter.XYs, len(d.Points))
	for i, pt := range d.Points {
		all[i] = plotter.XY{X: pt.A, Y: pt.B}
	}
	if sc, err := plotter.NewScatter(all); err == nil {
		sc.Color, sc.Shape, sc.Radius = color.Gray{Y: 0x90}, draw.CircleGlyph{}, vg.Points(2)
		p.Add(sc)
		f.Legend = append(f.Legend, LegendEntry{Text: fmt.Sprintf("grid points (%d)", len(d.Points)), Thumbs: []plot.Thumbnailer{sc}})
	}
	if len(d.Front) > 0 {
		front := make(plotter.XYs, len(d.Front))
		for i, pt := range d.Front {
			front[i] = plotter.XY{X: pt.A, Y: pt.B}
		}
		ln, pts, err := plotter.NewLinePoints(front)
		if err == nil {
			ln.Color, ln.Width, ln.StepStyle = palette[1], vg.Points(1.2), plotter.PostStep
			pts.Color, pts.Shape, pts.Radius = palette[1], draw.CircleGlyph{}, vg.Points(3)
			p.Add(ln, pts)
			f.Legend = append(f.Legend, LegendEntry{Text: fmt.Sprintf("Pareto front (%d)", len(d.Front)), Thumbs: []plot.Thumbnailer{ln, pts}})
		}
	}
	f.Panels = []*plot.Plot{p}
	return f
}

// SweepFiles returns a sweep's plots: the objective against each swept
// parameter, a heatmap per base policy when exactly two parameters are
// swept, and the Pareto front when pareto names two metrics.
func SweepFiles(points []sweep.Point, totals []sweep.Total, params []string, objective metric.Metric, pareto []metric.Metric, sessions int, format string, opt Options) []File {
	var out []File
	for _, param := range params {
		d := SweepSeries(points, totals, param, objective.Name)
		out = append(out, File{Name: fileName(KindSweep, objective.Name, param, format), Figure: Sweep(d, sessions, opt)})
	}
	if len(params) == 2 {
		for _, h := range HeatmapSeries(points, totals, params[0], params[1], objective) {
			out = append(out, File{Name: fileName(KindHeatmap, objective.Name, h.Base, format), Figure: Heatmap(h, objective.HigherIsBetter, sessions, opt)})
		}
	}
	if len(pareto) == 2 {
		d := ParetoSeries(totals, pareto[0], pareto[1])
		out = append(out, File{Name: fileName(KindPareto, pareto[0].Name, pareto[1].Name, format), Figure: Pareto(d, sessions, opt)})
	}
	return out
}
