package plots

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate"
)

// synthetic returns two small runs over one session, every number chosen
// so that the series can be computed by hand (see the tests' comments).
//
// observed: window 200,000, threshold 167,000, warning 147,000 (Sonnet 4.5,
// CLI 2.1.30: 200,000 − 20,000 reserved − 13,000 buffer; − 20,000).
//
//	call time      prompt  input  write        read    cost  notes
//	1    10:00:00  20,000  10     19,990       0       0.10
//	2    10:30:00  60,000  10     40,000       19,990  0.20
//	3    11:00:00  62,000  10     4,990        57,000  0.30  micro: cleared
//	4    11:15:00  60,000  10     2,000+3,000  54,990  0.25  read −2,010: 3.5% < 5%, no break
//	5    12:00:00  30,000  10     20,000       9,990   0.05  compacted; read −45,000: break
//	6    (none)    33,000  10     3,000        29,990  0     unpriced; real microcompact
//	7    12:30:00  34,000  10     5,500        28,490  0.04  read −1,500: 5% but ≤ 2,000, no break
//
// and one summarizer call before call 5 costing 0.15.
//
// claude-code: three calls at 10:00, 10:30, 11:00 with prompts 20,000,
// 90,000, 25,000; call 3 compacted and dropped items; another window
// (1,000,000) that the plot must not use; a threshold of its own, 108,000
// (as claude-code:pct=60's: ⌊180,000 × 60%⌋), where observed's is Claude
// Code's 167,000.
func synthetic() []*simulate.Result {
	lim := claudecode.LimitsFor(claudecode.LimitParams{}, "claude-sonnet-4-5", "2.1.30")
	obs := &simulate.Result{
		Policy: "observed", Session: "synthetic", Method: "usage", Limits: lim, CompactAt: lim.Threshold,
		Calls: []simulate.CallResult{
			{Call: 1, Time: stamp("2026-01-02T10:00:00Z"), Prompt: 20000, Input: 10, Write5m: 19990, Cost: 0.1, Priced: true},
			{Call: 2, Time: stamp("2026-01-02T10:30:00Z"), Prompt: 60000, Input: 10, Write5m: 40000, Read: 19990, Cost: 0.2, Priced: true},
			{Call: 3, Time: stamp("2026-01-02T11:00:00Z"), Prompt: 62000, Input: 10, Write5m: 4990, Read: 57000, Cost: 0.3, Priced: true,
				Cleared: true, Actions: []string{"micro: cleared 2 results, freed 5000"}},
			{Call: 4, Time: stamp("2026-01-02T11:15:00Z"), Prompt: 60000, Input: 10, Write5m: 2000, Write1h: 3000, Read: 54990, Cost: 0.25, Priced: true},
			{Call: 5, Time: stamp("2026-01-02T12:00:00Z"), Prompt: 30000, Input: 10, Write5m: 20000, Read: 9990, Cost: 0.05, Priced: true,
				Compacted: true, Actions: []string{"real compact (auto)"}},
			{Call: 6, Prompt: 33000, Input: 10, Write5m: 3000, Read: 29990, Cleared: true, Actions: []string{"real microcompact: 3 results"}},
			{Call: 7, Time: stamp("2026-01-02T12:30:00Z"), Prompt: 34000, Input: 10, Write5m: 5500, Read: 28490, Cost: 0.04, Priced: true},
		},
		Summaries: []simulate.SummaryCall{{Label: "summary", BeforeCall: 5, Cost: 0.15}},
		// Calls 0.94 + summarizer 0.15.
		Metrics: simulate.Metrics{Cost: 1.09},
	}
	cc := &simulate.Result{
		Policy: "claude-code", Session: "synthetic", Method: "usage",
		Limits:    claudecode.LimitsFor(claudecode.LimitParams{Window: 1_000_000}, "claude-sonnet-4-5", "2.1.30"),
		CompactAt: 108_000,
		Calls: []simulate.CallResult{
			{Call: 1, Time: stamp("2026-01-02T10:00:00Z"), Prompt: 20000, Write5m: 20000, Cost: 0.1, Priced: true},
			{Call: 2, Time: stamp("2026-01-02T10:30:00Z"), Prompt: 90000, Write5m: 70000, Read: 20000, Cost: 0.3, Priced: true},
			{Call: 3, Time: stamp("2026-01-02T11:00:00Z"), Prompt: 25000, Write5m: 25000, Cost: 0.1, Priced: true, Compacted: true,
				Cleared: true, Actions: []string{"compact (auto): 88000 → 3000", "budget: dropped 3 items, freed 400"}},
		},
		Summaries: []simulate.SummaryCall{{Label: "summary", BeforeCall: 3, Cost: 0.2}},
		// Calls 0.5 + summarizer 0.2.
		Metrics: simulate.Metrics{Cost: 0.7},
	}
	return []*simulate.Result{obs, cc}
}

