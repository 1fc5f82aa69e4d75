package view_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/olekukonko/tablewriter/pkg/twwidth"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/internal/testcorpus"
	"github.com/ctxlab/ctxlab/internal/testcorpus/corpusload"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/view"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/budget"
	"github.com/ctxlab/ctxlab/simulate/fidelity"
	"github.com/ctxlab/ctxlab/simulate/metric"
	"github.com/ctxlab/ctxlab/simulate/paired"
	"github.com/ctxlab/ctxlab/simulate/sweep"
)

// extremeCorpus copies the fixture transcripts under what a terminal
// finds hardest to fit: project folders of a hundred characters, and in
// Chinese, Japanese and Korean; session ids that are not UUIDs (a file's
// own name, a converted log's, two that share their first 40 characters);
// file paths in those scripts; model ids that no short form shortens.
func extremeCorpus(t *testing.T) string {
	t.Helper()
	long := "-home-developer-with-a-rather-long-user-name-work-company-monorepo-packages-billing-service"
	rename := strings.NewReplacer(
		"-home-dev-demo", long,
		"-home-dev-queue", long+"-worker",
		"-home-dev-ledger", "-home-開発者-プロジェクト-台帳システム-长期项目-한국어-문서",
		"-home-dev-weather", "C--Users-名前-Documents-天気-weather-dashboard",
		"3f2a9c10-7d4e-4b6a-8c21-5e9f0a1b2c3d", "general-tool-calls-with-comment-lines-exported-from-a-chat-log-part-1",
		"8c4e2b71-1a3f-4d5e-9b6c-7f8a9b0c1d2e", "general-tool-calls-with-comment-lines-exported-from-a-chat-log-part-2",
		"5a1b3c4d-2e6f-4a7b-8c9d-0e1f2a3b4c5d", "5a1b3c4d-converted",
	)
	content := strings.NewReplacer(
		"/home/dev/", "/home/開発者/プロジェクト/とても長いディレクトリの名前/さらに深い場所/",
		"claude-haiku-4-5-20251001", "us.anthropic.claude-haiku-4-5-20251001-v1:0-through-a-gateway",
		"claude-sonnet-4-6", "openrouter/anthropic/claude-sonnet-4-6-with-extended-context",
		"claude-opus-4-5-20251101", "deepseek-v4-flash-experimental-preview-2026-05",
	)
	dir := t.TempDir()
	err := filepath.WalkDir(corpus, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(corpus, path)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		to := filepath.Join(dir, "projects", rename.Replace(rel))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		return os.WriteFile(to, []byte(content.Replace(string(data))), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "projects")
}

// manyPolicies are compare's policies at their widest: eight, most with
// parameters.
var manyPolicies = []string{"observed", "claude-code", "claude-code:window=100000,pct=80", "keep-last-n:n=5",
	"keep-last-n:n=10,polling=2", "none", "claude-code:version=2.0.76,buffer=20000", "keep-last-n:n=20"}

// fitCase is a document and the options of one of its views.
type fitCase struct {
	name string
	doc  report.Doc
	opt  report.Options
}

// fitCases are every view of every command on the sessions of path:
// replay's overview, every session's every table (with the run of a
// policy and its calls), each grouping with and without its models;
// compare's overview, tables, calls and fidelity (grouped by version and
// by project) under policies; gate with a baseline; sweep with its
// statistics and Pareto front; the policies. Without calls, the tables
// of every call (thousands of rows, slow to draw) are left out.
func fitCases(t *testing.T, path string, specs []string, calls bool) []fitCase {
	t.Helper()
	sessions := corpusload.Path(t, path)
	cfg := accounting.DefaultConfig()
	var reps []*accounting.Report
	for _, s := range sessions {
		reps = append(reps, accounting.Analyze(s, cfg))
	}
	var compared []*report.Compared
	var fid []report.Fidelity
	var samples []budget.Sample
	var rows []sweep.Row
	var inputs []report.SweepInput
	points := []sweep.Point{
		{Spec: "keep-last-n:n=2,polling=1", Base: "keep-last-n", Values: map[string]string{"n": "2", "polling": "1"}},
		{Spec: "keep-last-n:n=8,polling=1", Base: "keep-last-n", Values: map[string]string{"n": "8", "polling": "1"}},
		{Spec: "keep-last-n:n=32,polling=3", Base: "keep-last-n", Values: map[string]string{"n": "32", "polling": "3"}},
	}
	replayDoc := report.NewDocument(reps, cfg.Prices, []string{"/home/開発者/プロジェクト/unreadable.jsonl: permission denied"})
	for i, s := range sessions {
		tr := simulate.Prepare(s)
		run := func(spec string) *simulate.Result {
			p, err := policies.Parse(spec)
			if err != nil {
				t.Fatal(err)
			}
			return simulate.Run(tr, p, simulate.DefaultConfig())
		}
		var runs []*simulate.Result
		for _, spec := range specs {
			runs = append(runs, run(spec))
		}
		replayDoc.Sessions[i].Simulation = runs[min(2, len(runs)-1)]
		replayDoc.Sessions[i].Recorded = &runs[0].Metrics
		compared = append(compared, report.NewCompared(s, runs, true))
		fid = append(fid, fidelity.New(s, tr, runs[0], runs[1], fidelity.DefaultTolerances()))
		samples = append(samples, budget.SampleFromReport(reps[i]))
		inputs = append(inputs, report.SweepInput{Path: s.Path, SHA256: strings.Repeat("0", 64)})
		for p, pt := range points {
			rows = append(rows, sweep.Row{Point: p, Session: s.ID, Project: s.Project, Metrics: run(pt.Spec).Metrics})
		}
		// gate's limit on a policy
		samples[i].Runs = map[string]simulate.Metrics{runs[min(2, len(runs)-1)].Policy: runs[min(2, len(runs)-1)].Metrics}
	}
	cases := []fitCase{
		{"replay", replayDoc, report.Options{}},
		{"replay --detail --calls", replayDoc, report.Options{PerSession: true, Calls: calls}},
	}
	for _, by := range []accounting.GroupBy{accounting.ByDay, accounting.ByWeek, accounting.ByMonth, accounting.ByProject, accounting.ByModel, accounting.BySession} {
		doc := report.NewDocument(reps, cfg.Prices, nil)
		doc.By = string(by)
		doc.Groups = accounting.Groups(reps, by, time.UTC, prices.Default())
		cases = append(cases, fitCase{"replay --by " + string(by), doc, report.Options{}},
			fitCase{"replay --breakdown --by " + string(by), doc, report.Options{Breakdown: by != accounting.ByModel}})
	}
	cmp := report.NewCompareDocument(specs, compared, fid, prices.Default(), nil)
	var measures []metric.Metric
	for _, name := range report.DefaultComparisonMetrics {
		m, err := metric.LookupMeasure(name)
		if err != nil {
			t.Fatal(err)
		}
		measures = append(measures, m)
	}
	cmp.Compare(0, measures, paired.Options{Resamples: 200})
	byVersion, byProject := *cmp, *cmp
	byVersion.GroupFidelity(fidelity.ByVersion)
	byProject.GroupFidelity(fidelity.ByProject)
	cases = append(cases,
		fitCase{"compare", cmp, report.Options{}},
		fitCase{"compare --detail --calls", cmp, report.Options{PerSession: true, Calls: calls}},
		fitCase{"compare --fidelity --by version", &byVersion, report.Options{}},
		fitCase{"compare --fidelity --by project", &byProject, report.Options{}},
	)
	budgetSpec := `{"version": 1, "limits": [
		{"name": "cost of every session of the billing service's monorepo, per session, at the 90th percentile", "measure": "total_cost_usd", "of": "p90", "max": 0.01},
		{"name": "peak under the third policy", "measure": "peak_context", "policy": "` + specs[min(2, len(specs)-1)] + `", "of": "session_max", "max": 1000},
		{"name": "cache hit ratio", "measure": "cache_hit_ratio", "min": 0.99},
		{"name": "writes", "measure": "cache_write", "max_increase_pct": 1}]}`
	canon := func(s string) (string, error) {
		p, err := policies.Parse(s)
		if err != nil {
			return "", err
		}
		return p.Name(), nil
	}
	f, err := budget.Parse(strings.NewReader(budgetSpec), "/home/開発者/プロジェクト/ci/budgets/the-billing-service-budget-for-every-pull-request.json", time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), canon)
	if err != nil {
		t.Fatal(err)
	}
	base := budget.Evaluate(f, "/home/開発者/プロジェクト/ci/gate-baseline-from-the-main-branch.json", samples[:1], nil)
	cases = append(cases, fitCase{"gate --baseline", &report.GateDocument{Result: budget.Evaluate(f, "budget.json", samples, base), Baseline: base}, report.Options{}})
	obj, _ := metric.Lookup("total_cost_usd")
	peak, _ := metric.Lookup("peak_context")
	con, _ := sweep.ParseConstraint("peak_context<=100000")
	grid := report.SweepGrid{Policies: []string{"keep-last-n"}, Vary: []sweep.Vary{{Param: "n", Values: []string{"2", "8", "32"}}, {Param: "polling", Values: []string{"1", "3"}}},
		Defaults: map[string]map[string]string{"keep-last-n": {"n": "5", "polling": "1"}}, Points: points}
	sw := report.NewSweepDocument("test", grid, obj, []sweep.Constraint{con}, []metric.Metric{obj, peak}, inputs, rows, nil)
	sw.Pareto = []string{"total_cost_usd", "peak_context"}
	for i := range sw.Totals {
		sw.Totals[i].Pareto = true
	}
	sw.Compare("keep-last-n:n=2,polling=1", nil, paired.Options{Resamples: 200})
	var list []report.PolicyInfo
	for _, p := range policies.Registry {
		info := report.PolicyInfo{Name: p.Name, Doc: p.Doc, Source: p.Source}
		for _, a := range p.Params {
			info.Params = append(info.Params, report.ParamInfo{Name: a.Name, Default: a.Default, Range: a.Range, Doc: a.Doc})
		}
		list = append(list, info)
	}
	return append(cases, fitCase{"sweep", sw, report.Options{}}, fitCase{"policies", report.NewPolicyList(list), report.Options{}})
}

