package plots

import (
	"bytes"
	"flag"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/report/plots/plotdata"
	"github.com/ctxlab/ctxlab/report/plots/plotdata/plotdatatest"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/metric"
)

var update = flag.Bool("update", false, "rewrite the golden SVGs in testdata")

// goldenFigures are one figure of each kind from the small inputs of
// series_test.go.
func goldenFigures() map[string]*Figure {
	runs := plotdatatest.Synthetic()
	opt := Options{Session: "synthetic"}
	pols, ms := plotdatatest.Policies()
	points, totals := plotdatatest.GeometricGrid(5, map[int]int{4: 2})
	cost, _ := metric.Lookup("total_cost_usd")
	peak, _ := metric.Lookup("peak_context")
	return map[string]*Figure{
		"context":    Context(runs, opt),
		"cache":      Cache(runs[0], opt),
		"cost":       Cost(runs, opt),
		"tokens":     Tokens(plotdatatest.Accounting(), opt),
		"duplicates": Duplicates(plotdatatest.Dups(), opt),
		// The corpus plot, titled by its session count.
		"total-cost": CostByPolicy(pols, ms, 7, CostIntervals{}, Options{}),
		// A sweep of five series on a geometric grid, the last equal
		// to the third, and its Pareto front.
		"sweep":  Sweep(plotdata.SweepSeries(points, totals, "k", cost), 2, Options{}),
		"pareto": Pareto(plotdata.ParetoSeries(points, totals, cost, peak), 2, Options{}),
	}
}

var kinds = []string{"context", "cache", "cost", "tokens", "duplicates", "total-cost", "sweep", "pareto"}

func render(t *testing.T, f *Figure, format string) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := f.Write(&b, format); err != nil {
		t.Fatalf("Write %s: %v", format, err)
	}
	return b.Bytes()
}

// TestGolden compares each kind's SVG with testdata/<kind>.svg byte for
// byte; `go test ./report/plots -update` rewrites them.
func TestGolden(t *testing.T) {
	figs := goldenFigures()
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			got := render(t, figs[kind], "svg")
			// Drawing is deterministic: a second rendering of a fresh
			// figure gives the same bytes.
			if again := render(t, goldenFigures()[kind], "svg"); !bytes.Equal(got, again) {
				t.Fatalf("SVG output is not byte-stable")
			}
			path := filepath.Join("testdata", kind+".svg")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./report/plots -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the rendering (%d bytes, golden %d); look at it, then run go test ./report/plots -update", path, len(got), len(want))
			}
		})
	}
}

func TestWritePNG(t *testing.T) {
	for kind, f := range goldenFigures() {
		b := render(t, f, "png")
		if !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) {
			t.Errorf("%s: not a PNG", kind)
		}
	}
}

func TestWriteBadFormat(t *testing.T) {
	f := goldenFigures()["context"]
	for _, format := range []string{"eps", "PNG", "", ".svg"} {
		var b bytes.Buffer
		if err := f.Write(&b, format); err == nil {
			t.Errorf("Write(%q) = nil error, want one", format)
		}
		if b.Len() != 0 {
			t.Errorf("Write(%q) wrote %d bytes", format, b.Len())
		}
	}
}

// TestPDF: a PDF is one page whose text is the figure's, em dash
// included, in one embedded font, and the same bytes every time.
func TestPDF(t *testing.T) {
	f := goldenFigures()["context"]
	var a, b bytes.Buffer
	if err := f.Write(&a, "pdf"); err != nil {
		t.Fatal(err)
	}
	if err := f.Write(&b, "pdf"); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two writes of one figure differ")
	}
	text := pdfText(a.Bytes())
	if title := strings.ReplaceAll(f.Title, " ", ""); !strings.HasPrefix(text, title) {
		t.Errorf("text starts %q, want the title %q", text[:min(len(text), 80)], title)
	}
	if n := bytes.Count(a.Bytes(), []byte("/FontFile2 ")); n != 1 {
		t.Errorf("%d embedded font files, want 1", n)
	}
	if !bytes.Contains(a.Bytes(), []byte("/BaseFont /LiberationSans")) {
		t.Error("the font is not Liberation Sans")
	}
}

