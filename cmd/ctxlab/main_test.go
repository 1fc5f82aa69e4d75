package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const (
	fixtures = "../../fixtures/testdata/projects"
	demo     = fixtures + "/-home-dev-demo/d3e4f5a6-b7c8-4d9e-a0f1-b2c3d4e5f6a7.jsonl"
)

// ctxlab runs the command in-process the way main does.
func ctxlab(t testing.TB, stdin string, getenv map[string]string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, env{
		stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb,
		getenv: func(k string) string { return getenv[k] },
		home:   func() (string, error) { return "", errors.New("no home in tests") },
	})
	return out.String(), errb.String(), code
}

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test ./cmd/ctxlab -update rewrites it):\n%s", path, firstDiff(string(want), got))
	}
}

// firstDiff shows the first differing line, enough to find the change.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + w + "\n  got:  " + g
		}
	}
	return "(same lines, different bytes)"
}

func TestReplayGolden(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"demo.txt", []string{"replay", demo}},
		{"demo.json", []string{"replay", "--format", "json", demo}},
		{"demo.csv", []string{"replay", "--format", "csv", demo}},
		{"demo.md", []string{"replay", "--format", "markdown", demo}},
		{"fixtures.txt", []string{"replay", "--top", "5", fixtures}},
		{"fixtures-total.csv", []string{"replay", "--format", "csv", "--section", "usage_by_model", fixtures}},
		{"fixtures-breaks.md", []string{"replay", "--format", "markdown", "--section", "breaks,compactions", fixtures}},
		{"fixtures-detail.txt", []string{"replay", "--detail", "--section", "summary", fixtures}},
		{"fixtures-sessions.csv", []string{"replay", "--format", "csv", fixtures}},
		{"fixtures-by-day.txt", []string{"replay", "--by", "day", fixtures}},
		{"fixtures-by-week-ny.txt", []string{"replay", "--by", "week", "--tz", "America/New_York", fixtures}},
		{"fixtures-by-month.md", []string{"replay", "--by", "month", "--format", "markdown", fixtures}},
		{"fixtures-by-project.csv", []string{"replay", "--by", "project", "--format", "csv", fixtures}},
		{"fixtures-by-project-breakdown.json", []string{"replay", "--by", "project", "--breakdown", "--format", "json", fixtures}},
		{"fixtures-by-model.json", []string{"replay", "--by", "model", "--format", "json", fixtures}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := ctxlab(t, "", nil, tt.args...)
			if code != exitOK {
				t.Fatalf("exit %d, stderr:\n%s", code, errOut)
			}
			golden(t, tt.name, out)
		})
	}
}

