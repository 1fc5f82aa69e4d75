package sweep

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/metric"
)

func TestParseVary(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"n=3,5,10", []string{"3", "5", "10"}},
		{"micro=size,time,off", []string{"size", "time", "off"}},
		{"pct=50..55", []string{"50", "51", "52", "53", "54", "55"}},
		{"pct=50..90:20", []string{"50", "70", "90"}},
		{"pct=50..95:20", []string{"50", "70", "90"}},
		{"x=0..0.3:0.1", []string{"0", "0.1", "0.2", "0.3"}},
		{"window=50000..400000:x2", []string{"50000", "100000", "200000", "400000"}},
		{"window=1000..5000:x3", []string{"1000", "3000"}},
		{"n=7..7", []string{"7"}},
	}
	for _, tt := range tests {
		v, err := ParseVary(tt.in)
		if err != nil || !reflect.DeepEqual(v.Values, tt.want) {
			t.Errorf("ParseVary(%q) = %q, %v; want %q", tt.in, v.Values, err, tt.want)
		}
	}
	for _, bad := range []string{"n", "=1,2", "n=", "n=1,,2", "n=1,1", "n=5..1", "n=a..b", "n=1..5:0", "n=1..5:-1",
		"n=1..5:x1", "n=0..5:x2", "n=1..5:y", "n=0..100000", "n=1..inf"} {
		if _, err := ParseVary(bad); err == nil {
			t.Errorf("ParseVary(%q): no error", bad)
		}
	}
}

// fakePolicies: "a" has n and m, "b" has n.
type fakePolicies struct{}

func (fakePolicies) Params(name string) ([]string, bool) {
	return map[string][]string{"a": {"n", "m"}, "b": {"n"}}[name], name == "a" || name == "b"
}

func (fakePolicies) Canon(spec string) (string, error) {
	if strings.HasPrefix(spec, "c") {
		return "", errorString("unknown policy c")
	}
	return spec, nil
}

type errorString string

func (e errorString) Error() string { return string(e) }

func TestGrid(t *testing.T) {
	n, _ := ParseVary("n=1,2")
	m, _ := ParseVary("m=x,y,z")
	ps, err := Grid([]string{"a:k=1", "b"}, []Vary{n, m}, fakePolicies{})
	if err != nil {
		t.Fatal(err)
	}
	var specs []string
	for _, p := range ps {
		specs = append(specs, p.Spec)
	}
	want := []string{"a:k=1,n=1,m=x", "a:k=1,n=1,m=y", "a:k=1,n=1,m=z", "a:k=1,n=2,m=x", "a:k=1,n=2,m=y", "a:k=1,n=2,m=z", "b:n=1", "b:n=2"}
	if !reflect.DeepEqual(specs, want) {
		t.Errorf("points %q, want %q", specs, want)
	}
	if !reflect.DeepEqual(ps[7].Values, map[string]string{"n": "2"}) {
		t.Errorf("b's point values %v", ps[7].Values)
	}
	q, _ := ParseVary("q=1,2")
	for _, tc := range []struct {
		bases  []string
		varies []Vary
		want   string
	}{
		{[]string{"b"}, []Vary{m}, `--vary m: no policy of b has a parameter "m"`},
		{[]string{"a"}, []Vary{q}, `no policy of a has a parameter "q"`},
		{[]string{"c"}, nil, "unknown policy c"},
		{[]string{"a"}, []Vary{n, n}, "--vary n given twice"},
		{[]string{"b", "b"}, []Vary{n}, "the grid gives b:n=1 twice"},
		{nil, nil, "no policy to sweep"},
	} {
		if _, err := Grid(tc.bases, tc.varies, fakePolicies{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Grid(%q): %v, want %q", tc.bases, err, tc.want)
		}
	}
}

// TestParetoBruteForce compares the front with the definition on random
// points, ties included.
func TestParetoBruteForce(t *testing.T) {
	cost, _ := metric.Lookup("total_cost_usd")
	hit, _ := metric.Lookup("cache_hit_ratio") // higher is better
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		n := 1 + r.IntN(30)
		var points []Point
		var rows []Row
		for i := 0; i < n; i++ {
			points = append(points, Point{Spec: string(rune('a'+i%26)) + strings.Repeat("'", i/26)})
			rows = append(rows, Row{Point: i, Metrics: simulate.Metrics{Calls: 1, TotalCost: float64(r.IntN(6)), CacheHitRatio: float64(r.IntN(6)) / 10}})
		}
		ts := Summarize(points, rows, cost, nil, []metric.Metric{cost, hit})
		for i := range ts {
			dominated := false
			for j := range ts {
				ci, cj := ts[i].Metrics.TotalCost, ts[j].Metrics.TotalCost
				hi, hj := ts[i].Metrics.CacheHitRatio, ts[j].Metrics.CacheHitRatio
				if cj <= ci && hj >= hi && (cj < ci || hj > hi) {
					dominated = true
				}
			}
			if ts[i].Pareto == dominated {
				t.Fatalf("trial %d: %s (cost %v, hit %v) on the front: %v, dominated: %v", trial, ts[i].Policy, ts[i].Metrics.TotalCost, ts[i].Metrics.CacheHitRatio, ts[i].Pareto, dominated)
			}
		}
	}
}