// checkFits draws every case at each width and reports each line wider,
// as the terminal draws it (wide characters two columns).
func checkFits(t *testing.T, what string, cases []fitCase, widths []int) {
	t.Helper()
	for _, c := range cases {
		for _, w := range widths {
			opt := c.opt
			opt.Width = w
			var b bytes.Buffer
			if err := view.Text(&b, c.doc, opt); err != nil {
				t.Errorf("%s %s: %v", what, c.name, err)
				continue
			}
			bad := 0
			for n, l := range strings.Split(b.String(), "\n") {
				if lw := twwidth.Width(l); lw > w {
					if bad++; bad <= 3 {
						t.Errorf("%s: %s at %d columns: line %d is %d wide: %q", what, c.name, w, n+1, lw, l)
					}
				}
			}
		}
	}
}

// TestFitsExtremes: every table of every command fits 80, 100 and 120
// columns (and --width 40, the least it takes) on the sessions that are
// hardest to fit: no line wider, whatever the names, ids, paths, models
// and policies.
func TestFitsExtremes(t *testing.T) {
	cases := fitCases(t, extremeCorpus(t), manyPolicies, true)
	checkFits(t, "extremes", cases, []int{40, 80, 100, 120})
	// The names that make the tables wide are there.
	var b bytes.Buffer
	if err := view.Text(&b, cases[0].doc, report.Options{Width: 80}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"general-tool-calls-with-comment-lines-exported-from-a-chat-log-part-", "5a1b3c4d-converted", "d3e4f5a6 "} {
		if !strings.Contains(b.String(), want[:min(len(want), 20)]) {
			t.Errorf("the overview at 80 columns has no %q:\n%s", want, b.String())
		}
	}
}

// TestFitsGenuine: every table of every command fits 80, 100 and 120
// columns on each set of genuine transcripts (skipped when absent); the
// tables of every call on realdata alone, to keep the test short.
func TestFitsGenuine(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	for _, name := range testcorpus.All {
		dir, ok := testcorpus.Path(name)
		if !ok {
			t.Logf("no %s", name)
			continue
		}
		cases := fitCases(t, filepath.Join(dir, "projects"), []string{"observed", "claude-code", "keep-last-n:n=10"}, name == testcorpus.Realdata)
		checkFits(t, name, cases, []int{80, 100, 120})
	}
}