// TestReplayDeterministic: the same input gives the same bytes whatever the
// number of workers and however often it runs.
func TestReplayDeterministic(t *testing.T) {
	var first string
	for _, jobs := range []string{"1", "2", "7", "1"} {
		out, _, code := ctxlab(t, "", nil, "replay", "--format", "json", "--jobs", jobs, fixtures)
		if code != exitOK {
			t.Fatalf("--jobs %s: exit %d", jobs, code)
		}
		if first == "" {
			first = out
		} else if out != first {
			t.Fatalf("--jobs %s: output differs from the first run:\n%s", jobs, firstDiff(first, out))
		}
	}
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const goodLine = `{"type":"assistant","sessionId":"s1","uuid":"u1","timestamp":"2026-01-01T00:00:00.000Z","version":"2.1.146","message":{"id":"msg_1","model":"claude-sonnet-4-6","role":"assistant","content":[{"type":"text","text":"hello"}],"usage":{"input_tokens":10,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":5}},"requestId":"req_1"}`

func TestReplayInputErrors(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good/s1.jsonl", goodLine+"\n")
	bad := writeFile(t, dir, "bad/s2.jsonl", "// a comment\n"+strings.Replace(goodLine, "u1", "u2", 1)+"\n{\"type\":\"user\",\"mess")
	empty := writeFile(t, dir, "empty/s3.jsonl", "")
	binary := writeFile(t, dir, "bin/s4.jsonl", "\x00\x01\x02\xff\xfe\n\x00\x00garbage\x00\n")
	noTranscripts := filepath.Join(dir, "none")
	if err := os.MkdirAll(noTranscripts, 0o755); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.jsonl")

	tests := []struct {
		name     string
		args     []string
		stdin    string
		code     int
		stderr   []string // substrings
		noStdout bool
	}{
		{name: "good", args: []string{"replay", good}, code: exitOK},
		{name: "malformed lines warn, rest read", args: []string{"replay", bad}, code: exitOK,
			stderr: []string{bad + ":1: invalid JSON: a comment line", bad + ":3: truncated last line"}},
		{name: "strict makes warnings fatal", args: []string{"replay", "--strict", bad}, code: exitInput,
			stderr: []string{bad + ":1:", "--strict"}},
		{name: "missing path", args: []string{"replay", missing}, code: exitInput, noStdout: true,
			stderr: []string{missing + ": no such file or directory", "no session could be read"}},
		{name: "missing path beside a good one", args: []string{"replay", missing, good}, code: exitOK,
			stderr: []string{missing + ": no such file or directory"}},
		{name: "missing path beside a good one, strict", args: []string{"replay", "--strict", missing, good}, code: exitInput},
		{name: "empty file", args: []string{"replay", empty}, code: exitInput, noStdout: true,
			stderr: []string{empty + ": empty file"}},
		{name: "binary file: one message, not a line each", args: []string{"replay", binary}, code: exitInput, noStdout: true,
			stderr: []string{binary + ": no valid transcript line in 2 lines (not a Claude Code transcript?)"}},
		{name: "directory without transcripts", args: []string{"replay", noTranscripts}, code: exitInput,
			stderr: []string{noTranscripts + ": no transcripts"}},
		{name: "stdin", args: []string{"replay", "-"}, stdin: goodLine + "\n", code: exitOK},
		{name: "empty stdin", args: []string{"replay", "-"}, code: exitInput, stderr: []string{"<stdin>: empty file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := ctxlab(t, tt.stdin, nil, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.code, errOut)
			}
			for _, s := range tt.stderr {
				if !strings.Contains(errOut, s) {
					t.Errorf("stderr lacks %q:\n%s", s, errOut)
				}
			}
			if strings.Contains(errOut, "goroutine ") || strings.Contains(errOut, "panic") {
				t.Errorf("stderr shows a crash:\n%s", errOut)
			}
			if tt.noStdout && out != "" {
				t.Errorf("stdout should be empty, got:\n%s", out)
			}
			if !tt.noStdout && tt.code == exitOK && !strings.Contains(out, "Usage by model") {
				t.Errorf("no report on stdout:\n%s", out)
			}
		})
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args   []string
		stderr string
	}{
		{[]string{"replay", "--format", "xml", demo}, `--format "xml"`},
		{[]string{"replay", "--top", "-1", demo}, "--top -1"},
		{[]string{"replay", "--section", "nope", demo}, `--section "nope"`},
		{[]string{"replay", "--no-such-flag", demo}, "unknown flag"},
		{[]string{"frobnicate"}, "unknown command"},
		{[]string{"replay", "--prices", "/no/such/prices.json", demo}, "ctxlab: --prices /no/such/prices.json: no such file or directory\n"},
		{[]string{"replay", "--prices", ".", demo}, "ctxlab: --prices .: a directory, not a file\n"},
		{[]string{"gate", "--budget", ".", demo}, "ctxlab: --budget .: a directory, not a file\n"},
		{[]string{"gate", "--budget", "/no/such/budget.json", demo}, "ctxlab: --budget /no/such/budget.json: no such file or directory\n"},
		{[]string{"merge", "."}, "ctxlab: merge: .: a directory, not a file\n"},
		{[]string{"replay", "--json", "--format", "csv", demo}, "--json and --format csv: give one"},
		{[]string{"replay", "--by", "project", "--order", "desc", demo}, `--order "desc": it orders periods: give asc or desc with --by day, week, month or block` + "\n"},
		{[]string{"replay", "--order", "asc", demo}, `--order "asc": it orders periods: give asc or desc with --by day, week, month or block` + "\n"},
		{[]string{"replay", "--by", "day", "--order", "newest", demo}, `--order "newest": it orders periods: give asc or desc with`},
		{[]string{"replay", "--by", "block", "--order", "newest", demo}, `--order "newest": it orders periods: give asc or desc with`},
		{[]string{"replay", "--project", "[x", demo}, `ctxlab: --project "[x": syntax error in pattern` + "\n"},
		{[]string{"replay", "--session", "d3e4,[x", demo}, `ctxlab: --session "[x": syntax error in pattern` + "\n"},
		{[]string{"replay", "--since", "2026-05-20", "--until", "2026-05-19", demo}, "ctxlab: --until: the window is empty: it ends (2026-05-20T00:00:00Z) where or before it starts (2026-05-20T00:00:00Z)\n"},
		{[]string{"merge"}, "ctxlab: merge: name the parts to merge\n"},
		{[]string{"plot", "-o", "out"}, "ctxlab: plot: name one report to draw (the output of replay or compare --format json, or - for standard input); got 0\n"},
		{[]string{"plot", "-o", "out", "a.json", "b.json"}, "; got 2\n"},
		{[]string{"replay", "--jobs", "0", demo}, "--jobs 0: must be 1 or more"},
		{[]string{"replay", "--jobs", "-1", demo}, "--jobs -1: must be 1 or more"},
		{[]string{"replay", "--last", "0", demo}, "--last 0: must be 1 or more"},
		{[]string{"replay", "--max-warnings", "-1", demo}, "--max-warnings -1"},
		{[]string{"replay", "--policy", "none", "--ttl", "0s", demo}, "--ttl 0s: must be positive"},
		{[]string{"compare", "--policy", "observed+claude-code", demo}, `"observed+claude-code": observed is the recorded run`},
		{[]string{"compare", "--policy", "claude-code+claude-code", demo}, "claude-code is given twice"},
		{[]string{"compare", "--policy", "observed,,claude-code", demo}, "an empty spec between commas"},
	}
	for _, tt := range tests {
		_, errOut, code := ctxlab(t, "", nil, tt.args...)
		if code != exitUsage {
			t.Errorf("%v: exit %d, want %d", tt.args, code, exitUsage)
		}
		if !strings.Contains(errOut, tt.stderr) {
			t.Errorf("%v: stderr lacks %q:\n%s", tt.args, tt.stderr, errOut)
		}
	}
}

