package report

import (
	"fmt"
	"github.com/ctxlab/ctxlab/report/table"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/sweep"
)

// SchemaSweep names sweep's JSON document.
const SchemaSweep = "ctxlab.sweep"

// SweepDocument is a whole study: what was run, on what, and every result.
type SweepDocument struct {
	Schema  string `json:"schema"`
	Version int    `json:"version"`
	// Ctxlab is the build that ran the study (ctxlab --version).
	Ctxlab string    `json:"ctxlab"`
	Grid   SweepGrid `json:"grid"`
	// Objective, Constraints and Pareto are the study's choices.
	Objective   string       `json:"objective"`
	Constraints []string     `json:"constraints"`
	Pareto      []string     `json:"pareto,omitempty"`
	Inputs      []SweepInput `json:"inputs"`
	// Rows: one per point and session, in point then input order.
	Rows []SweepRow `json:"rows"`
	// Totals: one per point, best first.
	Totals []sweep.Total `json:"totals"`
	Errors []string      `json:"errors"`
}

// SweepGrid is the grid: the base policies, the swept parameters and
// their values, the defaults of every parameter of each base, and the
// points.
type SweepGrid struct {
	Policies []string                     `json:"policies"`
	Vary     []sweep.Vary                 `json:"vary"`
	Defaults map[string]map[string]string `json:"defaults"`
	Points   []sweep.Point                `json:"points"`
}

// SweepInput is one session file read, with the SHA-256 of its files (the
// main transcript, then its agent files in order) to check a rerun.
type SweepInput struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256,omitempty"`
}

// SweepRow is one session at one point.
type SweepRow struct {
	Policy  string            `json:"policy"`
	Values  map[string]string `json:"values"`
	Session string            `json:"session"`
	Project string            `json:"project,omitempty"`
	Metrics simulate.Metrics  `json:"metrics"`
}

// NewSweepDocument assembles a study run by ctxlab version ctxlab: the
// grid, its choices, the inputs read and each session's row at each point
// (rows of one point from several inputs, in input order), summarised into
// totals.
func NewSweepDocument(ctxlab string, grid SweepGrid, obj simulate.Metric, cons []sweep.Constraint, pareto []simulate.Metric,
	inputs []SweepInput, rows []sweep.Row, errs []string) *SweepDocument {
	doc := &SweepDocument{
		Schema: SchemaSweep, Version: SchemaVersion, Ctxlab: ctxlab, Grid: grid, Objective: obj.Name,
		Constraints: []string{}, Inputs: inputs, Rows: []SweepRow{}, Errors: errs,
	}
	if doc.Errors == nil {
		doc.Errors = []string{}
	}
	if doc.Inputs == nil {
		doc.Inputs = []SweepInput{}
	}
	for _, c := range cons {
		doc.Constraints = append(doc.Constraints, c.String())
	}
	for _, m := range pareto {
		doc.Pareto = append(doc.Pareto, m.Name)
	}
	// Rows in point order, then input order: each study reads alike.
	byPoint := make([][]sweep.Row, len(grid.Points))
	for _, r := range rows {
		byPoint[r.Point] = append(byPoint[r.Point], r)
	}
	for pi, p := range grid.Points {
		for _, r := range byPoint[pi] {
			doc.Rows = append(doc.Rows, SweepRow{Policy: p.Spec, Values: p.Values, Session: r.Session, Project: r.Project, Metrics: r.Metrics})
		}
	}
	doc.Totals = sweep.Summarize(grid.Points, rows, obj, cons, pareto)
	return doc
}

// WriteSweep renders a study. JSON is the whole document; CSV the tidy
// rows alone (one per point and session: policy, each swept parameter,
// session, project, every metric; the totals are JSON's and the text
// formats'); table and Markdown one row per point, best first, text tables
// fitted to width (0: no limit).
func WriteSweep(w io.Writer, doc *SweepDocument, format string, width int) error {
	switch format {
	case "json":
		return writeJSON(w, doc)
	case "html":
		return writeSweepHTML(w, doc)
	case "csv":
		return table.WriteCSV(w, sweepRows(doc))
	}
	secs := []section{{name: "sweep", tables: []*table.Table{sweepTotals(doc)}}}
	if len(doc.Pareto) == 2 {
		secs[0].tables = append(secs[0].tables, paretoTable(doc))
	}
	return render(w, format, width, secs)
}

