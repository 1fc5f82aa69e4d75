package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ctxlab/ctxlab/internal/testcorpus"
	"github.com/ctxlab/ctxlab/simulate/budget"
)

// gateRun runs ctxlab with extra environment variables.
func gateRun(t *testing.T, vars map[string]string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return ctxlab(t, "", vars, args...)
}

func TestGateExitCodes(t *testing.T) {
	dir := t.TempDir()
	pass := writeFile(t, dir, "pass.json", `{"version":1,"limits":[{"measure":"total_cost_usd","max":2},{"measure":"cache_hit_ratio","min":0.9}]}`)
	fail := writeFile(t, dir, "fail.json", `{"version":1,"limits":[{"measure":"total_cost_usd","max":1}]}`)
	bad := writeFile(t, dir, "bad.json", `{"version":1,"limits":[{"measure":"total_cost_usd","max":"1"}]}`)
	notGate := writeFile(t, dir, "compare.json", `{"schema":"ctxlab.compare","version":1}`)
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"every limit holds", []string{"gate", "--budget", pass, fixtures}, exitOK, ""},
		// Fixtures' total cost is $1.495029 ($1.50 in docs/gate.md).
		{"a limit broken", []string{"gate", "--budget", fail, fixtures}, exitInput, "1 of 1 limits broken"},
		{"malformed budget", []string{"gate", "--budget", bad, fixtures}, exitUsage, bad + ": limits[0].max: a string where a number was expected"},
		{"no budget", []string{"gate", fixtures}, exitUsage, "--budget FILE is required"},
		{"missing budget", []string{"gate", "--budget", filepath.Join(dir, "none.json"), fixtures}, exitUsage, "none.json: no such file"},
		{"baseline neither gate's nor replay's", []string{"gate", "--budget", pass, "--baseline", notGate, fixtures}, exitUsage, `schema "ctxlab.compare" version 1, want the output of ctxlab gate`},
		{"bad format", []string{"gate", "--budget", pass, "--format", "xml", fixtures}, exitUsage, `--format "xml": want one of table, json, csv, markdown, junit`},
	}
	for _, tt := range tests {
		_, errOut, code := gateRun(t, nil, tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.stderr) {
			t.Errorf("%s: exit %d, want %d; stderr %q lacks %q", tt.name, code, tt.code, errOut, tt.stderr)
		}
	}
}

