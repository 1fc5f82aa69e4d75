package report

import (
	"reflect"
	"testing"

	"github.com/ctxlab/ctxlab/simulate"
)

// TestSumMetricsEveryField fails when simulate.Metrics gains a field that
// the compare total does not add up.
func TestSumMetricsEveryField(t *testing.T) {
	var m simulate.Metrics
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
			t.Fatalf("Metrics.%s: kind %s; teach sumMetrics and this test", v.Type().Field(i).Name, f.Kind())
		}
	}
	// Each session's own ratio is not what the total's is (0.25, from the
	// sums): a copied ratio would show.
	m.CacheHitRatio = 0.9
	sum := reflect.ValueOf(sumMetrics([]simulate.Metrics{m, m}))
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
				t.Errorf("%s = %v, want the sum %v (a new field sumMetrics ignores?)", name, got, want)
			}
		}
	}
}

func TestDeltas(t *testing.T) {
	runs := []Run{
		{Policy: "a", Metrics: simulate.Metrics{TotalCost: 2, PeakContext: 1000}},
		{Policy: "b", Metrics: simulate.Metrics{TotalCost: 3.5, PeakContext: 400}},
	}
	setDeltas(runs)
	if d := runs[0].Delta; d.TotalCost != 0 || d.PeakContext != 0 || d.TotalCostPct == nil || *d.TotalCostPct != 0 {
		t.Errorf("baseline delta %+v, want zeros", d)
	}
	if d := runs[1].Delta; d.TotalCost != 1.5 || d.PeakContext != -600 || d.TotalCostPct == nil || *d.TotalCostPct != 75 {
		t.Errorf("delta %+v, want +1.5 USD, +75%%, -600 tokens", d)
	}
	free := []Run{{Metrics: simulate.Metrics{}}, {Metrics: simulate.Metrics{TotalCost: 1}}}
	setDeltas(free)
	if free[1].Delta.TotalCostPct != nil || free[1].Delta.TotalCost != 1 {
		t.Errorf("delta against a free baseline %+v: want no percentage", free[1].Delta)
	}
}

// TestFidelityMatch: the Match column for each kind of session.
func TestFidelityMatch(t *testing.T) {
	tab := fidelityTable([]Fidelity{
		{Session: "none"}, // never auto-compacted
		{Session: "earlier", RealAutoCompaction: 1},                           // before its first call
		{Session: "same", RealAutoCompaction: 5, SimulatedAutoCompaction: 5},  // claude-code agrees
		{Session: "other", RealAutoCompaction: 5, SimulatedAutoCompaction: 7}, // it does not
		{Session: "never", RealAutoCompaction: 5, SimulatedAutoCompaction: 0}, // claude-code never compacts
	})
	want := []string{"", "n/a", "yes", "no", "no"}
	for i, row := range tab.Rows {
		if got := row[len(row)-1]; got != want[i] {
			t.Errorf("%s: match %q, want %q", row[0], got, want[i])
		}
	}
}
