package view

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/table"
	"github.com/ctxlab/ctxlab/simulate/metric"
	"github.com/ctxlab/ctxlab/simulate/sweep"
)

// writeSweep draws a study. CSV is one tidy table: by default the rows
// (one per point and session: policy, each swept parameter, session,
// project, every metric), or with opt.Sections[0] "totals" one row per
// point (SweepTotalsCSV) or "pareto" the steps along the Pareto front;
// table and Markdown one row per point, best first, text tables fitted
// to opt.Width (0: no limit).
func writeSweep(w io.Writer, doc *report.SweepDocument, opt report.Options, l layout) error {
	secs := []section{{name: "total", tables: []*table.Table{SweepTotals(doc)}}}
	if len(doc.Pareto) == 2 {
		secs[0].tables = append(secs[0].tables, ParetoTable(doc))
	}
	return l.write(w, secs, opt.Width)
}

// SweepCSVTables lists the tables sweep's CSV can write, one per stream
// (opt.Sections[0] picks it); the first is the default.
var SweepCSVTables = []string{"rows", "totals", "pareto"}

// writeSweepCSV writes one of SweepCSVTables.
func writeSweepCSV(w io.Writer, doc *report.SweepDocument, opt report.Options) error {
	t := SweepRows(doc)
	if len(opt.Sections) > 0 {
		switch opt.Sections[0] {
		case "", "rows":
		case "totals":
			t = SweepTotalsCSV(doc)
		case "pareto":
			t = comparisonsCSV("pareto_comparisons", doc.ParetoComparisons)
		default:
			return fmt.Errorf("sweep has no CSV table %q (want %s)", opt.Sections[0], strings.Join(SweepCSVTables, ", "))
		}
	}
	return table.WriteCSV(w, t)
}

// SweepRows is a row per point and session with every metric (CSV, and
// the HTML page's last table).
func SweepRows(doc *report.SweepDocument) *table.Table {
	metrics := metric.List()
	cols := append([]string{"policy"}, doc.Params()...)
	cols = append(cols, "session", "project")
	for _, m := range metrics {
		cols = append(cols, m.Name)
	}
	t := &table.Table{Name: "sweep_rows", Title: "Every point and session", Columns: csvColumns(cols...)}
	for _, r := range doc.Rows {
		row := []string{r.Policy}
		for _, p := range doc.Params() {
			row = append(row, r.Values[p])
		}
		row = append(row, r.Session, r.Project)
		for _, m := range metrics {
			// A flag reads true or false, as in every other CSV and in
			// the JSON, not as the metric's 1 or 0.
			if m.Unit == metric.Boolean {
				row = append(row, strconv.FormatBool(m.Value(&r.Metrics) != 0))
				continue
			}
			row = append(row, rawFloat(m.Value(&r.Metrics)))
		}
		t.AddRow(row...)
	}
	return t
}