func TestGateFormats(t *testing.T) {
	budgetFile := "../../docs/examples/budget.json"
	out, _, code := gateRun(t, nil, "gate", "--budget", budgetFile, "--format", "json", fixtures)
	if code != exitInput {
		t.Fatalf("exit %d", code)
	}
	var res budget.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Schema != budget.Schema || res.Sessions != 4 || res.Failed != 1 || len(res.Limits) != 5 || *res.Limits[0].Value != 1.495029 {
		t.Errorf("json: %+v", res)
	}
	out, _, _ = gateRun(t, nil, "gate", "--budget", budgetFile, "--format", "junit", fixtures)
	var suites struct {
		Suites []struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
			Cases    []struct {
				Name    string    `xml:"name,attr"`
				Failure *struct{} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(out), &suites); err != nil {
		t.Fatal(err)
	}
	if s := suites.Suites[0]; s.Tests != 5 || s.Failures != 1 || s.Cases[4].Name != "cache writes" || s.Cases[4].Failure == nil || s.Cases[0].Failure != nil {
		t.Errorf("junit: %+v", suites)
	}
	out, _, _ = gateRun(t, nil, "gate", "--budget", budgetFile, "--format", "csv", fixtures)
	if !strings.HasPrefix(out, "status,limit,policy,value,lower_bound,bound,headroom,sessions,top_sessions\nFAIL,cache writes,,37211,false,") ||
		!strings.Contains(out, "\npass,cost,,1.495029,true,") || strings.Contains(out, "gate_reasons") {
		t.Errorf("csv:\n%s", out)
	}
	out, _, _ = gateRun(t, nil, "gate", "--budget", budgetFile, "--format", "markdown", fixtures)
	if !strings.HasPrefix(out, "### Budget ../../docs/examples/budget.json\n") || !strings.Contains(out, "| FAIL   | cache writes") {
		t.Errorf("markdown:\n%s", out)
	}
	again, _, _ := gateRun(t, nil, "gate", "--budget", budgetFile, "--format", "markdown", fixtures)
	if again != out {
		t.Error("two runs differ")
	}
}

// TestGateBaseline: a gate's JSON is its own baseline; against itself
// nothing changed and the relative limit holds.
func TestGateBaseline(t *testing.T) {
	budgetFile := "../../docs/examples/budget.json"
	out, _, _ := gateRun(t, nil, "gate", "--budget", budgetFile, "--format", "json", fixtures)
	base := writeFile(t, t.TempDir(), "base.json", out)
	out, errOut, code := gateRun(t, nil, "gate", "--budget", budgetFile, "--baseline", base, fixtures)
	if code != exitOK || !strings.Contains(out, "every limit holds") || !strings.Contains(out, "+ cache writes: 37,211 (pass)") {
		t.Errorf("against itself: exit %d\n%s%s", code, errOut, out)
	}
}

// TestGateReplayBaseline: a replay report is a baseline for the recorded
// run's usage and cost; a limit under a policy finds no value in it.
func TestGateReplayBaseline(t *testing.T) {
	rep, _, _ := gateRun(t, nil, "replay", "--format", "json", fixtures)
	base := writeFile(t, t.TempDir(), "replay.json", rep)
	out, _, code := gateRun(t, nil, "gate", "--format", "json", "--budget", "../../docs/examples/budget.json", "--baseline", base, fixtures)
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var res budget.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	for _, o := range res.Limits {
		switch {
		case o.Policy != "" && o.Baseline != nil:
			t.Errorf("%s: a baseline value under a policy, from a replay report", o.Limit)
		case o.Policy == "" && (o.Change == nil || *o.Change != 0):
			t.Errorf("%s: change %v against the same sessions' replay report, want 0", o.Limit, o.Change)
		}
	}
}

// TestGateSummaryUnwritable: a step summary that cannot be written is a
// warning; the exit code is the verdict's.
func TestGateSummaryUnwritable(t *testing.T) {
	summary := filepath.Join(t.TempDir(), "no-such-dir", "summary.md")
	for _, max := range []string{"2", "0.5"} {
		budgetFile := writeFile(t, t.TempDir(), "b.json", `{"version":1,"limits":[{"measure":"total_cost_usd","max":`+max+`}]}`)
		out, errOut, code := gateRun(t, map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary}, "gate", "--budget", budgetFile, fixtures)
		want := map[string]int{"2": exitOK, "0.5": exitInput}[max]
		if code != want || !strings.Contains(errOut, "ctxlab: warning: GITHUB_STEP_SUMMARY:") || !strings.Contains(out, "Budget") {
			t.Errorf("max %s: exit %d, want %d\n%s%s", max, code, want, errOut, out)
		}
	}
}

// TestGateGitHub: under GitHub Actions each broken limit is an ::error
// annotation on standard error, where the runner reads workflow commands
// too, and the Markdown report is appended to the step summary. Standard
// output is the report alone, in every format: a JSON, JUnit or CSV
// document parses as it would outside Actions.
func TestGateGitHub(t *testing.T) {
	summary := writeFile(t, t.TempDir(), "summary.md", "earlier step\n")
	out, errOut, code := gateRun(t, map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary},
		"gate", "--budget", "../../docs/examples/budget.json", fixtures)
	if code != exitInput || !strings.Contains(errOut, "::error title=ctxlab gate%3A ../../docs/examples/budget.json::cache writes: max_increase and max_increase_pct need a baseline (--baseline)\n") || strings.Contains(out, "::error") {
		t.Errorf("annotations on stdout:\n%s\non stderr:\n%s", out, errOut)
	}
	for _, format := range []string{"json", "junit", "csv", "table"} {
		args := []string{"gate", "--format", format, "--budget", "../../docs/examples/budget.json", fixtures}
		plain, _, _ := gateRun(t, nil, args...)
		actions, _, _ := gateRun(t, map[string]string{"GITHUB_ACTIONS": "true"}, args...)
		if actions != plain {
			t.Errorf("--format %s under GitHub Actions: stdout differs from the plain run:\n%s", format, actions)
		}
	}
	got, _ := os.ReadFile(summary)
	if !strings.HasPrefix(string(got), "earlier step\n### Budget ") || strings.Count(string(got), "| FAIL") != 1 {
		t.Errorf("step summary:\n%s", got)
	}
}

