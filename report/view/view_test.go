package view_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/internal/testcorpus/corpusload"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/render"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/budget"
	"github.com/ctxlab/ctxlab/simulate/fidelity"
	"github.com/ctxlab/ctxlab/simulate/metric"
	"github.com/ctxlab/ctxlab/simulate/paired"
	"github.com/ctxlab/ctxlab/simulate/sweep"
)

var update = flag.Bool("update", false, "rewrite the golden files")

const (
	corpus = "../../fixtures/testdata/projects"
	demo   = corpus + "/-home-dev-demo/d3e4f5a6-b7c8-4d9e-a0f1-b2c3d4e5f6a7.jsonl"
)

func run(t *testing.T, s *replay.Session, spec string) *simulate.Result {
	t.Helper()
	p, err := policies.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return simulate.Run(simulate.Prepare(s), p, simulate.DefaultConfig())
}

// replayDoc is replay's document over path; with policy, each session's
// run under it against the recorded one.
func replayDoc(t *testing.T, path, policy string) *report.Document {
	cfg := accounting.DefaultConfig()
	ss := corpusload.Path(t, path)
	var reps []*accounting.Report
	for _, s := range ss {
		reps = append(reps, accounting.Analyze(s, cfg))
	}
	doc := report.NewDocument(reps, cfg.Prices, []string{"x.jsonl: unreadable"})
	if policy != "" {
		for i, s := range ss {
			doc.Sessions[i].Simulation = run(t, s, policy)
			rec := run(t, s, "observed").Metrics
			doc.Sessions[i].Recorded = &rec
		}
	}
	return doc
}

func compareDoc(t *testing.T, path string, withFidelity bool) *report.CompareDocument {
	specs := []string{"observed", "claude-code", "keep-last-n:n=5"}
	var cs []*report.Compared
	var fid []report.Fidelity
	for _, s := range corpusload.Path(t, path) {
		tr := simulate.Prepare(s)
		var rs []*simulate.Result
		for _, spec := range specs {
			p, err := policies.Parse(spec)
			if err != nil {
				t.Fatal(err)
			}
			rs = append(rs, simulate.Run(tr, p, simulate.DefaultConfig()))
		}
		cs = append(cs, report.NewCompared(s, rs, true))
		if withFidelity {
			fid = append(fid, fidelity.New(s, tr, rs[0], rs[1], fidelity.DefaultTolerances()))
		}
	}
	return report.NewCompareDocument(specs, cs, fid, prices.Default(), nil)
}

func gateDoc(t *testing.T, baseline bool) *report.GateDocument {
	const spec = `{"version": 1, "limits": [
		{"name": "cost", "measure": "total_cost_usd", "max": 0.5},
		{"name": "cache hit ratio", "measure": "cache_hit_ratio", "min": 0.5},
		{"name": "peak", "measure": "peak_context", "of": "session_max", "max": 40000},
		{"name": "writes", "measure": "cache_write", "max_increase_pct": 10}]}`
	canon := func(s string) (string, error) {
		p, err := policies.Parse(s)
		if err != nil {
			return "", err
		}
		return p.Name(), nil
	}
	f, err := budget.Parse(strings.NewReader(spec), "budget.json", time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), canon)
	if err != nil {
		t.Fatal(err)
	}
	cfg := accounting.DefaultConfig()
	var all []budget.Sample
	for _, s := range corpusload.Path(t, corpus) {
		all = append(all, budget.SampleFromReport(accounting.Analyze(s, cfg)))
	}
	var base *budget.Result
	if baseline {
		base = budget.Evaluate(f, "base.json", all[:1], nil)
	}
	return &report.GateDocument{Result: budget.Evaluate(f, "budget.json", all, base), Baseline: base}
}

// sweepStatsDoc is sweepDoc with its statistics against n=2, and the
// Pareto front of cost and clearings, on which n=8 differs from n=2.
func sweepStatsDoc(t *testing.T) *report.SweepDocument {
	doc := sweepDoc(t)
	doc.Pareto = []string{"total_cost_usd", "clearings"}
	for i := range doc.Totals {
		doc.Totals[i].Pareto = true // both: n=8 clears less, and costs more
	}
	doc.Compare("keep-last-n:n=2", nil, paired.Options{})
	return doc
}

