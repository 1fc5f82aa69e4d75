package report

import (
	"slices"

	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/metric"
	"github.com/ctxlab/ctxlab/simulate/paired"
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
	Objective   string   `json:"objective"`
	Constraints []string `json:"constraints"`
	Pareto      []string `json:"pareto,omitempty"`
	// ComparisonSettings and Baseline: what every point is compared
	// against, and how (Compare); nil until Compare is called.
	ComparisonSettings *ComparisonSettings `json:"comparison_settings,omitempty"`
	Baseline           *SweepBaseline      `json:"baseline,omitempty"`
	// ClaudeCode is Claude Code's own scheme (the claude-code policy as
	// it comes) on every session, which the plots draw beside the points
	// for reference; nil when it is the baseline (SetClaudeCode).
	ClaudeCode *SweepBaseline `json:"claude_code,omitempty"`
	Inputs     []SweepInput   `json:"inputs"`
	// SessionsWithoutCalls counts the sessions whose main thread made no
	// call: nothing to replay, the same empty run at every point. Their
	// rows and totals stay; the spreads, the comparisons and the plots
	// leave them out.
	SessionsWithoutCalls int `json:"sessions_without_calls"`
	// Rows: one per point and session, in point then input order.
	Rows []SweepRow `json:"rows"`
	// Totals: one per point, best first.
	Totals []sweep.Total `json:"totals"`
	// ParetoComparisons: each point of the Pareto front against the one
	// before it, on each Pareto metric (sweep.FrontSteps); empty without
	// a front of two points or more, or until Compare is called.
	ParetoComparisons []Comparison `json:"pareto_comparisons"`
	Errors            []string     `json:"errors"`
}

