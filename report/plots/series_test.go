package plots

import (
	"reflect"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/simulate"
)

var testLimits = simulate.Limits{Window: 200_000, Threshold: 167_000, Warning: 147_000}

// contextRuns: two runs over one tiny session.
func contextRuns() []*simulate.Result {
	return []*simulate.Result{
		{Policy: "observed", Session: "s1", Limits: testLimits, Calls: []simulate.CallResult{
			{Call: 1, Prompt: 1000, Time: "2025-01-01T10:00:00Z"},
			{Call: 2, Prompt: 5000, Time: "2025-01-01T10:30:00Z", Actions: []string{"microcompact 3 results"}},
			{Call: 3, Prompt: 800, Compacted: true}, // no time
		}},
		{Policy: "none", Session: "s1", Limits: testLimits, Calls: []simulate.CallResult{
			{Call: 1, Prompt: 1000, Time: "2025-01-01T09:45:00Z"},
			{Call: 2, Prompt: 6000, Time: "2025-01-01T11:15:00Z", Actions: []string{"kept", "dropped 2 turns"}},
		}},
	}
}

var wantLevels = []Level{{LevelWindow, 200_000}, {LevelThreshold, 167_000}, {LevelWarning, 147_000}}

func TestContextSeriesCalls(t *testing.T) {
	got := ContextSeries(contextRuns(), false)
	want := ContextData{
		XTime: false,
		Lines: []ContextLine{
			{
				Policy: "observed",
				Points: []XY{{1, 1000}, {2, 5000}, {3, 800}},
				// Call 3 came after a compaction.
				Compactions: []XY{{3, 800}},
				// Call 2's action mentions "microcompact".
				Clearings: []XY{{2, 5000}},
			},
			{
				Policy:      "none",
				Points:      []XY{{1, 1000}, {2, 6000}},
				Compactions: []XY{},
				// "dropped 2 turns" counts as a clearing; "kept" does not.
				Clearings: []XY{{2, 6000}},
			},
		},
		// The first run's limits.
		Levels: wantLevels,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ContextSeries:\n got %+v\nwant %+v", got, want)
	}
}

func TestContextSeriesTime(t *testing.T) {
	got := ContextSeries(contextRuns(), true)
	// t0 is the earliest time of all runs: 09:45 (run "none", call 1).
	want := ContextData{
		XTime: true,
		Lines: []ContextLine{
			{
				Policy: "observed",
				// 10:00 − 09:45 = 0.25 h; 10:30 − 09:45 = 0.75 h; call 3
				// has no time and is left out, with its compaction.
				Points:      []XY{{0.25, 1000}, {0.75, 5000}},
				Compactions: []XY{},
				Clearings:   []XY{{0.75, 5000}},
			},
			{
				Policy: "none",
				// 09:45 → 0 h; 11:15 − 09:45 = 1.5 h.
				Points:      []XY{{0, 1000}, {1.5, 6000}},
				Compactions: []XY{},
				Clearings:   []XY{{1.5, 6000}},
			},
		},
		Levels: wantLevels,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ContextSeries(xTime):\n got %+v\nwant %+v", got, want)
	}
}

func TestContextSeriesEmpty(t *testing.T) {
	want := ContextData{Lines: []ContextLine{}, Levels: []Level{}}
	if got := ContextSeries(nil, false); !reflect.DeepEqual(got, want) {
		t.Errorf("no runs: got %+v, want %+v", got, want)
	}
	// A run without limits (window 0) has no levels.
	got := ContextSeries([]*simulate.Result{{Policy: "observed"}}, false)
	want = ContextData{Lines: []ContextLine{{Policy: "observed", Points: []XY{}, Compactions: []XY{}, Clearings: []XY{}}}, Levels: []Level{}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("no limits: got %+v, want %+v", got, want)
	}
}

func TestCacheSeries(t *testing.T) {
	run := &simulate.Result{Policy: "observed", Calls: []simulate.CallResult{
		{Call: 1, Input: 100, Write5m: 2000, Read: 0},
		{Call: 2, Input: 50, Write5m: 300, Write1h: 200, Read: 10_000}, // rise: no break
		{Call: 3, Input: 10, Write1h: 4000, Read: 7000},                // drop 3,000 > 500 (5%) and > 2,000: break
		{Call: 4, Read: 5500},                                          // drop 1,500 > 350 but ≤ 2,000: no break
		{Call: 5, Read: 100_000},                                       // rise
		{Call: 6, Read: 96_000},                                        // drop 4,000 > 2,000 but ≤ 5,000 (5%): no break
		{Call: 7, Read: 90_000},                                        // drop 6,000 > 4,800 (5%) and > 2,000: break
		{Call: 8, Read: 40_000},                                        // drop 50,000: break
		{Call: 9, Read: 38_000},                                        // drop 2,000 = 5% = 2,000 exactly: no break (strict)
	}}
	got := CacheSeries(run)
	want := CacheData{
		Policy: "observed",
		Calls: []CacheCall{
			{Call: 1, Uncached: 100, Write: 2000, Read: 0},
			{Call: 2, Uncached: 50, Write: 500, Read: 10_000}, // 300 + 200
			{Call: 3, Uncached: 10, Write: 4000, Read: 7000},
			{Call: 4, Read: 5500},
			{Call: 5, Read: 100_000},
			{Call: 6, Read: 96_000},
			{Call: 7, Read: 90_000},
			{Call: 8, Read: 40_000},
			{Call: 9, Read: 38_000},
		},
		Breaks: []int{3, 7, 8},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CacheSeries:\n got %+v\nwant %+v", got, want)
	}
	empty := CacheSeries(&simulate.Result{Policy: "none"})
	if len(empty.Calls) != 0 || empty.Calls == nil || empty.Breaks == nil || len(empty.Breaks) != 0 {
		t.Errorf("empty run: got %+v, want empty non-nil slices", empty)
	}
}