// SweepTotals is one row per point, best first: a readable selection of
// the metrics.
func SweepTotals(doc *report.SweepDocument) *table.Table {
	obj, _ := metric.Lookup(doc.Objective)
	ps := doc.Params()
	note := fmt.Sprintf("%s over %s, best first by %s (%s)%s", numtext.Count(len(doc.Totals), "point", "points"), numtext.Count(len(doc.Inputs), "session", "sessions"), obj.Name, Direction(obj),
		strings.Replace(withoutCalls(doc.SessionsWithoutCalls), "left out", "left out of the percentiles and the comparisons", 1))
	if len(doc.Constraints) > 0 {
		note += "; feasible: " + strings.Join(doc.Constraints, " and ")
	}
	set := doc.ComparisonSettings
	if set != nil {
		note += "\n" + versusNote(set, obj)
	}
	note += "\n" + defaultsNote(doc)
	cols := []table.Column{{Name: "Rank"}, {Name: "Policy", Kind: table.Text, Distinct: true}}
	for _, p := range ps {
		cols = append(cols, table.Column{Name: p})
	}
	// What a column holds is said while it is shown (table.Column.Note).
	var intervalNote, differsNote, pNote string
	if set != nil {
		more := "; in percent of " + set.Baseline + "'s where the total is not the sessions' sum, blank where a session's cost is unknown: its calls have no price"
		intervalNote, differsNote, pNote = intervalNotes(set, "interval: the total's ", more, set.Baseline+"'s total")
	}
	across := " of " + obj.Name + " across the sessions"
	unpriced, objUnpriced := unpricedCalls(doc, obj)
	if objUnpriced {
		across += " whose cost is known"
	}
	cols = append(cols,
		table.Column{Name: obj.Name, Right: true},
		table.Column{Name: "Interval", Right: true, Drop: 8, Note: intervalNote},
		table.Column{Name: "Change", Right: true},
		table.Column{Name: "Differs", Note: differsNote},
		table.Column{Name: "p", Right: true, Drop: 7, Note: pNote},
		table.Column{Name: "p10", Right: true, Drop: 1, Note: "p10: the 10th percentile" + across},
		table.Column{Name: "Median", Right: true, Drop: 3, Note: "median: the median" + across},
		table.Column{Name: "p90", Right: true, Drop: 2, Note: "p90: the 90th percentile" + across},
		table.Column{Name: "Total cost", Right: true, Short: "Cost", Drop: 6},
		table.Column{Name: "Peak", Right: true},
		table.Column{Name: "Compactions", Right: true, Short: "Compact.", Drop: 4},
		table.Column{Name: "Hit ratio", Right: true, Short: "Hit", Drop: 5},
		table.Column{Name: "Feasible"})
	t := &table.Table{Name: "sweep", Title: "Sweep", Note: note, Columns: cols}
	remove := func(name string) {
		t.RemoveColumn(slices.IndexFunc(t.Columns, func(c table.Column) bool { return c.Name == name }))
	}
	if obj.Name == "total_cost_usd" {
		defer remove("Total cost")
	}
	if doc.ComparisonSettings == nil { // no statistics computed
		defer func() {
			for _, name := range []string{"Interval", "Change", "Differs", "p"} {
				remove(name)
			}
		}()
	}
	anyLower := false
	defer func() { t.Note = firstLineNote(t.Note, LowerBoundNote(anyLower, unpriced)) }()
	for _, tot := range doc.Totals {
		m := &tot.Metrics
		text := []string{numtext.Int(tot.Rank), tot.Policy}
		rawRow := []string{raw(tot.Rank), tot.Policy}
		for _, p := range ps {
			text, rawRow = append(text, tot.Values[p]), append(rawRow, tot.Values[p])
		}
		feasible := "yes"
		if !tot.Feasible {
			feasible = "no"
		}
		var cmp report.Comparison
		if tot.Comparison != nil {
			cmp = *tot.Comparison
		}
		// A figure of the objective that rests on placeholder output
		// counts is marked, as the total cost is.
		lower := obj.LowerBound(m)
		anyLower = anyLower || lower || m.TotalLowerBound()
		val := func(v float64) string { return mark(obj.Unit.Text(v), lower) }
		// The interval that decides: in the objective's unit, else (a
		// total that is not the sessions' sum) the change's, in percent.
		interval, change, differs, p := IntervalText(cmp), ChangeText(cmp), DiffersText(cmp), PText(cmp)
		if tot.CILow != nil && tot.CIHigh != nil {
			interval = "[" + val(*tot.CILow) + ", " + val(*tot.CIHigh) + "]"
		}
		if cmp.Policy != "" && cmp.Policy == cmp.Baseline {
			interval, change, differs, p = "", "baseline", "", ""
		}
		total := mark(obj.Unit.Text(obj.Value(m)), lower || obj.Unpriced(nil, m) > 0)
		text = append(text, total, interval, change, differs, p, val(tot.P10), val(tot.Median), val(tot.P90),
			mark(numtext.USD(m.TotalCost), m.TotalLowerBound() || m.Unpriced+m.AgentsUnpriced > 0), numtext.Int(m.PeakContext), numtext.Int(m.Compactions), HitText(m), feasible)
		rawRow = append(rawRow, rawFloat(obj.Value(m)), optRaw(tot.CILow), optRaw(cmp.TotalChangePct), differs, optRaw(cmp.WilcoxonP), rawFloat(tot.P10), rawFloat(tot.Median), rawFloat(tot.P90),
			rawUSD(m.TotalCost), raw(m.PeakContext), raw(m.Compactions), HitRaw(m), feasible)
		t.Add(text, rawRow)
	}
	return t
}

