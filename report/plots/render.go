package plots

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/report/plots/axis"
	"github.com/ctxlab/ctxlab/report/plots/plotdata"
	"github.com/ctxlab/ctxlab/simulate"
)

// Options are what every renderer takes from the caller.
type Options struct {
	// Session names the session in the title ("4a5c6ea5…", or "all
	// sessions" for corpus totals). Empty: the first run's session id.
	Session string
	// XTime plots the context against hours since the first call instead
	// of the call number (`--x time`).
	XTime bool
	// Top is the number of bars kept in the tokens and duplicates plots;
	// 0 means DefaultTop.
	Top int
}

func (o Options) session(runs []*simulate.Result) string {
	if o.Session != "" {
		return o.Session
	}
	if len(runs) > 0 && runs[0] != nil {
		return runs[0].Session
	}
	return ""
}

func title(what, session, policies string) string {
	t := what
	if session != "" {
		t += titleSep + session
	}
	if policies != "" {
		t += titleSep + policies
	}
	return t
}

func policyNames(runs []*simulate.Result) []string {
	out := make([]string, len(runs))
	for i, r := range runs {
		out[i] = r.Policy
	}
	return out
}

// Dense series (more points than this) are drawn thinner, with smaller
// markers; beyond denseBreaks cache breaks only the ticks along the top
// mark them.
// A run with more compactions or clearings than denseMarks gets no
// markers of that kind (its legend entry says so): hundreds of rings
// along a line only thicken it, and the line's teeth show them anyway.
const (
	denseCalls  = 400
	denseBreaks = 40
	denseMarks  = 60
)

func lineWidth(n int) vg.Length {
	if n > denseCalls {
		return vg.Points(0.7)
	}
	return vg.Points(1.1)
}

// runStyle is a run's line: thin in its colour; the observed run, when
// others are drawn over it, wide and light grey, so that a run that
// coincides with it still shows.
func runStyle(policy string, c color.Color, points, runs int) draw.LineStyle {
	w := lineWidth(points)
	if policy == "observed" && runs > 1 {
		return draw.LineStyle{Color: color.Gray{Y: 0xa8}, Width: w * 2.2}
	}
	return draw.LineStyle{Color: c, Width: w}
}

var (
	levelStyles = map[string]draw.LineStyle{
		plotdata.LevelWindow:    {Color: color.Gray{Y: 0x30}, Width: vg.Points(0.8)},
		plotdata.LevelThreshold: {Color: color.Gray{Y: 0x30}, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(4), vg.Points(2)}},
		plotdata.LevelWarning:   {Color: color.Gray{Y: 0x70}, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(1), vg.Points(1.5)}},
	}
	idleStyle       = draw.LineStyle{Color: color.Gray{Y: 0x90}, Width: vg.Points(0.6), Dashes: []vg.Length{vg.Points(3), vg.Points(2)}}
	compactionGlyph = draw.GlyphStyle{Radius: vg.Points(2.6), Shape: triangleDown{}}
	clearingGlyph   = draw.GlyphStyle{Radius: vg.Points(1.7), Shape: ring{width: vg.Points(0.6)}}
)

