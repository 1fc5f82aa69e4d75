package batch

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/export"
	"github.com/ctxlab/ctxlab/report/plots"
	"github.com/ctxlab/ctxlab/report/render"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/budget"
	"github.com/ctxlab/ctxlab/simulate/fidelity"
	"github.com/ctxlab/ctxlab/simulate/metric"
	"github.com/ctxlab/ctxlab/simulate/paired"
	"github.com/ctxlab/ctxlab/simulate/sweep"
)

func compile(t *testing.T, spec string) policies.Compiled {
	t.Helper()
	c, err := policies.Compile(spec)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func compileList(t *testing.T, list string) []policies.Compiled {
	t.Helper()
	cs, err := policies.CompileList(list)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// sessions loads the fixtures' sessions, in input order.
func sessions(t *testing.T) []*replay.Session {
	t.Helper()
	var out []*replay.Session
	for _, src := range inputs(t).Sources {
		s, err := replay.Load(src, replay.Options{})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// Replay's document is each session's report and, under a policy, its
// run and the recorded run beside it; the grouped view and the window
// come from the plan and the selection.
func TestReplay(t *testing.T) {
	in, ss := inputs(t), sessions(t)
	keep := compile(t, "keep-last-n")
	o := options(&bytes.Buffer{})
	o.Selection = replay.Selection{Since: 1, Until: time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()}
	doc, w, out, err := Replay(in, o, ReplayPlan{Policy: &keep, By: accounting.ByDay, Location: time.UTC})
	if err != nil || len(w.Paths)+len(w.Errs) != 0 || !out.Clean() {
		t.Fatalf("%v, %v, %+v", err, w, out)
	}
	if len(doc.Sessions) != len(ss) || doc.Since != 1 || doc.Until == 0 || doc.By != "day" || len(doc.Groups) == 0 || doc.GroupsTotal == nil {
		t.Fatalf("document: %d sessions, window %v–%v, by %q, %d groups", len(doc.Sessions), doc.Since, doc.Until, doc.By, len(doc.Groups))
	}
	for i, s := range doc.Sessions {
		tr := simulate.Prepare(ss[i])
		if s.Summary.ID != ss[i].ID || s.Simulation == nil || s.Simulation.Metrics != keep.Run(tr, o.Simulation).Metrics {
			t.Errorf("session %d: %s, its run %v", i, s.Summary.ID, s.Simulation)
		}
		if s.Recorded == nil || *s.Recorded != policies.Observed().Run(tr, o.Simulation).Metrics {
			t.Errorf("session %d: recorded %v", i, s.Recorded)
		}
	}
	obs := policies.Observed()
	doc, _, _, err = Replay(in, options(&bytes.Buffer{}), ReplayPlan{Policy: &obs})
	if err != nil || doc.Sessions[0].Simulation == nil || doc.Sessions[0].Recorded != nil || doc.By != "" || doc.Groups != nil {
		t.Errorf("under observed: %v; the recorded run beside itself, or a grouped view", err)
	}
	doc, _, _, err = Replay(in, options(&bytes.Buffer{}), ReplayPlan{})
	if err != nil || doc.Sessions[0].Simulation != nil || doc.Since != 0 {
		t.Errorf("without a policy: %v, %v", err, doc.Sessions[0].Simulation)
	}
	if _, _, _, err := Replay(&Inputs{}, options(&bytes.Buffer{}), ReplayPlan{}); !errors.Is(err, ErrNoSession) {
		t.Errorf("no session: %v", err)
	}
}

// Under Plots, Replay draws each session's plots and, with several, the
// whole input's, listed in that order; one session has no totals.
func TestReplayPlots(t *testing.T) {
	in := inputs(t)
	obs := policies.Observed()
	dir := t.TempDir()
	p := &Plots{Dir: dir, Format: "svg", Options: plots.Options{Top: 5}}
	doc, w, _, err := Replay(in, options(&bytes.Buffer{}), ReplayPlan{Policy: &obs, Plots: p})
	if err != nil || len(w.Errs) > 0 {
		t.Fatal(err, w.Errs)
	}
	names := sessionNames(in.Sources)
	var want []string
	for i, s := range doc.Sessions {
		for _, f := range plots.SessionFiles(names[i], []*simulate.Result{s.Simulation}, s.Report, "svg", p.Options) {
			want = append(want, filepath.Join(dir, f.Name))
		}
	}
	for _, f := range plots.TotalFiles(doc.Total, "svg", p.Options) {
		want = append(want, filepath.Join(dir, f.Name))
	}
	if !slices.Equal(w.Paths, want) {
		t.Errorf("wrote %q\nwant %q", w.Paths, want)
	}
	for _, path := range w.Paths {
		if b, err := os.ReadFile(path); err != nil || !bytes.HasPrefix(b, []byte("<?xml")) {
			t.Errorf("%s: %v", path, err)
		}
	}
	_, w, _, _ = Replay(&Inputs{Sources: in.Sources[:1]}, options(&bytes.Buffer{}), ReplayPlan{Policy: &obs, Plots: &Plots{Dir: t.TempDir(), Format: "svg"}})
	if n := len(plots.SessionFiles("x", []*simulate.Result{{Metrics: simulate.Metrics{Calls: 1}}}, &accounting.Report{}, "svg", plots.Options{})); len(w.Paths) > n+2 || len(w.Paths) == 0 {
		t.Errorf("one session: %d plots", len(w.Paths))
	}
}

// ReplayStream writes the bytes of the document Replay gives, a session
// at a time, and nothing when no session is read; a write error is the
// batch's error, after every session is read.
func TestReplayStream(t *testing.T) {
	in := inputs(t)
	keep := compile(t, "keep-last-n")
	doc, _, _, err := Replay(in, options(&bytes.Buffer{}), ReplayPlan{Policy: &keep})
	if err != nil {
		t.Fatal(err)
	}
	var whole, streamed bytes.Buffer
	if err := render.Write(&whole, doc, report.Options{Format: report.JSON}); err != nil {
		t.Fatal(err)
	}
	spec, _ := render.Lookup(report.JSON)
	var log bytes.Buffer
	out, err := ReplayStream(in, options(&log), ReplayPlan{Policy: &keep, Plots: &Plots{Dir: "/nonexistent"}}, &streamed, spec.Stream)
	if err != nil || !out.Clean() {
		t.Fatal(err, out)
	}
	if !bytes.Equal(whole.Bytes(), streamed.Bytes()) {
		t.Error("the stream differs from the document")
	}
	streamed.Reset()
	if _, err := ReplayStream(&Inputs{}, options(&log), ReplayPlan{}, &streamed, spec.Stream); !errors.Is(err, ErrNoSession) || streamed.Len() > 0 {
		t.Errorf("no session: %v, wrote %d bytes", err, streamed.Len())
	}
	var read atomic.Int64 // the callback runs on the pool's workers
	out, err = ReplayStream(in, options(&log), ReplayPlan{}, failing{}, spec.Stream)
	if err == nil || !strings.HasPrefix(err.Error(), "writing report: ") || out == nil {
		t.Errorf("a failing writer: %v", err)
	}
	_, _, _ = Collect(in, options(&log), func(*Session) int { read.Add(1); return 0 })
	if n := read.Load(); n != int64(len(in.Sources)) {
		t.Errorf("read %d", n)
	}
}

type failing struct{}

func (failing) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// Compare's document runs each policy once per session, the statistics
// against the baseline and, under Fidelity, each session's fidelity row
// from the observed and claude-code runs, listed or not.
func TestCompare(t *testing.T) {
	in, ss := inputs(t), sessions(t)
	cost, err := metric.LookupMeasure("total_cost_usd")
	if err != nil {
		t.Fatal(err)
	}
	for _, list := range []string{"observed,none,claude-code", "none,keep-last-n"} {
		cs, err := policies.CompileList(list)
		if err != nil {
			t.Fatal(err)
		}
		var log bytes.Buffer
		o := options(&log)
		doc, w, out, err := Compare(in, o, ComparePlan{Policies: cs, Fidelity: true, FidelityBy: fidelity.ByVersion, Baseline: 1, Measures: []metric.Metric{cost}, Stats: paired.Options{Resamples: 100}})
		if err != nil || !out.Clean() || len(w.Paths) > 0 {
			t.Fatal(err, out, w)
		}
		if !slices.Equal(doc.Policies, policies.CompiledNames(cs)) || len(doc.Sessions) != len(ss) || len(doc.Fidelity) != len(ss) {
			t.Fatalf("%s: policies %v, %d sessions, %d fidelity rows", list, doc.Policies, len(doc.Sessions), len(doc.Fidelity))
		}
		if doc.ComparisonSettings.Baseline != cs[1].Name() || len(doc.Comparisons) != len(cs)-1 || doc.FidelityBy != fidelity.ByVersion || doc.FidelityGroups == nil {
			t.Errorf("%s: comparisons %+v, fidelity by %q", list, doc.ComparisonSettings, doc.FidelityBy)
		}
		for i, s := range ss {
			tr := simulate.Prepare(s)
			for j, c := range cs {
				if got := doc.Sessions[i].Runs[j].Metrics; got != c.Run(tr, o.Simulation).Metrics {
					t.Errorf("%s: session %d, %s: %+v", list, i, c.Name(), got)
				}
			}
			if doc.Sessions[i].Runs[0].Calls != nil {
				t.Errorf("%s: calls kept without Calls", list)
			}
			want := fidelity.New(s, tr, policies.Observed().Run(tr, o.Simulation), policies.ClaudeCode().Run(tr, o.Simulation), fidelity.DefaultTolerances())
			if got := doc.Fidelity[i]; got.Session != want.Session || got.SimulatedCacheWrite != want.SimulatedCacheWrite || got.RealAutoCompaction != want.RealAutoCompaction || got.CallWriteError != want.CallWriteError {
				t.Errorf("%s: session %d's fidelity row differs", list, i)
			}
		}
	}
	cs := compileList(t, "observed")
	doc, _, _, err := Compare(in, options(&bytes.Buffer{}), ComparePlan{Policies: cs, Calls: true})
	if err != nil || doc.Fidelity != nil || doc.Sessions[0].Runs[0].Result(doc.Sessions[0]) == nil {
		t.Errorf("with calls, without fidelity: %v", err)
	}
	if _, _, _, err := Compare(&Inputs{}, options(&bytes.Buffer{}), ComparePlan{Policies: cs}); !errors.Is(err, ErrNoSession) {
		t.Errorf("no session: %v", err)
	}
}

// A model without a price is said on the log and marks the comparison's
// cost partial.
func TestCompareUnpriced(t *testing.T) {
	in := inputs(t)
	var log bytes.Buffer
	o := options(&log)
	o.Simulation.Prices = &prices.Table{Date: "never", Models: map[string]prices.Price{}}
	cs := compileList(t, "observed")
	doc, _, _, err := Compare(in, o, ComparePlan{Policies: cs})
	if err != nil {
		t.Fatal(err)
	}
	if !doc.CostPartial || len(doc.UnpricedModels) == 0 || !strings.Contains(log.String(), "has no price") {
		t.Errorf("unpriced: %v %v\n%s", doc.CostPartial, doc.UnpricedModels, log.String())
	}
}

// Under Plots, Compare draws each session's runs and the cost of each
// policy, with its intervals when the statistics resample.
func TestComparePlots(t *testing.T) {
	in := inputs(t)
	cs := compileList(t, "observed,none")
	cost, _ := metric.LookupMeasure("total_cost_usd")
	dir := t.TempDir()
	p := &Plots{Dir: dir, Format: "svg"}
	doc, w, _, err := Compare(in, options(&bytes.Buffer{}), ComparePlan{Policies: cs, Plots: p, Measures: []metric.Metric{cost}, Stats: paired.Options{Resamples: 50}})
	if err != nil || len(w.Errs) > 0 {
		t.Fatal(err, w.Errs)
	}
	totals := CompareTotalFiles(doc.Policies, doc.Total, doc.SessionsWithoutCalls, doc.ComparisonSettings, doc.Comparisons, p)
	if len(totals) == 0 || w.Paths[len(w.Paths)-1] != filepath.Join(dir, totals[len(totals)-1].Name) {
		t.Errorf("the cost by policy is not last: %q", w.Paths)
	}
	if len(w.Paths) <= len(totals) {
		t.Errorf("no session plots: %q", w.Paths)
	}
	var with, without bytes.Buffer
	if err := totals[0].Figure.Write(&with, "svg"); err != nil {
		t.Fatal(err)
	}
	if err := CompareTotalFiles(doc.Policies, doc.Total, 0, nil, nil, p)[0].Figure.Write(&without, "svg"); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(with.Bytes(), without.Bytes()) {
		t.Error("the cost plot draws no intervals")
	}
	set := *doc.ComparisonSettings
	set.Resamples = 0
	var none bytes.Buffer
	_ = CompareTotalFiles(doc.Policies, doc.Total, 0, &set, doc.Comparisons, p)[0].Figure.Write(&none, "svg")
	if !bytes.Equal(none.Bytes(), without.Bytes()) {
		t.Error("intervals drawn without resamples")
	}
}

// Sweep runs every point of the grid on every session and the baseline
// apart when it is none of the points; each input is recorded with the
// SHA-256 of its files.
func TestSweep(t *testing.T) {
	in, ss := inputs(t), sessions(t)
	points, err := sweep.Grid([]string{"keep-last-n"}, []sweep.Vary{{Param: "n", Values: []string{"2", "8"}}}, policies.Grid{})
	if err != nil {
		t.Fatal(err)
	}
	obj, _ := metric.Lookup("total_cost_usd")
	for _, c := range []struct {
		baseline string
		apart    bool
	}{{"observed", true}, {"keep-last-n:n=2", false}} {
		o := options(&bytes.Buffer{})
		plan := SweepPlan{Ctxlab: "test", Grid: report.SweepGrid{Policies: []string{"keep-last-n"}, Points: points}, Objective: obj, Baseline: c.baseline, Stats: paired.Options{Resamples: -1}}
		doc, w, out, err := Sweep(in, o, plan)
		if err != nil || !out.Clean() || len(w.Paths) > 0 {
			t.Fatal(err)
		}
		if len(doc.Rows) != 2*len(ss) || len(doc.Inputs) != len(ss) || doc.Ctxlab != "test" {
			t.Fatalf("%d rows, %d inputs", len(doc.Rows), len(doc.Inputs))
		}
		if doc.Baseline == nil || doc.Baseline.InGrid == c.apart || len(doc.Baseline.Rows) != len(ss) {
			t.Errorf("baseline %s: run apart %v", c.baseline, doc.Baseline)
		}
		for i, s := range ss {
			if want := compile(t, "keep-last-n:n=8").Run(simulate.Prepare(s), o.Simulation).Metrics; doc.Rows[len(ss)+i].Metrics != want {
				t.Errorf("point n=8, session %d: %+v", i, doc.Rows[len(ss)+i].Metrics)
			}
			if doc.Inputs[i].Path != in.Sources[i].Path || doc.Inputs[i].SHA256 != sha(t, in.Sources[i]) {
				t.Errorf("input %d: %+v", i, doc.Inputs[i])
			}
		}
	}
	plan := SweepPlan{Grid: report.SweepGrid{Points: []sweep.Point{{Spec: "nope"}}}, Baseline: "observed"}
	if _, _, _, err := Sweep(in, options(&bytes.Buffer{}), plan); err == nil {
		t.Error("a point that does not compile: no error")
	}
	plan = SweepPlan{Grid: report.SweepGrid{Points: points}, Baseline: "nope"}
	if _, _, _, err := Sweep(in, options(&bytes.Buffer{}), plan); err == nil {
		t.Error("a baseline that does not compile: no error")
	}
	plan = SweepPlan{Grid: report.SweepGrid{Points: points}, Baseline: "observed", Objective: obj}
	if _, _, _, err := Sweep(&Inputs{}, options(&bytes.Buffer{}), plan); !errors.Is(err, ErrNoSession) {
		t.Errorf("no session: %v", err)
	}
	if hashSource(replay.Source{Path: "-"}) != "" || hashSource(replay.Source{Path: filepath.Join(t.TempDir(), "gone")}) != "" {
		t.Error("a hash for standard input or a missing file")
	}
	if hashSource(replay.Source{Path: in.Sources[0].Path, Agents: []string{"/nonexistent"}}) != "" {
		t.Error("a hash when an agent file is missing")
	}
	if hashSource(replay.Source{Path: t.TempDir()}) != "" {
		t.Error("a hash of a directory")
	}
}

// sha is the SHA-256 of a source's main file, then its agents'.
func sha(t *testing.T, src replay.Source) string {
	h := sha256.New()
	for _, p := range append([]string{src.Path}, src.Agents...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Under Plots, Sweep draws the objective against the swept parameter,
// with the interval against the baseline when the statistics resample.
func TestSweepPlots(t *testing.T) {
	in := inputs(t)
	points, _ := sweep.Grid([]string{"keep-last-n"}, []sweep.Vary{{Param: "n", Values: []string{"2", "8"}}}, policies.Grid{})
	obj, _ := metric.Lookup("total_cost_usd")
	for _, resamples := range []int{-1, 50} {
		dir := t.TempDir()
		plan := SweepPlan{Grid: report.SweepGrid{Policies: []string{"keep-last-n"}, Vary: []sweep.Vary{{Param: "n", Values: []string{"2", "8"}}}, Points: points},
			Objective: obj, Baseline: "observed", Stats: paired.Options{Resamples: resamples}, Plots: &Plots{Dir: dir, Format: "svg"}}
		doc, w, _, err := Sweep(in, options(&bytes.Buffer{}), plan)
		if err != nil || len(w.Errs) > 0 || len(w.Paths) == 0 {
			t.Fatal(err, w)
		}
		iv := plots.Interval{}
		if resamples > 0 {
			iv = plots.Interval{Confidence: paired.DefaultConfidence, Baseline: "observed"}
		}
		want := plots.SweepFiles(points, doc.Totals, []string{"n"}, obj, nil, doc.ParetoComparisons, len(doc.Inputs), iv, doc.References(), "svg", plots.Options{})
		var a, b bytes.Buffer
		_ = want[0].Figure.Write(&a, "svg")
		got, err := os.ReadFile(w.Paths[0])
		if err != nil || len(want) != len(w.Paths) {
			t.Fatal(err)
		}
		b.Write(got)
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("resamples %d: the plot differs from SweepFiles'", resamples)
		}
	}
}

// Gate measures every session for the budget, each policy compiled once.
func TestGate(t *testing.T) {
	in, ss := inputs(t), sessions(t)
	file := budgetFile(t)
	samples, out, err := Gate(in, options(&bytes.Buffer{}), file)
	if err != nil || !out.Clean() || len(samples) != len(ss) {
		t.Fatal(err, out, len(samples))
	}
	for i, s := range ss {
		tr := simulate.Prepare(s)
		if samples[i].Session != s.ID || samples[i].Runs[""] != policies.Observed().Run(tr, simulate.DefaultConfig()).Metrics {
			t.Errorf("session %d: %+v", i, samples[i])
		}
		if samples[i].Runs["claude-code:pct=80"] != compile(t, "claude-code:pct=80").Run(tr, simulate.DefaultConfig()).Metrics {
			t.Errorf("session %d: claude-code:pct=80's run", i)
		}
	}
	if _, _, err := Gate(&Inputs{}, options(&bytes.Buffer{}), file); !errors.Is(err, ErrNoSession) {
		t.Errorf("no session: %v", err)
	}
}

func budgetFile(t *testing.T) *budget.File {
	t.Helper()
	f, err := os.Open("../../docs/examples/budget.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	file, err := budget.Parse(f, "budget.json", time.Now(), policies.Canon)
	if err != nil {
		t.Fatal(err)
	}
	return file
}

// Baseline reads an earlier gate's output, or a replay report measured
// for the budget; anything else is an error naming the file.
func TestBaseline(t *testing.T) {
	in := inputs(t)
	file := budgetFile(t)
	samples, _, _ := Gate(in, options(&bytes.Buffer{}), file)
	res := budget.Evaluate(file, "budget.json", samples, nil)
	var gate, rep bytes.Buffer
	if err := render.Write(&gate, &report.GateDocument{Result: res}, report.Options{Format: report.JSON}); err != nil {
		t.Fatal(err)
	}
	base, err := Baseline(gate.Bytes(), "g.json", file)
	if err != nil || base.Budget != res.Budget || len(base.Limits) != len(res.Limits) {
		t.Errorf("gate's output: %v", err)
	}
	doc, _, _, _ := Replay(in, options(&bytes.Buffer{}), ReplayPlan{})
	if err := render.Write(&rep, doc, report.Options{Format: report.JSON}); err != nil {
		t.Fatal(err)
	}
	base, err = Baseline(rep.Bytes(), "r.json", file)
	if err != nil || base.Budget != "r.json" || base.Sessions != len(in.Sources) {
		t.Errorf("replay's report: %v, %+v", err, base)
	}
	for _, c := range []struct{ data, want string }{
		{"not json", "x.json: not a JSON report"},
		{`{"schema": "ctxlab.compare", "version": 1}`, `x.json: schema "ctxlab.compare" version 1, want`},
		{`{"schema": "` + budget.Schema + `", "version": 1, "limits": 3}`, "x.json: limits: a number where an array was expected"},
		{`{"schema": "ctxlab.replay", "version": 1, "sessions": 3}`, "x.json: sessions: a number where an array was expected"},
		// A session embeds its report: its fields are named by the document's keys.
		{`{"schema": "ctxlab.replay", "version": 1, "sessions": [{"usage": "x"}]}`, "x.json: sessions.usage: a string where an object was expected"},
		{"[1]", "x.json: not a JSON report: an array where an object was expected"},
	} {
		if _, err := Baseline([]byte(c.data), "x.json", file); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.data, err, c.want)
		}
	}
}

// GitHub writes an annotation for each broken limit and appends the
// Markdown report to the job summary.
func TestGitHub(t *testing.T) {
	file := budgetFile(t)
	samples, _, _ := Gate(inputs(t), options(&bytes.Buffer{}), file)
	res := budget.Evaluate(file, "budget.json", samples, nil)
	var log bytes.Buffer
	summary := filepath.Join(t.TempDir(), "summary.md")
	if err := os.WriteFile(summary, []byte("before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := GitHub(&log, summary, res, nil); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(log.String(), "::error"); n != res.Failed || n == 0 {
		t.Errorf("%d annotations for %d broken limits:\n%s", n, res.Failed, log.String())
	}
	b, _ := os.ReadFile(summary)
	if !strings.HasPrefix(string(b), "before\n") || !strings.Contains(string(b), "| ") || !strings.HasSuffix(string(b), "\n\n") {
		t.Errorf("summary:\n%s", b)
	}
	log.Reset()
	if err := GitHub(&log, "", res, nil); err != nil || log.Len() == 0 {
		t.Errorf("no summary: %v", err)
	}
	if err := GitHub(&log, filepath.Join(t.TempDir(), "no", "summary.md"), res, nil); err == nil || !strings.Contains(err.Error(), "GITHUB_STEP_SUMMARY") {
		t.Errorf("a summary that cannot be written: %v", err)
	}
}

// Export adds each session's rows in input order, says what it wrote,
// and returns the manifest.
func TestExport(t *testing.T) {
	in := inputs(t)
	dir := t.TempDir()
	w, err := export.Create(dir, export.Options{Format: export.FormatNDJSON})
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	cs := compileList(t, "observed,none")
	m, out, err := Export(in, options(&log), cs, w, "DIR")
	if err != nil || !out.Clean() {
		t.Fatal(err, out)
	}
	if m.Sessions != len(in.Sources) || !strings.HasPrefix(log.String(), "wrote 4 sessions to DIR: calls ") || !strings.Contains(log.String(), ", simulated_calls ") || !strings.HasSuffix(log.String(), ")\n") {
		t.Errorf("manifest %+v, log %q", m, log.String())
	}
	w, _ = export.Create(t.TempDir(), export.Options{})
	if _, _, err := Export(&Inputs{}, options(&log), nil, w, "DIR"); !errors.Is(err, ErrNoSession) {
		t.Errorf("no session: %v", err)
	}
	broken := t.TempDir()
	w, _ = export.Create(broken, export.Options{})
	if err := os.RemoveAll(broken); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(broken, nil, 0o644); err != nil { // a file where the folder was
		t.Fatal(err)
	}
	if _, _, err := Export(in, options(&log), nil, w, "DIR"); err == nil || !strings.HasPrefix(err.Error(), "writing export: ") {
		t.Errorf("a folder gone: %v", err)
	}
}

// PolicyList lists the policies named, or every one, with their
// parameters.
func TestPolicyList(t *testing.T) {
	all, err := PolicyList(nil)
	if err != nil || len(all.Policies) != len(policies.Names()) {
		t.Fatalf("all: %v, %d", err, len(all.Policies))
	}
	l, err := PolicyList([]string{"keep-last-n", "observed"})
	if err != nil || len(l.Policies) != 2 || l.Policies[0].Name != "keep-last-n" || len(l.Policies[0].Params) == 0 || len(l.Policies[1].Params) != 0 {
		t.Errorf("named: %v, %+v", err, l)
	}
	e, ok := policies.Lookup("keep-last-n")
	if !ok {
		t.Fatal("no keep-last-n")
	}
	if p := l.Policies[0].Params[0]; p.Name != e.Params[0].Name || p.Default != e.Params[0].Default || p.Range != e.Params[0].Range || p.Doc != e.Params[0].Doc || l.Policies[0].Doc != e.Doc || l.Policies[0].Source != e.Source {
		t.Errorf("keep-last-n: %+v", l.Policies[0])
	}
	if _, err := PolicyList([]string{"nope"}); err == nil || !strings.Contains(err.Error(), `no policy "nope" (want one of `) {
		t.Errorf("unknown: %v", err)
	}
}
