package outcome

import (
	"reflect"
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
		case "OutputLowerBound", "AgentsOutputLowerBound":
			if !f.Bool() {
				t.Errorf("%s lost", name)
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