// Context draws the context plot: prompt tokens per call for every run,
// the window, auto-compact threshold and warning level as horizontal
// lines, a filled triangle where a compaction happened and a ring where
// content was cleared.
func Context(runs []*simulate.Result, opt Options) *Figure {
	d := plotdata.ContextSeries(runs, opt.XTime)
	xl := "API call (main thread)"
	if opt.XTime {
		xl = "hours since the first call"
		if len(d.Gaps) > 0 {
			xl = fmt.Sprintf("active hours since the first call (idle gaps over %g h cut)", plotdata.IdleGap.Hours())
		}
	}
	p := newPlot(xl, "context (prompt tokens)")
	p.Add(grid(false))
	p.Y.Min = 0
	if !opt.XTime {
		p.X.Tick.Marker = axis.Ticks{Integer: true}
	}
	f := &Figure{Title: title("Context per call", opt.session(runs), strings.Join(policyNames(runs), ", "))}
	for _, lv := range d.Levels {
		h := &hline{Y: float64(lv.Tokens), Style: levelStyles[lv.Name]}
		p.Add(h)
	}
	colors := policyColors(policyNames(runs))
	ths := make([]*hline, len(d.Thresholds))
	for k, th := range d.Thresholds {
		ths[k] = &hline{Y: float64(th.Tokens), Style: thresholdStyle(colors[th.Runs[0]])}
		p.Add(ths[k])
	}
	same := make([][]int, len(d.Lines))
	for i, l := range d.Lines {
		same[i] = l.Same
	}
	var comp, clear bool
	var lines, markers []plot.Plotter
	for i, l := range d.Lines {
		sty := runStyle(l.Policy, colors[i], len(l.Points), len(d.Lines))
		sty = interleave(sty, i, same, policyNames(runs))
		ln := &line{XYs: l.Points, Style: sty, Step: opt.XTime}
		lines = append(lines, ln)
		var notes []string
		if n := len(l.Compactions); n > 0 {
			notes = append(notes, numtext.Count(n, "compaction", "compactions")+unmarked(n))
		}
		if n := len(l.Clearings); n > 0 {
			notes = append(notes, numtext.Count(n, "clearing", "clearings")+unmarked(n))
		}
		text := runLegend(l.Policy, sameNote(l.Same, policyNames(runs)), strings.Join(notes, ", "))
		f.Legend = append(f.Legend, LegendEntry{Text: text, Thumbs: []plot.Thumbnailer{ln}})
		scale := markScale(len(l.Points), i, l.Same)
		clear = addMarks(&markers, l.Clearings, clearingGlyph, colors[i], scale) || clear
		comp = addMarks(&markers, l.Compactions, compactionGlyph, colors[i], scale) || comp
	}
	addLines(p, lines, policyNames(runs))
	p.Add(markers...)
	for _, k := range []struct {
		shown bool
		name  string
		g     draw.GlyphStyle
	}{{comp, "compaction", compactionGlyph}, {clear, "clearing", clearingGlyph}} {
		if k.shown {
			k.g.Color = colorMuted
			f.Legend = append(f.Legend, LegendEntry{Text: k.name, Thumbs: []plot.Thumbnailer{&marks{Glyph: k.g}}})
		}
	}
	f.Legend = append(f.Legend, levelLegend(d, ths, len(runs))...)
	addIdleCuts(p, f, d.Gaps)
	if empty(d.Lines) {
		p.Add(&note{Text: "no API calls", Style: textStyle(fontSans, labelSize, colorMuted)})
		p.Y.Max = math.Max(p.Y.Max, 1)
		p.HideX()
		p.X.Label.Text = ""
	}
	p.Y.Max *= 1.04
	closeThresholds(ths, p.Y.Max)
	padX(p)
	f.Panels = []*plot.Plot{p}
	return f
}

// levelLegend is the legend's entries of the levels, with the runs'
// thresholds after the window: the levels top down.
func levelLegend(d plotdata.ContextData, ths []*hline, runs int) []LegendEntry {
	var levels []LegendEntry
	for _, lv := range d.Levels {
		levels = append(levels, LegendEntry{
			Text:   lv.Name + " " + numtext.Float(float64(lv.Tokens), 0),
			Thumbs: []plot.Thumbnailer{&hline{Style: levelStyles[lv.Name]}},
		})
	}
	at := 0
	if len(d.Levels) > 0 && d.Levels[0].Name == plotdata.LevelWindow {
		at = 1
	}
	for k, th := range d.Thresholds {
		text := "threshold " + numtext.Float(float64(th.Tokens), 0)
		if runs > 1 {
			names := make([]string, len(th.Runs))
			for j, i := range th.Runs {
				names[j] = d.Lines[i].Policy
			}
			text += " (" + strings.Join(names, ", ") + ")"
		}
		levels = slices.Insert(levels, at+k, LegendEntry{Text: text, Thumbs: []plot.Thumbnailer{ths[k]}})
	}
	return levels
}

