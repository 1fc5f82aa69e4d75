package plotdata

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/internal/numstat"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate"
)

// XY is one point of a series.
type XY struct{ X, Y float64 }

// Level is a horizontal reference line.
type Level struct {
	Name   string
	Tokens int64
}

// Names of the context plot's levels, in ContextData.Levels order.
const (
	LevelWindow    = "window"
	LevelThreshold = "auto-compact threshold"
	LevelWarning   = "warning"
)

// ContextData is the context plot's data: prompt tokens per call for every
// run, each run's compaction threshold, and the limits of the first run.
type ContextData struct {
	// XTime: X is active hours since the session's first call (idle gaps
	// over IdleGap cut to IdleShown); otherwise the call's 1-based number
	// in the main thread.
	XTime bool
	Lines []ContextLine
	// Levels are the first run's window and warning level, and Claude
	// Code's auto-compact threshold when no run has a threshold of its own
	// (Thresholds is empty); none without calls.
	Levels []Level
	// Thresholds are the runs' compaction thresholds
	// (simulate.Result.CompactAt), each value once, in the order of the
	// first run that has it.
	Thresholds []Threshold
	// Gaps are the idle gaps cut from the time axis, in time order.
	Gaps []IdleCut
}

// Threshold is a compaction threshold and the runs that compact at it.
type Threshold struct {
	Tokens int64
	Runs   []int // indexes in ContextData.Lines, ascending
}

// IdleCut is an idle gap cut from the time axis.
type IdleCut struct {
	X     float64 // the middle of the cut on the axis
	Hours float64 // how long the session was idle
}

// A session left overnight would leave a time axis with its calls crowded
// at both ends: between two calls further apart than IdleGap the axis
// shows IdleShown, marked as a cut.
const (
	IdleGap   = time.Hour
	IdleShown = 15 * time.Minute
)

// timeAxis maps the runs' call times to X: hours since the earliest, with
// idle gaps cut.
func timeAxis(runs []*simulate.Result) (map[int64]float64, []IdleCut) {
	var ts []int64
	for _, r := range runs {
		for _, c := range r.Calls {
			if t, ok := callTime(c.Time); ok {
				ts = append(ts, t.UnixMilli())
			}
		}
	}
	slices.Sort(ts)
	ts = slices.Compact(ts)
	x := make(map[int64]float64, len(ts))
	var cuts []IdleCut
	at := 0.0
	for i, t := range ts {
		if i > 0 {
			gap := time.Duration(t-ts[i-1]) * time.Millisecond
			if gap > IdleGap {
				cuts = append(cuts, IdleCut{X: at + IdleShown.Hours()/2, Hours: gap.Hours()})
				gap = IdleShown
			}
			at += gap.Hours()
		}
		x[t] = at
	}
	return x, cuts
}

// ContextLine is one run's context.
type ContextLine struct {
	Policy string
	// Points are (x, prompt tokens) per call.
	Points []XY
	// Compactions are the points of calls a compaction (real or simulated)
	// came just before (CallResult.Compacted).
	Compactions []XY
	// Clearings are the points of calls content was cleared or dropped
	// just before (CallResult.Cleared): a policy's clearing, dropping or
	// micro-compaction, or, in the observed run, a real micro-compaction.
	Clearings []XY
	// Same are the indexes (in ContextData.Lines, ascending) of the other
	// runs whose Points equal this run's exactly: drawn alike, their lines
	// would hide each other. Nil when there are none.
	Same []int
}

// callTime is a CallResult.Time at the whole second the reports show; ok
// is false when there is none.
func callTime(t replay.Time) (time.Time, bool) {
	return t.Second().UTC(), t != 0
}