func TestSummarizeRanks(t *testing.T) {
	cost, _ := metric.Lookup("total_cost_usd")
	points := []Point{{Spec: "p1"}, {Spec: "p2"}, {Spec: "p3"}}
	rows := []Row{
		{Point: 0, Session: "s1", Metrics: simulate.Metrics{Calls: 1, TotalCost: 1, PeakContext: 900}},
		{Point: 0, Session: "s2", Metrics: simulate.Metrics{Calls: 1, TotalCost: 3, PeakContext: 100}},
		{Point: 1, Session: "s1", Metrics: simulate.Metrics{Calls: 1, TotalCost: 2, PeakContext: 100}},
		{Point: 1, Session: "s2", Metrics: simulate.Metrics{Calls: 1, TotalCost: 1, PeakContext: 100}},
		{Point: 2, Session: "s1", Metrics: simulate.Metrics{Calls: 1, TotalCost: 0.5, PeakContext: 2000}},
		{Point: 2, Session: "s2", Metrics: simulate.Metrics{Calls: 1, TotalCost: 0.5, PeakContext: 100}},
	}
	c, err := ParseConstraint("peak_context<=1000")
	if err != nil {
		t.Fatal(err)
	}
	ts := Summarize(points, rows, cost, []Constraint{c}, nil)
	// p3 is cheapest (1) but peaks at 2,000: infeasible, last. p2 (3)
	// before p1 (4).
	got := []string{ts[0].Policy, ts[1].Policy, ts[2].Policy}
	if !reflect.DeepEqual(got, []string{"p2", "p1", "p3"}) || ts[2].Feasible || ts[0].Rank != 1 {
		t.Errorf("order %q, %+v", got, ts)
	}
	// p1's sessions cost 1 and 3: median 2, p10 1, p90 3.
	if p1 := ts[1]; p1.Median != 2 || p1.P10 != 1 || p1.P90 != 3 || p1.Metrics.TotalCost != 4 {
		t.Errorf("p1 %+v", p1)
	}
	for _, bad := range []string{"peak_context", "peak<=3", "peak_context<=x"} {
		if _, err := ParseConstraint(bad); err == nil {
			t.Errorf("ParseConstraint(%q): no error", bad)
		}
	}
	// The operator written backwards is named as such, not as a metric
	// "peak_context=".
	for bad, want := range map[string]string{
		"peak_context=<5": `"peak_context=<5": write peak_context<=, not =<`,
		"cost_usd => 2":   `"cost_usd => 2": write cost_usd>=, not =>`,
	} {
		if _, err := ParseConstraint(bad); err == nil || err.Error() != want {
			t.Errorf("ParseConstraint(%q): %v, want %s", bad, err, want)
		}
	}
}