func TestDefaultPaths(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "a/projects/p/s1.jsonl", goodLine+"\n")
	writeFile(t, dir, "b/projects/p/s2.jsonl", strings.NewReplacer("msg_1", "msg_2", "u1", "u2").Replace(goodLine)+"\n")
	env := map[string]string{"CLAUDE_CONFIG_DIR": filepath.Join(dir, "a") + "," + filepath.Join(dir, "b") + "," + filepath.Join(dir, "c")}
	out, errOut, code := ctxlab(t, "", env, "replay", "--format", "csv", "--section", "summary")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "total,sessions,2") {
		t.Errorf("want both config dirs read:\n%s", out)
	}
	_, errOut, code = ctxlab(t, "", map[string]string{"CLAUDE_CONFIG_DIR": filepath.Join(dir, "c")}, "replay")
	if code != exitInput || !strings.Contains(errOut, "no Claude Code transcripts found in "+filepath.Join(dir, "c", "projects")) {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

func TestPricesOverride(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "s1.jsonl", goodLine+"\n")
	// 10 input × $100/M + 5 output × $1000/M = $0.001 + $0.005 = $0.006.
	prices := writeFile(t, dir, "prices.json", `{"date":"2027-01-01","models":{"claude-sonnet-4-6":{"input":100,"cache_write_5m":0,"cache_write_1h":0,"cache_read":0,"output":1000}}}`)
	out, errOut, code := ctxlab(t, "", nil, "replay", "--prices", prices, "--format", "csv", "--section", "summary", good)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "s1,cost,0.006000") {
		t.Errorf("want cost 0.006000 from the override:\n%s", out)
	}
	_, errOut, code = ctxlab(t, "", nil, "replay", "--prices", good, good)
	if code != exitUsage || !strings.Contains(errOut, "reading price table") {
		t.Errorf("bad price file: exit %d, %s", code, errOut)
	}
}