// TestGateCIExamples runs the commands docs/gate.md gives for GitHub
// Actions and GitLab CI, on the fixtures frozen as the docs say.
func TestGateCIExamples(t *testing.T) {
	data, err := os.ReadFile("../../docs/gate.md")
	if err != nil {
		t.Fatal(err)
	}
	_, ci, _ := strings.Cut(string(data), "\n## In CI\n")
	var cmds []string
	for _, l := range strings.Split(ci, "\n") {
		l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "- "))
		l = strings.TrimPrefix(l, "run: ")
		if strings.HasPrefix(l, "ctxlab gate ") {
			cmds = append(cmds, l)
		}
	}
	if len(cmds) != 4 {
		t.Fatalf("found %d ctxlab gate commands in docs/gate.md's CI section, want 4: %q", len(cmds), cmds)
	}
	src := filepath.Join(repoRoot(t), "fixtures/testdata/projects")
	t.Chdir(t.TempDir())
	if err := os.MkdirAll("ci", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(src, "ci/transcripts"); err != nil {
		t.Fatal(err)
	}
	os.WriteFile("ci/budget.json", []byte(`{"version":1,"limits":[{"measure":"total_cost_usd","max":2},{"measure":"cache_write","max_increase_pct":5}]}`), 0o644)
	for i, c := range cmds {
		args := strings.Fields(c)[1:]
		var redirect string
		if j := indexOf(args, ">"); j >= 0 {
			redirect, args = args[j+1], args[:j]
		}
		args = trimAfter(args, "||")
		var out, errb bytes.Buffer
		code := run(args, env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }, home: os.UserHomeDir})
		// The first run writes the baseline; its relative limit has none
		// yet, so it exits 1.
		if want := map[bool]int{true: exitInput, false: exitOK}[i == 0]; code != want {
			t.Errorf("%s: exit %d, want %d\n%s", c, code, want, errb.String())
		}
		if redirect != "" {
			os.WriteFile(redirect, out.Bytes(), 0o644)
		}
		if i == 0 && redirect != "ci/gate-baseline.json" {
			t.Errorf("the first command should write the baseline: %q", c)
		}
	}
	// GitLab's job, run as its shell runs a script (stopping at the first
	// command that fails, unless `|| true` follows it), with a budget the
	// fixtures break: the JUnit report is written all the same.
	os.WriteFile("ci/budget.json", []byte(`{"version":1,"limits":[{"measure":"total_cost_usd","max":0.5}]}`), 0o644)
	gitlab := cmds[2:]
	var last int
	for _, c := range gitlab {
		args := strings.Fields(c)[1:]
		var redirect string
		if j := indexOf(args, ">"); j >= 0 {
			redirect, args = args[j+1], args[:j]
		}
		ignore := indexOf(args, "||") >= 0
		args = trimAfter(args, "||")
		var out bytes.Buffer
		last = run(args, env{stdin: strings.NewReader(""), stdout: &out, stderr: io.Discard, getenv: func(string) string { return "" }, home: os.UserHomeDir})
		if redirect != "" {
			os.WriteFile(redirect, out.Bytes(), 0o644)
		}
		if last != 0 && !ignore {
			break
		}
	}
	if last != exitInput {
		t.Errorf("GitLab's job ends with exit %d on a broken limit, want %d", last, exitInput)
	}
	if xml, err := os.ReadFile("gate.xml"); err != nil || !strings.Contains(string(xml), "<failure") {
		t.Errorf("GitLab's job leaves no JUnit report of the broken limit: %v\n%s", err, xml)
	}
}

func indexOf(s []string, x string) int {
	for i, v := range s {
		if v == x {
			return i
		}
	}
	return -1
}

func trimAfter(s []string, x string) []string {
	if i := indexOf(s, x); i >= 0 {
		return s[:i]
	}
	return s
}