func TestCostSeries(t *testing.T) {
	runs := []*simulate.Result{
		{Policy: "claude-code", Calls: []simulate.CallResult{
			{Call: 1, Cost: 0.10, Priced: true},
			{Call: 2, Cost: 0.25, Priced: true},
			{Call: 3, Cost: 0, Priced: false},
			{Call: 4, Cost: 0.05, Priced: true},
		}, Summaries: []simulate.SummaryCall{
			// Out of order on purpose: CostSeries sorts by BeforeCall.
			{BeforeCall: 4, Cost: 0.02},
			{BeforeCall: 2, Cost: 0.03},
			{BeforeCall: 9, Cost: 0.001}, // after the last call
		}},
		{Policy: "none", Summaries: []simulate.SummaryCall{{BeforeCall: 1, Cost: 0.5}}},
	}
	got := CostSeries(runs)
	want := CostData{Lines: []CostLine{
		{
			Policy: "claude-code",
			Points: []XY{
				{1, 0.10}, // 0.10
				{2, 0.38}, // 0.10 + 0.03 (summary before call 2) + 0.25
				{3, 0.38}, // unpriced, $0
				// 0.38 + 0.02 (summary before call 4) + 0.05 = 0.45, and
				// the summary before call 9 lands on the last point:
				// 0.45 + 0.001 = 0.451.
				{4, 0.451},
			},
			Total:    0.451,
			Unpriced: 1,
		},
		// No calls: no points, but the summarizer still costs.
		{Policy: "none", Points: []XY{}, Total: 0.5},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CostSeries:\n got %+v\nwant %+v", got, want)
	}
	// The input's summaries keep their order.
	if runs[0].Summaries[0].BeforeCall != 4 {
		t.Errorf("CostSeries reordered the run's summaries: %+v", runs[0].Summaries)
	}
}

func tokenInput() accounting.Tokens {
	return accounting.Tokens{Total: 1100, Rows: []accounting.TokenRow{
		{Category: accounting.CatHuman, Tokens: 100},
		{Category: accounting.CatOther, Tokens: 100},
		{Category: accounting.CatToolRequest, Name: "Read", Tokens: 30},
		{Category: accounting.CatToolResult, Name: "Read", Tokens: 400},
		{Category: accounting.CatToolRequest, Name: "Edit", Tokens: 200},
		{Category: accounting.CatToolResult, Name: "Edit", Tokens: 20},
		{Category: accounting.CatToolResult, Name: "", Tokens: 50}, // no name: "unknown"
		{Category: accounting.CatAttachment, Name: "file", Tokens: 150},
		{Category: accounting.CatAttachment, Name: "hook", Tokens: 50},
	}}
}

func TestTokenBars(t *testing.T) {
	got := TokenBars(tokenInput(), 0) // 0: DefaultTop, nothing folded
	want := TokenData{
		Total: 1100,
		Categories: BarData{Segments: []string{SegTokens}, Bars: []Bar{
			{"tool_result", []int64{470}},  // 400 + 20 + 50
			{"tool_request", []int64{230}}, // 30 + 200
			{"attachment", []int64{200}},   // 150 + 50
			{"human", []int64{100}},        // tie with other: by name
			{"other", []int64{100}},
		}},
		Tools: BarData{Segments: []string{SegRequest, SegResult}, Bars: []Bar{
			{"Read", []int64{30, 400}},  // 430
			{"Edit", []int64{200, 20}},  // 220
			{"unknown", []int64{0, 50}}, // 50
		}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("TokenBars(top 0):\n got %+v\nwant %+v", got, want)
	}

	got = TokenBars(tokenInput(), 2) // keep 1 row, fold the rest into the 2nd
	want = TokenData{
		Total: 1100,
		Categories: BarData{Segments: []string{SegTokens}, Bars: []Bar{
			{"tool_result", []int64{470}},
			{"4 more categories", []int64{630}}, // 230 + 200 + 100 + 100
		}, Folded: 4},
		Tools: BarData{Segments: []string{SegRequest, SegResult}, Bars: []Bar{
			{"Read", []int64{30, 400}},
			{"2 more tools", []int64{200, 70}}, // (200+0, 20+50)
		}, Folded: 2},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("TokenBars(top 2):\n got %+v\nwant %+v", got, want)
	}
	if b := (Bar{Parts: []int64{200, 70}}); b.Total() != 270 {
		t.Errorf("Bar.Total = %d, want 270", b.Total())
	}

	empty := TokenBars(accounting.Tokens{}, 0)
	if empty.Categories.Bars == nil || len(empty.Categories.Bars) != 0 || len(empty.Tools.Bars) != 0 {
		t.Errorf("no rows: got %+v", empty)
	}
}

const longPath = "/home/someone/projects/deeply/nested/directory/structure/file_name.go"

func dupInput() []accounting.DuplicateRead {
	return []accounting.DuplicateRead{
		{Path: "/p/a.go", Reads: 3, WasteTokens: 500, Overhead: 800},
		{Path: "/p/c.go", Reads: 2, WasteTokens: 0, Overhead: 300},
		{Path: longPath, Reads: 4, WasteTokens: 100, Overhead: 100},
		{Path: "/p/b.go", Offset: 10, Limit: 50, Reads: 2, WasteTokens: 500, Overhead: 900},
	}
}

func TestDuplicateBars(t *testing.T) {
	got := DuplicateBars(dupInput(), 0)
	want := DuplicateData{Bars: []DuplicateBar{
		// Waste ties at 500: the larger overhead (900) first.
		{Label: "/p/b.go [10+50]", Path: "/p/b.go", Offset: 10, Limit: 50, Reads: 2, WasteTokens: 500, Overhead: 900},
		{Label: "/p/a.go", Path: "/p/a.go", Reads: 3, WasteTokens: 500, Overhead: 800},
		// 70 characters > MaxLabel 40: whole components from the right
		// while they fit with "…/": "directory/structure/file_name.go"
		// is 32 (+2 = 34 ≤ 40); adding "nested/" makes 39 (+2 = 41).
		{Label: "…/directory/structure/file_name.go", Path: longPath, Reads: 4, WasteTokens: 100, Overhead: 100},
		{Label: "/p/c.go", Path: "/p/c.go", Reads: 2, WasteTokens: 0, Overhead: 300},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("DuplicateBars(top 0):\n got %+v\nwant %+v", got, want)
	}
	got = DuplicateBars(dupInput(), 2)
	want.Bars, want.More = want.Bars[:2], 2
	if !reflect.DeepEqual(got, want) {
		t.Errorf("DuplicateBars(top 2):\n got %+v\nwant %+v", got, want)
	}
	if got := DuplicateBars(nil, 0); got.Bars == nil || len(got.Bars) != 0 || got.More != 0 {
		t.Errorf("no duplicates: got %+v", got)
	}
}

func TestShortenPath(t *testing.T) {
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{"a/b.go", 10, "a/b.go"}, // fits
		{"a/b.go", 6, "a/b.go"},  // exactly max
		// 30 > 16: "file.go" (7+2), "pkg/file.go" (11+2 ≤ 16),
		// "project/pkg/file.go" (19+2 > 16) stops.
		{"/home/user/project/pkg/file.go", 16, "…/pkg/file.go"},
		// The last component alone (19+2 > 10) keeps its last 9 runes.
		{"dir/a_very_long_name.go", 10, "…g_name.go"},
		// max below 4 counts as 4: "…" + last 3.
		{"abcdefgh", 1, "…fgh"},
		// Backslash paths: `y\z.js` is 6+2 = 8 ≤ 8; `x\y\z.js` 8+2 > 8.
		{`C:\x\y\z.js`, 8, `…\y\z.js`},
		// Runes, not bytes: 5 runes fit in 5.
		{"é/ü/ö", 5, "é/ü/ö"},
	} {
		if got := ShortenPath(c.in, c.max); got != c.want {
			t.Errorf("ShortenPath(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
	}
}

func TestThousands(t *testing.T) {
	for _, c := range []struct {
		v    float64
		dec  int
		want string
	}{
		{0, 0, "0"},
		{999, 0, "999"},
		{1000, 0, "1,000"},
		{123456, 0, "123,456"},
		{1234567.5, 1, "1,234,567.5"},
		{-1234.5, 2, "-1,234.50"},
		{0.25, 2, "0.25"},
		{-0.001, 2, "0.00"}, // rounds to zero: no minus sign
		{1e9, 0, "1,000,000,000"},
	} {
		if got := Thousands(c.v, c.dec); got != c.want {
			t.Errorf("Thousands(%v, %d) = %q, want %q", c.v, c.dec, got, c.want)
		}
	}
}

func TestFormatFor(t *testing.T) {
	for name, want := range map[string]string{
		"context.png":   "png",
		"dir/CACHE.SVG": "svg",
		"a.b/cost.Png":  "png",
		"x/tokens.svg":  "svg",
	} {
		got, err := FormatFor(name)
		if err != nil || got != want {
			t.Errorf("FormatFor(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
	for _, name := range []string{"plot.pdf", "plot", "png", "plot.png.txt", ""} {
		got, err := FormatFor(name)
		if err == nil {
			t.Errorf("FormatFor(%q) = %q, want an error", name, got)
			continue
		}
		if name != "" && !strings.Contains(err.Error(), name) {
			t.Errorf("FormatFor(%q) error %q does not name the file", name, err)
		}
	}
}
