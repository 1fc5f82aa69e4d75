package html_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/internal/htmlcheck"
	"github.com/ctxlab/ctxlab/internal/testcorpus/corpusload"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/html"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/budget"
	"github.com/ctxlab/ctxlab/simulate/metric"
	"github.com/ctxlab/ctxlab/simulate/sweep"
)

func page(t *testing.T, d report.Doc) string {
	t.Helper()
	var b bytes.Buffer
	if err := html.Write(&b, d, report.Options{Format: report.HTML}); err != nil {
		t.Fatal(err)
	}
	checkPage(t, b.String())
	return b.String()
}

// The gate page: the verdict, a row per limit (broken first) with its raw
// value to sort by, the reasons, and the diff against the baseline.
func TestHTMLGate(t *testing.T) {
	f, err := budget.Parse(strings.NewReader(`{"version": 1, "limits": [
		{"name": "cost", "measure": "total_cost_usd", "max": 0.5},
		{"name": "hit", "measure": "cache_hit_ratio", "min": 0.5}]}`), "b.json", time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), nil)
	if err != nil {
		t.Fatal(err)
	}
	var all []budget.Sample
	for _, s := range corpusload.Path(t, corpusFixtures) {
		all = append(all, budget.SampleFromReport(accounting.Analyze(s, accounting.DefaultConfig())))
	}
	base := budget.Evaluate(f, "base.json", all[:1], nil)
	res := budget.Evaluate(f, "b.json", all, base)
	p := page(t, &report.GateDocument{Result: res, Baseline: base})
	body, _, err := htmlcheck.Table(p, "gate-gate")
	if err != nil {
		t.Fatal(err)
	}
	if len(body) != 2 || body[0][0].Text != "FAIL" || body[0][1].Text != "cost" || body[1][0].Text != "pass" {
		t.Fatalf("limits %+v", body)
	}
	// One fixture session's output counts are placeholders: the cost is a
	// lower bound, marked, and still sorts by its number.
	if body[0][3].Value != "1.495029" || body[0][3].Text != "≥$1.50" {
		t.Errorf("cost sorts by %q, shows %q; want 1.495029 and ≥$1.50", body[0][3].Value, body[0][3].Text)
	}
	// The status is coloured by its class, and still spelled out.
	for _, want := range []string{"1 of 2 limits broken", "$1.50 above max $0.50", "- cost: $0.30 (pass)",
		`<tr><td class="fail">FAIL</td>`, `<tr><td class="pass">pass</td>`} {
		if !strings.Contains(p, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// The sweep page: a row per point, best first, the inputs and every
// point and session, the rows' numbers aligned right.
func TestHTMLSweep(t *testing.T) {
	points := []sweep.Point{{Spec: "keep-last-n:n=2", Base: "keep-last-n", Values: map[string]string{"n": "2"}}, {Spec: "keep-last-n:n=8", Base: "keep-last-n", Values: map[string]string{"n": "8"}}}
	var rows []sweep.Row
	var inputs []report.SweepInput
	for _, s := range corpusload.Path(t, corpusFixtures) {
		inputs = append(inputs, report.SweepInput{Path: s.Path, SHA256: "ab"})
		tr := simulate.Prepare(s)
		for i, pt := range points {
			c, err := policies.Compile(pt.Spec)
			if err != nil {
				t.Fatal(err)
			}
			r := c.Run(tr, simulate.DefaultConfig())
			rows = append(rows, sweep.Row{Point: i, Session: s.ID, Project: s.Project, Metrics: r.Metrics})
		}
	}
	obj, _ := metric.Lookup("total_cost_usd")
	peak, _ := metric.Lookup("peak_context")
	grid := report.SweepGrid{Policies: []string{"keep-last-n"}, Vary: []sweep.Vary{{Param: "n", Values: []string{"2", "8"}}}, Points: points}
	p := page(t, report.NewSweepDocument("test", grid, obj, nil, []metric.Metric{obj, peak}, inputs, rows, nil))
	totals, _, err := htmlcheck.Table(p, "points-sweep")
	if err != nil {
		t.Fatal(err)
	}
	if len(totals) != 2 || totals[0][0].Text != "1" {
		t.Errorf("points %+v", totals)
	}
	each, _, err := htmlcheck.Table(p, "rows-sweep_rows")
	if err != nil {
		t.Fatal(err)
	}
	if len(each) != 8 || each[0][0].Text != "keep-last-n:n=2" || each[0][1].Value != "2" {
		t.Errorf("rows: %d, first %+v", len(each), each[0])
	}
	for _, want := range []string{"ctxlab sweep: 2 points over 4 sessions", `id="inputs-inputs"`, `id="points-pareto"`, "<svg"} {
		if !strings.Contains(p, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// The policies page: a section per policy with its parameters.
func TestHTMLPolicies(t *testing.T) {
	p := page(t, report.NewPolicyList([]report.PolicyInfo{
		{Name: "observed", Source: "built in", Doc: "as recorded"},
		{Name: "keep-last-n", Source: "built in", Doc: "keeps n", Params: []report.ParamInfo{{Name: "n", Default: "10", Range: "a whole number ≥ 0", Doc: "kept"}}},
	}))
	body, _, err := htmlcheck.Table(p, "policy-2-params")
	if err != nil {
		t.Fatal(err)
	}
	if len(body) != 1 || body[0][0].Text != "n" || body[0][1].Value != "10" {
		t.Errorf("parameters %+v", body)
	}
	if !strings.Contains(p, "ctxlab policies") || !strings.Contains(p, "no parameters") {
		t.Error("page lacks its title or the empty table's text")
	}
}

// Write refuses a document it does not know.
func TestHTMLUnknownDocument(t *testing.T) {
	if err := html.Write(&bytes.Buffer{}, nil, report.Options{}); err == nil {
		t.Error("no error for a nil document")
	}
}

// replay --by draws its grouped view, not the plain page.
func TestHTMLGroups(t *testing.T) {
	var reps []*accounting.Report
	for _, s := range corpusload.Path(t, corpusFixtures) {
		reps = append(reps, accounting.Analyze(s, accounting.DefaultConfig()))
	}
	doc := report.NewDocument(reps, prices.Default(), nil)
	doc.By = "project"
	doc.Groups = accounting.Groups(reps, accounting.ByProject, nil, prices.Default())
	p := page(t, doc)
	body, foot, err := htmlcheck.Table(p, "groups-by_project")
	if err != nil {
		t.Fatal(err)
	}
	if len(body)+len(foot) != len(doc.Groups)+1 || !strings.Contains(p, "ctxlab replay by project: 4 groups") {
		t.Errorf("%d rows for %d groups and the total", len(body)+len(foot), len(doc.Groups))
	}
}
