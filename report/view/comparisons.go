package view

import (
	"fmt"
	"math"
	"strconv"

	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/table"
	"github.com/ctxlab/ctxlab/simulate/metric"
)

// ComparisonsTable shows compare's paired statistics: each policy's
// change from the baseline with its bootstrap interval, whether it
// differs (the interval's one verdict, so that no mark contradicts the
// interval beside it), and the signed-rank test's p-value, marked where
// that test disagrees. machine: every CSV column, raw.
func ComparisonsTable(doc *report.CompareDocument, machine bool) *table.Table {
	if machine {
		return comparisonsCSV("comparisons", doc.Comparisons)
	}
	t := &table.Table{Name: "comparisons"}
	set := doc.ComparisonSettings
	t.Title = "Is the difference real?"
	if set != nil {
		t.Title = "Against " + set.Baseline + ", session by session"
		t.Note = "change: of the total; " + intervalNote(set, "interval: its ", "", "") +
			"; median: of the sessions' changes; geomean: of their ratios; n: sessions" + withoutCalls(doc.SessionsWithoutCalls) +
			"; each row is its own test, not corrected for the others (docs/compare.md)"
	}
	t.Columns = []table.Column{
		{Name: "Metric", Kind: table.Text},
		{Name: "Policy", Kind: table.Text, Distinct: true},
		{Name: "Baseline", Right: true, Drop: 2},
		{Name: "Total", Right: true, Drop: 3},
		{Name: "Change", Right: true},
		{Name: "Interval", Right: true},
		{Name: "Differs"},
		{Name: "Median", Right: true, Drop: 1},
		{Name: "Geomean", Right: true, Drop: 4},
		{Name: "p", Right: true},
		{Name: "n", Right: true, Drop: 5},
	}
	anyLower := false
	for _, c := range doc.Comparisons {
		lb := c.LowerBound
		anyLower = anyLower || lb
		text := []string{c.Metric, c.Policy, mark(measureText(c.Metric, c.BaselineTotal), lb), mark(measureText(c.Metric, c.Total), lb),
			ChangeText(c), IntervalText(c), DiffersText(c), pctOrBlank(c.MedianChangePct), floatOrBlank(c.GeomeanRatio, 3), PText(c), numtext.Int(c.Sessions)}
		rawCells := []string{c.Metric, c.Policy, rawFloat(c.BaselineTotal), rawFloat(c.Total), optRaw(c.TotalChangePct), optRaw(c.CILowPct),
			DiffersText(c), optRaw(c.MedianChangePct), optRaw(c.GeomeanRatio), optRaw(c.WilcoxonP), raw(c.Sessions)}
		t.Add(text, rawCells)
	}
	t.Note = withNote(t.Note, LowerBoundNote(anyLower, 0))
	return t
}

// withoutCalls says how many sessions without a call the statistics left
// out: "" when none.
func withoutCalls(n int) string {
	if n == 0 {
		return ""
	}
	return " (" + numtext.Count(n, "session", "sessions") + " without a call left out: nothing to replay)"
}

// intervalNote says what decides significance and what the signed-rank
// column is, for compare's table: "interval: its 95% bootstrap interval
// over sessions (10,000 resamples); differs: yes when it excludes 0, the
// one test of significance (level 5%); p: …" (intervalNotes' three parts
// in one).
func intervalNote(set *report.ComparisonSettings, lead, more, what string) string {
	interval, differs, p := intervalNotes(set, lead, more, what)
	if differs == "" {
		return interval + "; " + p
	}
	return interval + "; " + differs + "; " + p
}

// intervalNotes says what the interval, differs and p columns are, as
// sweep's columns note them: lead introduces the interval, more adds to
// its parenthesis, what is what the interval must exclude ("" for 0).
// Without resamples there is no interval and no differs column to note.
func intervalNotes(set *report.ComparisonSettings, lead, more, what string) (interval, differs, p string) {
	p = "p: the Wilcoxon signed-rank test of the sessions' differences, each session counting once"
	if set.Resamples <= 0 {
		return "no interval (--bootstrap 0), so nothing is marked significant", "", p
	}
	if what == "" {
		what = "0"
	}
	level := numtext.Float(math.Round((1-set.Confidence)*1e8)/1e6, -1)
	interval = fmt.Sprintf("%s%s%% bootstrap interval over sessions (%s resamples%s)", lead, confidencePct(set.Confidence), numtext.Int(set.Resamples), more)
	differs = fmt.Sprintf("differs: yes when the interval excludes %s, the one test of significance (level %s%%)", what, level)
	return interval, differs, p + ", † where it disagrees at α = " + numtext.Float(set.Alpha, -1)
}

// comparisonsCSV is comparisons as CSV rows, every field raw: compare's
// and the steps along sweep's Pareto front alike.
func comparisonsCSV(name string, cs []report.Comparison) *table.Table {
	t := &table.Table{Name: name, Columns: csvColumns("metric", "policy", "baseline", "sessions", "baseline_total", "total", "lower_bound", "total_change_pct",
		"total_change_ci_low_pct", "total_change_ci_high_pct", "median_change_pct", "geomean_ratio", "wilcoxon_p", "significant", "wilcoxon_significant")}
	for _, c := range cs {
		t.AddRow(c.Metric, c.Policy, c.Baseline, raw(c.Sessions), rawFloat(c.BaselineTotal), rawFloat(c.Total), strconv.FormatBool(c.LowerBound),
			optRaw(c.TotalChangePct), optRaw(c.CILowPct), optRaw(c.CIHighPct),
			optRaw(c.MedianChangePct), optRaw(c.GeomeanRatio), optRaw(c.WilcoxonP), strconv.FormatBool(c.Significant), strconv.FormatBool(c.WilcoxonSignificant))
	}
	return t
}

// ChangeText is a comparison's change, signed, whatever the tests find
// (DiffersText says whether it is significant); blank when undefined.
func ChangeText(c report.Comparison) string { return pctOrBlank(c.TotalChangePct) }

// DiffersText is the one mark of significance: "yes" when the change's
// interval excludes 0, "no" when it holds 0, blank without an interval.
func DiffersText(c report.Comparison) string {
	if !c.Decided() {
		return ""
	}
	return yesNo(c.Significant)
}

// PText is the signed-rank test's p-value, marked "†" where the test, at
// α, disagrees with the interval; blank when every difference is 0.
func PText(c report.Comparison) string {
	if c.WilcoxonP == nil {
		return ""
	}
	if c.Disagree() {
		return numtext.PValue(*c.WilcoxonP) + "†"
	}
	return numtext.PValue(*c.WilcoxonP)
}

// IntervalText is a comparison's interval, "[-6.6%, +3.2%]"; blank
// without one.
func IntervalText(c report.Comparison) string {
	lo, hi := c.CILowPct, c.CIHighPct
	if lo == nil || hi == nil {
		return ""
	}
	return "[" + signedPct(*lo) + ", " + signedPct(*hi) + "]"
}

// measureText is a total in its metric's unit.
func measureText(name string, v float64) string {
	m, err := metric.LookupMeasure(name)
	switch {
	case err != nil:
		return numtext.Float(v, 2)
	case m.Unit == metric.USD:
		return numtext.USD(v)
	case m.Unit == metric.Ratio:
		return numtext.Float(v, 3)
	}
	return numtext.Float(v, 0)
}

func pctOrBlank(p *float64) string {
	if p == nil {
		return ""
	}
	return signedPct(*p)
}

func floatOrBlank(p *float64, decimals int) string {
	if p == nil {
		return ""
	}
	return numtext.Float(*p, decimals)
}