// ContextSeries extracts the context plot's data from runs over one session.
// With xTime, X is hours since the earliest call time of all runs, idle
// gaps over IdleGap cut to IdleShown (ContextData.Gaps), and calls without
// a time are left out.
func ContextSeries(runs []*simulate.Result, xTime bool) ContextData {
	d := ContextData{XTime: xTime, Lines: []ContextLine{}, Levels: []Level{}}
	var axis map[int64]float64
	if xTime {
		axis, d.Gaps = timeAxis(runs)
	}
	for _, r := range runs {
		l := ContextLine{Policy: r.Policy, Points: []XY{}, Compactions: []XY{}, Clearings: []XY{}}
		for _, c := range r.Calls {
			x := float64(c.Call)
			if xTime {
				t, ok := callTime(c.Time)
				if !ok {
					continue
				}
				x = axis[t.UnixMilli()]
			}
			p := XY{x, float64(c.Prompt)}
			l.Points = append(l.Points, p)
			if c.Compacted {
				l.Compactions = append(l.Compactions, p)
			}
			if c.Cleared {
				l.Clearings = append(l.Clearings, p)
			}
		}
		d.Lines = append(d.Lines, l)
	}
	points := make([][]XY, len(d.Lines))
	for i, l := range d.Lines {
		points[i] = l.Points
	}
	for i, same := range sameSeries(points) {
		d.Lines[i].Same = same
	}
	d.Thresholds = thresholds(runs)
	if len(runs) > 0 && runs[0].Limits.Window > 0 {
		lim := runs[0].Limits
		d.Levels = []Level{{LevelWindow, lim.Window}, {LevelThreshold, lim.Threshold}, {LevelWarning, lim.Warning}}
		if len(d.Thresholds) > 0 {
			d.Levels = slices.Delete(d.Levels, 1, 2)
		}
	}
	return d
}

// thresholds gathers the runs' compaction thresholds, each value once, in
// the order of the first run that has it.
func thresholds(runs []*simulate.Result) []Threshold {
	out := []Threshold{}
	at := map[int64]int{}
	for i, r := range runs {
		if r.CompactAt <= 0 {
			continue
		}
		k, ok := at[r.CompactAt]
		if !ok {
			k = len(out)
			at[r.CompactAt] = k
			out = append(out, Threshold{Tokens: r.CompactAt})
		}
		out[k].Runs = append(out[k].Runs, i)
	}
	return out
}

// sameSeries returns, for each series, the indexes of the other series
// whose points equal its own exactly (same length, same X and Y at each
// point); nil for a series no other equals.
func sameSeries(series [][]XY) [][]int {
	out := make([][]int, len(series))
	for i := range series {
		for j := range series {
			if i != j && slices.Equal(series[i], series[j]) {
				out[i] = append(out[i], j)
			}
		}
	}
	return out
}

// CacheData is the cache plot's data for one run.
type CacheData struct {
	Policy string
	Calls  []CacheCall
	// Breaks are the call numbers of the run's cache breaks under Claude
	// Code's default rule (simulate.CacheBreaks): the calls
	// simulate.Metrics.CacheBreaks counts.
	Breaks []int
}

// CacheCall is one call's prompt, split by how the cache served it.
type CacheCall struct {
	Call     int   // 1-based number in the main thread
	Uncached int64 // input after the last cache breakpoint
	Write    int64 // cache writes, 5 minute and 1 hour
	Read     int64 // cache reads
}

// CacheSeries extracts the cache plot's data from one run.
func CacheSeries(run *simulate.Result) CacheData {
	d := CacheData{Policy: run.Policy, Calls: make([]CacheCall, 0, len(run.Calls)), Breaks: []int{}}
	for _, c := range run.Calls {
		d.Calls = append(d.Calls, CacheCall{Call: c.Call, Uncached: c.Input, Write: c.Write5m + c.Write1h, Read: c.Read})
	}
	for _, i := range simulate.CacheBreaks(run.Calls, claudecode.DefaultBreakRule()) {
		d.Breaks = append(d.Breaks, run.Calls[i].Call)
	}
	return d
}

