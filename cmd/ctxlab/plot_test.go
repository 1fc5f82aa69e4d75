package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const demoID = "d3e4f5a6-b7c8-4d9e-a0f1-b2c3d4e5f6a7"

// listed returns the paths a command listed, one a line, after prefix.
func listed(t *testing.T, out, prefix string) []string {
	t.Helper()
	var paths []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if p, ok := strings.CutPrefix(l, prefix); ok && l != "" {
			paths = append(paths, p)
		}
	}
	return paths
}

// dirFiles returns the names in dir, sorted; any file left there by a
// non-atomic write (a temporary) shows up here.
func dirFiles(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// sameFiles fails unless dirs a and b hold the same files, byte for byte.
func sameFiles(t *testing.T, a, b string) {
	t.Helper()
	na, nb := dirFiles(t, a), dirFiles(t, b)
	if !slices.Equal(na, nb) {
		t.Fatalf("%s has %v, %s has %v", a, na, b, nb)
	}
	for _, n := range na {
		x, _ := os.ReadFile(filepath.Join(a, n))
		y, _ := os.ReadFile(filepath.Join(b, n))
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between %s and %s", n, a, b)
		}
	}
}

func TestReplayPlot(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "plots") // created, parents too
	out, errOut, code := ctxlab(t, "", nil, "replay", "--plot", dir, "--format", "json", demo)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	want := []string{
		demoID + "-context.png", demoID + "-cost.png", demoID + "-cache-observed.png",
		demoID + "-tokens.png", demoID + "-duplicates.png",
	}
	var wantPaths []string
	for _, n := range want {
		wantPaths = append(wantPaths, filepath.Join(dir, n))
	}
	if got := listed(t, errOut, "wrote "); !slices.Equal(got, wantPaths) {
		t.Errorf("listed %q, want %q", got, wantPaths)
	}
	got := dirFiles(t, dir)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s holds %q, want %q", dir, got, want)
	}
	for _, n := range got {
		b, _ := os.ReadFile(filepath.Join(dir, n))
		if !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) {
			t.Errorf("%s is not a PNG", n)
		}
	}
	// --plot without --policy replays under observed, and says so in the
	// report: the plots are drawn from what the report holds.
	if !strings.Contains(out, `"simulation": {`) || !strings.Contains(out, `"policy": "observed"`) {
		t.Errorf("the report lacks the observed simulation the plots come from")
	}

	// ctxlab plot draws the same bytes from the saved report, from a file
	// and from standard input.
	report := filepath.Join(t.TempDir(), "r.json")
	if err := os.WriteFile(report, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	again := t.TempDir()
	pout, perr, code := ctxlab(t, "", nil, "plot", report, "-o", again)
	if code != exitOK {
		t.Fatalf("plot: exit %d\n%s", code, perr)
	}
	if len(listed(t, pout, "")) != len(want) {
		t.Errorf("plot listed:\n%s", pout)
	}
	sameFiles(t, dir, again)
	stdin := t.TempDir()
	if _, perr, code := ctxlab(t, out, nil, "plot", "-", "-o", stdin); code != exitOK {
		t.Fatalf("plot -: exit %d\n%s", code, perr)
	}
	sameFiles(t, dir, stdin)

	// A second run replaces the files in place, with nothing left over.
	if _, errOut, code := ctxlab(t, "", nil, "replay", "--plot", dir, demo); code != exitOK {
		t.Fatalf("second run: exit %d\n%s", code, errOut)
	}
	if got := dirFiles(t, dir); !slices.Equal(got, want) {
		t.Errorf("after a second run %s holds %q", dir, got)
	}
}

