package simulate

import (
	"reflect"
	"strings"
	"testing"
)

// TestSumMetricsEveryField fails when Metrics gains a field that
// the compare total does not add up.
func TestSumMetricsEveryField(t *testing.T) {
	var m Metrics
	v := reflect.ValueOf(&m).Elem()
	for i := 0; i < v.NumField(); i++ {
		switch f := v.Field(i); f.Kind() {
		case reflect.Int, reflect.Int64:
			f.SetInt(3)
		case reflect.Float64:
			f.SetFloat(0.25)
		case reflect.Bool:
			f.SetBool(true)
		default:
			t.Fatalf("Metrics.%s: kind %s; teach SumMetrics and this test", v.Type().Field(i).Name, f.Kind())
		}
	}
	// Each session's own ratio is not what the total's is (0.25, from the
	// sums): a copied ratio would show.
	m.CacheHitRatio = 0.9
	sum := reflect.ValueOf(SumMetrics([]Metrics{m, m}))
	for i := 0; i < sum.NumField(); i++ {
		name := sum.Type().Field(i).Name
		f := sum.Field(i)
		switch name {
		case "FirstCompaction":
			if f.Int() != 0 {
				t.Errorf("FirstCompaction = %d, want 0 in a total", f.Int())
			}
		case "PeakContext":
			if f.Int() != 3 {
				t.Errorf("PeakContext = %d, want the largest, 3", f.Int())
			}
		case "CacheHitRatio":
			// read 6 of input 6 + writes 6 + 6 + read 6.
			if f.Float() != 0.25 {
				t.Errorf("CacheHitRatio = %v, want 0.25 recomputed from the sums", f.Float())
			}
		case "OutputLowerBound":
			if !f.Bool() {
				t.Error("OutputLowerBound lost")
			}
		default:
			want := 6.0
			got := 0.0
			if f.Kind() == reflect.Float64 {
				want, got = 0.5, f.Float()
			} else {
				got = float64(f.Int())
			}
			if got != want {
				t.Errorf("%s = %v, want the sum %v (a new field SumMetrics ignores?)", name, got, want)
			}
		}
	}
}

// TestMetricList: every field of Metrics is a metric with a unit and a
// meaning, named as its JSON, and Value reads it.
func TestMetricList(t *testing.T) {
	list := MetricList()
	if n := reflect.TypeFor[Metrics]().NumField(); len(list) != n || len(metricInfo) != n {
		t.Fatalf("%d metrics, %d described, %d fields", len(list), len(metricInfo), n)
	}
	m := Metrics{Calls: 7, TotalCost: 1.25, CacheHitRatio: 0.5, OutputLowerBound: true}
	want := map[string]float64{"calls": 7, "total_cost_usd": 1.25, "cache_hit_ratio": 0.5, "output_lower_bound": 1, "overflows": 0}
	for _, mt := range list {
		if mt.Unit == unitUnlisted || mt.Doc == "" {
			t.Errorf("metric %q has no row in metricInfo", mt.Name)
		}
		if w, ok := want[mt.Name]; ok && mt.Value(&m) != w {
			t.Errorf("%s = %v, want %v", mt.Name, mt.Value(&m), w)
		}
	}
	if mt, err := LookupMetric("peak_context"); err != nil || mt.Unit != UnitTokens {
		t.Errorf("LookupMetric(peak_context) = %+v, %v", mt, err)
	}
	if _, err := LookupMetric("peak"); err == nil || !strings.Contains(err.Error(), "total_cost_usd") {
		t.Errorf("LookupMetric(peak): %v", err)
	}
}