// unpricedCalls is the most calls without a price any point's costs leave
// out (their total is then a lower bound, ≥), and whether the
// objective's does in some point (its spread then leaves out the
// sessions whose cost is unknown).
func unpricedCalls(doc *report.SweepDocument, obj metric.Metric) (calls int, objective bool) {
	for _, tot := range doc.Totals {
		calls = max(calls, tot.Metrics.Unpriced+tot.Metrics.AgentsUnpriced)
		objective = objective || obj.Unpriced(nil, &tot.Metrics) > 0
	}
	return calls, objective
}

// versusNote says what the change column is; the interval, differs and
// p columns say what they are in their notes.
func versusNote(set *report.ComparisonSettings, obj metric.Metric) string {
	return "change: of " + obj.Name + " against " + set.Baseline + "; each row is its own test, not corrected for the others (docs/sweep.md)"
}

// confidencePct is a confidence level in percent, as short as it is
// exact ("95", "99.9").
func confidencePct(c float64) string { return numtext.Float(math.Round(c*1e8)/1e6, -1) }

// SweepTotalsCSV is the totals as a tidy table (sweep --format csv
// --section totals): a row per point, best first, the objective's value
// with its interval in its unit beside it, and its comparison with the
// baseline.
func SweepTotalsCSV(doc *report.SweepDocument) *table.Table {
	obj, _ := metric.Lookup(doc.Objective)
	cols := append([]string{"rank", "policy"}, doc.Params()...)
	cols = append(cols, "sessions", "feasible", "pareto", "objective", "value", "lower_bound", "ci_low", "ci_high", "p10", "median", "p90",
		"baseline", "baseline_value", "change_pct", "change_ci_low_pct", "change_ci_high_pct", "median_change_pct", "geomean_ratio", "wilcoxon_p", "significant",
		"wilcoxon_significant")
	t := &table.Table{Name: "sweep_totals", Title: "Every point", Columns: csvColumns(cols...)}
	for _, tot := range doc.Totals {
		row := []string{raw(tot.Rank), tot.Policy}
		for _, p := range doc.Params() {
			row = append(row, tot.Values[p])
		}
		row = append(row, raw(tot.Sessions), strconv.FormatBool(tot.Feasible), strconv.FormatBool(tot.Pareto), obj.Name,
			rawFloat(obj.Value(&tot.Metrics)), strconv.FormatBool(obj.LowerBound(&tot.Metrics)), optRaw(tot.CILow), optRaw(tot.CIHigh),
			rawFloat(tot.P10), rawFloat(tot.Median), rawFloat(tot.P90))
		if c := tot.Comparison; c != nil {
			row = append(row, c.Baseline, rawFloat(c.BaselineTotal), optRaw(c.TotalChangePct), optRaw(c.CILowPct), optRaw(c.CIHighPct),
				optRaw(c.MedianChangePct), optRaw(c.GeomeanRatio), optRaw(c.WilcoxonP), strconv.FormatBool(c.Significant), strconv.FormatBool(c.WilcoxonSignificant))
		} else {
			row = append(row, "", "", "", "", "", "", "", "", "", "")
		}
		t.AddRow(row...)
	}
	return t
}

// Direction says which way a metric ranks.
func Direction(m metric.Metric) string {
	if m.HigherIsBetter {
		return "highest first"
	}
	return "lowest first"
}

// defaultsNote says what the parameters not swept are.
func defaultsNote(doc *report.SweepDocument) string {
	var parts []string
	for _, p := range doc.Grid.Policies {
		name, _, _ := strings.Cut(p, ":")
		var kv []string
		for _, k := range slices.Sorted(maps.Keys(doc.Grid.Defaults[p])) {
			if !slices.Contains(doc.Params(), k) {
				kv = append(kv, k+"="+doc.Grid.Defaults[p][k])
			}
		}
		if len(kv) > 0 {
			parts = append(parts, name+": "+strings.Join(kv, ", "))
		}
	}
	if len(parts) == 0 {
		return "no other parameters"
	}
	return "other parameters (defaults, or as the spec sets them): " + strings.Join(parts, "; ")
}

