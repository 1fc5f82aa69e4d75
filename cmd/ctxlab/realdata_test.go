package main

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/ctxlab/ctxlab/internal/testcorpus"
	"github.com/ctxlab/ctxlab/policies"
)

// TestRealdata runs replay in every format over the real transcripts kept
// beside the project (skipped when absent): nothing may fail, and the JSON
// total must equal what ccusage 20.0.24 reports for the same files.
func TestRealdata(t *testing.T) {
	realdata := testcorpus.Dir(t, testcorpus.Realdata)
	for _, f := range []string{"table", "markdown", "csv", "json"} {
		out, errOut, code := ctxlab(t, "", nil, "replay", "--format", f, "--top", "0", realdata)
		if code != exitOK {
			t.Fatalf("--format %s: exit %d\n%s", f, code, errOut)
		}
		if f != "json" {
			continue
		}
		var doc struct {
			Sessions []json.RawMessage
			Total    struct {
				Usage struct {
					Total struct {
						Input        int64 `json:"input"`
						CacheWrite5m int64 `json:"cache_write_5m"`
						CacheWrite1h int64 `json:"cache_write_1h"`
						CacheRead    int64 `json:"cache_read"`
						Output       int64 `json:"output"`
					}
				}
			}
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		// ccusage 20.0.24 `claude session --json --offline` on the same folder.
		u := doc.Total.Usage.Total
		if len(doc.Sessions) != 12 || u.Input != 1005765 || u.Output != 607558 ||
			u.CacheWrite5m+u.CacheWrite1h != 6542212 || u.CacheRead != 149892579 {
			t.Errorf("sessions %d, total %+v; want 12 sessions, 1005765/607558/6542212/149892579", len(doc.Sessions), u)
		}
	}
}

// TestRealdataCompare runs compare with every registered policy over the
// real transcripts (skipped when absent): nothing may fail, the observed
// replay reproduces every recorded prompt, and claude-code's first
// auto-compaction comes before the same call as the real one in the four
// sessions that auto-compacted after their first call.
func TestRealdataCompare(t *testing.T) {
	realdata := testcorpus.Dir(t, testcorpus.Realdata)
	for _, f := range []string{"table", "markdown", "csv"} {
		if _, errOut, code := ctxlab(t, "", nil, "compare", "--format", f, "--fidelity", "--policy", allPolicies(), realdata); code != exitOK {
			t.Fatalf("--format %s: exit %d\n%s", f, code, errOut)
		}
	}
	out, errOut, code := ctxlab(t, "", nil, "compare", "--format", "json", "--fidelity", "--policy", allPolicies(), realdata)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	var doc compareDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Sessions) != 12 || len(doc.Fidelity) != 12 || len(doc.Policies) != len(policies.Names()) {
		t.Fatalf("%d sessions, %d fidelity rows, %d policies; want 12, 12, %d", len(doc.Sessions), len(doc.Fidelity), len(doc.Policies), len(policies.Names()))
	}
	var compacted []string
	for _, f := range doc.Fidelity {
		if f.Mismatch != 0 {
			t.Errorf("%s: %d of %d observed prompts differ from the recorded ones", f.Session, f.Mismatch, f.Calls)
		}
		if f.Real <= 1 {
			continue
		}
		compacted = append(compacted, f.Session[:8])
		if f.Simulated != f.Real {
			t.Errorf("%s: first auto-compaction before call %d, under claude-code before call %d", f.Session, f.Real, f.Simulated)
		}
	}
	slices.Sort(compacted)
	if want := []string{"21d5136b", "4a5c6ea5", "5f2d5220", "c7d2069e"}; !slices.Equal(compacted, want) {
		t.Errorf("sessions that auto-compacted after their first call: %v, want %v", compacted, want)
	}
}

// TestRealdataPlot draws every real session (skipped when absent) through
// both commands, every registered policy for compare, and checks that
// ctxlab plot redraws the same bytes from each command's JSON report.
func TestRealdataPlot(t *testing.T) {
	realdata := testcorpus.Dir(t, testcorpus.Realdata)
	if testing.Short() {
		t.Skip("short")
	}
	for _, tc := range []struct {
		name string
		args []string
		min  int // files at least: per session, and the totals
	}{
		{"replay", []string{"replay", "--x", "time"}, 12*5 + 2},
		{"compare", []string{"compare", "--calls", "--plot-format", "svg", "--policy", allPolicies()}, 12*(2+len(policies.Names())) + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			args := append(tc.args, "--format", "json", "--plot", dir, realdata)
			out, errOut, code := ctxlab(t, "", nil, args...)
			if code != exitOK {
				t.Fatalf("exit %d\n%s", code, errOut)
			}
			if n := len(dirFiles(t, dir)); n < tc.min {
				t.Errorf("%d files, want at least %d", n, tc.min)
			}
			again := t.TempDir()
			plotArgs := []string{"plot", "-", "-o", again}
			for i, a := range tc.args {
				if a == "--x" || a == "--plot-format" {
					plotArgs = append(plotArgs, a, tc.args[i+1])
				}
			}
			if _, perr, code := ctxlab(t, out, nil, plotArgs...); code != exitOK {
				t.Fatalf("plot: exit %d\n%s", code, perr)
			}
			sameFiles(t, dir, again)
		})
	}
}
