package view

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/table"
	"github.com/ctxlab/ctxlab/simulate/metric"
	"github.com/ctxlab/ctxlab/simulate/sweep"
)

// writeSweep draws a study. CSV is the tidy rows alone (one per point and
// session: policy, each swept parameter, session, project, every metric;
// the totals are JSON's and the text formats'); table and Markdown one row
// per point, best first, text tables fitted to opt.Width (0: no limit).
func writeSweep(w io.Writer, doc *report.SweepDocument, opt report.Options) error {
	if opt.Format == report.CSV {
		return table.WriteCSV(w, SweepRows(doc))
	}
	secs := []section{{name: "sweep", tables: []*table.Table{SweepTotals(doc)}}}
	if len(doc.Pareto) == 2 {
		secs[0].tables = append(secs[0].tables, ParetoTable(doc))
	}
	return render(w, opt.Format, opt.Width, secs)
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
	note := fmt.Sprintf("%d points over %d sessions, best first by %s (%s); p10, median, p90: the objective across the sessions", len(doc.Totals), len(doc.Inputs), obj.Name, Direction(obj))
	if len(doc.Constraints) > 0 {
		note += "; feasible: " + strings.Join(doc.Constraints, " and ")
	}
	note += "\n" + defaultsNote(doc)
	cols := []table.Column{{Name: "Rank"}, {Name: "Policy", Kind: table.Text}}
	for _, p := range ps {
		cols = append(cols, table.Column{Name: p})
	}
	cols = append(cols,
		table.Column{Name: obj.Name, Right: true},
		table.Column{Name: "p10", Right: true, Drop: 1},
		table.Column{Name: "Median", Right: true, Drop: 3},
		table.Column{Name: "p90", Right: true, Drop: 2},
		table.Column{Name: "Total cost", Right: true, Short: "Cost", Drop: 6},
		table.Column{Name: "Peak", Right: true},
		table.Column{Name: "Compactions", Right: true, Short: "Compact.", Drop: 4},
		table.Column{Name: "Hit ratio", Right: true, Short: "Hit", Drop: 5},
		table.Column{Name: "Feasible"})
	t := &table.Table{Name: "sweep", Title: "Sweep", Note: note, Columns: cols}
	if obj.Name == "total_cost_usd" {
		defer t.RemoveColumn(slices.IndexFunc(t.Columns, func(c table.Column) bool { return c.Name == "Total cost" }))
	}
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
		text = append(text, obj.Unit.Text(obj.Value(m)), obj.Unit.Text(tot.P10), obj.Unit.Text(tot.Median), obj.Unit.Text(tot.P90),
			numtext.USD(m.TotalCost), numtext.Int(m.PeakContext), numtext.Int(m.Compactions), numtext.Pct(100*m.CacheHitRatio), feasible)
		rawRow = append(rawRow, rawFloat(obj.Value(m)), rawFloat(tot.P10), rawFloat(tot.Median), rawFloat(tot.P90),
			rawUSD(m.TotalCost), raw(m.PeakContext), raw(m.Compactions), strconv.FormatFloat(m.CacheHitRatio, 'f', 4, 64), feasible)
		t.Add(text, rawRow)
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

// ParetoTable is the points no other beats on both Pareto metrics.
func ParetoTable(doc *report.SweepDocument) *table.Table {
	a, _ := metric.Lookup(doc.Pareto[0])
	b, _ := metric.Lookup(doc.Pareto[1])
	t := &table.Table{
		Name: "pareto", Title: "Pareto front: " + a.Name + " against " + b.Name,
		Note:    fmt.Sprintf("the points no other point beats on both (%s %s, %s %s), by %s", a.Name, Direction(a), b.Name, Direction(b), a.Name),
		Columns: []table.Column{{Name: "Policy", Kind: table.Text}, {Name: a.Name, Right: true}, {Name: b.Name, Right: true}},
	}
	for _, tot := range sweep.Front(doc.Totals, a) {
		t.Add([]string{tot.Policy, a.Unit.Text(a.Value(&tot.Metrics)), b.Unit.Text(b.Value(&tot.Metrics))},
			[]string{tot.Policy, rawFloat(a.Value(&tot.Metrics)), rawFloat(b.Value(&tot.Metrics))})
	}
	return t
}
