package plots

import (
	"reflect"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/report/plots/plotdata"
	"github.com/ctxlab/ctxlab/simulate"
)

// coincideRuns are five runs over three calls (a dollar per thousand
// tokens): observed, two identical
// keep-last-n runs (b and c), claude-code (d) equal to observed, and a
// run (e) that differs from b in one call by a single token.
func coincideRuns() []*simulate.Result {
	lim := claudecode.Limits{Window: 200000, Threshold: 167000, Warning: 147000}
	run := func(policy string, at int64, prompts ...int64) *simulate.Result {
		r := &simulate.Result{Policy: policy, Limits: lim, CompactAt: at}
		for i, p := range prompts {
			// A dollar per thousand tokens; keep-last-n clears before
			// call 3.
			c := simulate.CallResult{Call: i + 1, Prompt: p, Cost: float64(p) / 1000, Priced: true,
				Cleared: i == 2 && p < 5000}
			r.Calls = append(r.Calls, c)
			r.Metrics.Cost += c.Cost
		}
		return r
	}
	return []*simulate.Result{
		run("observed", 167000, 1000, 5000, 9000),
		run("keep-last-n:n=5", 0, 1000, 3000, 2000),
		run("keep-last-n:n=5+claude-code", 167000, 1000, 3000, 2000),
		run("claude-code", 167000, 1000, 5000, 9000),
		run("keep-last-n:n=4", 0, 1000, 3000, 2001),
	}
}

// TestContextCoincident: identical runs stay visible (their lines take
// turns dash by dash, their markers nest) and the legend says which runs
// coincide.
func TestContextCoincident(t *testing.T) {
	runs := coincideRuns()
	d := plotdata.ContextSeries(runs, false)
	var same [][]int
	for _, l := range d.Lines {
		same = append(same, l.Same)
	}
	if want := [][]int{{3}, {2}, {1}, {0}, nil}; !reflect.DeepEqual(same, want) {
		t.Errorf("Same %v, want %v", same, want)
	}
	f := Context(runs, Options{Session: "s"})
	wantText := []string{
		"observed (= claude-code)",
		"keep-last-n:n=5 (= keep-last-n:n=5+claude-code; 1 clearing)",
		"keep-last-n:n=5+claude-code (= keep-last-n:n=5; 1 clearing)",
		"claude-code (= observed)",
		"keep-last-n:n=4 (1 clearing)",
	}
	four := vg.Points(4)
	wantDash := []struct {
		dashes []vg.Length
		offs   vg.Length
	}{
		{nil, 0}, // observed keeps its band
		{[]vg.Length{four, four}, 0},
		{[]vg.Length{four, four}, four},
		{nil, 0}, // alone but for observed: drawn whole over its band
		{nil, 0},
	}
	for i, want := range wantText {
		e := f.Legend[i]
		if e.Text != want {
			t.Errorf("legend %d: %q, want %q", i, e.Text, want)
		}
		sty := e.Thumbs[0].(*line).Style
		if !reflect.DeepEqual(sty.Dashes, wantDash[i].dashes) || sty.DashOffs != wantDash[i].offs {
			t.Errorf("%s: dashes %v offset %v, want %v offset %v", runs[i].Policy, sty.Dashes, sty.DashOffs, wantDash[i].dashes, wantDash[i].offs)
		}
	}
}

// TestMarkScale: identical runs' markers nest, each later one smaller.
func TestMarkScale(t *testing.T) {
	for _, c := range []struct {
		points, i int
		same      []int
		want      float64
	}{
		{3, 0, nil, 1},
		{denseCalls, 0, nil, 1},
		{denseCalls + 1, 0, nil, 0.75},
		{3, 1, []int{2}, 1},             // the first of its group
		{3, 2, []int{1}, 1 / 1.6},       // one before it
		{3, 3, []int{0, 1, 4}, 1 / 2.2}, // two before it
		{denseCalls + 1, 2, []int{0}, 0.75 / 1.6},
	} {
		if got := markScale(c.points, c.i, c.same); got != c.want {
			t.Errorf("markScale(%d, %d, %v) = %v, want %v", c.points, c.i, c.same, got, c.want)
		}
	}
}

// TestInterleaveThree: of three identical runs each draws every third
// dash, the j-th starting j dashes in, and observed takes no turn.
func TestInterleaveThree(t *testing.T) {
	policies := []string{"a", "observed", "b", "c"}
	same := [][]int{{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}}
	four := vg.Points(4)
	for i, want := range []vg.Length{0, -1, four, 2 * four} {
		sty := interleave(runStyle(policies[i], palette[0], 3, 4), i, same, policies)
		if want < 0 {
			if sty.Dashes != nil {
				t.Errorf("observed dashed %v", sty.Dashes)
			}
			continue
		}
		if !reflect.DeepEqual(sty.Dashes, []vg.Length{four, 2 * four}) || sty.DashOffs != want {
			t.Errorf("%s: dashes %v offset %v, want [4 8] offset %v", policies[i], sty.Dashes, sty.DashOffs, want)
		}
	}
}

