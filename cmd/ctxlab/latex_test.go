package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/internal/texcheck"
)

// extremeProjects copies the demo session into projects whose names a
// paper's table must still hold: long, with "--" (Claude Code writes a
// path's every other character as '-': C:\Users\x\.claude is
// C--Users-x--claude), with characters LaTeX's standard fonts lack, and
// ids that are not UUIDs.
func extremeProjects(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(demoSession)
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(t.TempDir(), "projects")
	for i, p := range []string{
		"C--Users-researcher--claude-projects--context-management-study--replication-package-2026",
		"-home-研究者-コンテキスト管理-実験",
		"-srv-data--a--b--c--d--e--f--g--h--i--j--k--l--m--n--o--p--q--r--s--t--u--v--w",
	} {
		dir := filepath.Join(root, p)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		name := []string{"0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4e", "a-session-whose-id-is-not-a-uuid-at-all-and-long"}[i]
		if err := os.WriteFile(filepath.Join(dir, name+".jsonl"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// manyPolicies are a dozen policies: a table with a column per policy.
const manyPolicies = "observed,claude-code,none,keep-last-n:n=2,keep-last-n:n=5,keep-last-n:n=10,context-editing,context-editing:trigger=40000," +
	"partial:pct=30,claude-code:window=55000,claude-code:pct=60,claude-code:window=60000,pct=80"

// TestLaTeXCompiles typesets every LaTeX output pdflatex can be given
// (compare's and sweep's, the only commands that write it) on the
// fixtures and on extremes: long project names with "--", characters the
// fonts lack, a dozen policies, every table of --detail --fidelity
// --calls. Each is compiled in the article class at 10pt, 11pt and 12pt
// (A4 at 12pt): no line may be overfull (a table wider than the text),
// no float too large, no character missing, no bitmap font. Each float
// is followed by \clearpage here: a hundred floats with no text between
// are more than LaTeX's float queue holds, as in any paper.
func TestLaTeXCompiles(t *testing.T) {
	texcheck.PDFLaTeX(t)
	extreme := extremeProjects(t)
	cases := []struct {
		name string
		args []string
	}{
		{"compare", []string{"compare", "--policy", "observed,claude-code,claude-code:window=55000", fixtures}},
		{"compare every table", []string{"compare", "--detail", "--fidelity", "--calls", "--policy", goldenPolicies, fixtures}},
		{"compare many policies", []string{"compare", "--detail", "--policy", manyPolicies, fixtures}},
		{"compare extreme names", []string{"compare", "--detail", "--fidelity", "--policy", "observed,claude-code,context-editing:trigger=40000", fixtures, extreme}},
		{"compare one session", []string{"compare", "--calls", "--policy", goldenPolicies, demoSession}},
		{"sweep", []string{"sweep", "--policy", "keep-last-n,claude-code:window=60000", "--vary", "n=2,8", "--vary", "pct=40,80",
			"--constraint", "peak_context<=24000", "--pareto", "total_cost_usd,peak_context", fixtures}},
		{"sweep many points", []string{"sweep", "--policy", "claude-code:window=60000,context-editing:trigger=20000,partial:pct=30,keep-last-n,context-editing:trigger=40000",
			"--vary", "keep=2..32:x2", "--vary", "n=2..32:x2", "--pareto", "total_cost_usd,peak_context", "--baseline", "claude-code", fixtures, extreme}},
	}
	float := regexp.MustCompile(`(?m)^(\\end\{table\}|\\end\{longtable\}\n\}?)\n`)
	for _, c := range cases {
		out, errOut, code := ctxlab(t, "", nil, append([]string{"--format", "latex"}, c.args...)...)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", c.name, code, errOut)
		}
		packages := []string{"booktabs"}
		if strings.HasPrefix(out, "% needs \\usepackage{booktabs} and \\usepackage{longtable}") {
			packages = append(packages, "longtable")
		}
		body := float.ReplaceAllString(out, "$1\n\\clearpage\n")
		for _, opt := range []string{"10pt", "11pt", "12pt,a4paper"} {
			log := texcheck.Compile(t, opt, packages, body)
			if p := texcheck.Problems(log); len(p) > 0 {
				t.Errorf("%s at %s: %d problems, the first: %s", c.name, opt, len(p), p[0])
			}
			if texcheck.Bitmap(log) {
				t.Errorf("%s at %s: a bitmap font", c.name, opt)
			}
		}
	}
}
