package plots

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate"
)

// realdata is the shared corpus of real transcripts, relative to this
// package; tests that need it skip when it is absent.
const realdata = "../../../shared/realdata"

// sessionFigures loads one source and returns its five figures, built
// the way the commands build them.
func sessionFigures(t testing.TB, src replay.Source) map[string]*Figure {
	t.Helper()
	s, err := replay.Load(src, replay.Options{})
	if err != nil {
		t.Fatalf("%s: %v", src.Path, err)
	}
	tr := simulate.Prepare(s)
	cfg := simulate.DefaultConfig()
	var runs []*simulate.Result
	for _, spec := range []string{"observed", "claude-code", "none"} {
		p, err := policies.Parse(spec)
		if err != nil {
			t.Fatalf("policy %s: %v", spec, err)
		}
		runs = append(runs, simulate.Run(tr, p, cfg))
	}
	rep := accounting.Analyze(s, accounting.DefaultConfig())
	opt := Options{Session: s.ID}
	return map[string]*Figure{
		"context":    Context(runs, opt),
		"cache":      Cache(runs[0], opt),
		"cost":       Cost(runs, opt),
		"tokens":     Tokens(rep.Tokens, opt),
		"duplicates": Duplicates(rep.Duplicates, opt),
	}
}

func realSources(t testing.TB) []replay.Source {
	t.Helper()
	if _, err := os.Stat(realdata); err != nil {
		t.Skipf("no real data at %s", realdata)
	}
	srcs, errs := replay.Discover([]string{filepath.Join(realdata)})
	for _, err := range errs {
		t.Logf("discover: %v", err)
	}
	if len(srcs) == 0 {
		t.Skipf("no sessions under %s", realdata)
	}
	return srcs
}

// TestRealdataRenders draws all five plots of every real session as PNG
// and SVG.
func TestRealdataRenders(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	for _, src := range realSources(t) {
		figs := sessionFigures(t, src)
		for _, kind := range []string{"context", "cache", "cost", "tokens", "duplicates"} {
			for _, format := range Formats {
				if err := figs[kind].Write(io.Discard, format); err != nil {
					t.Errorf("%s %s %s: %v", src.Path, kind, format, err)
				}
			}
		}
	}
}
