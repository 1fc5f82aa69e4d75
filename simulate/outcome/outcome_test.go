package outcome

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/replay"
)

const sonnet46 = "claude-sonnet-4-6"

// NewDelta: the differences of the total cost and of the peak context,
// and the cost's change as a percentage of the baseline's, to two places;
// none from a free baseline.
func TestDelta(t *testing.T) {
	pct := func(p float64) *float64 { return &p }
	tests := []struct {
		name    string
		base, m Metrics
		cost    float64
		pct     *float64
		peak    int64
	}{
		// +2 of 4: +50%; the peak 50,000 higher.
		{"dearer", Metrics{TotalCost: 4, PeakContext: 100_000}, Metrics{TotalCost: 6, PeakContext: 150_000}, 2, pct(50), 50_000},
		// −1 of 3: −33.333…% → −33.33; the peak 30,000 lower.
		{"cheaper", Metrics{TotalCost: 3, PeakContext: 100_000}, Metrics{TotalCost: 2, PeakContext: 70_000}, -1, pct(-33.33), -30_000},
		{"from a free baseline", Metrics{PeakContext: 1000}, Metrics{TotalCost: 1, PeakContext: 1000}, 1, nil, 0},
	}
	for _, tt := range tests {
		d := NewDelta(tt.base, tt.m)
		if d.TotalCost != tt.cost || d.PeakContext != tt.peak || (d.TotalCostPct == nil) != (tt.pct == nil) ||
			d.TotalCostPct != nil && *d.TotalCostPct != *tt.pct {
			got, want := "none", "none"
			if d.TotalCostPct != nil {
				got = fmt.Sprint(*d.TotalCostPct)
			}
			if tt.pct != nil {
				want = fmt.Sprint(*tt.pct)
			}
			t.Errorf("%s: cost %v, pct %s, peak %d; want %v, %s, %d", tt.name, d.TotalCost, got, d.PeakContext, tt.cost, want, tt.peak)
		}
	}
}

// The first call has no previous read to fall from: under a rule that
// flags any drop of more than 1%, its cold read of 0 is no break.
func TestFirstCallIsNoBreak(t *testing.T) {
	calls := []CallResult{
		{Model: sonnet46, Read: 0},
		{Model: sonnet46, Read: 5000},
		{Model: sonnet46, Read: 4000}, // 1,000 below: a break
	}
	got := CacheBreaks(calls, claudecode.BreakRule{BreakMinFraction: 0.01})
	if want := []int{2}; !slices.Equal(got, want) {
		t.Errorf("breaks %v, want %v", got, want)
	}
}

// CacheBreaks applies Claude Code's rule: a read more than 5% and more
// than 2,000 tokens below the previous call's, Haiku calls skipped.
func TestCacheBreaksRule(t *testing.T) {
	haiku := "claude-haiku-4-5-20251001"
	calls := []CallResult{
		{Model: sonnet46, Read: 100_000},
		{Model: haiku, Read: 0},             // skipped: neither a break nor the baseline
		{Model: sonnet46, Read: 97_000},     // 3,000 below, but 3% of 100,000: no break
		{Model: sonnet46, Read: 94_999},     // 2,001 and 2.06%: no break
		{Model: sonnet46, Read: 10_000},     // a break
		{Model: sonnet46, Read: 7_999},      // 2,001 and 20%: a break
		{Model: sonnet46, Read: 6_000},      // 1,999: no break
		{Model: "claude-opus-4-6", Read: 0}, // a model change breaks too
	}
	got := CacheBreaks(calls, claudecode.DefaultBreakRule())
	if want := []int{4, 5, 7}; !reflect.DeepEqual(got, want) {
		t.Errorf("breaks %v, want %v", got, want)
	}
	// Config.Breaks sets the thresholds: at 1% and 1,000 tokens the drops
	// of 3% (index 2), 2.06% (3) and 1,999 tokens (6) break as well.
	got = CacheBreaks(calls, claudecode.BreakRule{BreakMinFraction: 0.01, BreakMinTokens: 1000})
	if want := []int{2, 3, 4, 5, 6, 7}; !reflect.DeepEqual(got, want) {
		t.Errorf("breaks at 1%%/1,000 %v, want %v", got, want)
	}
}

// A run's usage is its main thread's and summarizer's; the session's
// totals add the sub-agents'; the totals are lower bounds when either
// output is.
func TestMetricsUsage(t *testing.T) {
	u := replay.Usage{Input: 1, CacheWrite5m: 20, CacheWrite1h: 300, CacheRead: 4000, Output: 50000}
	var m Metrics
	m.SetUsage(u)
	if got := m.Usage(); got != u {
		t.Fatalf("usage %+v, want %+v", got, u)
	}
	m.AgentsInput, m.AgentsCacheWrite5m, m.AgentsCacheWrite1h, m.AgentsCacheRead, m.AgentsOutput = 2, 30, 400, 5000, 60000
	m.SumTotals()
	if m.TotalInput != 3 || m.TotalCacheWrite5m != 50 || m.TotalCacheWrite1h != 700 || m.TotalCacheWrite != 750 ||
		m.TotalCacheRead != 9000 || m.TotalOutput != 110000 {
		t.Errorf("totals %+v", m)
	}
	for _, c := range []struct{ main, agents, want bool }{{false, false, false}, {true, false, true}, {false, true, true}, {true, true, true}} {
		m := Metrics{OutputLowerBound: c.main, AgentsOutputLowerBound: c.agents}
		if m.TotalLowerBound() != c.want {
			t.Errorf("lower bounds %v, %v: TotalLowerBound %v", c.main, c.agents, !c.want)
		}
	}
	// 1/3 to four places; no prompt, no ratio.
	if got := HitRatio(replay.Usage{Input: 2, CacheRead: 1}); got != 0.3333 {
		t.Errorf("hit ratio %v, want 0.3333", got)
	}
	if got := HitRatio(replay.Usage{Output: 5}); got != 0 {
		t.Errorf("hit ratio of no prompt %v", got)
	}
}

// A summarizer call writes at the run's lifetime: an hour or more is a
// 1-hour write, less a 5-minute one. A call's usage is its columns.
func TestCallUsage(t *testing.T) {
	sc := SummaryCall{Read: 100, Write: 20, Output: 3}
	if got, want := sc.Usage(time.Hour), (replay.Usage{CacheRead: 100, CacheWrite1h: 20, Output: 3}); got != want {
		t.Errorf("1-hour: %+v, want %+v", got, want)
	}
	if got, want := sc.Usage(time.Hour-time.Millisecond), (replay.Usage{CacheRead: 100, CacheWrite5m: 20, Output: 3}); got != want {
		t.Errorf("under an hour: %+v, want %+v", got, want)
	}
	c := CallResult{Input: 1, Write5m: 2, Write1h: 3, Read: 4, Output: 5}
	if got, want := c.Usage(), (replay.Usage{Input: 1, CacheWrite5m: 2, CacheWrite1h: 3, CacheRead: 4, Output: 5}); got != want {
		t.Errorf("call usage %+v, want %+v", got, want)
	}
}