func TestComparePlot(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := ctxlab(t, "", nil, "compare", "--policy", "observed,claude-code,keep-last-n:n=3",
		"--calls", "--format", "json", "--plot", dir, "--plot-format", "svg", "--x", "time", fixtures)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	files := dirFiles(t, dir)
	for _, n := range []string{
		"total-cost.svg", demoID + "-context.svg", demoID + "-cost.svg",
		demoID + "-cache-observed.svg", demoID + "-cache-claude-code.svg", demoID + "-cache-keep-last-n_n_3.svg",
	} {
		if !slices.Contains(files, n) {
			t.Errorf("no %s among %q", n, files)
		}
	}
	for _, n := range files {
		if strings.Contains(n, "-tokens") || strings.Contains(n, "-duplicates") {
			t.Errorf("%s: compare reports no accounting, so draws none", n)
		}
	}
	if n := len(listed(t, errOut, "wrote ")); n != len(files) {
		t.Errorf("listed %d plots, wrote %d", n, len(files))
	}
	report := filepath.Join(t.TempDir(), "c.json")
	if err := os.WriteFile(report, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	again := t.TempDir()
	if _, perr, code := ctxlab(t, "", nil, "plot", "--plot-format", "svg", "--x", "time", report, "-o", again); code != exitOK {
		t.Fatalf("plot: exit %d\n%s", code, perr)
	}
	sameFiles(t, dir, again)
}

// TestPlotDeterministic: the plots do not depend on the number of workers.
func TestPlotDeterministic(t *testing.T) {
	var first string
	for _, jobs := range []string{"1", "3"} {
		dir := t.TempDir()
		if _, errOut, code := ctxlab(t, "", nil, "replay", "--jobs", jobs, "--plot", dir, "--plot-format", "svg", fixtures); code != exitOK {
			t.Fatalf("--jobs %s: exit %d\n%s", jobs, code, errOut)
		}
		if first == "" {
			first = dir
			continue
		}
		sameFiles(t, first, dir)
	}
}

// TestPlotSameSessionTwoProjects: a session id found in two projects gets
// the project in the second one's file names, in --plot and in plot alike.
func TestPlotSameSessionTwoProjects(t *testing.T) {
	in := t.TempDir()
	writeFile(t, in, "projects/-a/s1.jsonl", goodLine+"\n")
	writeFile(t, in, "projects/-b/s1.jsonl", goodLine+"\n")
	dir := t.TempDir()
	out, errOut, code := ctxlab(t, "", nil, "replay", "--format", "json", "--plot", dir, in)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	files := dirFiles(t, dir)
	for _, n := range []string{"s1-context.png", "s1_-b-context.png", "total-tokens.png", "total-duplicates.png"} {
		if !slices.Contains(files, n) {
			t.Errorf("no %s among %q", n, files)
		}
	}
	again := t.TempDir()
	if _, perr, code := ctxlab(t, out, nil, "plot", "-", "-o", again); code != exitOK {
		t.Fatalf("plot: exit %d\n%s", code, perr)
	}
	sameFiles(t, dir, again)
}

func TestPlotPartialReports(t *testing.T) {
	// A replay report without a simulation gives the accounting plots and
	// says what it cannot draw.
	out, _, _ := ctxlab(t, "", nil, "replay", "--format", "json", demo)
	dir := t.TempDir()
	pout, perr, code := ctxlab(t, out, nil, "plot", "-", "-o", dir)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, perr)
	}
	if got := dirFiles(t, dir); !slices.Equal(got, []string{demoID + "-duplicates.png", demoID + "-tokens.png"}) {
		t.Errorf("wrote %q\n%s", got, pout)
	}
	if !strings.Contains(perr, "1 session without a simulation") || !strings.Contains(perr, "replay --policy") {
		t.Errorf("stderr does not say why context, cost and cache are missing:\n%s", perr)
	}
	// A compare report without --calls has only the cost by policy.
	out, _, _ = ctxlab(t, "", nil, "compare", "--format", "json", demo)
	dir = t.TempDir()
	_, perr, code = ctxlab(t, out, nil, "plot", "-", "-o", dir)
	if code != exitOK || !strings.Contains(perr, "1 session without per-call results") || !strings.Contains(perr, "compare --calls") {
		t.Errorf("exit %d, want %d with a hint to use --calls:\n%s", code, exitOK, perr)
	}
	if got := dirFiles(t, dir); !slices.Equal(got, []string{"total-cost.png"}) {
		t.Errorf("wrote %q, want only total-cost.png", got)
	}
}

