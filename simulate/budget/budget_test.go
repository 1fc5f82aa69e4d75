package budget

import (
	"strings"
	"testing"
	"time"

	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/simulate"
)

var now = time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)

func TestParseErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"empty file", ``, "b.json: empty file"},
		{"not JSON", `{"version":1,`, "b.json: invalid JSON"},
		{"missing version", `{"limits":[{"measure":"cost_usd","max":1}]}`, "b.json: version: missing: want 1"},
		{"future version", `{"version":2,"limits":[{"measure":"cost_usd","max":1}]}`, "b.json: version: 2: this ctxlab reads version 1"},
		{"version a string", `{"version":"1","limits":[]}`, "b.json: version: a string where an integer was expected"},
		{"empty limits", `{"version":1,"limits":[]}`, "b.json: limits: empty: a budget needs at least one limit"},
		{"no limits", `{"version":1}`, "b.json: limits: empty"},
		{"unknown top field", `{"version":1,"limit":[]}`, "b.json: limit: unknown field"},
		{"unknown measure", `{"version":1,"limits":[{"measure":"cost","max":1}]}`, `b.json: limits[0].measure: unknown measure "cost" (want one of calls, `},
		{"missing measure", `{"version":1,"limits":[{"max":1}]}`, "b.json: limits[0].measure: missing"},
		{"max a string", `{"version":1,"limits":[{"measure":"cost_usd","max":1},{"measure":"input","max":"10"}]}`, "b.json: limits[1].max: a string where a number was expected"},
		{"limits an object", `{"version":1,"limits":{"measure":"cost_usd","max":1}}`, "b.json: limits: an object where an array was expected"},
		{"a limit an array", `{"version":1,"limits":[[1]]}`, "b.json: limits[0]: an array where an object was expected"},
		{"version a fraction", `{"version":1.5,"limits":[]}`, "b.json: version: the number 1.5 where an integer was expected"},
		{"version true", `{"version":true,"limits":[]}`, "b.json: version: true or false where an integer was expected"},
		{"measure a number", `{"version":1,"limits":[{"measure":7,"max":1}]}`, "b.json: limits[0].measure: a number where a string was expected"},
		{"max out of range", `{"version":1,"limits":[{"measure":"cost_usd","max":1e400}]}`, "b.json: limits[0].max: 1e400 is out of range"},
		{"unknown limit field", `{"version":1,"limits":[{"measure":"cost_usd","maximum":1}]}`, "b.json: limits[0].maximum: unknown field"},
		{"no bound", `{"version":1,"limits":[{"measure":"cost_usd"}]}`, "b.json: limits[0]: no bound"},
		{"bad aggregation", `{"version":1,"limits":[{"measure":"cost_usd","of":"p50","max":1}]}`, `b.json: limits[0].of: "p50": want one of total, session_max, session_mean, median, p90, p99`},
		{"ratio as a percentage", `{"version":1,"limits":[{"measure":"cache_hit_ratio","max":50}]}`, "b.json: limits[0].max: 50: cache_hit_ratio is a ratio from 0 to 1 (write 0.9 for 90%)"},
		{"ratio below 0", `{"version":1,"limits":[{"measure":"cache_hit_ratio","min":-0.1}]}`, "b.json: limits[0].min: -0.1: cache_hit_ratio is a ratio from 0 to 1"},
		{"min above max", `{"version":1,"limits":[{"measure":"cost_usd","max":1,"min":2}]}`, "b.json: limits[0].min: 2 is above max 1"},
		{"negative increase", `{"version":1,"limits":[{"measure":"cost_usd","max_increase_pct":-5}]}`, "b.json: limits[0].max_increase_pct: -5: must be 0 or more"},
		{"bad policy", `{"version":1,"limits":[{"measure":"cost_usd","max":1,"policy":"claude-code:windw=1"}]}`, `b.json: limits[0].policy: policy "claude-code": unknown parameter "windw"`},
		{"recorded-only under a policy", `{"version":1,"limits":[{"measure":"duplicate_read_waste_tokens","max":1,"policy":"none"}]}`, "b.json: limits[0].policy: measure duplicate_read_waste_tokens is only known for the recorded run"},
		{"bad since", `{"version":1,"limits":[{"measure":"cost_usd","max":1,"since":"soon"}]}`, `b.json: limits[0].since: "soon": want a date`},
		{"bad pattern", `{"version":1,"limits":[{"measure":"cost_usd","max":1,"project":"[x"}]}`, `b.json: limits[0].project: "[x": syntax error in pattern`},
		{"bad session pattern", `{"version":1,"limits":[{"measure":"cost_usd","max":1,"session":"a["}]}`, `b.json: limits[0].session: "a[": syntax error in pattern`},
		{"empty window", `{"version":1,"limits":[{"measure":"cost_usd","max":1,"since":"2026-05-01","until":"2025-01-01"}]}`, "b.json: limits[0].until: the window is empty: it ends (2025-01-02T00:00:00Z)"},
		{"bad unpriced", `{"version":1,"limits":[{"measure":"cost_usd","max":1,"unpriced":"skip"}]}`, `b.json: limits[0].unpriced: "skip": want fail or ignore`},
		{"same limit twice", `{"version":1,"limits":[{"measure":"cost_usd","max":1},{"measure":"cost_usd","max":2}]}`, `b.json: limits[1]: the same limit as limits[0] ("cost_usd total")`},
		{"trailing data", `{"version":1,"limits":[{"measure":"cost_usd","max":1}]} {}`, "b.json: invalid JSON: data after the JSON value"},
	}
	for _, tt := range tests {
		_, err := Parse(strings.NewReader(tt.in), "b.json", now, canon)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: %v\nwant prefix %q", tt.name, err, tt.want)
		}
	}
}