// addIdleCuts marks the idle gaps cut from a time axis, with their
// legend entry.
func addIdleCuts(p *plot.Plot, f *Figure, gaps []plotdata.IdleCut) {
	if len(gaps) > 0 {
		cuts := &rug{Style: idleStyle, Full: idleStyle, Length: vg.Points(0)}
		var idle float64
		for _, g := range gaps {
			cuts.X = append(cuts.X, g.X)
			idle += g.Hours
		}
		p.Add(cuts)
		f.Legend = append(f.Legend, LegendEntry{
			Text:   fmt.Sprintf("%s cut (%.1f h idle)", numtext.Count(len(gaps), "idle gap", "idle gaps"), idle),
			Thumbs: []plot.Thumbnailer{cuts},
		})
	}
}

// closeThresholds makes thresholds that lie within 1% of the axis's
// height (ymax) of each other, which would be drawn over each other (a
// claude-code:pct=60 at 100,800 and a threshold:pct=50 at 100,000), take
// turns dash by dash, as identical runs' lines do.
func closeThresholds(ths []*hline, ymax float64) {
	order := slices.Clone(ths)
	slices.SortStableFunc(order, func(a, b *hline) int { return cmp.Compare(a.Y, b.Y) })
	for lo := 0; lo < len(order); {
		hi := lo + 1
		for hi < len(order) && order[hi].Y-order[hi-1].Y < ymax/100 {
			hi++
		}
		if k := hi - lo; k > 1 {
			for j, h := range order[lo:hi] {
				h.Style.Dashes = []vg.Length{coincideDash, coincideDash * vg.Length(k-1)}
				h.Style.DashOffs = coincideDash * vg.Length(j)
			}
		}
		lo = hi
	}
}

// thresholdStyle is a run's compaction threshold: dashed, in its colour.
func thresholdStyle(c color.Color) draw.LineStyle {
	return draw.LineStyle{Color: c, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(4), vg.Points(2)}}
}

// coincideDash is the length of each run's dash where identical runs'
// lines are drawn interleaved.
var coincideDash = vg.Points(4)

// interleave gives run i's line, when other runs' series equal its own
// exactly (same[i], as ContextLine.Same), a dash pattern that takes turns
// with theirs: of k such runs the j-th (in run order) draws every k-th
// dash, starting with the j-th, so that each colour shows along the whole
// line. The observed run keeps its band and takes no turn.
func interleave(sty draw.LineStyle, i int, same [][]int, policies []string) draw.LineStyle {
	if policies[i] == "observed" {
		return sty
	}
	group := []int{}
	for _, j := range append([]int{i}, same[i]...) {
		if policies[j] != "observed" {
			group = append(group, j)
		}
	}
	if len(group) < 2 {
		return sty
	}
	slices.Sort(group)
	k := vg.Length(len(group))
	j := vg.Length(slices.Index(group, i))
	sty.Dashes = []vg.Length{coincideDash, coincideDash * (k - 1)}
	sty.DashOffs = coincideDash * j
	return sty
}

// markScale is the size of run i's markers, against the glyphs' own: 0.75
// on a dense series; identical runs' markers fall on the same calls, so
// each run identical to j earlier ones (same, as ContextLine.Same) draws
// them 1 + 0.6 j times smaller, inside theirs.
func markScale(points, i int, same []int) float64 {
	scale := 1.0
	if points > denseCalls {
		scale = 0.75
	}
	j := 0
	for _, k := range same {
		if k < i {
			j++
		}
	}
	return scale / (1 + 0.6*float64(j))
}

// sameNote names the runs a run's series equals ("= keep-last-n:n=5,
// claude-code"); empty when none.
func sameNote(same []int, policies []string) string {
	if len(same) == 0 {
		return ""
	}
	names := make([]string, len(same))
	for k, j := range same {
		names[k] = policies[j]
	}
	return "= " + strings.Join(names, ", ")
}

