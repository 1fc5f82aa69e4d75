package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ctxlab/ctxlab/internal/testcorpus"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/simulate/paired/pairedtest"
)

// TestSweepEqualsCompare: every point of a sweep on the real transcripts
// totals what compare gives for the same spec.
func TestSweepEqualsCompare(t *testing.T) {
	realdata := testcorpus.Dir(t, testcorpus.Realdata)
	out, errOut, code := ctxlab(t, "", nil, "sweep", "--format", "json", "--policy", "claude-code,keep-last-n:polling=3",
		"--vary", "pct=60..90:30", "--vary", "n=5,10", realdata)
	if code != exitOK {
		t.Fatalf("sweep: exit %d\n%s", code, errOut)
	}
	var doc report.SweepDocument
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Totals) != 4 || len(doc.Rows) != 4*12 || len(doc.Inputs) != 12 || doc.Inputs[0].SHA256 == "" {
		t.Fatalf("%d totals, %d rows, %d inputs", len(doc.Totals), len(doc.Rows), len(doc.Inputs))
	}
	var specs []string
	for _, tot := range doc.Totals {
		specs = append(specs, tot.Policy)
	}
	out, _, code = ctxlab(t, "", nil, "compare", "--format", "json", "--sessions=false", "--policy", strings.Join(specs, ","), realdata)
	if code != exitOK {
		t.Fatalf("compare: exit %d", code)
	}
	var cmp report.CompareDocument
	if err := json.Unmarshal([]byte(out), &cmp); err != nil {
		t.Fatal(err)
	}
	for i, tot := range doc.Totals {
		want := cmp.Total.Runs[i].Metrics
		if cmp.Total.Runs[i].Policy != tot.Policy || tot.Metrics != want {
			t.Errorf("%s: sweep %+v\ncompare %s %+v", tot.Policy, tot.Metrics, cmp.Total.Runs[i].Policy, want)
		}
	}
	// Best first: total cost never falls down the ranks.
	for i := 1; i < len(doc.Totals); i++ {
		if doc.Totals[i].Metrics.TotalCost < doc.Totals[i-1].Metrics.TotalCost {
			t.Errorf("rank %d costs less than rank %d", i+1, i)
		}
	}
}

func TestSweepErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "--vary", "n=1,2", fixtures}, "--policy: name at least one policy"},
		{[]string{"sweep", "--policy", "claude-code", "--vary", "n=1,2", fixtures}, `--vary n: no policy of claude-code has a parameter "n"`},
		{[]string{"sweep", "--policy", "keep-last-n", "--vary", "n=5..1", fixtures}, "--vary n=5..1: the range starts above its end"},
		{[]string{"sweep", "--policy", "keep-last-n", "--vary", "n=1,x", fixtures}, `policy "keep-last-n"`},
		{[]string{"sweep", "--policy", "keep-last-n", "--objective", "cost", fixtures}, `--objective: unknown metric "cost"`},
		{[]string{"sweep", "--policy", "keep-last-n", "--constraint", "peak=3", fixtures}, "--constraint"},
		{[]string{"sweep", "--policy", "keep-last-n", "--pareto", "total_cost_usd", fixtures}, "--pareto \"total_cost_usd\": want two metrics"},
	} {
		_, errOut, code := ctxlab(t, "", nil, tt.args...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
}

// TestSweepTidyCSV: the CSV is the rows table alone, one row per point and
// session, with the columns the JSON names and no total rows.
func TestSweepTidyCSV(t *testing.T) {
	out, _, code := ctxlab(t, "", nil, "sweep", "--format", "csv", "--policy", "keep-last-n", "--vary", "n=2,4,8", fixtures)
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.HasPrefix(lines[0], "policy,n,session,project,calls,peak_context,") || len(lines) != 1+3*4 {
		t.Errorf("rows: %d lines, header %q", len(lines), lines[0])
	}
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "keep-last-n:n=") {
			t.Errorf("row %q is not a point's", l)
		}
	}
}

// BenchmarkSweep is a 100-point grid (keep-last-n: n 1..50; claude-code:
// pct 51..100) over a generated corpus of CTXLAB_BENCH_MB megabytes
// (default 16). 400 MB takes 6.2 s on 2 cores (docs/sweep.md):
//
//	CTXLAB_BENCH_MB=400 go test -run XXX -bench Sweep -benchtime 1x ./cmd/ctxlab
func BenchmarkSweep(b *testing.B) {
	dir := benchCorpus(b, 16)
	benchLoop(b, []string{"sweep", "--format", "csv", "--policy", "keep-last-n,claude-code", "--vary", "n=1..50", "--vary", "pct=51..100", dir})
}