// CostData is the cost plot's data.
type CostData struct {
	Lines []CostLine
}

// CostLine is one run's cumulative cost in USD per call: the main thread's
// calls plus the summarizer's, each summarizer call added at the call it
// came before. Sub-agents are not included (the replay does not change
// them). Each point is the sum so far, rounded to a millionth of a
// dollar; the last point is Total, the run's Metrics.Cost.
type CostLine struct {
	Policy   string
	Points   []XY // (call number, cumulative USD after the call)
	Total    float64
	Unpriced int // calls without a price, counted as $0
	// LowerBound: the cost rests on placeholder output counts (the run's
	// cost metric is a lower bound).
	LowerBound bool
	// Same are the indexes (in CostData.Lines, ascending) of the other
	// runs whose Points equal this run's exactly; nil when there are none.
	Same []int
}

// CostSeries extracts the cost plot's data from runs over one session.
func CostSeries(runs []*simulate.Result) CostData {
	d := CostData{Lines: []CostLine{}}
	for _, r := range runs {
		l := CostLine{Policy: r.Policy, Points: make([]XY, 0, len(r.Calls))}
		sums := append([]simulate.SummaryCall(nil), r.Summaries...)
		sort.SliceStable(sums, func(i, j int) bool { return sums[i].BeforeCall < sums[j].BeforeCall })
		var cum float64
		k := 0
		for _, c := range r.Calls {
			for ; k < len(sums) && sums[k].BeforeCall <= c.Call; k++ {
				cum += sums[k].Cost
			}
			cum += c.Cost
			if !c.Priced {
				l.Unpriced++
			}
			l.Points = append(l.Points, XY{float64(c.Call), prices.RoundUSD(cum)})
		}
		// The total is the run's metric, which sums the calls' costs
		// before they are rounded: summing the rounded ones could differ by
		// a millionth and the legend disagree with the report.
		l.Total = r.Metrics.Cost
		l.LowerBound = r.Metrics.OutputLowerBound // as the cost_usd metric is
		if n := len(l.Points); n > 0 {
			l.Points[n-1].Y = l.Total
		}
		d.Lines = append(d.Lines, l)
	}
	points := make([][]XY, len(d.Lines))
	for i, l := range d.Lines {
		points[i] = l.Points
	}
	for i, same := range sameSeries(points) {
		d.Lines[i].Same = same
	}
	return d
}

// Bar is one row of a horizontal bar chart; Parts are its stacked
// segments in the order of the chart's Segments.
type Bar struct {
	Label string
	Parts []int64
}

// Total is the sum of the bar's parts.
func (b Bar) Total() int64 {
	var n int64
	for _, p := range b.Parts {
		n += p
	}
	return n
}

// BarData is a horizontal bar chart, rows top to bottom.
type BarData struct {
	Segments []string
	Bars     []Bar
	// Folded counts the rows summed into the last bar ("k more") because
	// of the top limit; 0 when none were.
	Folded int
}

// TokenData is the token accounting plot's data.
type TokenData struct {
	Total int64
	// Categories: one part, the category's tokens summed over its tools
	// and attachment types.
	Categories BarData
	// Tools: two parts, tool_request and tool_result tokens of each tool.
	Tools BarData
}

// Token segment names, as the token plot's legend and BarData.Segments give them.
const (
	SegmentTokens  = "category total"
	SegmentRequest = "tool_use input"
	SegmentResult  = "tool results"
)

// DefaultTop is the number of rows kept when a caller passes top ≤ 0.
const DefaultTop = 15