// runLegend is a run's legend text: its policy, then in parentheses the
// runs it coincides with and the notes, separated by "; ".
func runLegend(policy string, parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 {
		return policy
	}
	return policy + " (" + strings.Join(kept, "; ") + ")"
}

// addLines adds the runs' lines (policies[i] names lines[i]), the
// observed run's band first so that the runs drawn over it show where they
// coincide with it.
func addLines(p *plot.Plot, lines []plot.Plotter, policies []string) {
	for _, observed := range []bool{true, false} {
		for i, l := range lines {
			if (policies[i] == "observed") == observed {
				p.Add(l)
			}
		}
	}
}

// addMarks adds a marker in colour c at each of pts, its radius scaled by
// scale, none beyond denseMarks; it reports whether it added any.
func addMarks(markers *[]plot.Plotter, pts []plotdata.XY, g draw.GlyphStyle, c color.Color, scale float64) bool {
	pts = marked(pts)
	if len(pts) == 0 {
		return false
	}
	g.Radius *= vg.Length(scale)
	g.Color = c
	*markers = append(*markers, &marks{XYs: pts, Glyph: g})
	return true
}

// sessionsTitle names n sessions in a corpus plot's title: "all 12
// sessions", "1 session", or "all sessions" when n is unknown (0).
func sessionsTitle(n int) string {
	switch {
	case n > 1:
		return "all " + numtext.Float(float64(n), 0) + " sessions"
	case n == 1:
		return "1 session"
	}
	return "all sessions"
}

// marked returns the points to mark: all of them, or none beyond
// denseMarks.
func marked(pts []plotdata.XY) []plotdata.XY {
	if len(pts) > denseMarks {
		return nil
	}
	return pts
}

// unmarked is the legend's note for a kind of marker left out.
func unmarked(n int) string {
	if n > denseMarks {
		return ", unmarked"
	}
	return ""
}

func empty(lines []plotdata.ContextLine) bool {
	for _, l := range lines {
		if len(l.Points) > 0 {
			return false
		}
	}
	return true
}

// padX widens a call-number axis by half a call on each side so that the
// first and last points do not sit on the axes.
func padX(p *plot.Plot) {
	if math.IsInf(p.X.Min, 0) || math.IsInf(p.X.Max, 0) {
		p.X.Min, p.X.Max = 0, 1
		return
	}
	span := math.Max(p.X.Max-p.X.Min, 1)
	p.X.Min -= span * 0.01
	p.X.Max += span * 0.01
}

var (
	colorRead     = color.RGBA{0x00, 0x72, 0xb2, 0xff} // blue
	colorWrite    = color.RGBA{0xe6, 0x9f, 0x00, 0xff} // orange
	colorUncached = color.RGBA{0xd5, 0x5e, 0x00, 0xff} // vermillion
	colorBreak    = color.RGBA{0x00, 0x00, 0x00, 0xff}
	colorBreakBg  = color.RGBA{0x00, 0x00, 0x00, 0x30}
)