// sweep --plot draws the objective against each swept parameter, the
// heatmap of a base with both, and the Pareto front, lists them on
// standard error, and draws the same bytes again.
func TestSweepPlots(t *testing.T) {
	for _, format := range []string{"svg", "pdf"} {
		t.Run(format, func(t *testing.T) { testSweepPlots(t, format) })
	}
}

func testSweepPlots(t *testing.T, format string) {
	args := func(dir string) []string {
		return []string{"sweep", "--policy", "claude-code:window=60000,keep-last-n", "--vary", "pct=60..80:20", "--vary", "buffer=5000,10000",
			"--pareto", "total_cost_usd,peak_context", "--plot", dir, "--plot-format", format, "../../fixtures/testdata/projects"}
	}
	dir := t.TempDir()
	_, errOut, code := ctxlab(t, "", nil, args(dir)...)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	want := []string{
		"heatmap-total_cost_usd-claude-code_window_60000." + format,
		"pareto-total_cost_usd-peak_context." + format,
		"sweep-total_cost_usd-buffer." + format,
		"sweep-total_cost_usd-pct." + format,
	}
	if got := dirFiles(t, dir); !slices.Equal(got, want) {
		t.Errorf("files %v, want %v", got, want)
	}
	for _, name := range want {
		if !strings.Contains(errOut, "wrote "+filepath.Join(dir, name)+"\n") {
			t.Errorf("stderr does not list %s:\n%s", name, errOut)
		}
	}
	again := t.TempDir()
	if _, errOut, code := ctxlab(t, "", nil, args(again)...); code != exitOK {
		t.Fatalf("again: exit %d\n%s", code, errOut)
	}
	sameFiles(t, dir, again)
}

// quantileFits reports whether x can be the f quantile of a bootstrap of
// 10,000 resamples from the exact distribution changes: one of its values,
// with the share of values below it at most f and the share up to it at
// least f, each give or take 0.8% (five standard errors at f = 2.5%).
func quantileFits(changes []float64, x, f float64) bool {
	const tol = 0.008
	total := float64(len(changes))
	first := slices.Index(changes, x)
	if first < 0 {
		return false
	}
	last := first
	for last+1 < len(changes) && changes[last+1] == x {
		last++
	}
	return float64(first)/total <= f+tol && float64(last+1)/total >= f-tol
}