func sweepDoc(t *testing.T) *report.SweepDocument {
	points := []sweep.Point{
		{Spec: "keep-last-n:n=2", Base: "keep-last-n", Values: map[string]string{"n": "2"}},
		{Spec: "keep-last-n:n=8", Base: "keep-last-n", Values: map[string]string{"n": "8"}},
	}
	var rows []sweep.Row
	var inputs []report.SweepInput
	for _, s := range corpusload.Path(t, corpus) {
		inputs = append(inputs, report.SweepInput{Path: s.Path, SHA256: "00"})
		for i, p := range points {
			rows = append(rows, sweep.Row{Point: i, Session: s.ID, Project: s.Project, Metrics: run(t, s, p.Spec).Metrics})
		}
	}
	obj, _ := metric.Lookup("total_cost_usd")
	peak, _ := metric.Lookup("peak_context")
	con, _ := sweep.ParseConstraint("peak_context<=100000")
	grid := report.SweepGrid{Policies: []string{"keep-last-n"}, Vary: []sweep.Vary{{Param: "n", Values: []string{"2", "8"}}},
		Defaults: map[string]map[string]string{"keep-last-n": {"n": "5", "keep-first": "1"}}, Points: points}
	return report.NewSweepDocument("test", grid, obj, []sweep.Constraint{con}, []metric.Metric{obj, peak}, inputs, rows, nil)
}

func policyList() *report.PolicyList {
	return report.NewPolicyList([]report.PolicyInfo{
		{Name: "observed", Source: "built in", Doc: "the session as it happened"},
		{Name: "keep-last-n", Source: "built in", Doc: "keeps the last n messages and a summary of the rest, a long sentence that the text format wraps at its width so that it fits",
			Params: []report.ParamInfo{{Name: "n", Default: "5", Range: "1..", Doc: "messages kept"}, {Name: "label", Default: "", Doc: "a name"}}},
	})
}