func TestWriteErrorIsReported(t *testing.T) {
	var errb bytes.Buffer
	code := run([]string{"replay", demo}, env{
		stdin: strings.NewReader(""), stdout: failingWriter{}, stderr: &errb,
		getenv: func(string) string { return "" }, home: os.UserHomeDir,
	})
	if code != exitInput || !strings.Contains(errb.String(), "writing report") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

func TestExitErrorUnwraps(t *testing.T) {
	cause := os.ErrNotExist
	var err error = &exitError{code: exitInput, err: fmt.Errorf("reading x: %w", cause)}
	if !errors.Is(err, cause) {
		t.Errorf("errors.Is(%v, os.ErrNotExist) = false", err)
	}
}

// TestMaxWarnings: --max-warnings N prints a file's first N malformed
// lines and then one line with how many more there were; 0 prints all.
// Each file counts apart.
func TestMaxWarnings(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 5 {
		fmt.Fprintf(&b, "// comment %d\n", i)
	}
	b.WriteString(goodLine + "\n")
	a := writeFile(t, dir, "a/s1.jsonl", b.String())
	c := writeFile(t, dir, "c/s2.jsonl", "// one\n"+strings.Replace(goodLine, "s1", "s2", 1)+"\n")
	tests := []struct {
		max    string
		shownA int
		cutA   bool
	}{
		{"2", 2, true},
		{"5", 5, false},
		{"0", 5, false},
	}
	for _, tt := range tests {
		_, errOut, code := ctxlab(t, "", nil, "replay", "--max-warnings", tt.max, a, c)
		if code != exitOK {
			t.Fatalf("--max-warnings %s: exit %d\n%s", tt.max, code, errOut)
		}
		if n := strings.Count(errOut, "skipped: "+a+":"); n != tt.shownA {
			t.Errorf("--max-warnings %s: %d lines of %s shown, want %d\n%s", tt.max, n, a, tt.shownA, errOut)
		}
		cut := "warning: " + a + ": 3 more malformed lines not shown (--max-warnings)"
		if got := strings.Contains(errOut, cut); got != tt.cutA {
			t.Errorf("--max-warnings %s: cut-off line present %v, want %v\n%s", tt.max, got, tt.cutA, errOut)
		}
		if !strings.Contains(errOut, "skipped: "+c+":1:") || strings.Contains(errOut, "warning: "+c+":") {
			t.Errorf("--max-warnings %s: %s's one malformed line not shown, or cut off\n%s", tt.max, c, errOut)
		}
	}
}

func TestVersion(t *testing.T) {
	out, _, code := ctxlab(t, "", nil, "--version")
	if code != exitOK || !strings.HasPrefix(out, "ctxlab ") {
		t.Errorf("--version: exit %d, %q", code, out)
	}
}

// TestSelectionFlags: --project, --session, --since and --until pick the
// fixture sessions they name; a selection that keeps none is exit 1, a bad
// value exit 2.
func TestSelectionFlags(t *testing.T) {
	const projects = "../../fixtures/testdata/projects"
	now := func() time.Time { return time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC) }
	ids := func(args ...string) (out []string, code int, stderr string) {
		var o, e bytes.Buffer
		code = run(append([]string{"replay", "--format", "json"}, append(args, projects)...), env{
			stdin: strings.NewReader(""), stdout: &o, stderr: &e, getenv: func(string) string { return "" }, home: os.UserHomeDir, now: now,
		})
		var doc struct {
			Sessions []struct{ Summary struct{ ID string } }
		}
		json.Unmarshal(o.Bytes(), &doc)
		for _, s := range doc.Sessions {
			out = append(out, s.Summary.ID)
		}
		return out, code, e.String()
	}
	all, code, _ := ids()
	if code != exitOK || len(all) != 4 {
		t.Fatalf("no selection: exit %d, %q", code, all)
	}
	for _, tt := range []struct {
		args []string
		want int // sessions
		code int
	}{
		{[]string{"--project", "-home-dev-demo"}, 1, exitOK},
		{[]string{"--project", "*-demo,*-queue"}, 2, exitOK},
		{[]string{"--session", "d3e4*", "--project", "-home-dev-queue"}, 0, exitInput},
		{[]string{"--since", "2030-01-01"}, 0, exitInput},
		{[]string{"--until", "2000-01-01"}, 0, exitInput},
		{[]string{"--since", "2000-01-01", "--until", "2030-01-01"}, 4, exitOK},
		// 3f2a9c10 (2025-08-20) and 8c4e2b71 (2025-12-30) end before 2026.
		{[]string{"--until", "2026-01-01"}, 2, exitOK},
		// d3e4f5a6 runs 2026-05-19T08:47:51Z to 05-20T05:06:02Z: a window
		// inside it keeps it, one starting a second after its end does not.
		{[]string{"--since", "2026-05-20T00:00:00Z", "--until", "2026-05-20T01:00:00Z"}, 1, exitOK},
		{[]string{"--since", "2026-05-20T05:06:03Z"}, 0, exitInput},
		// Ages count back from the test's now, 2026-11-24: 200 days back
		// is 2026-05-08, before d3e4f5a6 only.
		{[]string{"--since", "200d"}, 1, exitOK},
		{[]string{"--since", "soon"}, 0, exitUsage},
		{[]string{"--project", "[x"}, 0, exitUsage},
		{[]string{"--since", "2026-02-01", "--until", "2026-01-01"}, 0, exitUsage},
	} {
		got, code, stderr := ids(tt.args...)
		if code != tt.code || len(got) != tt.want {
			t.Errorf("%q: exit %d, %d sessions %q; want exit %d, %d\n%s", tt.args, code, len(got), got, tt.code, tt.want, stderr)
		}
	}
}