// SweepBaseline is the run every point is compared against: a policy run
// on every session, one of the grid's points or run apart, with its
// totals and its row for each session (in input order).
type SweepBaseline struct {
	Policy  string           `json:"policy"`
	InGrid  bool             `json:"in_grid"`
	Metrics simulate.Metrics `json:"metrics"`
	Rows    []SweepRow       `json:"rows"`
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
func NewSweepDocument(ctxlab string, grid SweepGrid, obj metric.Metric, cons []sweep.Constraint, pareto []metric.Metric,
	inputs []SweepInput, rows []sweep.Row, errs []string) *SweepDocument {
	doc := &SweepDocument{
		Schema: SchemaSweep, Version: SweepVersion, Ctxlab: ctxlab, Grid: grid, Objective: obj.Name,
		Constraints: []string{}, Inputs: inputs, Rows: []SweepRow{}, ParetoComparisons: []Comparison{}, Errors: errs,
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
	if len(byPoint) > 0 { // every point runs every session: count at the first
		for _, r := range byPoint[0] {
			if r.Metrics.Calls == 0 {
				doc.SessionsWithoutCalls++
			}
		}
	}
	return doc
}

// Compare compares every point with the baseline on the objective and
// each step along the Pareto front on its two metrics, session by session
// (simulate/paired, as compare's comparisons). policy is the baseline's
// canonical spec; base its row for each session, in input order, when it
// was run apart, or nil when it is one of the grid's points (whose rows
// it then takes).
func (doc *SweepDocument) Compare(policy string, base []SweepRow, opt paired.Options) {
	opt = opt.Resolved()
	index := map[string]int{}
	for i, p := range doc.Grid.Points {
		index[p.Spec] = i
	}
	rows := make([]sweep.Row, len(doc.Rows))
	for i, r := range doc.Rows {
		rows[i] = sweep.Row{Point: index[r.Policy], Session: r.Session, Project: r.Project, Metrics: r.Metrics}
	}
	b := doc.run(policy, base)
	ms := b.metrics()
	obj, _ := metric.Lookup(doc.Objective)
	metrics := []string{doc.Objective}
	for _, m := range doc.Pareto {
		if !slices.Contains(metrics, m) {
			metrics = append(metrics, m)
		}
	}
	set := newSettings(policy, metrics, opt)
	sweep.Compare(doc.Totals, rows, ms, policy, obj, opt)
	if len(doc.Pareto) == 2 {
		a, _ := metric.Lookup(doc.Pareto[0])
		c, _ := metric.Lookup(doc.Pareto[1])
		doc.ParetoComparisons = sweep.FrontSteps(doc.Totals, rows, a, c, opt)
	}
	doc.ComparisonSettings, doc.Baseline = set, b
	for i := range doc.Totals {
		if c := doc.Totals[i].Comparison; c != nil {
			c.LowerBound = doc.lowerBound(*c)
		}
	}
	for i := range doc.ParetoComparisons {
		doc.ParetoComparisons[i].LowerBound = doc.lowerBound(doc.ParetoComparisons[i])
	}
}

// lowerBound says whether a comparison's totals rest on placeholder
// output counts: the metric's value in some session's row of the point
// or the baseline does.
func (doc *SweepDocument) lowerBound(c Comparison) bool {
	mt, err := metric.Lookup(c.Metric)
	if err != nil {
		return false
	}
	rows := doc.Rows
	if b := doc.Baseline; b != nil && !b.InGrid {
		rows = append(slices.Clip(rows), b.Rows...)
	}
	for i := range rows {
		if (rows[i].Policy == c.Policy || rows[i].Policy == c.Baseline) && mt.LowerBound(&rows[i].Metrics) {
			return true
		}
	}
	return false
}

// run is a policy's run of every session: a grid point's rows (base nil
// and policy a point's spec), else base, run apart.
func (doc *SweepDocument) run(policy string, base []SweepRow) *SweepBaseline {
	b := &SweepBaseline{Policy: policy, Rows: []SweepRow{}}
	if base == nil && slices.ContainsFunc(doc.Grid.Points, func(p sweep.Point) bool { return p.Spec == policy }) {
		b.InGrid = true
		for _, r := range doc.Rows {
			if r.Policy == policy {
				b.Rows = append(b.Rows, r)
			}
		}
	} else {
		for _, r := range base {
			r.Policy, r.Values = policy, map[string]string{} // no swept value
			b.Rows = append(b.Rows, r)
		}
	}
	b.Metrics = simulate.SumMetrics(b.metrics())
	return b
}

// metrics is the run's metrics of each session, in input order.
func (b *SweepBaseline) metrics() []simulate.Metrics {
	ms := make([]simulate.Metrics, len(b.Rows))
	for i, r := range b.Rows {
		ms[i] = r.Metrics
	}
	return ms
}

// SetClaudeCode records Claude Code's own scheme, policy (claude-code's
// canonical spec), for the plots to draw: a grid point's rows (rows nil),
// or its run apart of every session. Nothing when it is the baseline,
// drawn already.
func (doc *SweepDocument) SetClaudeCode(policy string, rows []SweepRow) {
	if doc.Baseline != nil && doc.Baseline.Policy == policy {
		doc.ClaudeCode = nil
		return
	}
	doc.ClaudeCode = doc.run(policy, rows)
}

// References are the runs the plots draw beside the grid's points: the
// baseline ("observed (baseline)"), then Claude Code's own scheme when it
// is another run ("claude-code (reference)"); each summed as a point is
// (sweep.NewReference).
func (doc *SweepDocument) References() []sweep.Reference {
	obj, _ := metric.Lookup(doc.Objective)
	var out []sweep.Reference
	if b := doc.Baseline; b != nil {
		out = append(out, sweep.NewReference(b.Policy+" (baseline)", b.Policy, b.metrics(), obj))
	}
	if c := doc.ClaudeCode; c != nil {
		out = append(out, sweep.NewReference(c.Policy+" (reference)", c.Policy, c.metrics(), obj))
	}
	return out
}

// Params are the swept parameters, in the grid's order.
func (doc *SweepDocument) Params() []string {
	out := make([]string, len(doc.Grid.Vary))
	for i, v := range doc.Grid.Vary {
		out[i] = v.Param
	}
	return out
}