// TestEmptyInputs: empty runs and reports still draw.
func TestEmptyInputs(t *testing.T) {
	empty := &simulate.Result{Policy: "observed"}
	figs := map[string]*Figure{
		"context":    Context([]*simulate.Result{empty}, Options{}),
		"context0":   Context(nil, Options{}),
		"cache":      Cache(empty, Options{}),
		"cost":       Cost([]*simulate.Result{empty}, Options{}),
		"tokens":     Tokens(accounting.Tokens{}, Options{}),
		"duplicates": Duplicates(nil, Options{}),
		"total-cost": CostByPolicy(nil, nil, 0, CostIntervals{}, Options{}),
		"zero-cost":  CostByPolicy([]string{"none"}, []simulate.Metrics{{}}, 1, CostIntervals{}, Options{}),
	}
	for kind, f := range figs {
		for _, format := range Formats {
			if err := f.Write(io.Discard, format); err != nil {
				t.Errorf("%s %s: %v", kind, format, err)
			}
		}
	}
}

func TestCostByPolicy(t *testing.T) {
	pols, ms := plotdatatest.Policies()
	hb := policyBars(plotdata.PolicyCosts(pols, ms, 7))
	want := []string{"$15.96 + 3 unpriced calls", "$16.56 (+3.8%)", "$12.86 (−19.4%) + 1 unpriced call"}
	if !reflect.DeepEqual(hb.Notes, want) || !reflect.DeepEqual(hb.Labels, pols) {
		t.Errorf("labels %q, notes %q; want %q, %q", hb.Labels, hb.Notes, pols, want)
	}
	if want := [][]float64{{10.25, 2.25, 3.4567}, {10.1, 3, 3.4567}, {9.4, 0, 3.4567}}; !reflect.DeepEqual(hb.Parts, want) {
		t.Errorf("parts %v, want %v", hb.Parts, want)
	}
	f := CostByPolicy(pols, ms, 7, CostIntervals{}, Options{})
	var legend []string
	for _, e := range f.Legend {
		legend = append(legend, e.Text)
	}
	if want := []string{segmentMain, segmentSummarizer, segmentAgents}; !reflect.DeepEqual(legend, want) {
		t.Errorf("legend %q, want %q", legend, want)
	}
	if x := f.Panels[0].X.Label.Text; x != "USD" {
		t.Errorf("x label %q, want USD", x)
	}
	for _, c := range []struct {
		sessions int
		opt      Options
		want     string
	}{
		{7, Options{}, "Cost by policy — all 7 sessions"},
		{1234, Options{}, "Cost by policy — all 1,234 sessions"},
		{1, Options{}, "Cost by policy — 1 session"},
		{0, Options{}, "Cost by policy — all sessions"},
		{7, Options{Session: "all sessions"}, "Cost by policy — all sessions"},
	} {
		if got := CostByPolicy(pols, ms, c.sessions, CostIntervals{}, c.opt).Title; got != c.want {
			t.Errorf("sessions %d, %+v: title %q, want %q", c.sessions, c.opt, got, c.want)
		}
	}
	// No policies: a note instead of bars, and no legend.
	f = CostByPolicy(nil, nil, 3, CostIntervals{}, Options{})
	if len(f.Legend) != 0 {
		t.Errorf("empty: legend %+v", f.Legend)
	}
	if svg := render(t, f, "svg"); !bytes.Contains(svg, []byte(">no runs</text>")) {
		t.Errorf("empty: no note \"no runs\" in the SVG")
	}
}