// TestSweepStats pins sweep's statistics on the fixtures by hand and by
// exact enumeration: each point against observed (run apart), then
// against a grid point, and the step along a Pareto front of cost and
// clearings on which keep-last-n:n=8 clears less than n=2.
func TestSweepStats(t *testing.T) {
	type stats struct {
		Policy, Baseline, Metric string
		Sessions                 int
		BaselineTotal            float64  `json:"baseline_total"`
		Total                    float64  `json:"total"`
		Change                   *float64 `json:"total_change_pct"`
		Low                      *float64 `json:"total_change_ci_low_pct"`
		High                     *float64 `json:"total_change_ci_high_pct"`
		P                        *float64 `json:"wilcoxon_p"`
		Significant              bool
		WilcoxonSignificant      bool `json:"wilcoxon_significant"`
	}
	type doc struct {
		Settings report.ComparisonSettings `json:"comparison_settings"`
		Baseline struct {
			Policy string
			InGrid bool `json:"in_grid"`
			Rows   []report.SweepRow
		}
		Rows   []report.SweepRow
		Totals []struct {
			Policy     string
			Sessions   int
			Low        *float64 `json:"objective_ci_low"`
			High       *float64 `json:"objective_ci_high"`
			Comparison stats
		}
		Pareto []stats `json:"pareto_comparisons"`
	}
	run := func(args ...string) (doc, string) {
		t.Helper()
		out, errOut, code := ctxlab(t, "", nil, append([]string{"sweep", "--format", "json", "--policy", "keep-last-n", "--vary", "n=2,8"}, append(args, fixtures)...)...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		var d doc
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatal(err)
		}
		return d, out
	}
	costs := func(rows []report.SweepRow, policy string) []float64 {
		var out []float64
		for _, r := range rows {
			if r.Policy == policy {
				out = append(out, r.Metrics.TotalCost)
			}
		}
		return out
	}
	sum := func(xs []float64) float64 {
		var s float64
		for _, x := range xs {
			s += x
		}
		return s
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9*max(1, math.Abs(b)) }

	// Against observed, run apart on every session: compare's costs
	// (docs/compare.md), all four sessions dearer under n=2 (p = 2/2⁴,
	// not significant by rank; every resample dearer too, so the
	// interval excludes 0 and decides: significant).
	d, out := run()
	if _, again := run(); again != out {
		t.Error("two runs differ")
	}
	obs := costs(d.Baseline.Rows, "observed")
	if d.Settings.Baseline != "observed" || d.Settings.Resamples != 10000 || d.Baseline.Policy != "observed" || d.Baseline.InGrid ||
		!slices.Equal(obs, []float64{0.298592, 0.810974, 0.218059, 0.167404}) {
		t.Fatalf("baseline %+v, settings %+v", d.Baseline, d.Settings)
	}
	n2, n8 := costs(d.Rows, "keep-last-n:n=2"), costs(d.Rows, "keep-last-n:n=8")
	for _, tot := range d.Totals {
		c := tot.Comparison
		v := costs(d.Rows, tot.Policy)
		ch := pairedtest.ExactChanges(obs, v)
		if c.Baseline != "observed" || c.Sessions != 4 || *c.P != 0.125 || c.WilcoxonSignificant || !c.Significant || !(*c.Low > 0) || !near(*c.Change, 100*(sum(v)/sum(obs)-1)) ||
			!quantileFits(ch, *c.Low, 0.025) || !quantileFits(ch, *c.High, 0.975) ||
			!near(*tot.Low, 1.495029*(1+*c.Low/100)) || !near(*tot.High, 1.495029*(1+*c.High/100)) {
			t.Errorf("%s: %+v, interval %v %v; want change %v", tot.Policy, c, *tot.Low, *tot.High, 100*(sum(v)/sum(obs)-1))
		}
	}

	// Against n=2, a point of the grid, with the front of cost and
	// clearings: n=8 clears 6 fewer in each session (16, 16, 13, 14 → 10,
	// 10, 7, 8), four tied differences, so the normal approximation:
	// W+ = 0, mean 4·5/4 = 5, variance 4·5·9/24 − (4³ − 4)/48 = 6.25,
	// z = −2, p = 2Φ(−2). Every resample's change is −24 / (its clearings
	// under n=2): the interval's ends by enumeration are −24/54 and −24/64.
	d, _ = run("--baseline", "keep-last-n:n=2", "--pareto", "total_cost_usd,clearings", "--alpha", "0.05")
	if !d.Baseline.InGrid || d.Baseline.Policy != "keep-last-n:n=2" || len(d.Pareto) != 2 {
		t.Fatalf("baseline %+v, %d steps", d.Baseline, len(d.Pareto))
	}
	clear := d.Pareto[1]
	if clear.Metric != "clearings" || clear.Baseline != "keep-last-n:n=2" || clear.Policy != "keep-last-n:n=8" || clear.BaselineTotal != 59 || clear.Total != 35 ||
		!near(*clear.Change, 100*(35.0/59-1)) || !near(*clear.P, 2*distuv.UnitNormal.CDF(-2)) || !clear.Significant || !clear.WilcoxonSignificant ||
		!near(*clear.Low, -2400.0/54) || *clear.High != -37.5 {
		t.Errorf("clearings step: %+v (change %v, p %v, interval %v %v)", clear, *clear.Change, *clear.P, *clear.Low, *clear.High)
	}
	ch := pairedtest.ExactChanges(n2, n8)
	cost := d.Pareto[0]
	if cost.Metric != "total_cost_usd" || !quantileFits(ch, *cost.Low, 0.025) || !quantileFits(ch, *cost.High, 0.975) || *cost.P != 0.125 ||
		cost.Significant != (*cost.Low > 0) || cost.WilcoxonSignificant {
		t.Errorf("cost step: %+v", cost)
	}
	for _, tot := range d.Totals {
		// The point's comparison with the baseline is the step's: the
		// same pair of runs, the same resamples.
		if tot.Policy == "keep-last-n:n=8" && (*tot.Comparison.Low != *cost.Low || !near(*tot.Low, sum(n2)*(1+*cost.Low/100)) || !near(*tot.High, sum(n2)*(1+*cost.High/100))) {
			t.Errorf("n=8 against n=2: %+v, objective interval %v %v", tot.Comparison, *tot.Low, *tot.High)
		}
	}

	// --alpha above p: significant by rank; --bootstrap 0: no interval,
	// so nothing significant, the test still; the table shows the change
	// whatever the tests say, differs (the interval's verdict) and p,
	// marked † where the test disagrees.
	d, _ = run("--alpha", "0.2", "--bootstrap", "0")
	if c := d.Totals[0].Comparison; c.Significant || !c.WilcoxonSignificant || c.Low != nil || d.Totals[0].Low != nil || *c.P != 0.125 || d.Settings.Resamples != 0 {
		t.Errorf("--alpha 0.2 --bootstrap 0: %+v, interval %v", c, d.Totals[0].Low)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--alpha", "0.2"}, "| +40.9% | yes     | 0.125 |"},
		{nil, "| +40.9% | yes     | 0.125† |"},
	} {
		text, _, _ := ctxlab(t, "", nil, append([]string{"sweep", "--wide", "--policy", "keep-last-n", "--vary", "n=2,8"}, append(c.args, fixtures)...)...)
		// One fixture session's output counts are placeholders: the cost
		// and its interval are lower bounds.
		if !strings.Contains(text, c.want) || !strings.Contains(text, "[≥$1.80, ≥$2.72]") {
			t.Errorf("%v: the table lacks %q or the interval:\n%s", c.args, c.want, text)
		}
	}

	// The tidy totals: the value and its interval side by side, as JSON.
	csv, _, code := ctxlab(t, "", nil, "sweep", "--format", "csv", "--section", "totals", "--policy", "keep-last-n", "--vary", "n=2,8", fixtures)
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	d, _ = run()
	if code != exitOK || len(lines) != 3 || !strings.HasPrefix(lines[0], "rank,policy,n,sessions,feasible,pareto,objective,value,lower_bound,ci_low,ci_high,") ||
		!strings.HasPrefix(lines[1], "1,keep-last-n:n=2,2,4,true,false,total_cost_usd,2.107179,true,"+strconv.FormatFloat(*d.Totals[0].Low, 'f', -1, 64)+","+strconv.FormatFloat(*d.Totals[0].High, 'f', -1, 64)+",") {
		t.Errorf("totals CSV:\n%s", csv)
	}
}

func TestSweepStatsErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--baseline", "nope"}, "--baseline: "},
		{[]string{"--baseline", " "}, "--baseline: want a policy spec"},
		{[]string{"--bootstrap", "-1"}, "--bootstrap -1: want 0 (no intervals) to 1000000"},
		{[]string{"--confidence", "1"}, "--confidence 1: want a number between 0 and 1"},
		{[]string{"--alpha", "0"}, "--alpha 0: want a number between 0 and 1"},
		{[]string{"--section", "totals"}, "--section totals: only with --format csv"},
		{[]string{"--format", "csv", "--section", "nope"}, `--section "nope": want one of rows, totals, pareto`},
		{[]string{"--format", "csv", "--section", "pareto"}, "--section pareto needs --pareto A,B"},
	} {
		_, errOut, code := ctxlab(t, "", nil, append([]string{"sweep", "--policy", "keep-last-n", "--vary", "n=2,8"}, append(tt.args, fixtures)...)...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
}

// TestSweepClaudeCodeReference: the study carries Claude Code's own
// scheme for its plots to draw beside the points (and the baseline): run
// apart on every session (its totals compare's), taken from the grid when
// a point is plain claude-code, and left out when it is the baseline.
func TestSweepClaudeCodeReference(t *testing.T) {
	type run struct {
		Policy  string
		InGrid  bool `json:"in_grid"`
		Metrics struct {
			TotalCost float64 `json:"total_cost_usd"`
		}
		Rows []report.SweepRow
	}
	sweepJSON := func(args ...string) map[string]json.RawMessage {
		t.Helper()
		out, errOut, code := ctxlab(t, "", nil, append(append([]string{"sweep", "--format", "json"}, args...), fixtures)...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		var d map[string]json.RawMessage
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatal(err)
		}
		return d
	}
	d := sweepJSON("--policy", "keep-last-n", "--vary", "n=2,8")
	var cc run
	if err := json.Unmarshal(d["claude_code"], &cc); err != nil {
		t.Fatalf("claude_code: %v", err)
	}
	// compare's claude-code over the four fixtures (docs/compare.md).
	if cc.Policy != "claude-code" || cc.InGrid || len(cc.Rows) != 4 || math.Abs(cc.Metrics.TotalCost-1.971376) > 1e-9 {
		t.Errorf("claude_code: %+v", cc)
	}
	d = sweepJSON("--policy", "keep-last-n,claude-code", "--vary", "n=2,8")
	if err := json.Unmarshal(d["claude_code"], &cc); err != nil || !cc.InGrid || len(cc.Rows) != 4 || cc.Rows[0].Values == nil {
		t.Errorf("claude-code a point of the grid: %+v (%v)", cc, err)
	}
	if d = sweepJSON("--policy", "keep-last-n", "--vary", "n=2,8", "--baseline", "claude-code"); d["claude_code"] != nil {
		t.Errorf("claude-code the baseline: claude_code %s, want it left out", d["claude_code"])
	}
}
