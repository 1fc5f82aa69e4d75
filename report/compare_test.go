package report

import (
	"github.com/ctxlab/ctxlab/report/table"
	"slices"
	"testing"

	"github.com/ctxlab/ctxlab/simulate"
)

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
	fs := []Fidelity{
		{Session: "none"}, // never auto-compacted
		{Session: "earlier", RealAutoCompaction: 1},                           // before its first call
		{Session: "same", RealAutoCompaction: 5, SimulatedAutoCompaction: 5},  // claude-code agrees
		{Session: "other", RealAutoCompaction: 5, SimulatedAutoCompaction: 7}, // it does not
		{Session: "never", RealAutoCompaction: 5, SimulatedAutoCompaction: 0}, // claude-code never compacts
	}
	want := []string{"", "n/a", "yes", "no", "no"}
	for i, f := range fs {
		if got := fidelityMatch(f); got != want[i] {
			t.Errorf("%s: match %q, want %q", f.Session, got, want[i])
		}
	}
	// Both forms of the table show it.
	for _, machine := range []bool{false, true} {
		tab := fidelityTable(fs, machine)
		col := slices.IndexFunc(tab.Columns, func(c table.Column) bool { return c.CSVName() == "match" })
		for i, row := range tab.Rows {
			if got := row[col].Raw; got != want[i] {
				t.Errorf("machine %v, %s: match %q, want %q", machine, row[0].Text, got, want[i])
			}
		}
	}
}