// Cache draws the cache plot of one run: each call's prompt stacked as
// cache read (bottom), cache write and uncached input, with a tick along
// the top (and a faint line) at every cache break.
func Cache(run *simulate.Result, opt Options) *Figure {
	d := plotdata.CacheSeries(run)
	p := newPlot("API call (main thread)", "prompt tokens per call")
	p.X.Tick.Marker = axis.Ticks{Integer: true}
	p.Add(grid(false))
	n := len(d.Calls)
	st := &stacked{X: make([]float64, n), Layers: [][]float64{make([]float64, n), make([]float64, n), make([]float64, n)},
		Colors: []color.Color{colorRead, colorWrite, colorUncached}}
	var read, write, uncached int64
	for i, c := range d.Calls {
		st.X[i] = float64(c.Call)
		st.Layers[0][i] = float64(c.Read)
		st.Layers[1][i] = float64(c.Write)
		st.Layers[2][i] = float64(c.Uncached)
		read += c.Read
		write += c.Write
		uncached += c.Uncached
	}
	f := &Figure{Title: title("Prompt cache per call", opt.session([]*simulate.Result{run}), run.Policy)}
	total := read + write + uncached
	share := func(v int64) string {
		if total == 0 {
			return ""
		}
		return " (" + pct(v, total) + ")"
	}
	f.Legend = []LegendEntry{
		{Text: "cache read" + share(read), Thumbs: []plot.Thumbnailer{swatch{colorRead}}},
		{Text: "cache write" + share(write), Thumbs: []plot.Thumbnailer{swatch{colorWrite}}},
		{Text: "uncached input" + share(uncached), Thumbs: []plot.Thumbnailer{swatch{colorUncached}}},
	}
	br := &rug{Style: draw.LineStyle{Color: colorBreak, Width: vg.Points(0.8)}, Length: vg.Points(5),
		Full: draw.LineStyle{Color: colorBreakBg, Width: vg.Points(0.5)}}
	for _, b := range d.Breaks {
		br.X = append(br.X, float64(b))
	}
	if len(d.Breaks) > denseBreaks {
		br.Full = draw.LineStyle{} // a wash of lines would hide the bars
	}
	if len(d.Breaks) > 0 {
		p.Add(br) // under the columns: the faint lines show only above them
	}
	p.Add(st)
	f.Legend = append(f.Legend, LegendEntry{Text: numtext.Count(len(d.Breaks), "cache break", "cache breaks"), Thumbs: []plot.Thumbnailer{br}})
	if n == 0 {
		noCalls(p)
		f.Legend = nil
	}
	p.Y.Min = 0
	p.Y.Max *= 1.06 // room for the break ticks
	f.Panels = []*plot.Plot{p}
	return f
}

// noCalls turns an empty per-call plot into the note "no API calls".
func noCalls(p *plot.Plot) {
	p.Add(&note{Text: "no API calls", Style: textStyle(fontSans, labelSize, colorMuted)})
	p.Y.Max = 1
	p.HideAxes()
	p.X.Label.Text, p.Y.Label.Text = "", ""
}

// Cost draws the cost plot: cumulative cost per call for every run.
func Cost(runs []*simulate.Result, opt Options) *Figure {
	d := plotdata.CostSeries(runs)
	lower := slices.ContainsFunc(d.Lines, func(l plotdata.CostLine) bool { return l.LowerBound })
	p := newPlot("API call (main thread)", lowerAxis("cumulative cost (USD)", lower))
	p.X.Tick.Marker = axis.Ticks{Integer: true}
	p.Y.Tick.Marker = axis.Ticks{Prefix: "$", MinDecimals: 2}
	p.Add(grid(false))
	p.Y.Min = 0
	f := &Figure{Title: title("Cumulative cost", opt.session(runs), strings.Join(policyNames(runs), ", "))}
	colors := policyColors(policyNames(runs))
	same := make([][]int, len(d.Lines))
	for i, l := range d.Lines {
		same[i] = l.Same
	}
	var lines []plot.Plotter
	for i, l := range d.Lines {
		sty := interleave(runStyle(l.Policy, colors[i], len(l.Points), len(d.Lines)), i, same, policyNames(runs))
		ln := &line{XYs: l.Points, Style: sty}
		lines = append(lines, ln)
		text := l.Policy + " " + lowerText(numtext.USD(l.Total), l.LowerBound)
		if l.Unpriced > 0 {
			text += " + " + numtext.Count(l.Unpriced, "unpriced call", "unpriced calls")
		}
		if n := sameNote(l.Same, policyNames(runs)); n != "" {
			text += " (" + n + ")"
		}
		f.Legend = append(f.Legend, LegendEntry{Text: text, Thumbs: []plot.Thumbnailer{ln}})
	}
	f.Legend = append(f.Legend, lowerEntry(lower)...)
	f.Height = lowerHeight(lower)
	addLines(p, lines, policyNames(runs))
	if len(lines) == 0 || math.IsInf(p.X.Min, 0) {
		noCalls(p)
	}
	if p.Y.Max <= 0 {
		p.Y.Max = 0.01
	}
	p.Y.Max *= 1.04
	padX(p)
	f.Panels = []*plot.Plot{p}
	return f
}

