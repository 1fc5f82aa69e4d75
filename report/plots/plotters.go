package plots

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/ctxlab/ctxlab/report/plots/plotdata"
)

// hline is a horizontal reference line across the data area.
type hline struct {
	Y     float64
	Style draw.LineStyle
}

func (h *hline) Plot(c draw.Canvas, p *plot.Plot) {
	if h.Y < p.Y.Min || h.Y > p.Y.Max {
		return
	}
	y := c.Y(p.Y.Norm(h.Y))
	c.StrokeLine2(h.Style, c.Min.X, y, c.Max.X, y)
}

func (h *hline) DataRange() (xmin, xmax, ymin, ymax float64) {
	return math.Inf(1), math.Inf(-1), h.Y, h.Y
}

func (h *hline) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(h.Style, c.Min.X, y, c.Max.X, y)
}

// line is a polyline of data points, drawn thin, clipped to the data area.
type line struct {
	XYs   []plotdata.XY
	Style draw.LineStyle
	// Step holds each value until the next point (a context between
	// calls spaced in time) instead of joining points directly.
	Step bool
}

func (l *line) Plot(c draw.Canvas, p *plot.Plot) {
	if len(l.XYs) == 0 {
		return
	}
	pts := make([]vg.Point, 0, 2*len(l.XYs))
	for _, q := range l.XYs {
		pt := vg.Point{X: c.X(p.X.Norm(q.X)), Y: c.Y(p.Y.Norm(q.Y))}
		if n := len(pts); l.Step && n > 0 {
			pts = append(pts, vg.Point{X: pt.X, Y: pts[n-1].Y})
		}
		pts = append(pts, pt)
	}
	if len(pts) == 1 {
		c.DrawGlyph(draw.GlyphStyle{Color: l.Style.Color, Radius: l.Style.Width * 1.5, Shape: draw.CircleGlyph{}}, pts[0])
		return
	}
	c.StrokeLines(l.Style, c.ClipLinesXY(pts)...)
}

func (l *line) DataRange() (xmin, xmax, ymin, ymax float64) {
	return xyRange(l.XYs)
}

func (l *line) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	sty := l.Style
	sty.Width = max(sty.Width, vg.Points(1.2))
	c.StrokeLine2(sty, c.Min.X, y, c.Max.X, y)
}

func xyRange(xys []plotdata.XY) (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for _, q := range xys {
		xmin, xmax = math.Min(xmin, q.X), math.Max(xmax, q.X)
		ymin, ymax = math.Min(ymin, q.Y), math.Max(ymax, q.Y)
	}
	return
}

// marks draws a glyph at each point (markers on a line).
type marks struct {
	XYs   []plotdata.XY
	Glyph draw.GlyphStyle
}

func (m *marks) Plot(c draw.Canvas, p *plot.Plot) {
	for _, q := range m.XYs {
		pt := vg.Point{X: c.X(p.X.Norm(q.X)), Y: c.Y(p.Y.Norm(q.Y))}
		if c.Contains(pt) {
			c.DrawGlyph(m.Glyph, pt)
		}
	}
}

func (m *marks) Thumbnail(c *draw.Canvas) {
	c.DrawGlyph(m.Glyph, c.Center())
}

// triangleDown is a glyph: a filled triangle pointing down.
type triangleDown struct{}

func (triangleDown) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetColor(sty.Color)
	r := sty.Radius
	var p vg.Path
	p.Move(vg.Point{X: pt.X - r, Y: pt.Y + r*0.8})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y + r*0.8})
	p.Line(vg.Point{X: pt.X, Y: pt.Y - r})
	p.Close()
	c.Fill(p)
}

// diamond is a glyph: a filled square standing on a corner.
type diamond struct{}

func (diamond) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetColor(sty.Color)
	r := sty.Radius * 1.2
	var p vg.Path
	p.Move(vg.Point{X: pt.X, Y: pt.Y + r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y})
	p.Line(vg.Point{X: pt.X, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X - r, Y: pt.Y})
	p.Close()
	c.Fill(p)
}

// ring is an open circle glyph with a thin outline.
type ring struct{ width vg.Length }

func (g ring) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: g.width})
	var p vg.Path
	p.Move(vg.Point{X: pt.X + sty.Radius, Y: pt.Y})
	p.Arc(pt, sty.Radius, 0, 2*math.Pi)
	p.Close()
	c.Stroke(p)
}