// TokenBars extracts the token accounting plot's data: categories sorted
// by tokens (then name), tools by request + result (then name). Beyond top
// rows, the rest are summed into a last row "k more".
func TokenBars(t accounting.Tokens, top int) TokenData {
	if top <= 0 {
		top = DefaultTop
	}
	cats := map[accounting.Category]int64{}
	tools := map[string][2]int64{}
	for _, r := range t.Rows {
		cats[r.Category] += int64(r.Tokens)
		name := r.Name
		if name == "" {
			name = "unknown"
		}
		switch r.Category {
		case accounting.CategoryToolRequest:
			v := tools[name]
			v[0] += int64(r.Tokens)
			tools[name] = v
		case accounting.CategoryToolResult:
			v := tools[name]
			v[1] += int64(r.Tokens)
			tools[name] = v
		}
	}
	d := TokenData{Total: int64(t.Total)}
	var cb []Bar
	for name, n := range cats {
		cb = append(cb, Bar{Label: string(name), Parts: []int64{n}})
	}
	d.Categories = foldBars(cb, []string{SegmentTokens}, top, "categories")
	var tb []Bar
	for name, v := range tools {
		tb = append(tb, Bar{Label: name, Parts: []int64{v[0], v[1]}})
	}
	d.Tools = foldBars(tb, []string{SegmentRequest, SegmentResult}, top, "tools")
	return d
}

// foldBars sorts bars by total (then label) and sums those beyond top into
// one last bar.
func foldBars(bars []Bar, segs []string, top int, what string) BarData {
	sort.Slice(bars, func(i, j int) bool {
		a, b := bars[i].Total(), bars[j].Total()
		if a != b {
			return a > b
		}
		return bars[i].Label < bars[j].Label
	})
	d := BarData{Segments: segs, Bars: bars}
	if d.Bars == nil {
		d.Bars = []Bar{}
	}
	if len(bars) > top {
		rest := Bar{Parts: make([]int64, len(segs))}
		for _, b := range bars[top-1:] {
			for i, p := range b.Parts {
				rest.Parts[i] += p
			}
		}
		d.Folded = len(bars) - (top - 1)
		rest.Label = fmt.Sprintf("%d more %s", d.Folded, what)
		d.Bars = append(bars[:top-1:top-1], rest)
	}
	return d
}

// DuplicateData is the duplicate reads plot's data.
type DuplicateData struct {
	Bars []DuplicateBar
	// More counts the rows left out by the top limit.
	More int
	// WasteTokens and Overhead sum every row, those left out included.
	WasteTokens, Overhead int
}

// DuplicateBar is one file (and read range) read more than once.
type DuplicateBar struct {
	// Label is the path, shortened from the left, then the range when
	// set (" [offset+limit]") and, in a corpus, the session's first 8
	// characters (" · 4a5c6ea5").
	Label       string
	Session     string
	Path        string
	Offset      int
	Limit       int
	Reads       int
	WasteTokens int
	Overhead    int
}

// maxLabel is the longest bar label, in characters, before a path is
// shortened from the left.
const maxLabel = 40

// DuplicateBars extracts the duplicate reads plot's data: the top rows by
// wasted tokens, then overhead (then path and range).
func DuplicateBars(dups []accounting.DuplicateRead, top int) DuplicateData {
	if top <= 0 {
		top = DefaultTop
	}
	rows := append([]accounting.DuplicateRead(nil), dups...)
	accounting.SortDuplicates(rows)
	d := DuplicateData{Bars: []DuplicateBar{}}
	for _, r := range rows {
		d.WasteTokens += r.WasteTokens
		d.Overhead += r.Overhead
	}
	if len(rows) > top {
		d.More = len(rows) - top
		rows = rows[:top]
	}
	for _, r := range rows {
		suffix := ""
		if r.Offset != 0 || r.Limit != 0 {
			suffix = fmt.Sprintf(" [%d+%d]", r.Offset, r.Limit)
		}
		if r.Session != "" { // a corpus row: name its session
			sid := []rune(r.Session)
			suffix += " · " + strings.TrimRight(string(sid[:min(8, len(sid))]), "-_.")
		}
		label := shortenPath(r.Path, maxLabel-utf8.RuneCountInString(suffix)) + suffix
		d.Bars = append(d.Bars, DuplicateBar{
			Label: label, Session: r.Session, Path: r.Path, Offset: r.Offset, Limit: r.Limit,
			Reads: r.Reads, WasteTokens: r.WasteTokens, Overhead: r.Overhead,
		})
	}
	return d
}

