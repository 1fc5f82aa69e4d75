package sweep

import (
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/metric"
)

// The limits on a grid's size hold at their value and refuse one more.
func TestGridLimits(t *testing.T) {
	if v, err := ParseVary("n=1..1000"); err != nil || len(v.Values) != MaxValues {
		t.Errorf("1..1000: %d values, %v", len(v.Values), err)
	}
	if _, err := ParseVary("n=1..1001"); err == nil || !strings.Contains(err.Error(), "more than 1000") {
		t.Errorf("1..1001: %v", err)
	}
	// A step of 0.1 lands on the end despite rounding; one past it does not.
	if v, err := ParseVary("x=0..0.3:0.1"); err != nil || strings.Join(v.Values, " ") != "0 0.1 0.2 0.3" {
		t.Errorf("0..0.3:0.1 = %v, %v", v.Values, err)
	}
	if v, err := ParseVary("x=1..1000:x10"); err != nil || strings.Join(v.Values, " ") != "1 10 100 1000" {
		t.Errorf("1..1000:x10 = %v, %v", v.Values, err)
	}
	if v, _ := ParseVary("x=1..999:x10"); strings.Join(v.Values, " ") != "1 10 100" {
		t.Errorf("1..999:x10 = %v", v.Values)
	}
	for in, want := range map[float64]string{3: "3", 2.5: "2.5", 0.30000000000000004: "0.3", 1000000.0000000001: "1000000"} {
		if got := formatValue(in); got != want {
			t.Errorf("formatValue(%v) = %q, want %q", in, got, want)
		}
	}
	// 100 × 100 points is MaxPoints: allowed; 101 × 100 is not.
	at := func(n int) error {
		_, err := Grid([]string{"a"}, []Vary{{Param: "n", Values: nums(n)}, {Param: "m", Values: nums(100)}}, fakePolicies{})
		return err
	}
	if err := at(100); err != nil {
		t.Errorf("10,000 points: %v", err)
	}
	if err := at(101); err == nil || !strings.Contains(err.Error(), "more than 10000 grid points") {
		t.Errorf("10,100 points: %v", err)
	}
}

func nums(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = formatValue(float64(i + 1))
	}
	return out
}

// Ties on the objective go by policy name; on the Pareto front, by the
// second metric, and a point equal to the last on the front on both is on
// it too.
func TestRankTies(t *testing.T) {
	cost, _ := metric.Lookup("total_cost_usd")
	peak, _ := metric.Lookup("peak_context")
	points := []Point{{Spec: "b"}, {Spec: "a"}, {Spec: "c"}, {Spec: "d"}}
	rows := []Row{
		{Point: 0, Metrics: simulate.Metrics{Calls: 1, TotalCost: 1, PeakContext: 50}},
		{Point: 1, Metrics: simulate.Metrics{Calls: 1, TotalCost: 1, PeakContext: 60}},
		{Point: 2, Metrics: simulate.Metrics{Calls: 1, TotalCost: 2, PeakContext: 40}},
		{Point: 3, Metrics: simulate.Metrics{Calls: 1, TotalCost: 2, PeakContext: 40}},
	}
	ts := Summarize(points, rows, cost, nil, []metric.Metric{cost, peak})
	var order, front []string
	for _, tt := range ts {
		order = append(order, tt.Policy)
		if tt.Pareto {
			front = append(front, tt.Policy)
		}
	}
	if strings.Join(order, " ") != "a b c d" {
		t.Errorf("ranked %v, want a b c d (ties by name)", order)
	}
	if strings.Join(front, " ") != "b c d" {
		t.Errorf("front %v, want b c d (a is beaten by b; c and d tie)", front)
	}
}
