package simulate_test

import (
	"testing"

	"github.com/ctxlab/ctxlab/internal/testcorpus"
	"github.com/ctxlab/ctxlab/internal/testcorpus/corpusload"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate"
)

// realSessions loads every session of the real transcripts, or skips.
func realSessions(t testing.TB) []*replay.Session { return corpusload.Sessions(t, testcorpus.Realdata) }

func mustParse(t testing.TB, spec string) simulate.Policy {
	t.Helper()
	p, err := policies.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRealdataFidelity is the replay issue's bar: under observed every
// main-thread prompt equals the recorded one and the cache model's reads and
// writes come close to the recorded totals; under claude-code the first
// auto-compaction fires at the same call as the real one.
func TestRealdataFidelity(t *testing.T) {
	for _, s := range realSessions(t) {
		tr := simulate.Prepare(s)
		res := simulate.Run(tr, mustParse(t, "observed"), simulate.DefaultConfig())
		var recRead, recWrite, simRead, simWrite int64
		for i, c := range res.Calls {
			if c.Prompt != c.Recorded {
				t.Errorf("%s call %d: prompt %d, recorded %d", s.ID, c.Call, c.Prompt, c.Recorded)
			}
			u := tr.Calls[i].Usage
			recRead += u.CacheRead
			recWrite += u.CacheWrite()
			// The observed run bills the recorded usage; the model's
			// figures are its prediction.
			if c.Predicted != nil {
				simRead += c.Predicted.Read
				simWrite += c.Predicted.Write
			}
		}
		// Sessions through a gateway that reports no cache writes, and
		// sessions of a few calls, say little about the cache model.
		if recWrite == 0 || len(res.Calls) < 40 {
			continue
		}
		traffic := float64(recRead + recWrite)
		readErr := float64(simRead-recRead) / float64(recRead)
		trafficErr := float64(abs(simRead-recRead)+abs(simWrite-recWrite)) / traffic
		t.Logf("%-40s calls %3d  read %+.1f%%  read+write %.1f%% of cache traffic", s.ID, len(res.Calls), 100*readErr, 100*trafficErr)
		if readErr > 0.06 || readErr < -0.06 || trafficErr > 0.12 {
			t.Errorf("%s: cache read error %.1f%%, read+write error %.1f%% of the cache traffic", s.ID, 100*readErr, 100*trafficErr)
		}
	}
}

func TestRealdataFirstAutoCompaction(t *testing.T) {
	checked := 0
	for _, s := range realSessions(t) {
		real := 0
		for _, c := range s.Main.Compactions {
			if c.Kind != replay.CompactMicro {
				real = c.CallsBefore + 1
				break
			}
		}
		// Only sessions that compacted at a call we can compare: after the
		// first call, and by Claude Code itself (not /compact). 1.0.x files
		// do not record the trigger; their compactions came at the threshold.
		if real <= 1 || s.Main.Compactions[0].Trigger == "manual" {
			continue
		}
		res := simulate.Run(simulate.Prepare(s), mustParse(t, "claude-code"), simulate.DefaultConfig())
		if got := res.Metrics.FirstCompaction; got != real {
			t.Errorf("%s: first simulated auto-compaction before call %d, real one before call %d", s.ID, got, real)
		}
		checked++
	}
	if checked != 4 {
		t.Errorf("compared %d sessions, want the 4 that auto-compacted", checked)
	}
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestFidelityBars pins the fidelity summary on the real and calibration
// transcripts: every first auto-compaction at the real call, no compaction
// where none happened without a reason, every prompt fitted, every
// disagreement explained, the whole-set cache errors within their bars
// (reads ±2%, guarded at ±1%; writes ±10%, guarded at ±3% on the −2.1% and
// −2.1% measured when this test was last changed), and at least the
// sessions whose writes were within 10% then (9 of 11, 7 of 8).
func TestFidelityBars(t *testing.T) {
	for _, c := range []struct {
		dir          string
		autoComp     int
		writesWithin int
	}{{testcorpus.Realdata, 4, 9}, {testcorpus.Calibration, 6, 7}} {
		var rows []simulate.Fidelity
		for _, s := range corpusload.Sessions(t, c.dir) {
			tr := simulate.Prepare(s)
			obs := simulate.Run(tr, mustParse(t, "observed"), simulate.DefaultConfig())
			cc := simulate.Run(tr, mustParse(t, "claude-code"), simulate.DefaultConfig())
			f := simulate.NewFidelity(s, tr, obs, cc, simulate.DefaultFidelityTolerances())
			if !f.Explained() {
				t.Errorf("%s %s: %q", c.dir, s.ID, f.Reasons)
			}
			rows = append(rows, f)
		}
		sum := simulate.SummarizeFidelity(rows, simulate.DefaultFidelityTolerances())
		t.Logf("%s: %+v read %+.2f%% write %+.2f%%", c.dir, sum, *sum.CacheReadErrorPct, *sum.CacheWriteErrorPct)
		if sum.AutoCompacted != c.autoComp || sum.Exact != c.autoComp {
			t.Errorf("%s: first auto-compaction exact in %d of %d, want %d of %d", c.dir, sum.Exact, sum.AutoCompacted, c.autoComp, c.autoComp)
		}
		if sum.PromptMismatches != 0 || sum.Unexplained != 0 || sum.FalseCompactions > 1 {
			t.Errorf("%s: %d prompt mismatches, %d unexplained, %d false compactions", c.dir, sum.PromptMismatches, sum.Unexplained, sum.FalseCompactions)
		}
		// The bar is ±2%; these files do better, and ±1% guards that.
		if r := *sum.CacheReadErrorPct; r < -1 || r > 1 {
			t.Errorf("%s: cache reads %+.2f%%, want within ±1%%", c.dir, r)
		}
		if w := *sum.CacheWriteErrorPct; w < -3 || w > 3 {
			t.Errorf("%s: cache writes %+.2f%%, want within ±3%%", c.dir, w)
		}
		if sum.WritesWithin < c.writesWithin {
			t.Errorf("%s: writes within 10%% in %d of %d sessions, want at least %d", c.dir, sum.WritesWithin, sum.WritesChecked, c.writesWithin)
		}
	}
}
