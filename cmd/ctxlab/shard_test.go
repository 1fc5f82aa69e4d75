package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/internal/testcorpus"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/render"
)

// corpora are the genuine transcripts' folders there are, or the
// fixtures when there are none.
func corpora(names ...string) []string {
	var dirs []string
	for _, name := range names {
		if dir, ok := testcorpus.Path(name); ok {
			dirs = append(dirs, dir)
		}
	}
	if len(dirs) == 0 {
		return []string{fixtures}
	}
	return dirs
}

// sharded runs args as n shards, each writing its part into dir, and
// merges the parts named in an order drawn with seed: what the merge
// writes and its exit code.
func sharded(t *testing.T, dir string, n int, seed uint64, args []string) (string, string, int) {
	t.Helper()
	var parts []string
	for k := 1; k <= n; k++ {
		out, errOut, code := ctxlab(t, "", nil, append(args, "--shard", fmt.Sprintf("%d/%d", k, n))...)
		if code != 0 {
			t.Fatalf("%v --shard %d/%d: exit %d: %s", args, k, n, code, errOut)
		}
		path := filepath.Join(dir, fmt.Sprintf("%s-%d-of-%d.json", args[0], k, n))
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, path)
	}
	r := rand.New(rand.NewPCG(seed, uint64(n)))
	r.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
	return ctxlab(t, "", nil, append([]string{"merge"}, parts...)...)
}

// sameAsOneRun checks that the merge of args's shards writes what one
// run writes, with its exit code.
func sameAsOneRun(t *testing.T, dir string, ns []int, args []string) {
	t.Helper()
	want, wantErr, wantCode := ctxlab(t, "", nil, args...)
	if want == "" {
		t.Fatalf("%v: no output (exit %d): %s", args, wantCode, wantErr)
	}
	for _, n := range ns {
		got, errOut, code := sharded(t, dir, n, 46, args)
		if code != wantCode || got != want {
			t.Errorf("%s over %d shards: exit %d, want %d (%s); output %s", strings.Join(args, " "), n, code, wantCode, strings.TrimSpace(errOut), firstDiff(want, got))
		}
	}
}

// The merge of every command's shards, for N = 1, 2, 3, 7 and 16, over
// every set of genuine transcripts together, is byte for byte what one
// run writes in JSON, with the same exit code (gate's budget is broken
// on them: 1). JSON holds every figure the other formats print, from the
// same document, so the other formats are checked over one N
// (TestShardFormats).
func TestShardMergeAllN(t *testing.T) {
	paths := corpora(testcorpus.All...)
	dir := t.TempDir()
	ns := []int{1, 2, 3, 7, 16}
	if raceEnabled {
		paths, ns = corpora(testcorpus.Realdata), []int{3, 16}
	}
	json := string(report.JSON)
	for _, args := range [][]string{
		{"replay", "--format", json},
		{"replay", "--format", json, "--by", "week"},
		{"compare", "--format", json, "--policy", "observed,claude-code", "--fidelity", "--by", "version", "--bootstrap", "200"},
		{"sweep", "--format", json, "--policy", "claude-code", "--vary", "pct=70,90", "--pareto", "total_cost_usd,peak_context", "--bootstrap", "200"},
		{"gate", "--format", json, "--budget", "../../docs/examples/budget.json"},
	} {
		sameAsOneRun(t, dir, ns, append(args, paths...))
	}
}

// Every format of every command: the merge of three shards writes what
// one run writes, over the smaller two sets (the formats differ in how
// they write the document, not in what the document holds).
func TestShardFormats(t *testing.T) {
	paths := corpora(testcorpus.Realdata, testcorpus.Calibration)
	if raceEnabled {
		paths = corpora(testcorpus.Realdata)
	}
	dir := t.TempDir()
	for _, c := range []struct {
		kind report.Kind
		args []string
	}{
		{report.ReplayKind, []string{"replay", "--policy", "claude-code"}},
		{report.CompareKind, []string{"compare", "--policy", "observed,none", "--bootstrap", "100"}},
		{report.SweepKind, []string{"sweep", "--policy", "claude-code", "--vary", "pct=70,90", "--pareto", "total_cost_usd,peak_context", "--bootstrap", "100"}},
		{report.GateKind, []string{"gate", "--budget", "../../docs/examples/budget.json"}},
	} {
		for _, f := range render.For(c.kind) {
			if f == string(report.JSON) {
				continue // TestShardMergeAllN
			}
			args := append(append(append([]string{}, c.args...), "--format", f), paths...)
			if c.kind == report.ReplayKind && f == string(report.HTML) {
				args = append([]string{"replay", "--format", f}, paths...) // the page draws the observed run
			}
			sameAsOneRun(t, dir, []int{3}, args)
		}
	}
	// The plots of every session and of the whole input, listed as one
	// run lists them.
	plots := filepath.Join(dir, "plots")
	sameAsOneRun(t, dir, []int{2}, append([]string{"compare", "--policy", "observed,none", "--plot", plots, "--plot-format", "svg"}, paths[0]))
}

