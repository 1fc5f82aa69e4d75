package metric

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/paired"
)

// TestList: every field of Metrics is a metric with a unit and a
// meaning, named as its JSON, and Value reads it.
func TestList(t *testing.T) {
	list := List()
	if n := reflect.TypeFor[simulate.Metrics]().NumField(); len(list) != n || len(metricInfo) != n {
		t.Fatalf("%d metrics, %d described, %d fields", len(list), len(metricInfo), n)
	}
	m := simulate.Metrics{Calls: 7, TotalCost: 1.25, CacheHitRatio: 0.5, OutputLowerBound: true}
	want := map[string]float64{"calls": 7, "total_cost_usd": 1.25, "cache_hit_ratio": 0.5, "output_lower_bound": 1, "overflows": 0}
	for _, mt := range list {
		if mt.Unit == unitUnlisted || mt.Doc == "" {
			t.Errorf("metric %q has no row in metricInfo", mt.Name)
		}
		if w, ok := want[mt.Name]; ok && mt.Value(&m) != w {
			t.Errorf("%s = %v, want %v", mt.Name, mt.Value(&m), w)
		}
	}
	if mt, err := Lookup("peak_context"); err != nil || mt.Unit != Tokens {
		t.Errorf("Lookup(peak_context) = %+v, %v", mt, err)
	}
	if _, err := Lookup("peak"); err == nil || !strings.Contains(err.Error(), "total_cost_usd") {
		t.Errorf("Lookup(peak): %v", err)
	}
}

// TestUnitText: each unit in the one style people read.
func TestUnitText(t *testing.T) {
	for _, c := range []struct {
		u    Unit
		v    float64
		want string
	}{
		{USD, 2.5, "$2.50"},
		{USD, 192.759077, "$192.76"},
		{Ratio, 0.875, "87.5%"},
		{Tokens, 24663, "24,663"},
		{Tokens, -1789269, "-1,789,269"},
		// A count is whole wherever a person reads it: a mean over
		// sessions, or a bound a percentage puts between two counts.
		{Tokens, 2.5, "3"},
		{Tokens, 2409045.1, "2,409,045"},
		{Tokens, -31247.9, "-31,248"},
		{Calls, 7.4, "7"},
		{Count, 3, "3"},
		{Tokens, 1e16, "10,000,000,000,000,000.00"},
	} {
		if got := c.u.Text(c.v); got != c.want {
			t.Errorf("%s.Text(%v) = %q, want %q", c.u, c.v, got, c.want)
		}
	}
}

// TestSummed: Summed says which totals are the sessions' sum, checked
// against simulate.SumMetrics on two sessions whose every field differs.
func TestSummed(t *testing.T) {
	var a, b simulate.Metrics
	va, vb := reflect.ValueOf(&a).Elem(), reflect.ValueOf(&b).Elem()
	for i := range va.NumField() {
		switch f := va.Field(i); f.Kind() {
		case reflect.Int, reflect.Int64:
			f.SetInt(int64(3 + i))
			vb.Field(i).SetInt(int64(100 + 7*i))
		case reflect.Float64:
			f.SetFloat(0.25 + float64(i)/64) // exact in binary: no rounding in the sum
			vb.Field(i).SetFloat(0.5 + float64(i)/32)
		case reflect.Bool:
			f.SetBool(true)
			vb.Field(i).SetBool(true)
		}
	}
	sum := simulate.SumMetrics([]simulate.Metrics{a, b})
	for _, mt := range List() {
		if got := mt.Value(&sum) == mt.Value(&a)+mt.Value(&b); got != mt.Summed {
			t.Errorf("%s: total is the sum: %v; Summed %v", mt.Name, got, mt.Summed)
		}
	}
}

// TestRunValue: a run's measure as compare's statistics read it; a cost
// with unpriced calls and a figure of the transcript alone have none.
func TestRunValue(t *testing.T) {
	run := simulate.Metrics{CacheWrite5m: 3, CacheWrite1h: 4, TotalCost: 2.5, Cost: 2, AgentsUnpriced: 1}
	for _, c := range []struct {
		name string
		v    float64
		ok   bool
	}{
		{"cache_write", 7, true},
		{"cost_usd", 2, true},        // the main thread's calls are all priced
		{"total_cost_usd", 0, false}, // a sub-agent's call is not
		{"duplicate_read_waste_tokens", 0, false},
	} {
		m, err := LookupMeasure(c.name)
		if err != nil {
			t.Fatal(err)
		}
		if v, ok := m.RunValue(&run); v != c.v || ok != c.ok {
			t.Errorf("%s: %v, %v; want %v, %v", c.name, v, ok, c.v, c.ok)
		}
	}
}

