package simulate_test

import (
	"testing"

	"github.com/ctxlab/ctxlab/internal/testcorpus"
	"github.com/ctxlab/ctxlab/internal/testcorpus/corpusload"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/fidelity"
)

// TestCalibration3Cache pins the cache model's figures on the third
// calibration set (91 files of three users, 1.0.81–2.1.19), as compare
// --fidelity reads it: every prompt fitted (14 mismatches, one "please
// report", until the fit could take what the system prompt gave); the 691
// calls a resumed conversation copied from another file of the set left
// out of the copies' figures (fidelity.LeaveOutCopies); the turns that
// fell back after a turn that first used a tool that asks counted apart
// (allowed_tools_breaks). When this test was written: reads +0.6%, writes
// −9.4%, summed per-call write error 15.6% (27.7% before this branch), 37
// of 45 sessions' cache cost within 10% (34 of 48). The allowed-tools
// rule (TraceCall.AllowedChanged: the turns whose read stopped at the base
// prefix break there in every run) took them to +0.4%, −5.7%, 12.1% and 39
// of 45, and the turns counted apart from 32 to 9: those the model now
// predicts, and those whose read went past the base prefix the model knew.
// Breaking every such turn at its recorded read, wherever in the tools and
// system prompt it stopped, took them to +0.3%, −4.5%, 10.9% and 42 of 45,
// and the turns counted apart to 0 (53dac36c, 1.0.102, −28.8% → −8.5%;
// 63bff843, 1.0.85, −24.1% → +0.6%; 4d761729, 1.0.102, −14.7% → +1.2%),
// and with the tools and system prompt a resumed conversation's new
// process brings measured at its first call (growth) to +0.2%,
// −3.8%, 10.1% and 43 of 45 (4e55affd, 1.0.85, −23.5% → −3.0%):
// a 1.0.102 session whose first call read 4,736 tokens, kept warm by
// other requests, falls back to 26,243 after such a turn, and 63bff843's
// turns after its resumed conversation's restart to 12,713, where the
// calls before it read 11,331.
//
// Per session: 362b2ccf (1.0.84), +96% before, is exact without the
// second-turn rule; 39870e09 (1.0.84), +40.5%, reads its earlier thinking
// budget's entries (+0.6%, and −3.5% without the second-turn rule, which
// had predicted its second turn: one of the allowed-tools turns, after a
// first turn that ran an MCP tool and two commands for the first time;
// +0.6% with the allowed-tools rule, which breaks there);
// d05c4f7d (1.0.85), −74%, copies 63
// of its 64 calls from f1d9485a and cec78578, −64%, all 19 of its own from
// 63bff843; 5f1c35b5 (1.0.83), −70%, fell back after 7 turns that first
// used a tool that asks, which the transcript cannot say were allowed:
// each read the base prefix, 11,331 tokens, and with the allowed-tools
// rule it is −17.2% (−16.4% breaking at the read).
func TestCalibration3Cache(t *testing.T) {
	tol := fidelity.DefaultTolerances()
	var rows []fidelity.Row
	for _, s := range corpusload.Marked(t, testcorpus.Calibration3) {
		rows = append(rows, fidelityRun(t, s).row)
	}
	fidelity.LeaveOutCopies(rows, tol)
	sum := fidelity.Summarize(rows, tol)
	t.Logf("reads %+.2f%%, writes %+.2f%%, per call %.2f%%, cost within 10%% %d of %d, copied %d",
		*sum.CacheReadErrorPct, *sum.CacheWriteErrorPct, *sum.CallWriteErrorPct, sum.CacheCostWithin, sum.CacheCostChecked, sum.CopiedCalls)
	if sum.PromptMismatches != 0 || sum.CopiedCalls != 691 || sum.Calls != 5226 {
		t.Errorf("%d prompt mismatches, %d copied calls of %d; want 0, 691 of 5226", sum.PromptMismatches, sum.CopiedCalls, sum.Calls)
	}
	// The bars: reads ±2%, writes ±10%; the per-call error and the cost
	// guarded at what this branch measured.
	if r, w := *sum.CacheReadErrorPct, *sum.CacheWriteErrorPct; r < -2 || r > 2 || w < -10 || w > 10 {
		t.Errorf("reads %+.2f%%, writes %+.2f%%, want within ±2%% and ±10%%", r, w)
	}
	if p := *sum.CallWriteErrorPct; p > 10.1 {
		t.Errorf("per-call write error %.2f%%, want at most 10.1%%", p)
	}
	if sum.CacheCostChecked != 45 || sum.CacheCostWithin < 43 {
		t.Errorf("cache cost within 10%% in %d of %d sessions, want at least 43 of 45", sum.CacheCostWithin, sum.CacheCostChecked)
	}
	allowed := 0
	byID := map[string]*fidelity.Row{}
	for i := range rows {
		allowed += rows[i].AllowedToolsBreaks
		byID[rows[i].Session[:8]] = &rows[i]
	}
	if allowed != 0 {
		t.Errorf("%d turns after a tool's first use counted apart, want 0", allowed)
	}
	for _, c := range []struct {
		id               string
		copied, allowed  int
		writeErr, bound  float64 // the session's write error and how far it may move, %
		recordedWrite    int64
		copiedFromPrefix string
	}{
		{"362b2ccf", 0, 0, 0, 0.5, 36_443, ""},
		{"39870e09", 0, 0, 0.64, 0.5, 503_698, ""},
		{"d05c4f7d", 63, 0, 0, 0.5, 76_008, "f1d9485a"},
		{"cec78578", 19, 0, 0, 0, 0, "63bff843"},
		{"5f1c35b5", 0, 0, -16.38, 0.5, 383_984, ""},
	} {
		f := byID[c.id]
		if f == nil {
			t.Errorf("%s: no such session", c.id)
			continue
		}
		if f.CopiedCalls != c.copied || f.AllowedToolsBreaks != c.allowed || f.RecordedCacheWrite != c.recordedWrite {
			t.Errorf("%s: %d copied, %d allowed-tools turns, recorded writes %d; want %d, %d, %d",
				c.id, f.CopiedCalls, f.AllowedToolsBreaks, f.RecordedCacheWrite, c.copied, c.allowed, c.recordedWrite)
		}
		if c.copiedFromPrefix != "" && (len(f.CopiedFrom) != 1 || f.CopiedFrom[0][:8] != c.copiedFromPrefix) {
			t.Errorf("%s: copied from %v, want %s", c.id, f.CopiedFrom, c.copiedFromPrefix)
		}
		if p := f.CacheWriteErrorPct; c.recordedWrite > 0 && (p == nil || *p < c.writeErr-c.bound || *p > c.writeErr+c.bound) {
			t.Errorf("%s: writes %v%%, want %+.2f%% ± %.1f", c.id, p, c.writeErr, c.bound)
		}
	}
}

// run is a session's fidelity run, as compare --fidelity makes it: its
// trace, observed's and claude-code's results and its fidelity row.
type run struct {
	tr      *simulate.Trace
	obs, cc *simulate.Result
	row     fidelity.Row
}

func fidelityRun(t *testing.T, s *replay.Session) run {
	t.Helper()
	tr := simulate.Prepare(s)
	obs := simulate.Run(tr, mustParse(t, "observed"), simulate.DefaultConfig())
	cc := simulate.Run(tr, mustParse(t, "claude-code"), simulate.DefaultConfig())
	return run{tr, obs, cc, fidelity.New(s, tr, obs, cc, fidelity.DefaultTolerances())}
}