func TestDeltaNote(t *testing.T) {
	for v, want := range map[float64]string{5.2: "+5.2%", -3.1: "−3.1%", 0: "±0.0%", 1234.5: "+1,234.5%", -100: "−100.0%",
		0.04: "±0.0%", -0.04: "±0.0%", 0.05: "+0.1%"} {
		if got := deltaNote(v); got != want {
			t.Errorf("deltaNote(%v) = %q, want %q", v, got, want)
		}
	}
}

// TestContextDenseMarks: a run with more clearings than denseMarks gets no
// rings (its legend says so; Context marks what marked returns); one with
// exactly denseMarks keeps them.
func TestContextDenseMarks(t *testing.T) {
	run := func(policy string, clearings int) *simulate.Result {
		r := &simulate.Result{Policy: policy, Limits: claudecode.Limits{Window: 200000, Threshold: 167000, Warning: 147000}}
		for i := 1; i <= clearings; i++ {
			r.Calls = append(r.Calls, simulate.CallResult{Call: i, Prompt: int64(1000 * i), Cleared: true})
		}
		return r
	}
	f := Context([]*simulate.Result{run("few", denseMarks), run("many", denseMarks+1)}, Options{Session: "s"})
	var legends []string
	for _, e := range f.Legend {
		legends = append(legends, e.Text)
	}
	if legends[0] != "few (60 clearings)" || legends[1] != "many (61 clearings, unmarked)" {
		t.Errorf("legend %q", legends[:2])
	}
	if got := marked(make([]plotdata.XY, denseMarks)); len(got) != denseMarks {
		t.Errorf("marked(%d points) kept %d", denseMarks, len(got))
	}
	if got := marked(make([]plotdata.XY, denseMarks+1)); got != nil {
		t.Errorf("marked(%d points) kept %d, want none", denseMarks+1, len(got))
	}
}

// TestObservedDrawnFirst: whatever the order of the runs, the observed
// band is drawn before (under) the other runs' lines, in the context and
// the cost plot.
func TestObservedDrawnFirst(t *testing.T) {
	run := func(policy string) *simulate.Result {
		r := &simulate.Result{Policy: policy, Limits: claudecode.Limits{Window: 200000, Threshold: 167000, Warning: 147000}}
		for i := 1; i <= 3; i++ {
			r.Calls = append(r.Calls, simulate.CallResult{Call: i, Prompt: int64(1000 * i), Cost: 0.1, Priced: true})
		}
		return r
	}
	runs := []*simulate.Result{run("claude-code"), run("observed")}
	for name, f := range map[string]*Figure{"context": Context(runs, Options{}), "cost": Cost(runs, Options{})} {
		svg := string(render(t, f, "svg"))
		// The last strokes of each colour are the panel's lines (the
		// legend is drawn before the panel).
		band, line := strings.LastIndex(svg, "stroke:#A8A8A8"), strings.LastIndex(svg, "stroke:#0072B2")
		if band < 0 || line < 0 || band > line {
			t.Errorf("%s: observed band at %d, claude-code line at %d: the band must come first", name, band, line)
		}
	}
}