// TestCompareAll: a dollar measure's totals are rounded as costs are, a
// token measure's are not, and a value RunValue does not know leaves its
// session out.
func TestCompareAll(t *testing.T) {
	cost, _ := Lookup("total_cost_usd")
	peak, _ := Lookup("peak_context")
	priced := simulate.Metrics{TotalCost: 0.1000004, PeakContext: 3}
	unpriced := simulate.Metrics{TotalCost: 5, Unpriced: 1, PeakContext: 4}
	if v := cost.PairValue(&unpriced); !math.IsNaN(v) {
		t.Errorf("PairValue of an unpriced cost = %v, want NaN", v)
	}
	if v := peak.PairValue(&unpriced); v != 4 {
		t.Errorf("PairValue(peak) = %v, want 4", v)
	}
	base := []float64{cost.PairValue(&priced), cost.PairValue(&unpriced)}
	runs := []float64{0.2000004, 7}
	out := CompareAll([]paired.Pair{{Baseline: base, Values: runs}, {Baseline: []float64{0.5000004}, Values: []float64{1.2500004}}},
		[]Metric{cost, peak}, paired.Options{Resamples: -1})
	if st := out[0]; st.Sessions != 1 || st.BaselineTotal != 0.1 || st.Total != 0.2 {
		t.Errorf("cost: %d sessions, totals %v → %v; want 1, 0.1 → 0.2", st.Sessions, st.BaselineTotal, st.Total)
	}
	if st := out[1]; st.BaselineTotal != 0.5000004 || st.Total != 1.2500004 {
		t.Errorf("peak: totals %v → %v, want them unrounded", st.BaselineTotal, st.Total)
	}
}

// TestMeasures: the measures are the run's metrics, then the three no
// field holds, each read from the run or the recorded figures.
func TestMeasures(t *testing.T) {
	ms := Measures()
	if len(ms) != len(List())+3 {
		t.Fatalf("%d measures, want %d", len(ms), len(List())+3)
	}
	rec := &Recorded{BreakCost: 1.5, DuplicateWaste: 40, BreakUnpriced: 2}
	run := &simulate.Metrics{CacheWrite5m: 3, CacheWrite1h: 4, Unpriced: 1, AgentsUnpriced: 5}
	for _, c := range []struct {
		name     string
		v        float64
		unpriced int
		recorded bool
	}{
		{"cache_write", 7, 0, false},
		{"cache_break_cost_usd", 1.5, 2, true},
		{"duplicate_read_waste_tokens", 40, 0, true},
		{"cost_usd", 0, 1, false},
		{"summarizer_cost_usd", 0, 1, false},
		{"agents_cost_usd", 0, 5, false},
		{"total_cost_usd", 0, 6, false},
		{"peak_context", 0, 0, false},
	} {
		m, err := LookupMeasure(c.name)
		if err != nil {
			t.Fatal(err)
		}
		if v, n := m.ValueOf(rec, run), m.Unpriced(rec, run); v != c.v || n != c.unpriced || m.RecordedOnly != c.recorded {
			t.Errorf("%s: value %v, unpriced %d, recorded only %v; want %v, %d, %v", c.name, v, n, m.RecordedOnly, c.v, c.unpriced, c.recorded)
		}
	}
	if m, _ := LookupMeasure("cache_break_cost_usd"); m.Value(run) != 0 || m.Unpriced(nil, run) != 0 {
		t.Errorf("cache_break_cost_usd without recorded figures: %v, %d unpriced; want 0, 0", m.Value(run), m.Unpriced(nil, run))
	}
	if _, err := LookupMeasure("cache"); err == nil || !strings.Contains(err.Error(), `unknown measure "cache"`) || !strings.Contains(err.Error(), "duplicate_read_waste_tokens") {
		t.Errorf("LookupMeasure(cache): %v", err)
	}
	if _, err := Lookup("cache_write"); err == nil {
		t.Error("Lookup(cache_write): a measure no run field holds is not a metric of a run")
	}
}
