package plots

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/ctxlab/ctxlab/report/plots/plotdata"
)

// pointLabels writes a label beside each of its points, placed where it
// overlaps no other label, no marker and stays inside the data area
// (placeLabels).
type pointLabels struct {
	XYs   []plotdata.XY
	Texts []string
	Style text.Style
	// Obstacles are the markers the labels keep clear of, Radius their
	// size.
	Obstacles []plotdata.XY
	Radius    vg.Length
	// Path is a staircase (line with Step) the labels keep clear of too.
	Path []plotdata.XY
	// TowardA and TowardB say which way is better on each axis (higher
	// when set): a Pareto front has no point beyond it that way, so its
	// labels are tried there first.
	TowardA, TowardB bool
}

func (l *pointLabels) Plot(c draw.Canvas, p *plot.Plot) {
	dev := func(q plotdata.XY) vg.Point { return vg.Point{X: c.X(p.X.Norm(q.X)), Y: c.Y(p.Y.Norm(q.Y))} }
	anchors := make([]vg.Point, len(l.XYs))
	sizes := make([]vg.Point, len(l.XYs))
	for i, q := range l.XYs {
		anchors[i] = dev(q)
		sizes[i] = vg.Point{X: l.Style.Width(l.Texts[i]), Y: l.Style.Height(l.Texts[i])}
	}
	obstacles := make([]vg.Point, len(l.Obstacles))
	for i, q := range l.Obstacles {
		obstacles[i] = dev(q)
	}
	steps := make([]vg.Point, len(l.Path))
	for i, q := range l.Path {
		steps[i] = dev(q)
	}
	path := stairBoxes(steps, vg.Points(1))
	sty := l.Style
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YBottom
	leader := draw.LineStyle{Color: colorMuted, Width: vg.Points(0.4)}
	for i, r := range placeLabels(anchors, sizes, obstacles, path, l.Radius, c.Rectangle, l.TowardA, l.TowardB) {
		c.FillText(sty, r.Min, l.Texts[i])
		// A label set apart from its point is tied to it by a thin line.
		if a := anchors[i]; !overlaps(r, box(a.X, a.Y, a.X, a.Y, l.Radius+vg.Points(2)+sizes[i].Y/2)) {
			to := vg.Point{X: min(max(a.X, r.Min.X), r.Max.X), Y: min(max(a.Y, r.Min.Y), r.Max.Y)}
			d := to.Sub(a)
			from := a.Add(d.Scale(l.Radius / vg.Length(math.Hypot(float64(d.X), float64(d.Y)))))
			c.StrokeLine2(leader, from.X, from.Y, to.X, to.Y)
		}
	}
}

// placeLabels places a box of sizes[i] beside each anchor: at the first of
// eight places around it (the corner toward better on both axes, the
// sides toward better on each, then the rest), nearest first, then one and
// two box heights further out, that lies inside bounds and overlaps
// neither a box placed before, nor a marker (radius r around each obstacle
// and anchor), nor a box of avoid (lines); failing that, where it
// overlaps the fewest.
func placeLabels(anchors, sizes, obstacles []vg.Point, avoid []vg.Rectangle, r vg.Length, bounds vg.Rectangle, towardA, towardB bool) []vg.Rectangle {
	sx, sy := vg.Length(-1), vg.Length(-1) // lower is better: left, down
	if towardA {
		sx = 1
	}
	if towardB {
		sy = 1
	}
	markers := append([]vg.Rectangle(nil), avoid...)
	for _, o := range append(append([]vg.Point(nil), obstacles...), anchors...) {
		markers = append(markers, box(o.X, o.Y, o.X, o.Y, r))
	}
	// Each place as the side of the anchor the box is on: ±1 beside it
	// that way, 0 centred on it.
	type at struct{ dx, dy vg.Length }
	places := []at{{sx, sy}, {sx, 0}, {0, sy}, {-sx, sy}, {sx, -sy}, {-sx, 0}, {0, -sy}, {-sx, -sy}}
	var placed []vg.Rectangle
	for i, a := range anchors {
		w, h := sizes[i].X, sizes[i].Y
		best, bestCost := vg.Rectangle{}, -1
	search:
		for ring := range labelRings {
			gap := r + vg.Points(2) + h*vg.Length(ring)
			for _, pl := range places {
				g := gap
				if pl.dx != 0 && pl.dy != 0 {
					g = gap * 0.75
				}
				var lo vg.Point
				switch {
				case pl.dx > 0:
					lo.X = a.X + g
				case pl.dx < 0:
					lo.X = a.X - g - w
				default:
					lo.X = a.X - w/2
				}
				switch {
				case pl.dy > 0:
					lo.Y = a.Y + g
				case pl.dy < 0:
					lo.Y = a.Y - g - h
				default:
					lo.Y = a.Y - h/2
				}
				b := vg.Rectangle{Min: lo, Max: vg.Point{X: lo.X + w, Y: lo.Y + h}}
				cost := 0
				if !inside(b, bounds) {
					cost += 1000
				}
				for _, o := range placed {
					if overlaps(b, o) {
						cost += 10
					}
				}
				for _, m := range markers {
					if overlaps(b, m) {
						cost++
					}
				}
				if bestCost < 0 || cost < bestCost {
					best, bestCost = b, cost
				}
				if cost == 0 {
					break search
				}
			}
		}
		placed = append(placed, best)
	}
	return placed
}

// labelRings is how many distances from its point a label is tried at.
const labelRings = 3

// stairBoxes are the segments of a staircase through pts (across, then
// down or up to the next point, as line draws with Step), each a box
// grown by pad.
func stairBoxes(pts []vg.Point, pad vg.Length) []vg.Rectangle {
	var out []vg.Rectangle
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		out = append(out, box(a.X, a.Y, b.X, a.Y, pad), box(b.X, a.Y, b.X, b.Y, pad))
	}
	return out
}

// box is the rectangle from (x0, y0) to (x1, y1), in either order, grown
// by pad on every side.
func box(x0, y0, x1, y1, pad vg.Length) vg.Rectangle {
	return vg.Rectangle{Min: vg.Point{X: min(x0, x1) - pad, Y: min(y0, y1) - pad}, Max: vg.Point{X: max(x0, x1) + pad, Y: max(y0, y1) + pad}}
}

func inside(r, bounds vg.Rectangle) bool {
	return r.Min.X >= bounds.Min.X && r.Min.Y >= bounds.Min.Y && r.Max.X <= bounds.Max.X && r.Max.Y <= bounds.Max.Y
}

func overlaps(a, b vg.Rectangle) bool {
	return a.Min.X < b.Max.X && b.Min.X < a.Max.X && a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y
}
