package plots

import (
	"fmt"
	"image/color"
	"image/png"
	"io"
	"strings"

	"github.com/ctxlab/ctxlab/report/plots/axis"
	"github.com/ctxlab/ctxlab/report/plots/canvas"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Formats are the output formats Write accepts.
var Formats = []string{"png", "svg", "pdf"}

// Default figure size and PNG resolution.
const (
	DefaultWidth  = 7 * vg.Inch
	DefaultHeight = 3.6 * vg.Inch
	DefaultDPI    = 150
)

// Figure is a rendered plot ready to write: a title, a legend strip under
// it (outside the data area, so it never hides data) and one or more
// panels stacked top to bottom. Callers may adjust any field before Write.
type Figure struct {
	Title  string
	Legend []LegendEntry
	Panels []*plot.Plot
	// Weights are the panels' relative heights; nil means equal.
	Weights []float64
	// Width and Height are the drawing's size; DPI the PNG resolution.
	Width, Height vg.Length
	DPI           int
}

// LegendEntry is one legend item: its thumbnails drawn over each other,
// then its text.
type LegendEntry struct {
	Text   string
	Thumbs []plot.Thumbnailer
}

// Write draws the figure in format ("png", "svg" or "pdf") to w.
func (f *Figure) Write(w io.Writer, format string) error {
	wd, ht := f.Width, f.Height
	if wd <= 0 {
		wd = DefaultWidth
	}
	if ht <= 0 {
		ht = DefaultHeight
	}
	switch format {
	case "png":
		dpi := f.DPI
		if dpi <= 0 {
			dpi = DefaultDPI
		}
		img := drawPNG(f, wd, ht, dpi)
		// Fastest deflate: encoding is most of a plot's time, and on
		// flat-coloured figures the best compression saves little.
		enc := png.Encoder{CompressionLevel: png.BestSpeed}
		return enc.Encode(w, img)
	case "svg":
		c := vgsvg.New(wd, ht)
		f.Draw(draw.New(c))
		_, err := c.WriteTo(w)
		return err
	case "pdf":
		c := canvas.NewPDF(wd, ht)
		f.Draw(draw.New(c))
		_, err := c.WriteTo(w)
		return err
	}
	return fmt.Errorf("unsupported plot format %q (want png, svg or pdf)", format)
}

// Style.
var (
	fontSans = font.Font{Typeface: "Liberation", Variant: "Sans"}
	fontBold = font.Font{Typeface: "Liberation", Variant: "Sans", Weight: xfont.WeightBold}

	titleSize  = vg.Points(11)
	panelSize  = vg.Points(9.5)
	labelSize  = vg.Points(9)
	tickSize   = vg.Points(8)
	legendSize = vg.Points(8.5)

	margin = vg.Points(6)

	colorAxis  = color.Gray{Y: 0x40}
	colorGrid  = color.Gray{Y: 0xe4}
	colorMuted = color.Gray{Y: 0x60}
)

// Series colours: the observed run is drawn in near-black, other series
// take these in order, so a series keeps its colour as long as its place.
// The first six are Okabe and Ito's colour-blind-safe set ("Color
// Universal Design"); the next six, from Paul Tol's "muted" scheme, are
// darker or duller so that twelve series stay apart. A thirteenth series
// reuses the first colour.
var (
	colorObserved = color.RGBA{0x22, 0x22, 0x22, 0xff}
	palette       = []color.RGBA{
		{0x00, 0x72, 0xb2, 0xff}, // blue
		{0xd5, 0x5e, 0x00, 0xff}, // vermillion
		{0x00, 0x9e, 0x73, 0xff}, // bluish green
		{0xcc, 0x79, 0xa7, 0xff}, // reddish purple
		{0xe6, 0x9f, 0x00, 0xff}, // orange
		{0x56, 0xb4, 0xe9, 0xff}, // sky blue
		{0x33, 0x22, 0x88, 0xff}, // indigo
		{0x88, 0x22, 0x55, 0xff}, // wine
		{0x99, 0x99, 0x33, 0xff}, // olive
		{0x11, 0x77, 0x33, 0xff}, // green
		{0xdd, 0xcc, 0x77, 0xff}, // sand
		{0x88, 0x88, 0x88, 0xff}, // grey
	}
)

// policyColors assigns each run a colour: observed near-black, the others
// the palette in order (cycling).
func policyColors(policies []string) []color.Color {
	out := make([]color.Color, len(policies))
	k := 0
	for i, p := range policies {
		if p == "observed" {
			out[i] = colorObserved
			continue
		}
		out[i] = palette[k%len(palette)]
		k++
	}
	return out
}

func textStyle(f font.Font, size vg.Length, c color.Color) text.Style {
	return text.Style{Color: c, Font: font.From(f, size), Handler: plot.DefaultTextHandler}
}

// newPlot returns a plot in the package's style: sans fonts, light
// horizontal grid, thousand-separated ticks.
func newPlot(xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.TextStyle = textStyle(fontBold, panelSize, color.Black)
	p.Title.TextStyle.XAlign = draw.XCenter
	p.Title.TextStyle.YAlign = draw.YTop
	p.Title.Padding = vg.Points(4)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(fontSans, labelSize)
		a.Tick.Label.Font = font.From(fontSans, tickSize)
		a.Tick.Label.Color = colorAxis
		a.LineStyle.Color = colorAxis
		a.LineStyle.Width = vg.Points(0.6)
		a.Tick.LineStyle.Color = colorAxis
		a.Tick.LineStyle.Width = vg.Points(0.5)
		a.Tick.Length = vg.Points(3)
		a.Padding = vg.Points(2)
		a.Tick.Marker = axis.Ticks{}
	}
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	// Axis labels: centred, baseline-aligned as gonum's defaults. The
	// vertical axis rotates its label by π/2 itself; adding a rotation
	// here would turn it upside down and push it off the canvas.
	p.X.Label.TextStyle.XAlign = draw.XCenter
	p.Y.Label.TextStyle.XAlign = draw.XCenter
	p.X.Label.TextStyle.YAlign = draw.YBottom
	p.Y.Label.TextStyle.YAlign = draw.YBottom
	// Tick labels: replacing the whole text.Style above drops gonum's
	// per-axis alignment; restore it (x: centred under the tick, y:
	// right-aligned against the tick and vertically centred on it).
	p.X.Tick.Label.XAlign = draw.XCenter
	p.X.Tick.Label.YAlign = draw.YTop
	p.Y.Tick.Label.XAlign = draw.XRight
	p.Y.Tick.Label.YAlign = draw.YCenter
	p.X.Label.Padding = vg.Points(2)
	p.Y.Label.Padding = vg.Points(3)
	p.Legend.TextStyle = textStyle(fontSans, legendSize, color.Black)
	return p
}

