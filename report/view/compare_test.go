package view

import (
	"slices"
	"testing"

	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/table"
)

// TestFidelityMatch: the Match column for each kind of session.
func TestFidelityMatch(t *testing.T) {
	fs := []report.Fidelity{
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