func repoRoot(t *testing.T) string {
	t.Helper()
	d, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// BenchmarkGateRealdata is a gate with two policy limits over the real
// transcripts (skipped when absent); the target is under 1 s on 2 cores.
//
//	go test -run XXX -bench GateRealdata -benchtime 10x ./cmd/ctxlab
func BenchmarkGateRealdata(b *testing.B) {
	realdata := testcorpus.Dir(b, testcorpus.Realdata)
	budgetFile := filepath.Join(b.TempDir(), "budget.json")
	os.WriteFile(budgetFile, []byte(`{"version":1,"limits":[
		{"measure":"total_cost_usd","of":"p90","max":100,"policy":"claude-code","unpriced":"ignore"},
		{"measure":"peak_context","of":"session_max","max":1000000,"policy":"keep-last-n:n=5"},
		{"measure":"cache_hit_ratio","min":0.5}]}`), 0o644)
	benchLoop(b, []string{"gate", "--budget", budgetFile, realdata})
}

// TestGateTotalTokens: the total_ token measures bound what was billed,
// sub-agents included: over the fixtures they equal replay's usage total,
// where the main-thread measures leave the sub-agents out.
func TestGateTotalTokens(t *testing.T) {
	budget := writeFile(t, t.TempDir(), "b.json", `{"version":1,"limits":[
		{"name":"in","measure":"total_input","max":1e12},{"name":"w5","measure":"total_cache_write_5m","max":1e12},
		{"name":"w1","measure":"total_cache_write_1h","max":1e12},{"name":"w","measure":"total_cache_write","max":1e12},
		{"name":"r","measure":"total_cache_read","max":1e12},{"name":"out","measure":"total_output","max":1e12},
		{"name":"main r","measure":"cache_read","max":1e12}]}`)
	out, _, code := gateRun(t, nil, "gate", "--format", "json", "--budget", budget, fixtures)
	if code != exitOK {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	var res struct {
		Limits []struct {
			Limit string  `json:"limit"`
			Value float64 `json:"value"`
		} `json:"limits"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	rep, _, _ := ctxlab(t, "", nil, "replay", "--format", "json", fixtures)
	var doc struct {
		Total struct {
			Usage struct {
				Total map[string]any `json:"total"`
			} `json:"usage"`
		} `json:"total"`
	}
	if err := json.Unmarshal([]byte(rep), &doc); err != nil {
		t.Fatal(err)
	}
	u := func(k string) float64 { return doc.Total.Usage.Total[k].(float64) }
	want := map[string]float64{"in": u("input"), "w5": u("cache_write_5m"), "w1": u("cache_write_1h"),
		"w": u("cache_write_5m") + u("cache_write_1h"), "r": u("cache_read"), "out": u("output")}
	for _, l := range res.Limits {
		if w, ok := want[l.Limit]; ok && l.Value != w {
			t.Errorf("%s: gate %v, replay %v", l.Limit, l.Value, w)
		}
		if l.Limit == "main r" && l.Value >= u("cache_read") {
			t.Errorf("cache_read %v is not below the total %v: the fixtures' sub-agents read nothing?", l.Value, u("cache_read"))
		}
	}
}

// TestHelpFlags: a flag's help shows a one-word placeholder for its value
// (a backquoted phrase in its usage would stand in for it), and export,
// which writes files and no text table, lists no table-width flags.
func TestHelpFlags(t *testing.T) {
	e := env{getenv: func(string) string { return "" }}
	for _, c := range []*cobra.Command{newReplayCmd(e), newCompareCmd(e), newGateCmd(e), newSweepCmd(e), newPlotCmd(e), newPoliciesCmd(e), newExportCmd(e)} {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if name, _ := pflag.UnquoteUsage(f); strings.ContainsAny(name, " -") {
				t.Errorf("%s --%s: placeholder %q", c.Name(), f.Name, name)
			}
		})
	}
	ex := newExportCmd(e)
	for _, name := range []string{"wide", "width"} {
		if ex.Flags().Lookup(name) != nil {
			t.Errorf("export --%s: a flag that does nothing there", name)
		}
	}
}