// A bad --shard is a usage error that names the flag and the value, and
// merge refuses parts that cannot make one run's output (exit 2).
func TestShardErrors(t *testing.T) {
	for _, v := range []string{"0/3", "4/3", "1/0", "x/y", "3"} {
		_, errOut, code := ctxlab(t, "", nil, "replay", "--shard", v, fixtures)
		if code != exitUsage || !strings.Contains(errOut, fmt.Sprintf("--shard %q", v)) {
			t.Errorf("--shard %s: exit %d, %q", v, code, errOut)
		}
	}
	dir := t.TempDir()
	part := func(name string, args ...string) string {
		out, errOut, code := ctxlab(t, "", nil, append(args, fixtures)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	p1, p2 := part("p1", "replay", "--shard", "1/2"), part("p2", "replay", "--shard", "2/2")
	q2 := part("q2", "replay", "--shard", "2/2", "--top", "3")
	cut := filepath.Join(dir, "cut")
	b, _ := os.ReadFile(p2)
	os.WriteFile(cut, b[:len(b)-20], 0o644)
	for _, c := range []struct {
		parts []string
		msg   string
	}{
		{[]string{p1}, "shard 2/2 missing"},
		{[]string{p1, p2, p1}, "shard 1/2 given twice"},
		{[]string{p1, q2}, "made with different flags"},
		{[]string{p1, cut}, "cut short"},
		{[]string{p1, "../../docs/examples/budget.json"}, "not a ctxlab part"},
	} {
		_, errOut, code := ctxlab(t, "", nil, append([]string{"merge"}, c.parts...)...)
		if code != exitUsage || !strings.Contains(errOut, c.msg) {
			t.Errorf("merge %v: exit %d, %q; want 2 and %q", c.parts, code, errOut, c.msg)
		}
	}
	// A shard given no session writes a part; the merge is one run's.
	sameAsOneRun(t, dir, []int{16}, []string{"replay", "--format", string(report.JSON), demo})
	// --strict: the shards exit 0, the merge 1 as one run does, for the
	// malformed line of one shard's session.
	sameAsOneRun(t, dir, []int{2}, []string{"replay", "--strict", "../../docs/examples/broken.jsonl", demo})
}

// export's shards write their own files into one folder: together, the
// rows one export writes, and no file of one shard overwrites another's.
func TestShardExport(t *testing.T) {
	one, all := filepath.Join(t.TempDir(), "one"), filepath.Join(t.TempDir(), "all")
	for _, format := range []string{"ndjson", "parquet"} {
		if _, errOut, code := ctxlab(t, "", nil, "export", "--format", format, "--overwrite", "-o", one, fixtures); code != 0 {
			t.Fatalf("export: %s", errOut)
		}
		for k := 1; k <= 3; k++ {
			if _, errOut, code := ctxlab(t, "", nil, "export", "--format", format, "--shard", fmt.Sprintf("%d/3", k), "-o", all, fixtures); code != 0 {
				t.Fatalf("export --shard %d/3: %s", k, errOut)
			}
		}
		if format == "ndjson" {
			if a, b := ndjsonRows(t, one), ndjsonRows(t, all); a != b {
				t.Errorf("the shards' rows differ from one export's: %s", firstDiff(a, b))
			}
		}
		files, _ := filepath.Glob(filepath.Join(all, "ctxlab-export-shard-*-of-3.json"))
		if len(files) != 3 {
			t.Errorf("%s: manifests %v", format, files)
		}
	}
}

// ndjsonRows are the rows of an export's NDJSON files, each table's
// sorted, so that files split differently compare equal.
func ndjsonRows(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(path, ".ndjson") {
			return err
		}
		b, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, filepath.Dir(path))
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			lines = append(lines, rel+" "+l)
		}
		return err
	})
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}
