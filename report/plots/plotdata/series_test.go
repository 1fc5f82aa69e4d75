package plotdata_test

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/report/plots/plotdata"
	"github.com/ctxlab/ctxlab/report/plots/plotdata/plotdatatest"
	"github.com/ctxlab/ctxlab/simulate"
)

func TestContextSeries(t *testing.T) {
	got := plotdata.ContextSeries(plotdatatest.Synthetic(), false)
	want := plotdata.ContextData{
		Lines: []plotdata.ContextLine{
			{
				Policy:      "observed",
				Points:      []plotdata.XY{{1, 20000}, {2, 60000}, {3, 62000}, {4, 60000}, {5, 30000}, {6, 33000}, {7, 34000}},
				Compactions: []plotdata.XY{{5, 30000}},
				Clearings:   []plotdata.XY{{3, 62000}, {6, 33000}}, // "cleared", "microcompact"
			},
			{
				Policy:      "claude-code",
				Points:      []plotdata.XY{{1, 20000}, {2, 90000}, {3, 25000}},
				Compactions: []plotdata.XY{{3, 25000}},
				Clearings:   []plotdata.XY{{3, 25000}}, // "dropped"
			},
		},
		// The first run's limits, not claude-code's 1M window; the
		// runs' own thresholds instead of Claude Code's.
		Levels:     []plotdata.Level{{plotdata.LevelWindow, 200000}, {plotdata.LevelWarning, 147000}},
		Thresholds: []plotdata.Threshold{{167000, []int{0}}, {108000, []int{1}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ContextSeries:\n got %+v\nwant %+v", got, want)
	}
}

func TestContextSeriesTime(t *testing.T) {
	got := plotdata.ContextSeries(plotdatatest.Synthetic(), true)
	// Hours since 10:00; call 6 has no time and is left out.
	obs := []plotdata.XY{{0, 20000}, {0.5, 60000}, {1, 62000}, {1.25, 60000}, {2, 30000}, {2.5, 34000}}
	if !got.XTime || !reflect.DeepEqual(got.Lines[0].Points, obs) {
		t.Errorf("observed points %v, want %v", got.Lines[0].Points, obs)
	}
	if want := []plotdata.XY{{2, 30000}}; !reflect.DeepEqual(got.Lines[0].Compactions, want) {
		t.Errorf("compactions %v, want %v", got.Lines[0].Compactions, want)
	}
	if want := []plotdata.XY{{1, 62000}}; !reflect.DeepEqual(got.Lines[0].Clearings, want) {
		t.Errorf("clearings %v, want %v", got.Lines[0].Clearings, want)
	}
	if want := []plotdata.XY{{0, 20000}, {0.5, 90000}, {1, 25000}}; !reflect.DeepEqual(got.Lines[1].Points, want) {
		t.Errorf("claude-code points %v, want %v", got.Lines[1].Points, want)
	}
}

func TestContextSeriesEmpty(t *testing.T) {
	got := plotdata.ContextSeries(nil, false)
	if len(got.Lines) != 0 || len(got.Levels) != 0 {
		t.Errorf("ContextSeries(nil) = %+v", got)
	}
	got = plotdata.ContextSeries([]*simulate.Result{{Policy: "none"}}, true)
	if len(got.Lines) != 1 || len(got.Lines[0].Points) != 0 || len(got.Levels) != 0 {
		t.Errorf("ContextSeries(no calls) = %+v", got)
	}
}

func TestCacheSeries(t *testing.T) {
	got := plotdata.CacheSeries(plotdatatest.Synthetic()[0])
	want := plotdata.CacheData{
		Policy: "observed",
		Calls: []plotdata.CacheCall{
			{1, 10, 19990, 0},
			{2, 10, 40000, 19990},
			{3, 10, 4990, 57000},
			{4, 10, 5000, 54990}, // 2,000 (5m) + 3,000 (1h)
			{5, 10, 20000, 9990},
			{6, 10, 3000, 29990},
			{7, 10, 5500, 28490},
		},
		// 4: −2,010 is > 2,000 but 3.5% ≤ 5%; 5: −45,000; 7: −1,500 is
		// > 5% of 29,990 (1,499.5) but ≤ 2,000.
		Breaks: []int{5},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CacheSeries:\n got %+v\nwant %+v", got, want)
	}
	for _, c := range want.Calls {
		// Each call's parts add up to its prompt.
		if p := plotdatatest.Synthetic()[0].Calls[c.Call-1].Prompt; c.Uncached+c.Write+c.Read != p {
			t.Errorf("call %d: %d + %d + %d ≠ prompt %d", c.Call, c.Uncached, c.Write, c.Read, p)
		}
	}
}

func TestCostSeries(t *testing.T) {
	got := plotdata.CostSeries(plotdatatest.Synthetic())
	want := plotdata.CostData{Lines: []plotdata.CostLine{
		{
			Policy: "observed",
			// 0.1; 0.1+0.2=0.3; +0.3=0.6; +0.25=0.85; +0.15 (summary before
			// call 5) +0.05=1.05; +0 (unpriced)=1.05; +0.04=1.09.
			Points:   []plotdata.XY{{1, 0.1}, {2, 0.3}, {3, 0.6}, {4, 0.85}, {5, 1.05}, {6, 1.05}, {7, 1.09}},
			Total:    1.09,
			Unpriced: 1,
		},
		{
			Policy: "claude-code",
			// 0.1; +0.3=0.4; +0.2 (summary before call 3) +0.1=0.7.
			Points: []plotdata.XY{{1, 0.1}, {2, 0.4}, {3, 0.7}},
			Total:  0.7,
		},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CostSeries:\n got %+v\nwant %+v", got, want)
	}
}

func TestTokenBars(t *testing.T) {
	got := plotdata.TokenBars(plotdatatest.Accounting(), 0)
	want := plotdata.TokenData{
		Total: 1925,
		Categories: plotdata.BarData{Segments: []string{plotdata.SegmentTokens}, Bars: []plotdata.Bar{
			{"tool_result", []int64{825}},  // 500 + 300 + 20 + 5
			{"tool_request", []int64{550}}, // 400 + 100 + 50
			{"assistant", []int64{250}},
			{"human", []int64{200}},
			{"attachment", []int64{100}}, // 70 + 30
		}},
		Tools: plotdata.BarData{Segments: []string{plotdata.SegmentRequest, plotdata.SegmentResult}, Bars: []plotdata.Bar{
			{"Read", []int64{50, 500}},  // 550
			{"Edit", []int64{400, 20}},  // 420
			{"Bash", []int64{100, 300}}, // 400
			{"unknown", []int64{0, 5}},  // 5
		}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("TokenBars:\n got %+v\nwant %+v", got, want)
	}

	got = plotdata.TokenBars(plotdatatest.Accounting(), 3)
	cats := []plotdata.Bar{
		{"tool_result", []int64{825}},
		{"tool_request", []int64{550}},
		{"3 more categories", []int64{550}}, // 250 + 200 + 100
	}
	tools := []plotdata.Bar{
		{"Read", []int64{50, 500}},
		{"Edit", []int64{400, 20}},
		{"2 more tools", []int64{100, 305}}, // Bash + unknown
	}
	if !reflect.DeepEqual(got.Categories.Bars, cats) || got.Categories.Folded != 3 {
		t.Errorf("categories, top 3: %+v (folded %d)", got.Categories.Bars, got.Categories.Folded)
	}
	if !reflect.DeepEqual(got.Tools.Bars, tools) || got.Tools.Folded != 2 {
		t.Errorf("tools, top 3: %+v (folded %d)", got.Tools.Bars, got.Tools.Folded)
	}
}

func TestDuplicateBars(t *testing.T) {
	got := plotdata.DuplicateBars(plotdatatest.Dups(), 0)
	want := plotdata.DuplicateData{Bars: []plotdata.DuplicateBar{
		// By waste tokens, then overhead, then path.
		{Label: "/home/dev/demo/server/health.go", Path: "/home/dev/demo/server/health.go", Reads: 3, WasteTokens: 200, Overhead: 200},
		{Label: "/x/a.go [10+20]", Path: "/x/a.go", Offset: 10, Limit: 20, Reads: 2, WasteTokens: 100, Overhead: 100},
		{Label: "/x/b.go", Path: "/x/b.go", Reads: 2, WasteTokens: 100, Overhead: 100},
		{Label: "…/projects/ctxlab/report/plots/series.go", Path: plotdatatest.LongPath, Reads: 2, Overhead: 500},
	},
		// 200 + 100 + 100 + 0 wasted; 200 + 100 + 100 + 500 overhead.
		WasteTokens: 400, Overhead: 900,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("DuplicateBars:\n got %+v\nwant %+v", got, want)
	}
	got = plotdata.DuplicateBars(plotdatatest.Dups(), 2)
	// The totals still count the two rows left out.
	if len(got.Bars) != 2 || got.More != 2 || got.Bars[1].Path != "/x/a.go" || got.WasteTokens != 400 || got.Overhead != 900 {
		t.Errorf("DuplicateBars top 2: %+v", got)
	}
	corpus := plotdata.DuplicateBars([]accounting.DuplicateRead{{Session: "4a5c6ea5-9101-4d5d", Path: "/x/a.go", Reads: 2, Overhead: 1}}, 0)
	if l := corpus.Bars[0].Label; l != "/x/a.go · 4a5c6ea5" {
		t.Errorf("corpus label %q", l)
	}
}

func pctp(v float64) *float64 { return &v }

func TestPolicyCosts(t *testing.T) {
	pols, ms := plotdatatest.Policies()
	got := plotdata.PolicyCosts(pols, ms, 7)
	want := plotdata.PolicyCostData{Sessions: 7, Bars: []plotdata.PolicyCost{
		{Policy: "observed", Main: 10.25, Summarizer: 2.25, Agents: 3.4567, Total: 15.9567, Unpriced: 3},
		{Policy: "claude-code", Main: 10.1, Summarizer: 3, Agents: 3.4567, Total: 16.5567, DeltaPct: pctp(3.76)},
		{Policy: "keep-last-n:n=10", Main: 9.4, Agents: 3.4567, Total: 12.8567, DeltaPct: pctp(-19.43), Unpriced: 1},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("PolicyCosts:\n got %s\nwant %s", fmtPolicyCosts(got), fmtPolicyCosts(want))
	}
	for _, b := range got.Bars {
		if s := prices.RoundUSD(b.Main + b.Summarizer + b.Agents); s != b.Total {
			t.Errorf("%s: %v + %v + %v = %v ≠ total %v", b.Policy, b.Main, b.Summarizer, b.Agents, s, b.Total)
		}
	}
}

func TestPolicyCostsZeroBaseline(t *testing.T) {
	// The first total is 0: no deltas. The third's summarizer cost
	// exceeds its cost by a millionth (float noise in a sum): main is 0,
	// not −0.000001. The fourth metrics have no policy name: left out.
	got := plotdata.PolicyCosts([]string{"none", "observed", "claude-code"}, []simulate.Metrics{
		{Unpriced: 4},
		{Cost: 1.5, TotalCost: 1.5},
		{Cost: 0.3, SummarizerCost: 0.300001, TotalCost: 0.3},
		{Cost: 9, TotalCost: 9},
	}, 1)
	want := plotdata.PolicyCostData{Sessions: 1, Bars: []plotdata.PolicyCost{
		{Policy: "none", Unpriced: 4},
		{Policy: "observed", Main: 1.5, Total: 1.5},
		{Policy: "claude-code", Main: 0, Summarizer: 0.300001, Total: 0.3},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("PolicyCosts:\n got %s\nwant %s", fmtPolicyCosts(got), fmtPolicyCosts(want))
	}
	if m := got.Bars[2].Main; math.Signbit(m) {
		t.Errorf("main %v is negative zero", m)
	}
	// A total equal to the first's: +0, not −0.
	got = plotdata.PolicyCosts([]string{"a", "b"}, []simulate.Metrics{{TotalCost: 0.7}, {TotalCost: 0.7}}, 2)
	if d := got.Bars[1].DeltaPct; d == nil || *d != 0 || math.Signbit(*d) {
		t.Errorf("equal totals: delta %v", d)
	}
	// 100 against 103.749: +3.749% is 3.75 to the hundredth, as compare's
	// table rounds it (the figure shows +3.8%, where rounding straight to a
	// tenth would give +3.7%: plots' TestPolicyDeltaNote).
	got = plotdata.PolicyCosts([]string{"a", "b"}, []simulate.Metrics{{TotalCost: 100}, {TotalCost: 103.749}}, 2)
	if d := got.Bars[1].DeltaPct; d == nil || *d != 3.75 {
		t.Errorf("100 → 103.749: delta %v", d)
	}
	if got := plotdata.PolicyCosts(nil, nil, 0); got.Bars == nil || len(got.Bars) != 0 {
		t.Errorf("PolicyCosts(nil) = %+v", got)
	}
}

// fmtPolicyCosts prints the deltas' values, not their addresses.
func fmtPolicyCosts(d plotdata.PolicyCostData) string {
	var b strings.Builder
	fmt.Fprintf(&b, "sessions %d:", d.Sessions)
	for _, p := range d.Bars {
		delta := "nil"
		if p.DeltaPct != nil {
			delta = fmt.Sprint(*p.DeltaPct)
		}
		fmt.Fprintf(&b, " {%s main %v summarizer %v agents %v total %v delta %s unpriced %d}",
			p.Policy, p.Main, p.Summarizer, p.Agents, p.Total, delta, p.Unpriced)
	}
	return b.String()
}

// A night between two calls is cut from the time axis to IdleShown, and
// the cut is listed with the real idle time; gaps up to IdleGap are kept.
func TestContextSeriesIdleGapsCut(t *testing.T) {
	r := &simulate.Result{Policy: "observed", Calls: []simulate.CallResult{
		{Call: 1, Time: plotdatatest.Stamp("2026-01-02T22:00:00Z"), Prompt: 1000},
		{Call: 2, Time: plotdatatest.Stamp("2026-01-02T23:00:00Z"), Prompt: 2000}, // exactly IdleGap: kept
		{Call: 3, Time: plotdatatest.Stamp("2026-01-03T09:00:00Z"), Prompt: 3000}, // 10 h later: cut
		{Call: 4, Time: plotdatatest.Stamp("2026-01-03T09:30:00Z"), Prompt: 4000},
	}}
	got := plotdata.ContextSeries([]*simulate.Result{r}, true)
	if want := []plotdata.XY{{0, 1000}, {1, 2000}, {1.25, 3000}, {1.75, 4000}}; !reflect.DeepEqual(got.Lines[0].Points, want) {
		t.Errorf("points %v, want %v", got.Lines[0].Points, want)
	}
	if want := []plotdata.IdleCut{{X: 1.125, Hours: 10}}; !reflect.DeepEqual(got.Gaps, want) {
		t.Errorf("gaps %v, want %v", got.Gaps, want)
	}
}
