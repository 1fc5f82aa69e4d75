package budget

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/internal/testcorpus/corpusload"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/metric"
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
	for _, m := range metric.Measures() {
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

// Headroom is the distance to the nearest bound, in the measure's unit; a
// relative bound counts from the baseline. A count's headroom is whole:
// how many more it may have and pass, or (negative) how many fewer it must
// have, even where a percentage puts the bound between two counts.
func TestHeadroom(t *testing.T) {
	for _, c := range []struct {
		limit    string
		writes   []int64
		base     []int64
		headroom float64
	}{
		{`{"measure": "cache_write", "max": 100}`, []int64{90}, nil, 10},
		{`{"measure": "cache_write", "min": 50}`, []int64{90}, nil, 40},
		{`{"measure": "cache_write", "min": 50, "max": 100}`, []int64{60}, nil, 10},
		{`{"measure": "cache_write", "min": 50, "max": 100}`, []int64{95}, nil, 5},
		{`{"measure": "cache_write", "max": 100}`, []int64{130}, nil, -30},
		{`{"measure": "cache_write", "max_increase": 10}`, []int64{55}, []int64{50}, 5},
		{`{"measure": "cache_write", "max_increase_pct": 10}`, []int64{105}, []int64{100}, 5},
		{`{"measure": "cache_write", "max_increase_pct": 10, "max": 107}`, []int64{105}, []int64{100}, 2},
		{`{"measure": "cache_write", "max_increase": 3, "max_increase_pct": 10}`, []int64{101}, []int64{100}, 2},
		// 5,421 × 1.1 = 5,963.1: 5,963 passes, 5,964 does not.
		{`{"measure": "cache_write", "max_increase_pct": 10}`, []int64{5000}, []int64{5421}, 963},
		{`{"measure": "cache_write", "max_increase_pct": 10}`, []int64{37211}, []int64{5421}, -31248},
		{`{"measure": "cache_write", "max": 99.5}`, []int64{100}, nil, -1},
		{`{"measure": "cache_write", "min": 49.5}`, []int64{50}, nil, 0},
		// A mean over sessions is not whole; what it may grow by is.
		{`{"measure": "cache_write", "of": "session_mean", "max": 100}`, []int64{90, 91}, nil, 9},
	} {
		o := evaluateOne(t, c.limit, c.writes, c.base)
		if o.Headroom == nil || *o.Headroom != c.headroom {
			t.Errorf("%s over %v (baseline %v): headroom %v, want %v", c.limit, c.writes, c.base, o.Headroom, c.headroom)
		}
	}
	if o := evaluateOne(t, `{"measure": "cache_write", "max_increase": 10}`, []int64{55}, nil); o.Headroom != nil || o.Pass {
		t.Errorf("no baseline: headroom %v, pass %v", o.Headroom, o.Pass)
	}
}

// Top names the three sessions that weigh most, the largest first, or the
// smallest for a measure where higher is better bounded from below; ties
// by session.
func TestTop(t *testing.T) {
	o := evaluateOne(t, `{"measure": "cache_write", "max": 1000}`, []int64{5, 9, 7, 9, 1}, nil)
	var got []string
	for _, c := range o.Top {
		got = append(got, fmt.Sprintf("%s=%v", c.Session, c.Value))
	}
	if want := "b=9 d=9 c=7"; strings.Join(got, " ") != want {
		t.Errorf("top %v, want %s", got, want)
	}
	// Sessions whose value is 0 weigh nothing on a bound above.
	got = nil
	for _, c := range evaluateOne(t, `{"measure": "cache_write", "max": 1000}`, []int64{0, 4, 0}, nil).Top {
		got = append(got, fmt.Sprintf("%s=%v", c.Session, c.Value))
	}
	if want := "b=4"; strings.Join(got, " ") != want {
		t.Errorf("top with sessions weighing 0: %v, want %s", got, want)
	}
	f, err := Parse(strings.NewReader(`{"version": 1, "limits": [{"measure": "cache_hit_ratio", "of": "session_mean", "min": 0.1}]}`), "b.json", time.Unix(0, 0), canon)
	if err != nil {
		t.Fatal(err)
	}
	var ss []Sample
	for i, r := range []float64{0.9, 0.5, 0.7, 0.6} {
		ss = append(ss, Sample{Session: string(rune('a' + i)), Runs: map[string]simulate.Metrics{"": {Input: 1, CacheHitRatio: r}}})
	}
	got = nil
	for _, c := range Evaluate(f, "b.json", ss, nil).Limits[0].Top {
		got = append(got, c.Session)
	}
	if want := "b d c"; strings.Join(got, " ") != want {
		t.Errorf("top of a min limit on a higher-is-better measure %v, want %s", got, want)
	}
}

// A cost measure counts the calls it leaves out for want of a price: each
// measure its own (main thread, sub-agents, both, the recorded breaks).
func TestUnpricedByMeasure(t *testing.T) {
	m := simulate.Metrics{Calls: 1, Unpriced: 2, AgentsUnpriced: 3}
	for measure, want := range map[string]int{"cost_usd": 2, "summarizer_cost_usd": 2, "agents_cost_usd": 3, "total_cost_usd": 5, "cache_break_cost_usd": 7} {
		f, err := Parse(strings.NewReader(`{"version": 1, "limits": [{"measure": "`+measure+`", "max": 1}]}`), "b.json", time.Unix(0, 0), canon)
		if err != nil {
			t.Fatal(err)
		}
		o := Evaluate(f, "b.json", []Sample{{Session: "a", Runs: map[string]simulate.Metrics{"": m}, Recorded: metric.Recorded{BreakUnpriced: 7}}}, nil).Limits[0]
		if o.Pass || len(o.Reasons) != 1 || !strings.HasPrefix(o.Reasons[0], fmt.Sprintf("%d calls of models without a price", want)) {
			t.Errorf("%s: pass %v, reasons %q; want %d unpriced calls", measure, o.Pass, o.Reasons, want)
		}
	}
	f, _ := Parse(strings.NewReader(`{"version": 1, "limits": [{"measure": "total_cost_usd", "max": 1, "unpriced": "ignore"}]}`), "b.json", time.Unix(0, 0), canon)
	o := Evaluate(f, "b.json", []Sample{{Session: "a", Runs: map[string]simulate.Metrics{"": m}}}, nil).Limits[0]
	if !o.Pass || len(o.Reasons) != 1 || !strings.Contains(o.Reasons[0], "5 calls of models without a price are left out") {
		t.Errorf("ignored: pass %v, reasons %q", o.Pass, o.Reasons)
	}
	// A token measure has no price to miss.
	f, _ = Parse(strings.NewReader(`{"version": 1, "limits": [{"measure": "total_input", "max": 1}]}`), "b.json", time.Unix(0, 0), canon)
	if o := Evaluate(f, "b.json", []Sample{{Session: "a", Runs: map[string]simulate.Metrics{"": m}}}, nil).Limits[0]; !o.Pass || len(o.Reasons) != 0 {
		t.Errorf("tokens: pass %v, reasons %q", o.Pass, o.Reasons)
	}
}

// NewSample keeps the recorded run under "" and each policy under its
// spec, the priced breaks' cost, the unpriced breaks, and the duplicate
// reads' waste.
func TestNewSample(t *testing.T) {
	s := corpusload.Path(t, "../../fixtures/testdata/projects/-home-dev-demo")[0]
	rep := &accounting.Report{
		CacheBreaks: []accounting.CacheBreak{{Cost: 0.5, Priced: true}, {Cost: 0.25, Priced: true}, {Priced: false}},
		Duplicates:  []accounting.DuplicateRead{{WasteTokens: 100}, {WasteTokens: 20}},
	}
	f, err := Parse(strings.NewReader(`{"version": 1, "limits": [{"measure": "peak_context", "max": 1, "policy": "keep-last-n:n=3"}]}`), "b.json", time.Unix(0, 0), canon)
	if err != nil {
		t.Fatal(err)
	}
	smp, err := NewSample(s, rep, f, func(_ *simulate.Trace, spec string) (simulate.Metrics, error) {
		return simulate.Metrics{Calls: len(spec)}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if smp.Session != s.ID || smp.Project != s.Project || smp.Start != s.Start() || smp.End != s.End() ||
		smp.BreakCost != 0.75 || smp.BreakUnpriced != 1 || smp.DuplicateWaste != 120 {
		t.Errorf("sample %+v", smp)
	}
	if len(smp.Runs) != 2 || smp.Runs[""].Calls != len("observed") || smp.Runs["keep-last-n:n=3"].Calls != len("keep-last-n:n=3") {
		t.Errorf("runs %+v", smp.Runs)
	}
	if _, err := NewSample(s, rep, f, func(*simulate.Trace, string) (simulate.Metrics, error) {
		return simulate.Metrics{}, errors.New("boom")
	}); err == nil {
		t.Error("a failed run: no error")
	}
}

// Reasons print values as people read them: dollars, percentages, counts
// with commas, and every digit only where rounding would hide the break.
func TestReasonNumbers(t *testing.T) {
	o := &Outcome{Unit: metric.USD}
	if a, b := o.pair(1.495029, 0.5); a != "$1.50" || b != "$0.50" {
		t.Errorf("dollars: %s, %s", a, b)
	}
	if a, b := o.pair(0.5004, 0.5); a != "0.5004" || b != "0.5" {
		t.Errorf("dollars that round alike: %s, %s", a, b)
	}
	o.Unit = metric.Ratio
	if got := o.num(0.85); got != "85.0%" {
		t.Errorf("ratio: %s", got)
	}
	o.Unit = metric.Tokens
	if got, got2 := o.num(5.969451e+06), o.num(1789269.45); got != "5,969,451" || got2 != "1,789,269" {
		t.Errorf("tokens: %s, %s", got, got2)
	}
	if a, b := o.pair(12000.4, 12000); a != "12000.4" || b != "12000" {
		t.Errorf("tokens that round alike: %s, %s", a, b)
	}
	r := evaluateOne(t, `{"measure": "cache_write", "max_increase_pct": 10}`, []int64{60000}, []int64{40000})
	if len(r.Reasons) != 1 || r.Reasons[0] != "up 50% from the baseline's 40,000, more than max_increase_pct 10%" {
		t.Errorf("reasons %q", r.Reasons)
	}
}

// TestUnpricedAdvice: the reason a cost limit fails for want of a price
// says where "unpriced": "ignore" goes. It said only `set "unpriced":
// "ignore"`, and a user who put it at the top of the budget, beside
// "version", got "unpriced: unknown field": it is each limit's.
func TestUnpricedAdvice(t *testing.T) {
	f, err := Parse(strings.NewReader(`{"version": 1, "limits": [{"measure": "total_cost_usd", "max": 1}]}`), "b.json", time.Unix(0, 0), canon)
	if err != nil {
		t.Fatal(err)
	}
	o := Evaluate(f, "b.json", []Sample{{Session: "a", Runs: map[string]simulate.Metrics{"": {Calls: 1, Unpriced: 2}}}}, nil).Limits[0]
	if len(o.Reasons) != 1 || !strings.Contains(o.Reasons[0], `set the limit's "unpriced": "ignore"`) {
		t.Errorf("reasons %q: want the advice to name the limit's field", o.Reasons)
	}
	if _, err := Parse(strings.NewReader(`{"version": 1, "unpriced": "ignore", "limits": [{"measure": "total_cost_usd", "max": 1}]}`), "b.json", time.Unix(0, 0), canon); err == nil {
		t.Error("a top-level unpriced was taken")
	}
}
