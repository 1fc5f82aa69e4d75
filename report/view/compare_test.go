package view

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/table"
	"github.com/ctxlab/ctxlab/simulate/fidelity"
	"github.com/ctxlab/ctxlab/simulate/paired"
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

// TestFidelitySummaryCopied: the summary table shows the calls left out
// as recorded first in another session only when there are some, and its
// CSV always has the column.
func TestFidelitySummaryCopied(t *testing.T) {
	const name = "Calls recorded first in another session, left out"
	for _, n := range []int{0, 691} {
		s := &fidelity.Summary{Sessions: 2, CopiedCalls: n}
		tab := fidelitySummaryTable(s, false)
		col := slices.IndexFunc(tab.Columns, func(c table.Column) bool { return c.Name == name })
		if (col >= 0) != (n > 0) || len(tab.Rows) != 1 || len(tab.Rows[0]) != len(tab.Columns) {
			t.Errorf("%d copied: column at %d, %d columns, row %v", n, col, len(tab.Columns), tab.Rows)
			continue
		}
		if col >= 0 && (tab.Rows[0][col].Text != "691" || tab.Rows[0][col].Raw != "691") {
			t.Errorf("%d copied: cell %+v", n, tab.Rows[0][col])
		}
		csv := fidelitySummaryTable(s, true)
		if c := slices.IndexFunc(csv.Columns, func(c table.Column) bool { return c.CSVName() == "copied_calls" }); c < 0 || csv.Rows[0][c].Raw != strconv.Itoa(n) {
			t.Errorf("%d copied: CSV column at %d", n, c)
		}
	}
}

// TestComparisonsTable: the change whatever the tests find (blank when
// undefined), the interval, Differs (the interval's verdict, blank
// without one), the signed-rank p marked † where it disagrees, and the
// totals in the metric's unit; CSV keeps full precision. The two rows
// a reader saw contradict themselves (~ beside [+92.0%, +364.4%] at p
// 0.060; a significant mark beside [-19.7%, +1.7%] at p 0.006) now
// read: differs, the test disagreeing; and does not, the test
// disagreeing.
func TestComparisonsTable(t *testing.T) {
	f := func(x float64) *float64 { return &x }
	doc := &report.CompareDocument{
		ComparisonSettings: &report.ComparisonSettings{Baseline: "observed", Resamples: 10000, Confidence: 0.57, Alpha: 0.01},
		Comparisons: []report.Comparison{
			{Policy: "keep-last-n", Baseline: "observed", Metric: "total_cost_usd", Stats: paired.Stats{
				Sessions: 40, BaselineTotal: 12.5, Total: 42.75, TotalChangePct: f(242.04), CILowPct: f(128.3), CIHighPct: f(369.04),
				MedianChangePct: f(200), GeomeanRatio: f(3.14159), WilcoxonP: f(2e-6), Significant: true, WilcoxonSignificant: true}},
			{Policy: "claude-code", Baseline: "observed", Metric: "cache_write", Stats: paired.Stats{
				Sessions: 40, BaselineTotal: 1234567, Total: 1200000, TotalChangePct: f(-2.8), CILowPct: f(-6.64), CIHighPct: f(3.21),
				MedianChangePct: f(-0.04), GeomeanRatio: f(0.98), WilcoxonP: f(0.8912)}},
			{Policy: "none", Baseline: "observed", Metric: "compactions", Stats: paired.Stats{Sessions: 40, Total: 0}},
			{Policy: "context-editing", Baseline: "observed", Metric: "cost_usd", Stats: paired.Stats{
				Sessions: 11, BaselineTotal: 100, Total: 290, TotalChangePct: f(190), CILowPct: f(92.0), CIHighPct: f(364.4),
				WilcoxonP: f(0.06), Significant: true}},
			{Policy: "keep-last-n:n=4", Baseline: "observed", Metric: "cost_usd", Stats: paired.Stats{
				Sessions: 25, BaselineTotal: 100, Total: 91, TotalChangePct: f(-9), CILowPct: f(-19.7), CIHighPct: f(1.7),
				WilcoxonP: f(0.006), WilcoxonSignificant: true}},
		},
	}
	tb := ComparisonsTable(doc, false)
	want := [][]string{
		{"total_cost_usd", "keep-last-n", "$12.50", "$42.75", "+242.0%", "[+128.3%, +369.0%]", "yes", "+200.0%", "3.142", "<0.001", "40"},
		{"cache_write", "claude-code", "1,234,567", "1,200,000", "-2.8%", "[-6.6%, +3.2%]", "no", "0.0%", "0.980", "0.891", "40"},
		{"compactions", "none", "0", "0", "", "", "", "", "", "", "40"},
		{"cost_usd", "context-editing", "$100.00", "$290.00", "+190.0%", "[+92.0%, +364.4%]", "yes", "", "", "0.060†", "11"},
		{"cost_usd", "keep-last-n:n=4", "$100.00", "$91.00", "-9.0%", "[-19.7%, +1.7%]", "no", "", "", "0.006†", "25"},
	}
	for i, row := range tb.Rows {
		if got := table.Texts(row); !slices.Equal(got, want[i]) {
			t.Errorf("row %d: %q, want %q", i, got, want[i])
		}
	}
	// 0.57 × 100 is 56.99999999999999 in floating point.
	if !strings.Contains(tb.Note, "its 57% bootstrap interval") || !strings.Contains(tb.Note, "the one test of significance (level 43%)") ||
		!strings.Contains(tb.Note, "† where it disagrees at α = 0.01") || tb.Title != "Against observed, session by session" {
		t.Errorf("title %q, note %q", tb.Title, tb.Note)
	}
	csv := ComparisonsTable(doc, true)
	if got := csv.Rows[1][12].Raw; got != "0.8912" {
		t.Errorf("CSV p %q", got)
	}
	if got := csv.Rows[2][7].Raw; got != "" {
		t.Errorf("CSV undefined change %q, want blank", got)
	}
	if got := table.Texts(csv.Rows[3])[13:]; !slices.Equal(got, []string{"true", "false"}) {
		t.Errorf("CSV significant, wilcoxon_significant %q, want the interval's true and the test's false", got)
	}
	doc.ComparisonSettings.Resamples = 0
	if tb := ComparisonsTable(doc, false); !strings.Contains(tb.Note, "no interval (--bootstrap 0), so nothing is marked significant") {
		t.Errorf("note %q", tb.Note)
	}
}