// TestWidth: --width, else --wide, else COLUMNS, else the terminal's
// width, else 100; every line of the README's first command fits.
func TestWidth(t *testing.T) {
	maxLine := func(s string) int {
		m := 0
		for l := range strings.SplitSeq(s, "\n") {
			if strings.HasPrefix(l, "[") {
				continue // a footer's path is never broken
			}
			m = max(m, len([]rune(l)))
		}
		return m
	}
	for _, tt := range []struct {
		env  map[string]string
		term int
		args []string
		max  int
	}{
		{nil, 0, nil, 100},
		{map[string]string{"COLUMNS": "80"}, 0, nil, 80},
		{nil, 90, nil, 90},
		{map[string]string{"COLUMNS": "80"}, 90, nil, 80},
		{map[string]string{"COLUMNS": "80"}, 0, []string{"--width", "120"}, 120},
	} {
		var out, errb bytes.Buffer
		args := append(append([]string{"replay"}, tt.args...), demo)
		code := run(args, env{
			stdin: strings.NewReader(""), stdout: &out, stderr: &errb, termWidth: tt.term,
			getenv: func(k string) string { return tt.env[k] },
			home:   func() (string, error) { return "", errors.New("no home") },
		})
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", tt, code, errb.String())
		}
		if got := maxLine(out.String()); got > tt.max || got < tt.max-10 {
			t.Errorf("%v %v term %d: widest line %d, want at most %d and close to it", tt.env, tt.args, tt.term, got, tt.max)
		}
	}
	out, _, _ := ctxlab(t, "", nil, "replay", "--wide", demo)
	if got := maxLine(out); got <= 100 {
		t.Errorf("--wide: widest line %d, want the full tables", got)
	}
	for _, args := range [][]string{{"--width", "10"}, {"--width", "-1"}, {"--width", "80", "--wide"}} {
		if _, errOut, code := ctxlab(t, "", nil, append(append([]string{"replay"}, args...), demo)...); code != exitUsage || !strings.Contains(errOut, "--width") {
			t.Errorf("%v: exit %d, %q; want a usage error naming --width", args, code, errOut)
		}
	}
}

func TestReplayViewErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--by", "year"}, `--by "year": want one of day, week, month, block, project, model`},
		{[]string{"--by", "day", "--detail"}, "--by is a view of its own"},
		{[]string{"--by", "day", "--policy", "observed"}, "--by is a view of its own"},
		{[]string{"--breakdown"}, "--breakdown splits --by day, week, month, project or session"},
		{[]string{"--by", "model", "--breakdown"}, "--breakdown splits --by day, week, month, project or session"},
		{[]string{"--tz", "Mars/Olympus"}, `--tz "Mars/Olympus": not a time zone`},
		{[]string{"--format", "csv", "--section", "usage,tokens"}, "CSV holds one table"},
		{[]string{"--format", "csv", "--section", "nope"}, `--section "nope"`},
		{[]string{"--format", "csv", "--section", "simulated_calls"}, "--section simulated_calls needs --policy"},
	} {
		_, errOut, code := ctxlab(t, "", nil, append(append([]string{"replay"}, tt.args...), demo)...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
}

// TestCSVTop: a CSV stream has every row unless --top is given.
func TestCSVTop(t *testing.T) {
	rows := func(args ...string) int {
		out, errOut, code := ctxlab(t, "", nil, append([]string{"replay", "--format", "csv", "--section", "tokens"}, append(args, demo)...)...)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		return strings.Count(out, "\n") - 1
	}
	if all, cut := rows(), rows("--top", "3"); all != 26 || cut != 3 {
		t.Errorf("tokens rows: %d without --top (want 26), %d with --top 3", all, cut)
	}
}

// TestWideCharacters: project names in East-Asian script and emoji keep
// the overview's columns aligned and within the width, measured as the
// terminal draws them (tablewriter's display width).
func TestWideCharacters(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "projects/-home-開発-デモ🎉/s1.jsonl", goodLine+"\n")
	writeFile(t, dir, "projects/-home-dev-plain/s2.jsonl", strings.NewReplacer("msg_1", "msg_2", "u1", "u2").Replace(goodLine)+"\n")
	for _, width := range []string{"100", "72"} {
		out, errOut, code := ctxlab(t, "", nil, "replay", "--width", width, "--section", "usage", filepath.Join(dir, "projects"))
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if width == "100" && !strings.Contains(out, "| -home-開発-デモ🎉 |") {
			t.Fatalf("the project name is not shown whole:\n%s", out)
		}
		w, _ := strconv.Atoi(width)
		border := -1
		for _, l := range strings.Split(out, "\n") {
			if !strings.HasPrefix(l, "| ") && !strings.HasPrefix(l, "+-") {
				if l == "" {
					border = -1 // the next table
				}
				continue
			}
			dw := twwidth.Width(l)
			if border < 0 {
				border = dw
			}
			if dw != border || dw > w {
				t.Errorf("--width %s: %q is %d columns wide, its table's border %d", width, l, dw, border)
			}
		}
	}
}

// A mistyped flag gets the flags it is near, as a mistyped command does.
func TestFlagSuggestion(t *testing.T) {
	_, errOut, code := ctxlab(t, "", nil, "replay", "--frmat", "json", fixtures)
	if code != exitUsage || !strings.Contains(errOut, "unknown flag: --frmat (did you mean --format?)") {
		t.Errorf("exit %d:\n%s", code, errOut)
	}
	_, errOut, _ = ctxlab(t, "", nil, "replay", "--zzzzzzz", fixtures)
	if !strings.Contains(errOut, "unknown flag: --zzzzzzz\n") {
		t.Errorf("no suggestion expected:\n%s", errOut)
	}
}