func params(doc *SweepDocument) []string {
	out := make([]string, len(doc.Grid.Vary))
	for i, v := range doc.Grid.Vary {
		out[i] = v.Param
	}
	return out
}

func sweepRows(doc *SweepDocument) *table.Table {
	metrics := simulate.MetricList()
	cols := append([]string{"policy"}, params(doc)...)
	cols = append(cols, "session", "project")
	for _, m := range metrics {
		cols = append(cols, m.Name)
	}
	t := &table.Table{Name: "sweep_rows", Title: "Every point and session", Columns: csvColumns(cols...)}
	for _, r := range doc.Rows {
		row := []string{r.Policy}
		for _, p := range params(doc) {
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

// sweepTotals is one row per point, best first: a readable selection of
// the metrics.
func sweepTotals(doc *SweepDocument) *table.Table {
	obj, _ := simulate.LookupMetric(doc.Objective)
	ps := params(doc)
	note := fmt.Sprintf("%d points over %d sessions, best first by %s (%s); p10, median, p90: the objective across the sessions", len(doc.Totals), len(doc.Inputs), obj.Name, direction(obj))
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
		table.Column{Name: "Total cost", Right: true, Short: "Cost"},
		table.Column{Name: "Peak", Right: true},
		table.Column{Name: "Compactions", Right: true, Short: "Compact.", Drop: 4},
		table.Column{Name: "Hit ratio", Right: true, Short: "Hit", Drop: 5},
		table.Column{Name: "Feasible"})
	t := &table.Table{Name: "sweep", Title: "Sweep", Note: note, Columns: cols}
	for _, tot := range doc.Totals {
		m := &tot.Metrics
		row := []string{numtext.Int(tot.Rank), tot.Policy}
		for _, p := range ps {
			row = append(row, tot.Values[p])
		}
		feasible := "yes"
		if !tot.Feasible {
			feasible = "no"
		}
		row = append(row, gateValue(obj.Unit, obj.Value(m)), gateValue(obj.Unit, tot.P10), gateValue(obj.Unit, tot.Median), gateValue(obj.Unit, tot.P90),
			usd(m.TotalCost), numtext.Int(m.PeakContext), numtext.Int(m.Compactions), strconv.FormatFloat(m.CacheHitRatio, 'f', 4, 64), feasible)
		t.AddRow(row...)
	}
	return t
}

func direction(m simulate.Metric) string {
	if m.HigherIsBetter {
		return "highest first"
	}
	return "lowest first"
}

// defaultsNote says what the parameters not swept are.
func defaultsNote(doc *SweepDocument) string {
	var parts []string
	for _, p := range doc.Grid.Policies {
		name, _, _ := strings.Cut(p, ":")
		var kv []string
		for _, k := range slices.Sorted(maps.Keys(doc.Grid.Defaults[p])) {
			if !slices.Contains(params(doc), k) {
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

func paretoTable(doc *SweepDocument) *table.Table {
	a, _ := simulate.LookupMetric(doc.Pareto[0])
	b, _ := simulate.LookupMetric(doc.Pareto[1])
	t := &table.Table{
		Name: "pareto", Title: "Pareto front: " + a.Name + " against " + b.Name,
		Note:    fmt.Sprintf("the points no other point beats on both (%s %s, %s %s), by %s", a.Name, direction(a), b.Name, direction(b), a.Name),
		Columns: []table.Column{{Name: "Policy", Kind: table.Text}, {Name: a.Name, Right: true}, {Name: b.Name, Right: true}},
	}
	for _, tot := range sweep.Front(doc.Totals, a) {
		t.Add([]string{tot.Policy, gateValue(a.Unit, a.Value(&tot.Metrics)), gateValue(b.Unit, b.Value(&tot.Metrics))},
			[]string{tot.Policy, rawFloat(a.Value(&tot.Metrics)), rawFloat(b.Value(&tot.Metrics))})
	}
	return t
}
