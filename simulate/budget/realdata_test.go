package budget

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/internal/testcorpus"
	"github.com/ctxlab/ctxlab/internal/testcorpus/corpusload"
)

// realSamples measures every real session for f, and returns beside them
// each session's total cost as replay's usage report gives it (an
// independent path: accounting, not the observed run).
func realSamples(t *testing.T, f *File) ([]Sample, map[string]float64) {
	t.Helper()
	var out []Sample
	cost := map[string]float64{}
	for _, s := range corpusload.Sessions(t, testcorpus.Realdata) {
		rep := accounting.Analyze(s, accounting.Config{})
		smp, err := NewSample(s, rep, f, run)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, smp)
		cost[s.ID] = rep.Usage.Total.Cost
	}
	return out, cost
}

func mustParse(t *testing.T, js string) *File {
	t.Helper()
	f, err := Parse(strings.NewReader(js), "b.json", now, canon)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestRealdataAggregations: each aggregation of total_cost_usd on the real
// transcripts equals the same aggregation computed here from replay's
// per-session costs; a max at that value passes and one micro-dollar below
// it fails.
func TestRealdataAggregations(t *testing.T) {
	f := mustParse(t, `{"version":1,"limits":[{"measure":"total_cost_usd","max":1e9,"unpriced":"ignore"}]}`)
	samples, cost := realSamples(t, f)
	var vs []float64
	for _, c := range cost {
		vs = append(vs, c)
	}
	sort.Float64s(vs)
	n := len(vs)
	sum := 0.0
	for _, v := range vs {
		sum += v
	}
	want := map[Aggregation]float64{
		Total: sum, SessionMax: vs[n-1], SessionMean: sum / float64(n),
		Median: (vs[(n-1)/2] + vs[n/2]) / 2,
		P90:    vs[int(math.Ceil(0.9*float64(n)))-1], P99: vs[int(math.Ceil(0.99*float64(n)))-1],
	}
	for _, a := range aggregations {
		js := func(max float64) string {
			return fmt.Sprintf(`{"version":1,"limits":[{"measure":"total_cost_usd","of":%q,"max":%v,"unpriced":"ignore"}]}`, a, max)
		}
		res := Evaluate(mustParse(t, js(1e9)), "b.json", samples, nil)
		got := *res.Limits[0].Value
		if math.Abs(got-want[a]) > 2e-6 {
			t.Errorf("%s = %v, want %v", a, got, want[a])
		}
		if r := Evaluate(mustParse(t, js(got)), "b.json", samples, nil); !r.Pass || *r.Limits[0].Headroom != 0 {
			t.Errorf("%s: max at the value %v fails: %+v", a, got, r.Limits[0])
		}
		if r := Evaluate(mustParse(t, js(got-1e-6)), "b.json", samples, nil); r.Pass || r.Failed != 1 {
			t.Errorf("%s: max one micro-dollar below %v passes", a, got)
		}
	}
}

// TestRealdataPolicyAndBaseline: a limit under a policy reads that run; a
// baseline's value bounds the change both ways.
func TestRealdataPolicyAndBaseline(t *testing.T) {
	f := mustParse(t, `{"version":1,"limits":[
		{"name":"peak","measure":"peak_context","of":"session_max","max":1e9,"policy":"claude-code"},
		{"name":"tokens","measure":"cache_write","max":1e12,"max_increase":0},
		{"name":"breaks","measure":"cache_breaks","max_increase_pct":10}]}`)
	samples, _ := realSamples(t, f)
	var peak int64
	var writes float64
	for _, s := range samples {
		peak = max(peak, s.Runs["claude-code"].PeakContext)
		writes += float64(s.Runs[""].CacheWrite5m + s.Runs[""].CacheWrite1h)
	}
	// Without a baseline, the relative limit cannot be checked.
	first := Evaluate(f, "b.json", samples, nil)
	if *first.Limits[0].Value != float64(peak) || *first.Limits[1].Value != writes {
		t.Errorf("peak %v (want %d), cache_write %v (want %v)", *first.Limits[0].Value, peak, *first.Limits[1].Value, writes)
	}
	if first.Pass || first.Failed != 2 || !strings.Contains(first.Limits[2].Reasons[0], "need a baseline") {
		t.Errorf("no baseline: %+v", first)
	}
	// The same input against itself: no change, every limit holds.
	if r := Evaluate(f, "b.json", samples, first); !r.Pass || *r.Limits[1].Change != 0 {
		t.Errorf("against itself: %+v", r.Limits)
	}
	// One more token written than the baseline: max_increase 0 breaks; a
	// baseline 10% higher than now is a decrease, which passes.
	base := *first
	base.Limits = append([]Outcome(nil), first.Limits...)
	lower, higher := writes-1, *first.Limits[2].Value*1.1
	base.Limits[1].Value, base.Limits[2].Value = &lower, &higher
	r := Evaluate(f, "b.json", samples, &base)
	if r.Limits[1].Pass || *r.Limits[1].Change != 1 || !r.Limits[2].Pass || *r.Limits[2].ChangePct >= 0 {
		t.Errorf("against a moved baseline: %+v", r.Limits)
	}
}

// TestRealdataUnpriced: the real transcripts include deepseek calls, which
// have no price: a cost limit fails saying so, unless told to ignore them;
// a token limit is not affected; a selection that picks nothing fails.
func TestRealdataUnpriced(t *testing.T) {
	f := mustParse(t, `{"version":1,"limits":[
		{"measure":"total_cost_usd","max":1e9},
		{"name":"ignored","measure":"total_cost_usd","max":1e9,"unpriced":"ignore"},
		{"measure":"input","max":1e12},
		{"measure":"input","max":1e12,"project":"no-such-project"}]}`)
	samples, _ := realSamples(t, f)
	r := Evaluate(f, "b.json", samples, nil)
	want := []bool{false, true, true, false}
	for i, o := range r.Limits {
		if o.Pass != want[i] {
			t.Errorf("limit %d (%s): pass %v, want %v; %q", i, o.Limit, o.Pass, want[i], o.Reasons)
		}
	}
	if o := r.Limits[0]; o.Value != nil || !strings.Contains(o.Reasons[0], "models without a price") {
		t.Errorf("unpriced cost: %+v", o)
	}
	// Four sessions are Claude Code 2.1.9–2.1.41's, whose output counts are
	// placeholders: the cost is a lower bound, and a reason says so.
	if o := r.Limits[1]; o.Value == nil || len(o.Reasons) != 2 || !o.LowerBound ||
		o.Reasons[1] != "$169.30 is a lower bound: the output counts of 4 sessions are Claude Code 2.1.9–2.1.41 placeholders" {
		t.Errorf("ignored unpriced: %+v", o)
	}
	if o := r.Limits[2]; o.LowerBound {
		t.Errorf("input: a lower bound, %+v", o)
	}
	if o := r.Limits[3]; o.Sessions != 0 || o.Reasons[0] != "no session matches the limit" {
		t.Errorf("empty selection: %+v", o)
	}
	if len(r.Limits[2].Top) != 3 || r.Limits[2].Top[0].Value < r.Limits[2].Top[1].Value {
		t.Errorf("top contributors: %+v", r.Limits[2].Top)
	}
}
