package metric

import (
	"reflect"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/simulate"
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
