package plots

import (
	"image/color"
	"math"

	"github.com/ctxlab/ctxlab/report/plots/plotdata"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Interval says what the interval bars of a plot are (plotdata.Interval):
// callers name it here, with the figures that draw it.
type Interval = plotdata.Interval

// Interval bars: a whisker with caps, thin enough to sit over a line and
// its band, in the series' colour.
var (
	whiskerWidth = vg.Points(0.9)
	capHalf      = vg.Points(2.4)
	dodgeStep    = vg.Points(3.5) // apart, series by series, at one x
)

// errorBars draws vertical intervals at each x: Low to High with caps, and
// an open circle at Mid, shifted right by Dodge so that the series at one
// x do not cover each other. A NaN interval is not drawn.
type errorBars struct {
	X, Low, Mid, High []float64
	Color             color.Color
	Dodge             vg.Length
}

func (e *errorBars) Plot(c draw.Canvas, p *plot.Plot) {
	sty := draw.LineStyle{Color: e.Color, Width: whiskerWidth}
	dot := draw.GlyphStyle{Color: e.Color, Radius: vg.Points(1.6), Shape: draw.RingGlyph{}}
	for k := range e.X {
		if math.IsNaN(e.Low[k]) || math.IsNaN(e.High[k]) {
			continue
		}
		x := c.X(p.X.Norm(e.X[k])) + e.Dodge
		y0, y1 := c.Y(p.Y.Norm(e.Low[k])), c.Y(p.Y.Norm(e.High[k]))
		c.StrokeLine2(sty, x, y0, x, y1)
		c.StrokeLine2(sty, x-capHalf, y0, x+capHalf, y0)
		c.StrokeLine2(sty, x-capHalf, y1, x+capHalf, y1)
		if !math.IsNaN(e.Mid[k]) {
			c.DrawGlyph(dot, vg.Point{X: x, Y: c.Y(p.Y.Norm(e.Mid[k]))})
		}
	}
}

func (e *errorBars) Thumbnail(c *draw.Canvas) {
	sty := draw.LineStyle{Color: e.Color, Width: whiskerWidth}
	x := (c.Min.X + c.Max.X) / 2
	h := c.Max.Y - c.Min.Y
	y0, y1 := c.Min.Y+h*0.05, c.Max.Y-h*0.05
	c.StrokeLine2(sty, x, y0, x, y1)
	c.StrokeLine2(sty, x-capHalf, y0, x+capHalf, y0)
	c.StrokeLine2(sty, x-capHalf, y1, x+capHalf, y1)
	c.DrawGlyph(draw.GlyphStyle{Color: e.Color, Radius: vg.Points(1.6), Shape: draw.RingGlyph{}}, vg.Point{X: x, Y: (y0 + y1) / 2})
}

// DataRange includes the intervals, so that no whisker is cut.
func (e *errorBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for k := range e.X {
		if math.IsNaN(e.Low[k]) || math.IsNaN(e.High[k]) {
			continue
		}
		xmin, xmax = min(xmin, e.X[k]), max(xmax, e.X[k])
		ymin, ymax = min(ymin, e.Low[k]), max(ymax, e.High[k])
	}
	return xmin, xmax, ymin, ymax
}

// CostIntervals are the intervals of the policies' total costs against
// the baseline, in dollars, in the policies' order (compare's comparisons
// of total_cost_usd: report.CompareDocument.TotalCostIntervals); NaN
// where a policy has none.
type CostIntervals struct {
	Low, High []float64
	Interval  Interval
}

// plotter draws the intervals of rows bars; nil when there is none.
func (ivs CostIntervals) plotter(rows int) *barIntervals {
	if ivs.Interval.Confidence <= 0 || len(ivs.Low) != rows || len(ivs.High) != rows {
		return nil
	}
	for i := range ivs.Low {
		if spans(ivs.Low[i], ivs.High[i]) {
			return &barIntervals{Rows: rows, Low: ivs.Low, High: ivs.High, Style: draw.LineStyle{Color: colorObserved, Width: whiskerWidth}}
		}
	}
	return nil
}

// spans reports whether an interval is there and wider than a point (one
// session, or the baseline against itself, gives a point: nothing to
// draw).
func spans(lo, hi float64) bool { return !math.IsNaN(lo) && !math.IsNaN(hi) && hi > lo }

// barIntervals draws each row's interval of hbars as a horizontal whisker
// with caps in the gap under the row's bar, clear of the bar and of the
// note beside it. Rows index the bars; a row without an interval has NaN,
// and a point is not drawn.
type barIntervals struct {
	Rows      int
	Low, High []float64
	Style     draw.LineStyle
}

// whiskerRow is where a row's whisker runs: under its bar, in the gap.
func whiskerRow(y float64) float64 { return y - barHeight/2 - (1-barHeight)/4 }

func (b *barIntervals) Plot(c draw.Canvas, p *plot.Plot) {
	h := (1 - barHeight) / 4 // the caps' half-height, in rows
	for i := range b.Low {
		if !spans(b.Low[i], b.High[i]) {
			continue
		}
		yr := whiskerRow(float64(b.Rows - 1 - i))
		y := c.Y(p.Y.Norm(yr))
		ya, yb := c.Y(p.Y.Norm(yr-h)), c.Y(p.Y.Norm(yr+h))
		x0, x1 := c.X(p.X.Norm(b.Low[i])), c.X(p.X.Norm(b.High[i]))
		c.StrokeLine2(b.Style, x0, y, x1, y)
		c.StrokeLine2(b.Style, x0, ya, x0, yb)
		c.StrokeLine2(b.Style, x1, ya, x1, yb)
	}
}

func (b *barIntervals) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	h := (c.Max.Y - c.Min.Y) * 0.3
	x0, x1 := c.Min.X+vg.Points(1), c.Max.X-vg.Points(1)
	c.StrokeLine2(b.Style, x0, y, x1, y)
	c.StrokeLine2(b.Style, x0, y-h, x0, y+h)
	c.StrokeLine2(b.Style, x1, y-h, x1, y+h)
}

// DataRange reaches the highest interval, so that the axis shows it.
func (b *barIntervals) DataRange() (xmin, xmax, ymin, ymax float64) {
	for i := range b.High {
		if !math.IsNaN(b.High[i]) {
			xmax = max(xmax, b.High[i])
		}
	}
	// Room under the last row's whisker, clear of the axis.
	return 0, xmax, whiskerRow(0) - (1 - barHeight), float64(b.Rows) - 0.5
}