// ParetoTable is the points no other beats on both Pareto metrics, best
// first on the first; with the statistics, each point against the one
// before it on each metric (the change and the signed-rank p, marked
// where it disagrees with the interval) and whether it differs from it on
// either: the intervals' verdict.
func ParetoTable(doc *report.SweepDocument) *table.Table {
	a, _ := metric.Lookup(doc.Pareto[0])
	b, _ := metric.Lookup(doc.Pareto[1])
	t := &table.Table{
		Name: "pareto", Title: "Pareto front: " + a.Name + " against " + b.Name,
		Note:    fmt.Sprintf("the points no other point beats on both (%s %s, %s %s), by %s", a.Name, Direction(a), b.Name, Direction(b), a.Name),
		Columns: []table.Column{{Name: "Policy", Kind: table.Text, Distinct: true}, {Name: a.Name, Right: true}, {Name: b.Name, Right: true}},
	}
	front := sweep.Front(doc.Totals, a)
	set := doc.ComparisonSettings
	if len(front) < 2 {
		set = nil // no neighbours to compare
	}
	if set != nil {
		t.Note += "\neach point against the one above it, session by session: the change of each total; " +
			strings.Replace(intervalNote(set, "each change's ", "", ""), "differs: yes when the interval excludes 0", "differs: yes when either interval (JSON pareto_comparisons) excludes 0", 1) +
			"; A: " + a.Name + ", B: " + b.Name
		t.Columns = append(t.Columns,
			table.Column{Name: "Δ " + a.Name, Short: "Δ A", Right: true},
			table.Column{Name: "p " + a.Name, Short: "p A", Right: true, Drop: 2},
			table.Column{Name: "Δ " + b.Name, Short: "Δ B", Right: true},
			table.Column{Name: "p " + b.Name, Short: "p B", Right: true, Drop: 1},
			table.Column{Name: "Differs"})
	}
	steps := map[string][]report.Comparison{} // by the later point
	for _, c := range doc.ParetoComparisons {
		steps[c.Policy] = append(steps[c.Policy], c)
	}
	anyLower, unpriced := false, 0
	defer func() { t.Note = firstLineNote(t.Note, LowerBoundNote(anyLower, unpriced)) }()
	for i, tot := range front {
		la, lb := a.LowerBound(&tot.Metrics), b.LowerBound(&tot.Metrics)
		anyLower = anyLower || la || lb
		// A cost that leaves out calls without a price is a lower bound.
		ua, ub := a.Unpriced(nil, &tot.Metrics), b.Unpriced(nil, &tot.Metrics)
		unpriced = max(unpriced, ua, ub)
		la, lb = la || ua > 0, lb || ub > 0
		text := []string{tot.Policy, mark(a.Unit.Text(a.Value(&tot.Metrics)), la), mark(b.Unit.Text(b.Value(&tot.Metrics)), lb)}
		rawRow := []string{tot.Policy, rawFloat(a.Value(&tot.Metrics)), rawFloat(b.Value(&tot.Metrics))}
		if set != nil {
			var ca, cb report.Comparison
			for _, c := range steps[tot.Policy] {
				if i > 0 && c.Metric == a.Name {
					ca = c
				} else if i > 0 && c.Metric == b.Name {
					cb = c
				}
			}
			differs := ""
			if i > 0 && (ca.Decided() || cb.Decided()) {
				differs = yesNo(ca.Significant || cb.Significant)
			}
			text = append(text, ChangeText(ca), PText(ca), ChangeText(cb), PText(cb), differs)
			rawRow = append(rawRow, optRaw(ca.TotalChangePct), optRaw(ca.WilcoxonP), optRaw(cb.TotalChangePct), optRaw(cb.WilcoxonP), differs)
		}
		t.Add(text, rawRow)
	}
	return t
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// mark prefixes a figure with ≥ when it is a lower bound.
func mark(s string, lower bool) string {
	if lower {
		return "≥" + s
	}
	return s
}

// firstLineNote adds a part to the first line of a note of several.
func firstLineNote(note, more string) string {
	first, rest, ok := strings.Cut(note, "\n")
	if !ok {
		return withNote(note, more)
	}
	return withNote(first, more) + "\n" + rest
}
