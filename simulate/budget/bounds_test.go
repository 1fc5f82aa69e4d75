package budget

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ctxlab/ctxlab/simulate"
)

// evaluateOne checks one limit over samples whose recorded cache writes are
// given (nil: none).
func evaluateOne(t *testing.T, limit string, peaks []int64, base []int64) *Outcome {
	t.Helper()
	f, err := Parse(strings.NewReader(`{"version": 1, "limits": [`+limit+`]}`), "b.json", time.Unix(0, 0), canon)
	if err != nil {
		t.Fatalf("%s: %v", limit, err)
	}
	samples := func(ps []int64) []Sample {
		var out []Sample
		for i, p := range ps {
			out = append(out, Sample{Session: string(rune('a' + i)), Runs: map[string]simulate.Metrics{"": {CacheWrite5m: p, Calls: 1}}})
		}
		return out
	}
	var baseline *Result
	if base != nil {
		baseline = Evaluate(f, "base.json", samples(base), nil)
	}
	return &Evaluate(f, "b.json", samples(peaks), baseline).Limits[0]
}

// Every bound holds at its exact value and breaks one unit past it.
func TestBoundsAtTheirValue(t *testing.T) {
	for _, c := range []struct {
		limit     string
		peaks     []int64
		base      []int64
		pass      bool
		inReasons string
	}{
		{`{"measure": "cache_write", "max": 100}`, []int64{40, 60}, nil, true, ""},
		{`{"measure": "cache_write", "max": 100}`, []int64{40, 61}, nil, false, "101 above max 100"},
		{`{"measure": "cache_write", "min": 100}`, []int64{40, 60}, nil, true, ""},
		{`{"measure": "cache_write", "min": 100}`, []int64{40, 59}, nil, false, "99 below min 100"},
		{`{"measure": "cache_write", "of": "session_max", "max": 60}`, []int64{40, 60}, nil, true, ""},
		{`{"measure": "cache_write", "of": "session_max", "max": 60}`, []int64{40, 61}, nil, false, "above max"},
		{`{"measure": "cache_write", "max_increase": 10}`, []int64{50, 60}, []int64{50, 50}, true, ""},
		{`{"measure": "cache_write", "max_increase": 10}`, []int64{50, 61}, []int64{50, 50}, false, "more than max_increase 10"},
		{`{"measure": "cache_write", "max_increase_pct": 10}`, []int64{50, 60}, []int64{50, 50}, true, ""},
		{`{"measure": "cache_write", "max_increase_pct": 10}`, []int64{50, 61}, []int64{50, 50}, false, "more than max_increase_pct 10%"},
		{`{"measure": "cache_write", "max_increase_pct": 0}`, []int64{0}, []int64{0}, true, ""},
		{`{"measure": "cache_write", "max_increase_pct": 0}`, []int64{1}, []int64{0}, false, "from a baseline of 0"},
		{`{"measure": "cache_write", "max_increase": 0}`, []int64{1}, []int64{0}, false, "more than max_increase 0"},
	} {
		o := evaluateOne(t, c.limit, c.peaks, c.base)
		got := strings.Join(o.Reasons, "; ")
		if o.Pass != c.pass || c.inReasons != "" && !strings.Contains(got, c.inReasons) {
			t.Errorf("%s over %v (baseline %v): pass %v, reasons %q; want %v, %q", c.limit, c.peaks, c.base, o.Pass, got, c.pass, c.inReasons)
		}
	}
}

// Every measure is in docs/gate.md's table, in order.
func TestMeasuresDocumented(t *testing.T) {
	b, err := os.ReadFile("../../docs/gate.md")
	if err != nil {
		t.Fatal(err)
	}
	pos := 0
	for _, m := range Measures() {
		i := strings.Index(string(b[pos:]), "| `"+m.Name+"` |")
		if i < 0 {
			t.Errorf("measure %s is not in docs/gate.md's table (or not in order)", m.Name)
			continue
		}
		pos += i
	}
}

// A ratio is undefined for a session without main-thread usage (an
// auxiliary transcript): it is left out of the aggregation, which says so,
// instead of counting as 0.
func TestRatioLeavesOutSessionsWithoutUsage(t *testing.T) {
	f, err := Parse(strings.NewReader(`{"version": 1, "limits": [{"measure": "cache_hit_ratio", "of": "session_mean", "min": 0.8}]}`), "b.json", time.Unix(0, 0), canon)
	if err != nil {
		t.Fatal(err)
	}
	used := simulate.Metrics{Calls: 3, Input: 10, CacheRead: 90, CacheHitRatio: 0.9}
	aux := simulate.Metrics{AgentsInput: 100, AgentsCacheRead: 900, TotalInput: 100, TotalCacheRead: 900}
	o := Evaluate(f, "b.json", []Sample{
		{Session: "a", Runs: map[string]simulate.Metrics{"": used}},
		{Session: "aux", Runs: map[string]simulate.Metrics{"": aux}},
	}, nil).Limits[0]
	if !o.Pass || o.Value == nil || *o.Value != 0.9 || o.Sessions != 1 || len(o.Reasons) != 1 ||
		o.Reasons[0] != "1 session without main-thread usage left out: cache_hit_ratio is undefined for them" {
		t.Errorf("outcome %+v (value %v)", o, o.Value)
	}
}