var (
	colorBar     = color.RGBA{0x5a, 0x5a, 0x5a, 0xff}
	colorRequest = color.RGBA{0x56, 0xb4, 0xe9, 0xff}
	colorResult  = color.RGBA{0x00, 0x72, 0xb2, 0xff}
	colorOver    = color.RGBA{0xb8, 0xc8, 0xd8, 0xff}
	colorWaste   = color.RGBA{0xd5, 0x5e, 0x00, 0xff}
)

// Bar chart geometry: height per row and for a panel's title and axis.
var (
	rowHeight   = vg.Points(15)
	panelExtra  = vg.Points(48)
	figureExtra = vg.Points(44) // title, legend, margins
)

// barsHeight is the height of a bar panel of n rows (one row's height
// when empty, for its note).
func barsHeight(n int) vg.Length {
	return rowHeight*vg.Length(max(n, 1)) + panelExtra
}

func barPlot(xLabel string) *plot.Plot {
	p := newPlot(xLabel, "")
	p.HideY()
	p.Add(grid(true))
	p.Y.Tick.Marker = plot.ConstantTicks{}
	p.X.Min = 0
	return p
}

func labelWidth(sets ...[]string) vg.Length {
	sty := textStyle(fontSans, tickSize, color.Black)
	var w vg.Length
	for _, s := range sets {
		for _, l := range s {
			w = max(w, sty.Width(l))
		}
	}
	return w
}

func labels(bars []plotdata.Bar) []string {
	out := make([]string, len(bars))
	for i, b := range bars {
		out[i] = b.Label
	}
	return out
}

func pct(n, total int64) string {
	if total == 0 {
		return ""
	}
	return numtext.Pct(100 * float64(n) / float64(total))
}

// Tokens draws the token accounting plot: two panels of horizontal bars,
// tokens by category (with its share of the total) and by tool (tool_use
// input and tool results stacked).
func Tokens(t accounting.Tokens, opt Options) *Figure {
	d := plotdata.TokenBars(t, opt.Top)
	lw := labelWidth(labels(d.Categories.Bars), labels(d.Tools.Bars))
	lsty := textStyle(fontSans, tickSize, color.Black)
	nsty := textStyle(fontSans, tickSize, colorMuted)

	cp := barPlot("estimated tokens")
	cp.Title.Text = "By category"
	cb := &hbars{LabelWidth: lw, Label: lsty, Note: nsty, Colors: []color.Color{colorBar}}
	for _, b := range d.Categories.Bars {
		cb.Labels = append(cb.Labels, b.Label)
		cb.Parts = append(cb.Parts, []float64{float64(b.Parts[0])})
		cb.Notes = append(cb.Notes, numtext.Float(float64(b.Total()), 0)+"  "+pct(b.Total(), d.Total))
	}
	addBars(cp, cb, "no messages")

	tp := barPlot("estimated tokens")
	tp.Title.Text = "By tool: tool_use input + tool results"
	tb := &hbars{LabelWidth: lw, Label: lsty, Note: nsty, Colors: []color.Color{colorRequest, colorResult}}
	for _, b := range d.Tools.Bars {
		tb.Labels = append(tb.Labels, b.Label)
		tb.Parts = append(tb.Parts, []float64{float64(b.Parts[0]), float64(b.Parts[1])})
		tb.Notes = append(tb.Notes, numtext.Float(float64(b.Total()), 0))
	}
	addBars(tp, tb, "no tool calls")

	hc, ht := barsHeight(len(cb.Labels)), barsHeight(len(tb.Labels))
	f := &Figure{
		Title: title("Token accounting", opt.Session, ""),
		Legend: []LegendEntry{
			{Text: plotdata.SegmentTokens, Thumbs: []plot.Thumbnailer{swatch{colorBar}}},
			{Text: plotdata.SegmentRequest, Thumbs: []plot.Thumbnailer{swatch{colorRequest}}},
			{Text: plotdata.SegmentResult, Thumbs: []plot.Thumbnailer{swatch{colorResult}}},
		},
		Panels:  []*plot.Plot{cp, tp},
		Weights: []float64{float64(hc), float64(ht)},
		Height:  hc + ht + figureExtra,
	}
	if d.Total > 0 {
		f.Title += titleSep + numtext.Float(float64(d.Total), 0) + " tokens"
	}
	return f
}