// Completion offers the words a flag takes, and after a policy's
// parameters and a comma, its other parameters as well as the next policy.
func TestCompleteFlagValues(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"replay", "--format", ""}, []string{"table", "json", "csv", "markdown", "html"}},
		{[]string{"gate", "--format", ""}, []string{"junit"}},
		{[]string{"replay", "--by", ""}, []string{"day", "week", "month", "project", "model"}},
		{[]string{"replay", "--section", ""}, []string{"summary", "breaks", "simulation"}},
		{[]string{"replay", "--format", "csv", "--section", ""}, []string{"summary", "cache_breaks", "groups"}},
		{[]string{"sweep", "--format", "csv", "--section", ""}, []string{"rows", "totals", "pareto"}},
		{[]string{"compare", "--section", ""}, []string{"fidelity_reasons"}},
		{[]string{"replay", "--plot-format", ""}, []string{"png", "svg", "pdf"}},
		{[]string{"sweep", "--policy", "keep-last-n", "--vary", ""}, []string{"n=", "polling="}},
		{[]string{"compare", "--policy", "keep-last-n:n=5,"}, []string{"keep-last-n:n=5,polling=", "keep-last-n:n=5,threshold:"}},
	} {
		out, _, code := ctxlab(t, "", nil, append([]string{"__complete"}, c.args...)...)
		lines := strings.Split(out, "\n")
		for _, w := range c.want {
			if code != 0 || !slices.Contains(lines, w) {
				t.Errorf("%v: %q not offered (exit %d):\n%s", c.args, w, code, out)
			}
		}
		if len(slices.Compact(slices.Sorted(slices.Values(lines)))) != len(lines) {
			t.Errorf("%v: a word offered twice:\n%s", c.args, out)
		}
	}
}

// --json is --format json, and --order desc puts the newest period first.
func TestJSONShorthandAndOrder(t *testing.T) {
	plain, _, _ := ctxlab(t, "", nil, "replay", "--format", "json", "--by", "day", fixtures)
	short, _, code := ctxlab(t, "", nil, "replay", "--json", "--by", "day", fixtures)
	if code != exitOK || short != plain {
		t.Errorf("--json differs from --format json (exit %d)", code)
	}
	keys := func(out string) []string {
		var doc struct {
			Groups []struct{ Key string } `json:"groups"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		var ks []string
		for _, g := range doc.Groups {
			ks = append(ks, g.Key)
		}
		return ks
	}
	asc := keys(plain)
	desc, _, _ := ctxlab(t, "", nil, "replay", "--json", "--by", "day", "--order", "desc", fixtures)
	rev := slices.Clone(asc)
	slices.Reverse(rev)
	if got := keys(desc); len(asc) < 2 || !slices.Equal(got, rev) {
		t.Errorf("--order desc: %v, want %v reversed", got, asc)
	}
}

// --by block marks the block open at --now, and none without it.
func TestByBlockActive(t *testing.T) {
	plain, _, code := ctxlab(t, "", nil, "replay", "--by", "block", "--wide", fixtures)
	if code != exitOK || strings.Contains(plain, "active |") || !strings.Contains(plain, "| 2026-05-20 05:00 ") {
		t.Errorf("--by block without --now (exit %d):\n%s", code, plain)
	}
	out, _, _ := ctxlab(t, "", nil, "replay", "--by", "block", "--wide", "--now", "2026-05-20T06:00:00Z", fixtures)
	if strings.Count(out, " active ") != 1 || !strings.Contains(out, "| 2026-05-20 05:00 active ") {
		t.Errorf("--now 2026-05-20T06:00:00Z marks no or several blocks:\n%s", out)
	}
}