// TestGolden draws every document in every format view writes, at
// several widths, against golden files (go test -update rewrites them).
func TestGolden(t *testing.T) {
	type c struct {
		name string
		doc  report.Doc
		opt  report.Options
	}
	replayOne := replayDoc(t, demo, "claude-code")
	corpusDoc := replayDoc(t, corpus, "")
	byDay := replayDoc(t, corpus, "")
	var reps []*accounting.Report
	for _, s := range byDay.Sessions {
		reps = append(reps, s.Report)
	}
	byDay.By = "day"
	byDay.Groups = accounting.Groups(reps, accounting.ByDay, nil, prices.Default())
	byModel := replayDoc(t, corpus, "")
	byModel.By = "model"
	byModel.Groups = accounting.Groups(reps, accounting.ByModel, nil, prices.Default())
	bySession := replayDoc(t, corpus, "")
	bySession.By = "session"
	bySession.Groups = accounting.Groups(reps, accounting.BySession, nil, prices.Default())
	cases := []c{
		{"replay-demo.txt", replayOne, report.Options{Calls: true}},
		{"replay-demo-60.txt", replayOne, report.Options{Width: 60, Top: 2}},
		{"replay-demo.md", replayOne, report.Options{Format: report.Markdown}},
		{"replay-demo-calls.csv", replayOne, report.Options{Format: report.CSV, Sections: []string{"simulated_calls"}}},
		{"replay-corpus.txt", corpusDoc, report.Options{Width: 100, PerSession: true}},
		{"replay-corpus-sessions.csv", corpusDoc, report.Options{Format: report.CSV}},
		{"replay-corpus-breaks.csv", corpusDoc, report.Options{Format: report.CSV, Sections: []string{"breaks"}}},
		{"replay-by-day.txt", byDay, report.Options{Width: 80}},
		{"replay-by-day.csv", byDay, report.Options{Format: report.CSV}},
		{"replay-by-day-breakdown.txt", byDay, report.Options{Width: 100, Breakdown: true}},
		{"replay-by-day-breakdown.csv", byDay, report.Options{Format: report.CSV, Breakdown: true}},
		{"replay-by-model-breakdown.txt", byModel, report.Options{Width: 60, Breakdown: true}},
		{"replay-by-model.txt", byModel, report.Options{Width: 60}},
		{"replay-by-model.csv", byModel, report.Options{Format: report.CSV}},
		{"replay-by-session.txt", bySession, report.Options{Width: 100}},
		{"replay-by-session.csv", bySession, report.Options{Format: report.CSV}},
		{"replay-by-session-breakdown.csv", bySession, report.Options{Format: report.CSV, Breakdown: true}},
		{"replay-corpus-tokens.md", corpusDoc, report.Options{Format: report.Markdown, Sections: []string{"tokens", "usage"}}},
		{"compare.txt", compareDoc(t, corpus, true), report.Options{Width: 100, PerSession: true}},
		{"compare-demo.txt", compareDoc(t, demo, false), report.Options{Calls: true}},
		{"compare.md", compareDoc(t, corpus, true), report.Options{Format: report.Markdown}},
		{"compare.csv", compareDoc(t, corpus, true), report.Options{Format: report.CSV}},
		{"compare-fidelity.csv", compareDoc(t, corpus, true), report.Options{Format: report.CSV, Sections: []string{"fidelity"}}},
		{"compare-fidelity-summary.csv", compareDoc(t, corpus, true), report.Options{Format: report.CSV, Sections: []string{"fidelity_summary"}}},
		{"compare-calls.csv", compareDoc(t, demo, false), report.Options{Format: report.CSV, Sections: []string{"simulated_calls"}}},
		{"gate.txt", gateDoc(t, false), report.Options{Width: 100}},
		{"gate-baseline.txt", gateDoc(t, true), report.Options{Width: 60}},
		{"gate-baseline.md", gateDoc(t, true), report.Options{Format: report.Markdown}},
		{"gate.csv", gateDoc(t, false), report.Options{Format: report.CSV}},
		{"gate-baseline.csv", gateDoc(t, true), report.Options{Format: report.CSV}},
		{"gate.xml", gateDoc(t, true), report.Options{Format: report.JUnit}},
		{"sweep.txt", sweepDoc(t), report.Options{Width: 100}},
		{"sweep-60.txt", sweepDoc(t), report.Options{Width: 60}},
		{"sweep.md", sweepDoc(t), report.Options{Format: report.Markdown}},
		{"sweep.csv", sweepDoc(t), report.Options{Format: report.CSV}},
		{"sweep-stats.txt", sweepStatsDoc(t), report.Options{Width: 100}},
		{"sweep-stats.md", sweepStatsDoc(t), report.Options{Format: report.Markdown}},
		{"sweep-stats.tex", sweepStatsDoc(t), report.Options{Format: report.Latex}},
		{"sweep-totals.csv", sweepStatsDoc(t), report.Options{Format: report.CSV, Sections: []string{"totals"}}},
		{"sweep-pareto.csv", sweepStatsDoc(t), report.Options{Format: report.CSV, Sections: []string{"pareto"}}},
		{"policies.txt", policyList(), report.Options{}},
		{"policies.md", policyList(), report.Options{Format: report.Markdown}},
		{"policies.csv", policyList(), report.Options{Format: report.CSV}},
	}
	for _, c := range cases {
		var b bytes.Buffer
		if err := render.Write(&b, c.doc, c.opt); err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		path := filepath.Join("testdata", c.name)
		if *update {
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (go test -update writes it)", err)
		}
		if !bytes.Equal(b.Bytes(), want) {
			t.Errorf("%s differs from the golden file:\n%s", c.name, b.String())
		}
	}
	for _, c := range []c{
		{"junit", policyList(), report.Options{Format: report.JUnit}},
		{"csv table", corpusDoc, report.Options{Format: report.CSV, Sections: []string{"nope"}}},
		{"groups without by", corpusDoc, report.Options{Format: report.CSV, Sections: []string{"groups"}}},
		{"compare csv", compareDoc(t, demo, false), report.Options{Format: report.CSV, Sections: []string{"fidelity"}}},
		{"sweep csv", sweepDoc(t), report.Options{Format: report.CSV, Sections: []string{"nope"}}},
	} {
		if err := render.Write(&bytes.Buffer{}, c.doc, c.opt); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}