// TestLegends pins the words and numbers each golden figure shows in its
// title and legend, computed by hand from the fixtures of series_test.go,
// so that -update cannot slip a wrong number into a golden.
func TestLegends(t *testing.T) {
	legend := func(f *Figure) []string {
		var out []string
		for _, e := range f.Legend {
			out = append(out, e.Text)
		}
		return out
	}
	figs := goldenFigures()
	for _, tc := range []struct {
		kind, title string
		legend      []string
	}{
		// Compactions before observed call 5 and claude-code call 3;
		// content cleared before observed calls 3 and 6 and claude-code
		// call 3. Levels of the first run: Sonnet 4.5 at 2.1.30, window
		// 200,000, warning 20,000 below 200,000 − 20,000 reserved −
		// 13,000 buffer = 167,000, observed's threshold; claude-code's
		// own is 108,000.
		{"context", "Context per call — synthetic — observed, claude-code", []string{
			"observed (1 compaction, 2 clearings)", "claude-code (1 compaction, 1 clearing)", "compaction", "clearing",
			"window 200,000", "threshold 167,000 (observed)", "threshold 108,000 (claude-code)", "warning 147,000"}},
		// Observed reads 200,450, writes 98,480, uncached 70 of 299,000;
		// one break: 54,990 → 9,990 before call 5 (57,000 → 54,990 drops
		// 2,010, under 5%).
		{"cache", "Prompt cache per call — synthetic — observed", []string{
			"cache read (67.0%)", "cache write (32.9%)", "uncached input (0.0%)", "1 cache break"}},
		// Metrics.Cost of each run; observed call 6 has no price.
		{"cost", "Cumulative cost — synthetic — observed, claude-code", []string{
			"observed $1.09 + 1 unpriced call", "claude-code $0.70"}},
		// 825 + 400 + 250 + … = 1,925 tokens.
		{"tokens", "Token accounting — synthetic — 1,925 tokens", []string{"category total", "tool_use input", "tool results"}},
		// Overhead 500 + 100 + 200 + 100; wasted 100 + 200 + 100.
		{"duplicates", "Duplicate reads — synthetic", []string{
			"re-read overhead (Claude Code's estimate): 900", "wasted (no edit or compaction in between): 400"}},
		{"total-cost", "Cost by policy — all 7 sessions", []string{"main thread", "summarizer", "sub-agents (observed)"}},
		// p4 costs as p2 does.
		{"sweep", "Sweep: total cost per session against k — all 2 sessions", []string{"p0", "p1", "p2", "p3", "p4 (= p2)"}},
		// Each base's k=2 is on the front (cheapest of its base, the
		// peak the same at every k): p0 … p3 and p4, tied with p2.
		{"pareto", "Sweep: Pareto front of total cost and peak context — all 2 sessions", []string{
			"p0 (5 points)", "p1 (5 points)", "p2 (5 points)", "p3 (5 points)", "p4 (5 points)", "Pareto front (5 points, labelled)"}},
	} {
		f := figs[tc.kind]
		if f.Title != tc.title {
			t.Errorf("%s: title %q, want %q", tc.kind, f.Title, tc.title)
		}
		if got := legend(f); !reflect.DeepEqual(got, tc.legend) {
			t.Errorf("%s: legend %q\nwant %q", tc.kind, got, tc.legend)
		}
	}
}

// No title is cut: every line of a wrapped title fits the width, and
// nothing but separators is lost.
func TestWrapTitleNeverCuts(t *testing.T) {
	sty := textStyle(fontBold, titleSize, color.Black)
	width := DefaultWidth - 2*margin
	policies := "none, claude-code, claude-code-sm, threshold, keep-last-n, context-editing, budget, partial, summary-nm, keep-last-n:n=3, observed"
	for _, c := range []struct {
		title string
		lines int
	}{
		{"Context per call — s", 1},
		{"Context per call — d3e4f5a6-b7c8-4d9e-a0f1-b2c3d4e5f6a7 — " + policies, 3},
		{"Cost — " + strings.Repeat("x", 300), 2},
	} {
		lines := wrapTitle(c.title, sty, width)
		if len(lines) != c.lines {
			t.Errorf("%q: %d lines %q, want %d", c.title, len(lines), lines, c.lines)
		}
		for _, l := range lines {
			if sty.Width(l) > width {
				t.Errorf("line %q is %v wide, more than %v", l, sty.Width(l), width)
			}
		}
		joined := strings.Join(lines, " ")
		for _, p := range []string{"none", "keep-last-n:n=3", "observed"} {
			if strings.Contains(c.title, p) && !strings.Contains(joined, p) {
				t.Errorf("%q lost %q: %q", c.title, p, lines)
			}
		}
	}
}