// TestContextThresholds: each distinct threshold once, in its first run's
// colour, naming its runs; Claude Code's own only when no run has one.
func TestContextThresholds(t *testing.T) {
	runs := coincideRuns()
	runs[3].CompactAt = 108000 // claude-code:pct=60's, say
	d := plotdata.ContextSeries(runs, false)
	if want := []plotdata.Threshold{{Tokens: 167000, Runs: []int{0, 2}}, {Tokens: 108000, Runs: []int{3}}}; !reflect.DeepEqual(d.Thresholds, want) {
		t.Errorf("Thresholds %v, want %v", d.Thresholds, want)
	}
	if want := []plotdata.Level{{Name: plotdata.LevelWindow, Tokens: 200000}, {Name: plotdata.LevelWarning, Tokens: 147000}}; !reflect.DeepEqual(d.Levels, want) {
		t.Errorf("Levels %v, want %v", d.Levels, want)
	}
	f := Context(runs, Options{})
	colors := policyColors(policyNames(runs))
	var got []string
	for _, e := range f.Legend[len(runs)+1:] { // after the runs and "clearing"
		got = append(got, e.Text)
		// The thumbnail is the line drawn on the plot.
		h := e.Thumbs[0].(*hline)
		if c, ok := map[string]int{"threshold 167,000 (observed, keep-last-n:n=5+claude-code)": 0, "threshold 108,000 (claude-code)": 3}[e.Text]; ok {
			if h.Style.Color != colors[c] || len(h.Style.Dashes) == 0 {
				t.Errorf("%q drawn %v dashes %v, want dashed in %v", e.Text, h.Style.Color, h.Style.Dashes, colors[c])
			}
			if want := map[int]float64{0: 167000, 3: 108000}[c]; h.Y != want {
				t.Errorf("%q drawn at %v", e.Text, h.Y)
			}
		}
	}
	want := []string{"window 200,000", "threshold 167,000 (observed, keep-last-n:n=5+claude-code)", "threshold 108,000 (claude-code)", "warning 147,000"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("levels' legend %q, want %q", got, want)
	}
	// No run with a threshold of its own: Claude Code's, grey, as before.
	for _, r := range runs {
		r.CompactAt = 0
	}
	d = plotdata.ContextSeries(runs, false)
	if want := []plotdata.Level{{Name: plotdata.LevelWindow, Tokens: 200000}, {Name: plotdata.LevelThreshold, Tokens: 167000}, {Name: plotdata.LevelWarning, Tokens: 147000}}; len(d.Thresholds) != 0 || !reflect.DeepEqual(d.Levels, want) {
		t.Errorf("without thresholds: Levels %v, Thresholds %v", d.Levels, d.Thresholds)
	}
	// One run: its threshold needs no name.
	one := coincideRuns()[:1]
	f = Context(one, Options{})
	if got := f.Legend[len(f.Legend)-2].Text; got != "threshold 167,000" {
		t.Errorf("one run's threshold %q, want %q", got, "threshold 167,000")
	}
}

// TestCostCoincident: identical cost lines take turns too, and say so.
func TestCostCoincident(t *testing.T) {
	f := Cost(coincideRuns(), Options{})
	// $1 + $5 + $9; $1 + $3 + $2; keep-last-n:n=4's $6.001 shows as the
	// same $6.00, but its line is not the same.
	want := []string{
		"observed $15.00 (= claude-code)",
		"keep-last-n:n=5 $6.00 (= keep-last-n:n=5+claude-code)",
		"keep-last-n:n=5+claude-code $6.00 (= keep-last-n:n=5)",
		"claude-code $15.00 (= observed)",
		"keep-last-n:n=4 $6.00",
	}
	for i, e := range f.Legend {
		if e.Text != want[i] {
			t.Errorf("legend %d: %q, want %q", i, e.Text, want[i])
		}
	}
	if sty := f.Legend[2].Thumbs[0].(*line).Style; sty.DashOffs != vg.Points(4) || len(sty.Dashes) != 2 {
		t.Errorf("keep-last-n:n=5+claude-code's cost line %v offset %v, want interleaved", sty.Dashes, sty.DashOffs)
	}
}

// TestCloseThresholds: thresholds closer than 1% of the axis take turns
// dash by dash, in the order of their values; the others keep their own
// dashes.
func TestCloseThresholds(t *testing.T) {
	four, two := vg.Points(4), vg.Points(2)
	mk := func(ys ...float64) []*hline {
		var out []*hline
		for _, y := range ys {
			out = append(out, &hline{Y: y, Style: thresholdStyle(palette[0])})
		}
		return out
	}
	type dash struct {
		dashes []vg.Length
		offs   vg.Length
	}
	own := dash{[]vg.Length{four, two}, 0}
	for _, c := range []struct {
		ys   []float64
		ymax float64
		want []dash
	}{
		// 800 apart, under 2,080 (1% of 208,000); 167,000 alone. The
		// lower value takes the first turn whatever the runs' order.
		{[]float64{167000, 100800, 100000}, 208000, []dash{own, {[]vg.Length{four, four}, four}, {[]vg.Length{four, four}, 0}}},
		// A chain of steps under 2,000 (1% of 200,000) is one group of
		// three; 2,000 apart is not close.
		{[]float64{100000, 101500, 103000, 105000}, 200000, []dash{
			{[]vg.Length{four, 2 * four}, 0}, {[]vg.Length{four, 2 * four}, four}, {[]vg.Length{four, 2 * four}, 2 * four}, own}},
		{[]float64{100000}, 200000, []dash{own}},
	} {
		ths := mk(c.ys...)
		closeThresholds(ths, c.ymax)
		for i, h := range ths {
			if !reflect.DeepEqual(h.Style.Dashes, c.want[i].dashes) || h.Style.DashOffs != c.want[i].offs {
				t.Errorf("%v: threshold %v dashes %v offset %v, want %v offset %v", c.ys, h.Y, h.Style.Dashes, h.Style.DashOffs, c.want[i].dashes, c.want[i].offs)
			}
		}
	}
}