func addBars(p *plot.Plot, b *hbars, empty string) {
	if len(b.Labels) == 0 {
		p.Add(&note{Text: empty, Style: textStyle(fontSans, labelSize, colorMuted)})
		p.X.Max = 1
		p.Y.Min, p.Y.Max = -0.5, 0.5
		p.HideX()
		p.X.Label.Text = ""
		return
	}
	p.Add(b)
	if p.X.Max <= 0 {
		p.X.Max = 1
	}
	p.X.Max *= 1.02
}

// Duplicates draws the duplicate reads plot: the top files by wasted
// tokens, each bar Claude Code's re-read overhead with the wasted part
// (re-reads with no edit or compaction in between) over it.
func Duplicates(dups []accounting.DuplicateRead, opt Options) *Figure {
	d := plotdata.DuplicateBars(dups, opt.Top)
	p := barPlot("estimated tokens")
	hb := &hbars{Overlay: true,
		Label: textStyle(fontSans, tickSize, color.Black), Note: textStyle(fontSans, tickSize, colorMuted),
	}
	for _, b := range d.Bars {
		hb.Labels = append(hb.Labels, b.Label)
		// The larger part first so that the smaller shows over it.
		if b.WasteTokens > b.Overhead {
			hb.Parts = append(hb.Parts, []float64{float64(b.WasteTokens), float64(b.Overhead)})
			hb.RowColors = append(hb.RowColors, []color.Color{colorWaste, colorOver})
		} else {
			hb.Parts = append(hb.Parts, []float64{float64(b.Overhead), float64(b.WasteTokens)})
			hb.RowColors = append(hb.RowColors, []color.Color{colorOver, colorWaste})
		}
		hb.Notes = append(hb.Notes, numtext.Count(b.Reads, "read", "reads"))
	}
	hb.LabelWidth = labelWidth(hb.Labels)
	addBars(p, hb, "no file was read twice")
	var legend []LegendEntry
	if len(hb.Labels) > 0 {
		legend = []LegendEntry{
			{Text: "re-read overhead (Claude Code's estimate): " + numtext.Float(float64(d.Overhead), 0), Thumbs: []plot.Thumbnailer{swatch{colorOver}}},
			{Text: "wasted (no edit or compaction in between): " + numtext.Float(float64(d.WasteTokens), 0), Thumbs: []plot.Thumbnailer{swatch{colorWaste}}},
		}
	}
	t := title("Duplicate reads", opt.Session, "")
	if d.More > 0 {
		p.Title.Text = fmt.Sprintf("top %d of %d files (and ranges) read more than once", len(d.Bars), len(d.Bars)+d.More)
	}
	return &Figure{
		Title:  t,
		Legend: legend,
		Panels: []*plot.Plot{p},
		Height: barsHeight(len(hb.Labels)) + figureExtra,
	}
}

var (
	colorMain       = color.RGBA{0x00, 0x72, 0xb2, 0xff} // blue
	colorSummarizer = color.RGBA{0xe6, 0x9f, 0x00, 0xff} // orange
	colorAgents     = color.RGBA{0xb8, 0xc8, 0xd8, 0xff} // light grey-blue: observed, the same under every policy
)

// Segment names of the cost-by-policy plot, in the order they are stacked.
const (
	segmentMain       = "main thread"
	segmentSummarizer = "summarizer"
	segmentAgents     = "sub-agents (observed)"
)