func TestParseDefaults(t *testing.T) {
	f, err := Parse(strings.NewReader(`{"version":1,"limits":[
		{"measure":"total_cost_usd","max":5},
		{"name":"cc p90","measure":"peak_context","of":"p90","max":150000,"policy":"claude-code:pct=80"},
		{"measure":"cache_hit_ratio","min":0.9,"policy":"observed","project":"-home-*","since":"7d"}]}`), "b.json", now, canon)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"total_cost_usd total", "cc p90", "cache_hit_ratio total project=-home-* since=7d"}
	for i, l := range f.Limits {
		if l.Key() != want[i] {
			t.Errorf("limit %d: key %q, want %q", i, l.Key(), want[i])
		}
	}
	if got := f.Policies(); len(got) != 1 || got[0] != "claude-code:pct=80" {
		t.Errorf("Policies = %q", got)
	}
	if f.Limits[2].Selection().Since != now.Add(-7*24*time.Hour).UnixMilli() {
		t.Errorf("since 7d = %d", f.Limits[2].Selection().Since)
	}
}

func TestFold(t *testing.T) {
	vs := []float64{5, 1, 4, 2, 3, 10, 6, 7, 9, 8}
	for _, tt := range []struct {
		a    Aggregation
		want float64
	}{
		{SessionMax, 10}, {SessionMean, 5.5}, {Median, 5.5},
		// nearest rank: ceil(0.9 × 10) = 9th smallest; ceil(0.99 × 10) = 10th.
		{P90, 9}, {P99, 10},
	} {
		if got := fold(tt.a, vs); got != tt.want {
			t.Errorf("%s = %v, want %v", tt.a, got, tt.want)
		}
	}
	if got := fold(Median, []float64{3, 1, 2}); got != 2 {
		t.Errorf("median of three = %v", got)
	}
	if got := fold(P90, []float64{7}); got != 7 {
		t.Errorf("p90 of one = %v", got)
	}
}

// canon is the policies' check, as ctxlab gate passes it.
func canon(spec string) (string, error) {
	p, err := policies.Parse(spec)
	if err != nil {
		return "", err
	}
	return p.Name(), nil
}

// run replays a trace under a spec with the default config.
func run(tr *simulate.Trace, spec string) (simulate.Metrics, error) {
	p, err := policies.Parse(spec)
	if err != nil {
		return simulate.Metrics{}, err
	}
	return simulate.Run(tr, p, simulate.Config{}).Metrics, nil
}