// grid returns horizontal grid lines (vertical ones too with both).
func grid(both bool) *gridLines {
	return &gridLines{vertical: both}
}

// gridLines draws light grid lines at the major ticks.
type gridLines struct{ vertical bool }

func (g *gridLines) Plot(c draw.Canvas, p *plot.Plot) {
	sty := draw.LineStyle{Color: colorGrid, Width: vg.Points(0.5)}
	for _, t := range p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max) {
		if t.IsMinor() || t.Value < p.Y.Min || t.Value > p.Y.Max {
			continue
		}
		y := c.Y(p.Y.Norm(t.Value))
		c.StrokeLine2(sty, c.Min.X, y, c.Max.X, y)
	}
	if !g.vertical {
		return
	}
	for _, t := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
		if t.IsMinor() || t.Value < p.X.Min || t.Value > p.X.Max {
			continue
		}
		x := c.X(p.X.Norm(t.Value))
		c.StrokeLine2(sty, x, c.Min.Y, x, c.Max.Y)
	}
}

// Draw draws the figure on a canvas.
func (f *Figure) Draw(c draw.Canvas) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	c = draw.Crop(c, margin, -margin, margin, -margin)
	if f.Title != "" {
		sty := textStyle(fontBold, titleSize, color.Black)
		sty.XAlign = draw.XCenter
		sty.YAlign = draw.YTop
		for _, l := range wrapTitle(f.Title, sty, c.Max.X-c.Min.X) {
			c.FillText(sty, vg.Point{X: c.Center().X, Y: c.Max.Y}, l)
			c.Max.Y -= sty.Height(l) + vg.Points(1)
		}
		c.Max.Y -= vg.Points(2)
	}
	if len(f.Legend) > 0 {
		h := drawLegend(c, f.Legend)
		c.Max.Y -= h + vg.Points(4)
	}
	f.drawPanels(c)
}

// titleSep separates the parts of a title; a title too wide for the
// figure breaks into lines there.
const titleSep = " — "