// deltaNote formats a change in percent to 0.1 as compare's table does:
// "+5.2%", "−3.1%", "±0.0%".
func deltaNote(p float64) string {
	switch {
	case math.Round(p*10) == 0:
		return "±0.0%"
	case p > 0:
		return "+" + numtext.Float(p, 1) + "%"
	case p < 0:
		return "−" + numtext.Float(-p, 1) + "%"
	}
	return "±0.0%"
}

// CostByPolicy draws the cost-by-policy plot of a whole input (`compare
// --plot` over several sessions): one horizontal bar per policy, in the
// order given, stacking the main thread's cost, the summarizer's and the
// sub-agents' (observed, the same under every policy). Each bar's note is
// its total, its change against the first policy's and its unpriced calls.
// policies[i] names ms[i], each policy's metrics summed over sessions
// sessions (see PolicyCosts). Each policy's interval of its total against
// the baseline, when ivs has one, is drawn as a whisker under its bar.
func CostByPolicy(policies []string, ms []simulate.Metrics, sessions int, ivs CostIntervals, opt Options) *Figure {
	d := plotdata.PolicyCosts(policies, ms, sessions)
	lower := slices.ContainsFunc(d.Bars, func(b plotdata.PolicyCost) bool { return b.LowerBound })
	p := barPlot(lowerAxis("USD", lower))
	p.X.Tick.Marker = axis.Ticks{Prefix: "$", MinDecimals: 2}
	hb := policyBars(d)
	addBars(p, hb, "no runs")
	if len(d.Bars) > 1 {
		p.Title.Text = "total cost of each policy; in brackets, its change against " + d.Bars[0].Policy
	}
	var legend []LegendEntry
	if len(hb.Labels) > 0 {
		legend = []LegendEntry{
			{Text: segmentMain, Thumbs: []plot.Thumbnailer{swatch{colorMain}}},
			{Text: segmentSummarizer, Thumbs: []plot.Thumbnailer{swatch{colorSummarizer}}},
			{Text: segmentAgents, Thumbs: []plot.Thumbnailer{swatch{colorAgents}}},
		}
	}
	if w := ivs.plotter(len(hb.Labels)); w != nil {
		p.Add(w)
		p.X.Max *= 1.02
		legend = append(legend, LegendEntry{Text: "the total's " + ivs.Interval.Text() + " (bootstrap over sessions)", Thumbs: []plot.Thumbnailer{w}})
	}
	legend = append(legend, lowerEntry(lower)...)
	session := opt.Session
	if session == "" {
		session = sessionsTitle(d.Sessions)
	}
	height := barsHeight(len(hb.Labels)) + figureExtra
	if lower {
		height += legendRowHeight() // the lower bound's row, not to squeeze the bars
	}
	return &Figure{
		Title:  title("Cost by policy", session, ""),
		Legend: legend,
		Panels: []*plot.Plot{p},
		Height: height,
	}
}

// policyBars lays out the cost-by-policy bars: a row per policy, its note
// "$12.34 (+5.2%) + 3 unpriced".
func policyBars(d plotdata.PolicyCostData) *hbars {
	hb := &hbars{Colors: []color.Color{colorMain, colorSummarizer, colorAgents},
		Label: textStyle(fontSans, tickSize, color.Black), Note: textStyle(fontSans, tickSize, colorMuted),
	}
	for _, b := range d.Bars {
		hb.Labels = append(hb.Labels, b.Policy)
		hb.Parts = append(hb.Parts, []float64{b.Main, b.Summarizer, b.Agents})
		n := lowerText(numtext.USD(b.Total), b.LowerBound)
		if b.DeltaPct != nil {
			n += " (" + deltaNote(*b.DeltaPct) + ")"
		}
		if b.Unpriced > 0 {
			n += " + " + numtext.Count(b.Unpriced, "unpriced call", "unpriced calls")
		}
		hb.Notes = append(hb.Notes, n)
	}
	hb.LabelWidth = labelWidth(hb.Labels)
	return hb
}
