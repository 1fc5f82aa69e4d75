package policies

import (
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/simulate"
)

// A compiled spec makes a fresh policy for each run: two runs of a
// stateful policy on one trace give the same result.
func TestCompiledFresh(t *testing.T) {
	tr := reads(40_000, 40_000, 40_000, 40_000, 40_000, 40_000)
	c, err := Compile("summary-nm:n=3,m=2")
	if err != nil {
		t.Fatal(err)
	}
	a, b := c.Run(tr, simulate.DefaultConfig()), c.Run(tr, simulate.DefaultConfig())
	if a.Metrics != b.Metrics || a.Metrics.Compactions == 0 || a.Policy != c.Name() {
		t.Errorf("two runs differ or are misnamed: %+v / %+v (%s)", a.Metrics, b.Metrics, a.Policy)
	}
	if p, q := c.New(), c.New(); p == q {
		t.Error("New returned the same policy twice")
	}
	cs, err := CompileList("observed,summary-nm:n=3,m=2")
	if err != nil || len(cs) != 2 || cs[0].Name() != "observed" || cs[1].Name() != c.Name() {
		t.Fatalf("CompileList: %v, %d specs", err, len(cs))
	}
	if r := cs[1].Run(tr, simulate.DefaultConfig()); r.Metrics != a.Metrics {
		t.Errorf("a listed spec runs as the spec alone: %+v / %+v", r.Metrics, a.Metrics)
	}
	if got := CompiledNames(cs); strings.Join(got, " ") != "observed summary-nm:n=3,m=2" {
		t.Errorf("CompiledNames = %q", got)
	}
	for _, bad := range []string{"no-such-policy", "", "keep-last-n:n=-1", "observed+nope"} {
		if _, err := Compile(bad); err == nil {
			t.Errorf("Compile(%q): no error", bad)
		}
	}
	for _, bad := range []string{"observed,observed", "keep-last-n,keep-last-n:n=10", ",", "observed,nope"} {
		if _, err := CompileList(bad); err == nil {
			t.Errorf("CompileList(%q): no error", bad)
		}
	}
}

// A composition's compiled spec makes fresh parts for each run.
func TestCompiledComposition(t *testing.T) {
	c, err := Compile(" keep-last-n:n=05 + summary-nm:n=3,m=2 ")
	if err != nil {
		t.Fatal(err)
	}
	if c.Name() != "keep-last-n:n=5+summary-nm:n=3,m=2" {
		t.Errorf("name %q", c.Name())
	}
	p, q := c.New().(*composite), c.New().(*composite)
	if len(p.parts) != 2 || p.parts[0] == q.parts[0] || p.parts[1] == q.parts[1] {
		t.Errorf("parts shared between two policies: %v %v", p.parts, q.parts)
	}
	if p.Name() != c.Name() {
		t.Errorf("policy name %q, compiled %q", p.Name(), c.Name())
	}
}

// The roles name their registered policies at their defaults.
func TestRoles(t *testing.T) {
	if Observed().Name() != "observed" || ClaudeCode().Name() != "claude-code" {
		t.Errorf("roles: %q %q", Observed().Name(), ClaudeCode().Name())
	}
	if _, ok := Observed().New().(simulate.Observer); !ok {
		t.Error("Observed is not an Observer")
	}
	if !IsObserved("observed") || IsObserved("claude-code") || IsObserved("observed+none") {
		t.Error("IsObserved")
	}
	if n, err := Canon("keep-last-n:n=10"); err != nil || n != "keep-last-n" {
		t.Errorf("Canon = %q, %v", n, err)
	}
	if _, err := Canon("nope"); err == nil {
		t.Error("Canon of an unknown policy: no error")
	}
	ps, ok := Grid{}.Params("keep-last-n")
	if !ok || len(ps) == 0 || ps[0] != "n" {
		t.Errorf("Grid.Params(keep-last-n) = %v, %v", ps, ok)
	}
	if ps, ok := (Grid{}).Params("observed"); !ok || len(ps) != 0 {
		t.Errorf("Grid.Params(observed) = %v, %v", ps, ok)
	}
	if _, ok := (Grid{}).Params("nope"); ok {
		t.Error("Grid.Params of an unknown policy")
	}
	if n, err := (Grid{}).Canon("keep-last-n:n=11"); err != nil || n != "keep-last-n:n=11" {
		t.Errorf("Grid.Canon = %q, %v", n, err)
	}
}

// TestCompileRefuses pins the specs a command must refuse before reading
// anything: compositions that mean nothing and lists with a hole.
func TestCompileRefuses(t *testing.T) {
	for spec, want := range map[string]string{
		"observed+claude-code":              "observed is the recorded run",
		"none+observed":                     "observed is the recorded run",
		"claude-code+claude-code":           "claude-code is given twice",
		"claude-code:pct=60+claude-code-sm": "both model Claude Code's compaction",
		"observed,,claude-code":             "an empty spec between commas",
		"observed,":                         "an empty spec between commas",
		" ":                                 "no policy given",
	} {
		_, err := CompileList(spec)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", spec, err, want)
		}
	}
	if _, err := CompileList("keep-last-n:n=10+summary-nm,claude-code+context-editing"); err != nil {
		t.Errorf("compositions of different parts: %v", err)
	}
}