// shortenPath shortens a path longer than max characters from the left,
// keeping whole trailing components after "…/" ("…/pkg/file.go"); a last
// component that alone is too long keeps its end ("…ong_name.go").
func shortenPath(p string, max int) string {
	if max < 4 {
		max = 4
	}
	if utf8.RuneCountInString(p) <= max {
		return p
	}
	sep := "/"
	if !strings.Contains(p, "/") && strings.Contains(p, `\`) {
		sep = `\`
	}
	parts := strings.Split(p, sep)
	out := ""
	for i := len(parts) - 1; i >= 0; i-- {
		next := parts[i]
		if out != "" {
			next += sep + out
		}
		if utf8.RuneCountInString(next)+2 > max {
			break
		}
		out = next
	}
	if out == "" {
		r := []rune(p)
		return "…" + string(r[len(r)-(max-1):])
	}
	return "…" + sep + out
}

// PolicyCostData is the cost-by-policy plot's data: one bar per policy, in
// the order given.
type PolicyCostData struct {
	// Sessions is the number of sessions the metrics sum over.
	Sessions int
	Bars     []PolicyCost
}

// PolicyCost is one policy's cost over the whole input, in USD rounded to
// a millionth of a dollar.
type PolicyCost struct {
	Policy string
	// Main is the main thread's calls (Metrics.Cost − Metrics.SummarizerCost,
	// never below 0), Summarizer the summarizer's calls
	// (Metrics.SummarizerCost), Agents the sub-agents as observed
	// (Metrics.AgentsCost), Total all three (Metrics.TotalCost).
	Main, Summarizer, Agents, Total float64
	// DeltaPct is Total against the first policy's Total, in percent
	// rounded to 0.01 as compare's delta.total_cost_pct; nil for the
	// first bar or when the first Total is 0.
	DeltaPct *float64
	// Unpriced counts the calls without a price, main thread, summarizer
	// and sub-agents (Metrics.Unpriced + Metrics.AgentsUnpriced).
	Unpriced int
	// LowerBound: Total rests on placeholder output counts
	// (Metrics.TotalLowerBound).
	LowerBound bool
}

// PolicyCosts extracts the cost-by-policy plot's data from each policy's
// metrics summed over the input (policies[i] names ms[i]; beyond the
// shorter of the two, the rest is left out).
func PolicyCosts(policies []string, ms []simulate.Metrics, sessions int) PolicyCostData {
	n := min(len(policies), len(ms))
	d := PolicyCostData{Sessions: sessions, Bars: make([]PolicyCost, 0, n)}
	for i := 0; i < n; i++ {
		m := ms[i]
		b := PolicyCost{
			Policy:     policies[i],
			Main:       math.Max(prices.RoundUSD(m.Cost-m.SummarizerCost), 0),
			Summarizer: prices.RoundUSD(m.SummarizerCost),
			Agents:     prices.RoundUSD(m.AgentsCost),
			Total:      prices.RoundUSD(m.TotalCost),
			Unpriced:   m.Unpriced + m.AgentsUnpriced,
			LowerBound: m.TotalLowerBound(),
		}
		if i > 0 {
			// Rounded as report's compare deltas are (internal/numstat,
			// printed to 0.1), so that the plot and the table agree.
			if p, ok := numstat.Pct(b.Total-d.Bars[0].Total, d.Bars[0].Total); ok {
				if p == 0 {
					p = 0 // not −0
				}
				b.DeltaPct = &p
			}
		}
		d.Bars = append(d.Bars, b)
	}
	return d
}