func TestContextSeries(t *testing.T) {
	got := ContextSeries(synthetic(), false)
	want := ContextData{
		Lines: []ContextLine{
			{
				Policy:      "observed",
				Points:      []XY{{1, 20000}, {2, 60000}, {3, 62000}, {4, 60000}, {5, 30000}, {6, 33000}, {7, 34000}},
				Compactions: []XY{{5, 30000}},
				Clearings:   []XY{{3, 62000}, {6, 33000}}, // "cleared", "microcompact"
			},
			{
				Policy:      "claude-code",
				Points:      []XY{{1, 20000}, {2, 90000}, {3, 25000}},
				Compactions: []XY{{3, 25000}},
				Clearings:   []XY{{3, 25000}}, // "dropped"
			},
		},
		// The first run's limits, not claude-code's 1M window; the
		// runs' own thresholds instead of Claude Code's.
		Levels:     []Level{{LevelWindow, 200000}, {LevelWarning, 147000}},
		Thresholds: []Threshold{{167000, []int{0}}, {108000, []int{1}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ContextSeries:\n got %+v\nwant %+v", got, want)
	}
}

func TestContextSeriesTime(t *testing.T) {
	got := ContextSeries(synthetic(), true)
	// Hours since 10:00; call 6 has no time and is left out.
	obs := []XY{{0, 20000}, {0.5, 60000}, {1, 62000}, {1.25, 60000}, {2, 30000}, {2.5, 34000}}
	if !got.XTime || !reflect.DeepEqual(got.Lines[0].Points, obs) {
		t.Errorf("observed points %v, want %v", got.Lines[0].Points, obs)
	}
	if want := []XY{{2, 30000}}; !reflect.DeepEqual(got.Lines[0].Compactions, want) {
		t.Errorf("compactions %v, want %v", got.Lines[0].Compactions, want)
	}
	if want := []XY{{1, 62000}}; !reflect.DeepEqual(got.Lines[0].Clearings, want) {
		t.Errorf("clearings %v, want %v", got.Lines[0].Clearings, want)
	}
	if want := []XY{{0, 20000}, {0.5, 90000}, {1, 25000}}; !reflect.DeepEqual(got.Lines[1].Points, want) {
		t.Errorf("claude-code points %v, want %v", got.Lines[1].Points, want)
	}
}

func TestContextSeriesEmpty(t *testing.T) {
	got := ContextSeries(nil, false)
	if len(got.Lines) != 0 || len(got.Levels) != 0 {
		t.Errorf("ContextSeries(nil) = %+v", got)
	}
	got = ContextSeries([]*simulate.Result{{Policy: "none"}}, true)
	if len(got.Lines) != 1 || len(got.Lines[0].Points) != 0 || len(got.Levels) != 0 {
		t.Errorf("ContextSeries(no calls) = %+v", got)
	}
}

func TestCacheSeries(t *testing.T) {
	got := CacheSeries(synthetic()[0])
	want := CacheData{
		Policy: "observed",
		Calls: []CacheCall{
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
		if p := synthetic()[0].Calls[c.Call-1].Prompt; c.Uncached+c.Write+c.Read != p {
			t.Errorf("call %d: %d + %d + %d ≠ prompt %d", c.Call, c.Uncached, c.Write, c.Read, p)
		}
	}
}

func TestCostSeries(t *testing.T) {
	got := CostSeries(synthetic())
	want := CostData{Lines: []CostLine{
		{
			Policy: "observed",
			// 0.1; 0.1+0.2=0.3; +0.3=0.6; +0.25=0.85; +0.15 (summary before
			// call 5) +0.05=1.05; +0 (unpriced)=1.05; +0.04=1.09.
			Points:   []XY{{1, 0.1}, {2, 0.3}, {3, 0.6}, {4, 0.85}, {5, 1.05}, {6, 1.05}, {7, 1.09}},
			Total:    1.09,
			Unpriced: 1,
		},
		{
			Policy: "claude-code",
			// 0.1; +0.3=0.4; +0.2 (summary before call 3) +0.1=0.7.
			Points: []XY{{1, 0.1}, {2, 0.4}, {3, 0.7}},
			Total:  0.7,
		},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CostSeries:\n got %+v\nwant %+v", got, want)
	}
}

// tokens: 1,925 estimated tokens.
func tokensFixture() accounting.Tokens {
	return accounting.Tokens{Method: "estimate", Total: 1925, Rows: []accounting.TokenRow{
		{Category: "tool_result", Name: "Read", Tokens: 500},
		{Category: "tool_request", Name: "Edit", Tokens: 400},
		{Category: "tool_result", Name: "Bash", Tokens: 300},
		{Category: "assistant", Tokens: 250},
		{Category: "human", Tokens: 200},
		{Category: "tool_request", Name: "Bash", Tokens: 100},
		{Category: "attachment", Name: "hook", Tokens: 70},
		{Category: "tool_request", Name: "Read", Tokens: 50},
		{Category: "attachment", Name: "todo", Tokens: 30},
		{Category: "tool_result", Name: "Edit", Tokens: 20},
		{Category: "tool_result", Name: "unknown", Tokens: 5},
	}}
}

func TestTokenBars(t *testing.T) {
	got := TokenBars(tokensFixture(), 0)
	want := TokenData{
		Total: 1925,
		Categories: BarData{Segments: []string{segmentTokens}, Bars: []Bar{
			{"tool_result", []int64{825}},  // 500 + 300 + 20 + 5
			{"tool_request", []int64{550}}, // 400 + 100 + 50
			{"assistant", []int64{250}},
			{"human", []int64{200}},
			{"attachment", []int64{100}}, // 70 + 30
		}},
		Tools: BarData{Segments: []string{segmentRequest, segmentResult}, Bars: []Bar{
			{"Read", []int64{50, 500}},  // 550
			{"Edit", []int64{400, 20}},  // 420
			{"Bash", []int64{100, 300}}, // 400
			{"unknown", []int64{0, 5}},  // 5
		}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("TokenBars:\n got %+v\nwant %+v", got, want)
	}

	got = TokenBars(tokensFixture(), 3)
	cats := []Bar{
		{"tool_result", []int64{825}},
		{"tool_request", []int64{550}},
		{"3 more categories", []int64{550}}, // 250 + 200 + 100
	}
	tools := []Bar{
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

const longPath = "/home/user/projects/ctxlab/report/plots/series.go" // 49 characters

func dupFixture() []accounting.DuplicateRead {
	return []accounting.DuplicateRead{
		{Path: longPath, Reads: 2, Tokens: 1000, Overhead: 500},
		{Path: "/x/b.go", Reads: 2, Tokens: 200, Overhead: 100, Waste: 1, WasteTokens: 100},
		{Path: "/home/dev/demo/server/health.go", Reads: 3, Tokens: 300, Overhead: 200, Waste: 2, WasteTokens: 200},
		{Path: "/x/a.go", Offset: 10, Limit: 20, Reads: 2, Tokens: 200, Overhead: 100, Waste: 1, WasteTokens: 100},
	}
}

func TestDuplicateBars(t *testing.T) {
	got := DuplicateBars(dupFixture(), 0)
	want := DuplicateData{Bars: []DuplicateBar{
		// By waste tokens, then overhead, then path.
		{Label: "/home/dev/demo/server/health.go", Path: "/home/dev/demo/server/health.go", Reads: 3, WasteTokens: 200, Overhead: 200},
		{Label: "/x/a.go [10+20]", Path: "/x/a.go", Offset: 10, Limit: 20, Reads: 2, WasteTokens: 100, Overhead: 100},
		{Label: "/x/b.go", Path: "/x/b.go", Reads: 2, WasteTokens: 100, Overhead: 100},
		{Label: "…/projects/ctxlab/report/plots/series.go", Path: longPath, Reads: 2, Overhead: 500},
	},
		// 200 + 100 + 100 + 0 wasted; 200 + 100 + 100 + 500 overhead.
		WasteTokens: 400, Overhead: 900,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("DuplicateBars:\n got %+v\nwant %+v", got, want)
	}
	got = DuplicateBars(dupFixture(), 2)
	// The totals still count the two rows left out.
	if len(got.Bars) != 2 || got.More != 2 || got.Bars[1].Path != "/x/a.go" || got.WasteTokens != 400 || got.Overhead != 900 {
		t.Errorf("DuplicateBars top 2: %+v", got)
	}
	corpus := DuplicateBars([]accounting.DuplicateRead{{Session: "4a5c6ea5-9101-4d5d", Path: "/x/a.go", Reads: 2, Overhead: 1}}, 0)
	if l := corpus.Bars[0].Label; l != "/x/a.go · 4a5c6ea5" {
		t.Errorf("corpus label %q", l)
	}
}

func TestShortenPath(t *testing.T) {
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{"/x/a.go", 40, "/x/a.go"},
		// "…/" + 38 characters = 40.
		{longPath, 40, "…/projects/ctxlab/report/plots/series.go"},
		{longPath, 20, "…/plots/series.go"},
		{"/a/" + strings.Repeat("x", 50) + ".go", 20, "…" + strings.Repeat("x", 16) + ".go"},
		{`C:\Users\me\very\long\dir\name\file.go`, 20, `…\dir\name\file.go`},
	} {
		if got := shortenPath(c.in, c.max); got != c.want {
			t.Errorf("shortenPath(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
		if n := len([]rune(shortenPath(c.in, c.max))); n > c.max {
			t.Errorf("shortenPath(%q, %d) has %d characters", c.in, c.max, n)
		}
	}
}

func majors(t Ticks, lo, hi float64) (labels []string, minors int) {
	for _, k := range t.Ticks(lo, hi) {
		if k.IsMinor() {
			minors++
			continue
		}
		labels = append(labels, k.Label)
	}
	return labels, minors
}

func TestTicks(t *testing.T) {
	for _, c := range []struct {
		t      Ticks
		lo, hi float64
		want   []string
		minors int
	}{
		// Step 50,000 (the first round step ≥ 200,000/5), minors every 10,000.
		{Ticks{}, 0, 208000, []string{"0", "50,000", "100,000", "150,000", "200,000"}, 16},
		// Integer axis: step 1, no minors.
		{Ticks{Integer: true}, 0.5, 5.5, []string{"1", "2", "3", "4", "5"}, 0},
		// Integer axis: 3,060/5 = 612 rounds up to 1,000; minors every 200.
		{Ticks{Integer: true}, -30, 3030, []string{"0", "1,000", "2,000", "3,000"}, 12},
		// Money: step 0.2, two decimals.
		{Ticks{Prefix: "$", MinDecimals: 2}, 0, 0.75, []string{"$0.00", "$0.20", "$0.40", "$0.60"}, 3 * 4},
		// Step 2.5 keeps one decimal.
		{Ticks{Suffix: " h"}, 0, 11, []string{"0.0 h", "2.5 h", "5.0 h", "7.5 h", "10.0 h"}, 18},
	} {
		got, minors := majors(c.t, c.lo, c.hi)
		if !reflect.DeepEqual(got, c.want) || minors != c.minors {
			t.Errorf("%+v.Ticks(%v, %v) = %q and %d minors, want %q and %d", c.t, c.lo, c.hi, got, minors, c.want, c.minors)
		}
	}
	// A degenerate range does not panic.
	if n := len((Ticks{}).Ticks(3, 3)); n != 1 {
		t.Errorf("Ticks(3, 3): %d ticks", n)
	}
}

func TestFileName(t *testing.T) {
	for _, c := range []struct{ session, kind, policy, format, want string }{
		{"4a5c6ea5-9101", KindContext, "", "png", "4a5c6ea5-9101-context.png"},
		{"4a5c6ea5-9101", KindCache, "claude-code", "svg", "4a5c6ea5-9101-cache-claude-code.svg"},
		{"s", KindCache, "keep-last-n:n=10", "png", "s-cache-keep-last-n_n_10.png"},
		{Total, KindTokens, "", "png", "total-tokens.png"},
		{"a/b c", KindCost, "", "png", "a_b_c-cost.png"},
	} {
		if got := fileName(c.session, c.kind, c.policy, c.format); got != c.want {
			t.Errorf("fileName(%q, %q, %q, %q) = %q, want %q", c.session, c.kind, c.policy, c.format, got, c.want)
		}
	}
}

func TestSessionFiles(t *testing.T) {
	rep := &accounting.Report{Tokens: tokensFixture(), Duplicates: dupFixture()}
	var names []string
	for _, f := range SessionFiles("d3e4f5a6", synthetic(), rep, "png", Options{}) {
		names = append(names, f.Name)
		if f.Figure == nil || !strings.Contains(f.Figure.Title, "d3e4f5a6") {
			t.Errorf("%s: title %q does not name the session", f.Name, f.Figure.Title)
		}
	}
	want := []string{
		"d3e4f5a6-context.png", "d3e4f5a6-cost.png", "d3e4f5a6-cache-observed.png",
		"d3e4f5a6-cache-claude-code.png", "d3e4f5a6-tokens.png", "d3e4f5a6-duplicates.png",
	}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("SessionFiles names %q, want %q", names, want)
	}
	runs := synthetic()
	var twice []string
	for _, f := range SessionFiles("s", []*simulate.Result{runs[0], runs[0]}, nil, "svg", Options{}) {
		twice = append(twice, f.Name)
	}
	if want := []string{"s-context.svg", "s-cost.svg", "s-cache-observed.svg", "s-cache-observed_2.svg"}; !reflect.DeepEqual(twice, want) {
		t.Errorf("a policy run twice: %q, want %q", twice, want)
	}
	if n := len(SessionFiles("s", nil, nil, "svg", Options{})); n != 0 {
		t.Errorf("SessionFiles(no runs, no report): %d files", n)
	}
	// A session without a call (a file with only a summary): its runs
	// replay nothing, its report counts no call; no plot, not six blank
	// ones. A report of a call with no run draws its two.
	empty := []*simulate.Result{{Policy: "observed"}, {Policy: "claude-code"}}
	if n := len(SessionFiles("s", empty, &accounting.Report{}, "svg", Options{})); n != 0 || HasCalls(empty, nil) {
		t.Errorf("SessionFiles(a session without calls): %d files", n)
	}
	withCall := &accounting.Report{Summary: accounting.Summary{Calls: 1}, Tokens: tokensFixture()}
	if n := len(SessionFiles("s", nil, withCall, "svg", Options{})); n != 2 {
		t.Errorf("SessionFiles(a report with a call, no run): %d files, want 2", n)
	}
	names = nil
	corpus := *rep
	corpus.Summary.Sessions = 3
	var titles []string
	for _, f := range TotalFiles(&corpus, "svg", Options{}) {
		names = append(names, f.Name)
		titles = append(titles, f.Figure.Title)
	}
	if want := []string{"total-tokens.svg", "total-duplicates.svg"}; !reflect.DeepEqual(names, want) {
		t.Errorf("TotalFiles names %q, want %q", names, want)
	}
	if want := []string{"Token accounting — all 3 sessions — 1,925 tokens", "Duplicate reads — all 3 sessions"}; !reflect.DeepEqual(titles, want) {
		t.Errorf("TotalFiles titles %q, want %q", titles, want)
	}
	pols, ms := policyFixture()
	files := CompareTotalFiles(pols, ms, 7, CostIntervals{}, "png", Options{})
	if len(files) != 1 || files[0].Name != "total-cost.png" || files[0].Figure == nil {
		t.Fatalf("CompareTotalFiles = %+v, want one file total-cost.png", files)
	}
	if got, want := files[0].Figure.Title, "Cost by policy — all 7 sessions"; got != want {
		t.Errorf("CompareTotalFiles title %q, want %q", got, want)
	}
}

// policyFixture: three policies' metrics summed over 7 sessions.
//
//	policy             cost  summarizer  main   agents  total    unpriced
//	observed           12.5  2.25        10.25  3.4567  15.9567  2 + 1
//	claude-code        13.1  3.0         10.1   3.4567  16.5567  0
//	keep-last-n:n=10   9.4   0           9.4    3.4567  12.8567  0 + 1
//
// claude-code: (16.5567 − 15.9567) / 15.9567 = +3.7602% → +3.76 (shown +3.8%);
// keep-last-n: (12.8567 − 15.9567) / 15.9567 = −19.4276% → −19.43 (shown −19.4%).
func policyFixture() ([]string, []simulate.Metrics) {
	return []string{"observed", "claude-code", "keep-last-n:n=10"}, []simulate.Metrics{
		{Cost: 12.5, SummarizerCost: 2.25, AgentsCost: 3.4567, TotalCost: 15.9567, Unpriced: 2, AgentsUnpriced: 1},
		{Cost: 13.1, SummarizerCost: 3.0, AgentsCost: 3.4567, TotalCost: 16.5567},
		{Cost: 9.4, AgentsCost: 3.4567, TotalCost: 12.8567, AgentsUnpriced: 1},
	}
}

func pctp(v float64) *float64 { return &v }

func TestPolicyCosts(t *testing.T) {
	pols, ms := policyFixture()
	got := PolicyCosts(pols, ms, 7)
	want := PolicyCostData{Sessions: 7, Bars: []PolicyCost{
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
	got := PolicyCosts([]string{"none", "observed", "claude-code"}, []simulate.Metrics{
		{Unpriced: 4},
		{Cost: 1.5, TotalCost: 1.5},
		{Cost: 0.3, SummarizerCost: 0.300001, TotalCost: 0.3},
		{Cost: 9, TotalCost: 9},
	}, 1)
	want := PolicyCostData{Sessions: 1, Bars: []PolicyCost{
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
	got = PolicyCosts([]string{"a", "b"}, []simulate.Metrics{{TotalCost: 0.7}, {TotalCost: 0.7}}, 2)
	if d := got.Bars[1].DeltaPct; d == nil || *d != 0 || math.Signbit(*d) {
		t.Errorf("equal totals: delta %v", d)
	}
	// 100 against 103.749: +3.749% is 3.75 to the hundredth, as compare's
	// table rounds it, shown +3.8% in both (rounding straight to a tenth
	// would give +3.7%).
	got = PolicyCosts([]string{"a", "b"}, []simulate.Metrics{{TotalCost: 100}, {TotalCost: 103.749}}, 2)
	if d := got.Bars[1].DeltaPct; d == nil || *d != 3.75 || deltaNote(*d) != "+3.8%" {
		t.Errorf("100 → 103.749: delta %v", d)
	}
	if got := PolicyCosts(nil, nil, 0); got.Bars == nil || len(got.Bars) != 0 {
		t.Errorf("PolicyCosts(nil) = %+v", got)
	}
}

// fmtPolicyCosts prints the deltas' values, not their addresses.
func fmtPolicyCosts(d PolicyCostData) string {
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
		{Call: 1, Time: stamp("2026-01-02T22:00:00Z"), Prompt: 1000},
		{Call: 2, Time: stamp("2026-01-02T23:00:00Z"), Prompt: 2000}, // exactly IdleGap: kept
		{Call: 3, Time: stamp("2026-01-03T09:00:00Z"), Prompt: 3000}, // 10 h later: cut
		{Call: 4, Time: stamp("2026-01-03T09:30:00Z"), Prompt: 4000},
	}}
	got := ContextSeries([]*simulate.Result{r}, true)
	if want := []XY{{0, 1000}, {1, 2000}, {1.25, 3000}, {1.75, 4000}}; !reflect.DeepEqual(got.Lines[0].Points, want) {
		t.Errorf("points %v, want %v", got.Lines[0].Points, want)
	}
	if want := []IdleCut{{X: 1.125, Hours: 10}}; !reflect.DeepEqual(got.Gaps, want) {
		t.Errorf("gaps %v, want %v", got.Gaps, want)
	}
	var b bytes.Buffer
	if err := Context([]*simulate.Result{r}, Options{XTime: true}).Write(&b, "svg"); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"active hours since the first call (idle gaps over 1 h cut)", "1 idle gap cut (10.0 h idle)"} {
		if !bytes.Contains(b.Bytes(), []byte(s)) {
			t.Errorf("the figure does not say %q", s)
		}
	}
}

// stamp is an RFC 3339 time as results keep it.
func stamp(s string) replay.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return replay.Time(t.UnixMilli())
}