// rug draws a short vertical tick per X value along the top of the data
// area (cache breaks): dense events stay visible without covering data.
type rug struct {
	X      []float64
	Style  draw.LineStyle
	Length vg.Length
	// Full draws a faint line over the whole height as well.
	Full draw.LineStyle
}

func (r *rug) Plot(c draw.Canvas, p *plot.Plot) {
	for _, x := range r.X {
		if x < p.X.Min || x > p.X.Max {
			continue
		}
		xc := c.X(p.X.Norm(x))
		if r.Full.Width > 0 {
			c.StrokeLine2(r.Full, xc, c.Min.Y, xc, c.Max.Y-r.Length)
		}
		c.StrokeLine2(r.Style, xc, c.Max.Y-r.Length, xc, c.Max.Y)
	}
}

func (r *rug) Thumbnail(c *draw.Canvas) {
	x := c.Center().X
	c.StrokeLine2(r.Style, x, c.Min.Y, x, c.Max.Y)
}

// swatch is a legend thumbnail: a filled box.
type swatch struct{ Color color.Color }

func (s swatch) Thumbnail(c *draw.Canvas) {
	h := c.Max.Y - c.Min.Y
	w := c.Max.X - c.Min.X
	side := min(h, w) * 0.9
	x0 := c.Min.X + (w-side)/2
	y0 := c.Min.Y + (h-side)/2
	c.FillPolygon(s.Color, []vg.Point{{X: x0, Y: y0}, {X: x0 + side, Y: y0}, {X: x0 + side, Y: y0 + side}, {X: x0, Y: y0 + side}})
}

// stacked draws per-call stacked columns: layer k of call i spans
// [x−w/2, x+w/2] from the sum of layers below it. When the columns are
// narrower than about two device points they merge into step areas, one
// polygon per layer, so thousands of calls stay cheap and gap-free.
type stacked struct {
	X      []float64
	Layers [][]float64 // bottom to top, each len(X)
	Colors []color.Color
}

func (s *stacked) DataRange() (xmin, xmax, ymin, ymax float64) {
	if len(s.X) == 0 {
		return math.Inf(1), math.Inf(-1), 0, 0
	}
	xmin, xmax = s.X[0]-0.5, s.X[len(s.X)-1]+0.5
	for i := range s.X {
		var sum float64
		for _, l := range s.Layers {
			sum += l[i]
		}
		ymax = math.Max(ymax, sum)
	}
	return xmin, xmax, 0, ymax
}

func (s *stacked) Plot(c draw.Canvas, p *plot.Plot) {
	n := len(s.X)
	if n == 0 {
		return
	}
	unit := c.X(p.X.Norm(1)) - c.X(p.X.Norm(0)) // device width of one call
	base := make([]float64, n)
	for k, layer := range s.Layers {
		if unit >= vg.Points(2) {
			half := 0.4
			for i, x := range s.X {
				if layer[i] <= 0 {
					continue
				}
				x0, x1 := c.X(p.X.Norm(x-half)), c.X(p.X.Norm(x+half))
				y0, y1 := c.Y(p.Y.Norm(base[i])), c.Y(p.Y.Norm(base[i]+layer[i]))
				c.FillPolygon(s.Colors[k], c.ClipPolygonXY([]vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}))
			}
		} else {
			// Upper edge left to right, then lower edge back.
			pts := make([]vg.Point, 0, 4*n)
			for i, x := range s.X {
				y := c.Y(p.Y.Norm(base[i] + layer[i]))
				pts = append(pts, vg.Point{X: c.X(p.X.Norm(x - 0.5)), Y: y}, vg.Point{X: c.X(p.X.Norm(x + 0.5)), Y: y})
			}
			for i := n - 1; i >= 0; i-- {
				y := c.Y(p.Y.Norm(base[i]))
				pts = append(pts, vg.Point{X: c.X(p.X.Norm(s.X[i] + 0.5)), Y: y}, vg.Point{X: c.X(p.X.Norm(s.X[i] - 0.5)), Y: y})
			}
			c.FillPolygon(s.Colors[k], c.ClipPolygonXY(simplify(pts)))
		}
		for i := range base {
			base[i] += layer[i]
		}
	}
}

// simplify drops points that repeat the previous one or sit on a
// horizontal or vertical segment with both neighbours.
func simplify(pts []vg.Point) []vg.Point {
	out := make([]vg.Point, 0, len(pts))
	for _, q := range pts {
		if n := len(out); n > 0 && out[n-1] == q {
			continue
		}
		if n := len(out); n >= 2 {
			a, b := out[n-2], out[n-1]
			if (a.X == b.X && b.X == q.X) || (a.Y == b.Y && b.Y == q.Y) {
				out[n-1] = q
				continue
			}
		}
		out = append(out, q)
	}
	return out
}