func TestPlotBadReports(t *testing.T) {
	good, _, _ := ctxlab(t, "", nil, "replay", "--format", "json", "--policy", "observed", fixtures)
	first := strings.Index(good, `"summary"`)
	second := strings.Index(good[first+1:], `"summary"`) + first + 1
	tmp := t.TempDir()
	tests := []struct {
		name, content string
		code          int
		stderr        string
		plotted       bool // some plots were written before the error
	}{
		{"empty.json", "", exitInput, "empty.json:1:1: empty input", false},
		{"binary.json", "\x00\x01\x02PK", exitInput, "binary.json:1:1: invalid JSON", false},
		{"array.json", "[1,2]", exitInput, "not a ctxlab JSON report", false},
		{"other.json", `{"schema":"something.else","sessions":[]}`, exitInput, `schema "something.else"`, false},
		{"later.json", `{"schema":"ctxlab.replay","version":99,"sessions":[]}`, exitInput, "version 99: written by a later ctxlab", false},
		{"noschema.json", `{"sessions":[]}`, exitInput, `it starts with "sessions", not "schema"`, false},
		{"nosessions.json", `{"schema":"ctxlab.replay","version":1,"sessions":[]}`, exitInput, "nothing to plot", false},
		// Cut in the second session: the first one's plots are kept.
		{"truncated.json", good[:second+40], exitInput, "the report is truncated", true},
		{"badvalue.json", good[:second] + `"summary": 7,` + good[second+len(`"summary": `):], exitInput, "truncated.json", true},
	}
	tests[len(tests)-1].stderr = "badvalue.json:"
	// A syntax error in the second session is placed exactly: the line
	// and column of the stray x.
	line := strings.Count(good[:second], "\n") + 1
	col := second - strings.LastIndex(good[:second], "\n")
	tests = append(tests, struct {
		name, content string
		code          int
		stderr        string
		plotted       bool
	}{"badsyntax.json", good[:second] + "x" + good[second:], exitInput, fmt.Sprintf("badsyntax.json:%d:%d: invalid JSON", line, col), true})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, tmp, tt.name, tt.content)
			dir := filepath.Join(t.TempDir(), "plots")
			out, errOut, code := ctxlab(t, "", nil, "plot", path, "-o", dir)
			if code != tt.code {
				t.Errorf("exit %d, want %d\n%s", code, tt.code, errOut)
			}
			if !strings.Contains(errOut, tt.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tt.stderr, errOut)
			}
			if strings.Contains(errOut, "panic") || strings.Contains(errOut, "goroutine") {
				t.Errorf("stack trace:\n%s", errOut)
			}
			if _, err := os.Stat(dir); !tt.plotted {
				if err == nil {
					t.Errorf("a run that drew nothing left %s", dir)
				}
				return
			}
			files := dirFiles(t, dir)
			if tt.plotted != (len(files) > 0) || len(listed(t, out, "")) != len(files) {
				t.Errorf("wrote %q, listed:\n%s", files, out)
			}
		})
	}
	// A directory is not a report.
	_, errOut, code := ctxlab(t, "", nil, "plot", tmp, "-o", t.TempDir())
	if code != exitInput || !strings.Contains(errOut, "a directory, not a JSON report") {
		t.Errorf("directory: exit %d\n%s", code, errOut)
	}
	// A missing report names the file.
	_, errOut, code = ctxlab(t, "", nil, "plot", filepath.Join(tmp, "missing.json"), "-o", t.TempDir())
	if code != exitInput || !strings.Contains(errOut, "missing.json") {
		t.Errorf("missing report: exit %d\n%s", code, errOut)
	}
}

func TestPlotUsageAndWriteErrors(t *testing.T) {
	for _, args := range [][]string{
		{"replay", "--x", "time", demo},
		{"replay", "--plot", t.TempDir(), "--x", "tokens", demo},
		{"compare", "--plot", t.TempDir(), "--plot-format", "gif", demo},
		{"compare", "--plot-top", "3", demo},
		{"plot"},
		{"plot", "a.json", "b.json"},
		{"plot", "a.json"}, // no -o: never the current directory unasked
	} {
		if _, errOut, code := ctxlab(t, "", nil, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d\n%s", args, code, exitUsage, errOut)
		}
	}
	// The plot directory is a file: exit 1 before any work.
	file := writeFile(t, t.TempDir(), "f", "x")
	out, errOut, code := ctxlab(t, "", nil, "replay", "--plot", file, demo)
	if code != exitInput || out != "" || !strings.Contains(errOut, "--plot") {
		t.Errorf("--plot FILE: exit %d, stdout %d bytes\n%s", code, len(out), errOut)
	}
	// A directory that cannot be written: one error before any work, exit
	// 1, nothing left behind.
	if os.Geteuid() == 0 {
		t.Skip("root writes anywhere")
	}
	ro := t.TempDir()
	if err := os.Chmod(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(ro, 0o755)
	out, errOut, code = ctxlab(t, "", nil, "replay", "--plot", ro, demo)
	if code != exitInput || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "--plot "+ro+": cannot write plots there: permission denied") {
		t.Errorf("read-only dir: exit %d\n%s", code, errOut)
	}
	if files := dirFiles(t, ro); len(files) != 0 {
		t.Errorf("left %q", files)
	}
}
