package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/internal/testcorpus"
	"github.com/ctxlab/ctxlab/report"
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