// hbars draws horizontal bars, row 0 at the top, with their row labels to
// the left of the data area and a note after each bar's end.
type hbars struct {
	Labels []string
	// Parts[i] are row i's segments, stacked left to right, or, with
	// Overlay, each drawn from zero over the previous (the largest first).
	Parts  [][]float64
	Colors []color.Color
	// RowColors, when set, give each row its own segment colours.
	RowColors [][]color.Color
	Overlay   bool
	Notes     []string
	// LabelWidth reserves room for the labels (the widest of all panels,
	// so that stacked panels align).
	LabelWidth vg.Length
	Label      draw.TextStyle
	Note       draw.TextStyle
}

const barHeight = 0.68 // in rows

func (b *hbars) rowY(i int) float64 { return float64(len(b.Labels) - 1 - i) }

func (b *hbars) DataRange() (xmin, xmax, ymin, ymax float64) {
	for i := range b.Parts {
		xmax = math.Max(xmax, b.end(i))
	}
	return 0, xmax, -0.5, float64(len(b.Labels)) - 0.5
}

// end is the x where row i's bar ends.
func (b *hbars) end(i int) float64 {
	var v float64
	for _, x := range b.Parts[i] {
		if b.Overlay {
			v = math.Max(v, x)
		} else {
			v += x
		}
	}
	return v
}

func (b *hbars) Plot(c draw.Canvas, p *plot.Plot) {
	for i := range b.Labels {
		y := b.rowY(i)
		y0, y1 := c.Y(p.Y.Norm(y-barHeight/2)), c.Y(p.Y.Norm(y+barHeight/2))
		colors := b.Colors
		if i < len(b.RowColors) {
			colors = b.RowColors[i]
		}
		var base float64
		for k, v := range b.Parts[i] {
			if v <= 0 {
				continue
			}
			from := base
			if b.Overlay {
				from = 0
			}
			x0, x1 := c.X(p.X.Norm(from)), c.X(p.X.Norm(from+v))
			if x1-x0 < vg.Points(0.5) {
				x1 = x0 + vg.Points(0.5) // keep tiny bars visible
			}
			if !b.Overlay {
				base += v
			}
			c.FillPolygon(colors[k], []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
		}
		yc := c.Y(p.Y.Norm(y))
		lsty := b.Label
		lsty.XAlign = draw.XRight
		lsty.YAlign = draw.YCenter
		c.FillText(lsty, vg.Point{X: c.Min.X - vg.Points(4), Y: yc}, b.Labels[i])
		if i < len(b.Notes) && b.Notes[i] != "" {
			nsty := b.Note
			nsty.YAlign = draw.YCenter
			x := c.X(p.X.Norm(b.end(i)))
			c.FillText(nsty, vg.Point{X: x + vg.Points(3), Y: yc}, b.Notes[i])
		}
	}
}

// GlyphBoxes make the plot leave room for the labels and notes.
func (b *hbars) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	var boxes []plot.GlyphBox
	for i := range b.Labels {
		y := p.Y.Norm(b.rowY(i))
		h := b.Label.Height("Mg")
		boxes = append(boxes, plot.GlyphBox{X: 0, Y: y, Rectangle: vg.Rectangle{
			Min: vg.Point{X: -b.LabelWidth - vg.Points(4), Y: -h / 2},
			Max: vg.Point{X: 0, Y: h / 2},
		}})
		if i < len(b.Notes) && b.Notes[i] != "" {
			w := b.Note.Width(b.Notes[i])
			boxes = append(boxes, plot.GlyphBox{X: p.X.Norm(b.end(i)), Y: y, Rectangle: vg.Rectangle{
				Min: vg.Point{X: 0, Y: -h / 2},
				Max: vg.Point{X: w + vg.Points(3), Y: h / 2},
			}})
		}
	}
	return boxes
}

// note writes a line of text in the middle of the data area (an empty
// plot's explanation).
type note struct {
	Text  string
	Style draw.TextStyle
}

func (n *note) Plot(c draw.Canvas, _ *plot.Plot) {
	sty := n.Style
	sty.XAlign = draw.XCenter
	sty.YAlign = draw.YCenter
	c.FillText(sty, c.Center(), n.Text)
}
