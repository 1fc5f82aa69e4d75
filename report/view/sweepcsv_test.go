package view

import (
	"bytes"
	"encoding/csv"
	"testing"

	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/simulate"
)

// TestSweepRowsBooleans: sweep's CSV rows say output_lower_bound and
// agents_output_lower_bound as true or false, as docs/cli.md says of
// every CSV, as compare's CSV and the sweep's JSON say them; they were
// written as the metrics' numbers, 1 and 0.
func TestSweepRowsBooleans(t *testing.T) {
	doc := &report.SweepDocument{Rows: []report.SweepRow{
		{Policy: "p", Session: "a", Metrics: simulate.Metrics{Calls: 1, OutputLowerBound: true}},
		{Policy: "p", Session: "b", Metrics: simulate.Metrics{Calls: 1, AgentsOutputLowerBound: true}},
	}}
	var buf bytes.Buffer
	if err := writeSweepCSV(&buf, doc, report.Options{}); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"output_lower_bound": {"true", "false"}, "agents_output_lower_bound": {"false", "true"}}
	for col, vals := range want {
		i := -1
		for j, h := range recs[0] {
			if h == col {
				i = j
			}
		}
		if i < 0 {
			t.Fatalf("no column %s in %v", col, recs[0])
		}
		for k, v := range vals {
			if got := recs[k+1][i]; got != v {
				t.Errorf("row %d %s = %q, want %q", k+1, col, got, v)
			}
		}
	}
}