// wrapTitle breaks a title into lines no wider than width: at titleSep
// first, keeping the separator at the end of a broken line; a part still
// too wide (a long list of policies) at ", ", then at spaces; a word wider
// than the figure is shortened with an ellipsis. No title is cut.
func wrapTitle(t string, sty text.Style, width vg.Length) []string {
	var lines []string
	for _, l := range wrapAt(t, titleSep, " —", sty, width) {
		for _, l := range wrapAt(l, ", ", ",", sty, width) {
			for _, l := range wrapAt(l, " ", "", sty, width) {
				lines = append(lines, shorten(l, sty, width))
			}
		}
	}
	return lines
}

// wrapAt breaks s greedily into lines no wider than width at sep, ending
// a broken line with end. A part wider than width stays whole.
func wrapAt(s, sep, end string, sty text.Style, width vg.Length) []string {
	if sty.Width(s) <= width {
		return []string{s}
	}
	parts := strings.Split(s, sep)
	var lines []string
	cur := parts[0]
	for _, p := range parts[1:] {
		if next := cur + sep + p; sty.Width(next+end) <= width {
			cur = next
			continue
		}
		lines = append(lines, cur+end)
		cur = p
	}
	return append(lines, cur)
}

// shorten cuts s to fit width, ending it with an ellipsis.
func shorten(s string, sty text.Style, width vg.Length) string {
	if sty.Width(s) <= width {
		return s
	}
	r := []rune(s)
	for len(r) > 1 && sty.Width(string(r)+"…") > width {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}

// drawPanels stacks the panels top to bottom, their data areas aligned
// left and right.
func (f *Figure) drawPanels(c draw.Canvas) {
	n := len(f.Panels)
	if n == 0 {
		return
	}
	var total float64
	w := make([]float64, n)
	for i := range w {
		w[i] = 1
		if i < len(f.Weights) && f.Weights[i] > 0 {
			w[i] = f.Weights[i]
		}
		total += w[i]
	}
	gap := vg.Points(8)
	avail := c.Max.Y - c.Min.Y - gap*vg.Length(n-1)
	cs := make([]draw.Canvas, n)
	top := c.Max.Y
	for i := range cs {
		h := avail * vg.Length(w[i]/total)
		cs[i] = c
		cs[i].Max.Y = top
		cs[i].Min.Y = top - h
		top -= h + gap
	}
	// Align the data areas: crop each panel by how much less room its
	// axes take than the widest.
	var left, right vg.Length
	dcs := make([]draw.Canvas, n)
	for i, p := range f.Panels {
		dcs[i] = p.DataCanvas(cs[i])
		left = max(left, dcs[i].Min.X-cs[i].Min.X)
		right = max(right, cs[i].Max.X-dcs[i].Max.X)
	}
	for i, p := range f.Panels {
		ci := draw.Crop(cs[i], left-(dcs[i].Min.X-cs[i].Min.X), -(right - (cs[i].Max.X - dcs[i].Max.X)), 0, 0)
		p.Draw(ci)
	}
}

// drawLegend lays the entries out left to right, wrapping into rows, at
// the top of c; it returns the height used.
func drawLegend(c draw.Canvas, entries []LegendEntry) vg.Length {
	sty := textStyle(fontSans, legendSize, color.Black)
	sty.YAlign = draw.YCenter
	thumbW := vg.Points(16)
	rowH := sty.Height("Mg") + vg.Points(3)
	gapIcon := vg.Points(3)
	gapEntry := vg.Points(12)
	width := c.Max.X - c.Min.X
	// Lay out rows.
	type placed struct {
		e    LegendEntry
		x    vg.Length
		row  int
		text vg.Length
	}
	var items []placed
	var rowWidths []vg.Length
	x, row := vg.Length(0), 0
	for _, e := range entries {
		tw := sty.Width(e.Text)
		ew := thumbW + gapIcon + tw
		if x > 0 && x+ew > width {
			rowWidths = append(rowWidths, x-gapEntry)
			x, row = 0, row+1
		}
		items = append(items, placed{e: e, x: x, row: row, text: tw})
		x += ew + gapEntry
	}
	rowWidths = append(rowWidths, x-gapEntry)
	for _, it := range items {
		// Centre each row.
		x0 := c.Min.X + (width-rowWidths[it.row])/2 + it.x
		yc := c.Max.Y - rowH*vg.Length(it.row) - rowH/2
		icon := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: x0, Y: yc - rowH/2 + vg.Points(1)},
			Max: vg.Point{X: x0 + thumbW, Y: yc + rowH/2 - vg.Points(1)},
		}}
		for _, t := range it.e.Thumbs {
			t.Thumbnail(&icon)
		}
		c.FillText(sty, vg.Point{X: x0 + thumbW + gapIcon, Y: yc}, it.e.Text)
	}
	return rowH * vg.Length(row+1)
}
