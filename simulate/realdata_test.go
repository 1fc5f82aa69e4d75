package simulate_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/internal/testcorpus"
	"github.com/ctxlab/ctxlab/internal/testcorpus/corpusload"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/fidelity"
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
		// first call, and by Claude Code itself (not /compact; 1.0.x files
		// show it by the summary's text, replay.Compaction.TriggerFrom).
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

// TestRealdataCompactionTotal pins the usage total before c7d2069e's
// auto-compaction at call 198: call 197's prompt 154,835 + output 713 =
// 155,548, past claude-code's 155,000. Its call 142 sent nothing (a
// synthetic response), so call 197 is the trace's 196th call; the report
// once took the trace's 197th, the compacted call 198 (27,570).
func TestRealdataCompactionTotal(t *testing.T) {
	_, _, f := realFidelity(t, "c7d2069e-c561-4759-8adf-b0745be78c29")
	if f.RealAutoCompaction != 198 || f.RealAutoCompactionTotal != 155_548 || f.ClaudeCodeThreshold != 155_000 {
		t.Errorf("auto-compaction at call %d after a usage total of %d, threshold %d; want 198, 155548, 155000",
			f.RealAutoCompaction, f.RealAutoCompactionTotal, f.ClaudeCodeThreshold)
	}
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestFidelityBars pins the fidelity summary on the real and calibration
// transcripts, each set read as compare --fidelity reads it, every figure
// bounded where it stood when last changed so that the test fails when one
// gets worse: the first auto-compactions at the real call, no compaction
// where none happened without a reason, every prompt fitted, every
// disagreement explained, the whole-set cache errors within their bars
// (reads ±2%, guarded at ±0.5% on the −0.10% and +0.10% measured when this
// test was last changed, −0.8% and −0.3% before a compatible endpoint's
// cache held each whole prompt; writes ±10%, guarded at ±6% on the +2.4%
// and −3.0% measured then), and at least the
// sessions whose writes were within 10% then (8 of 11, 7 of 8: 97b0ffde,
// 2.0.60, went from −9.2% to −10.4% when the second-turn rule, which the
// third calibration set's 1.0.x second turns refute, stopped predicting
// its second turn).
//
// A whole-set error lets a call written too much cancel one written too
// little, so the test also guards the error that cannot cancel: the sum
// over calls of |predicted − recorded| writes, as a share of the recorded
// writes (5.62% and 4.03% when this test was last changed: 5.61% on the
// real set with the second-turn rule, 4.27% on the calibration set before
// each thinking budget's entries were kept apart; 6.53% on the
// calibration set before the first call of a resumed conversation's new
// process lost the cached messages (f5a50440, −10.9% → −2.4%); 6.48% on the
// real set before a transcript that continues a conversation from its
// summary was taken to be past its second turn, with no prefix kept warm
// by others; 6.77% on the
// calibration set before a fallback could show the system prompt ending
// past a warm first call's read; 8.12% on the real set before the rule
// for the model the system prompt names (6.74% before a model took the
// previous model's base prefix), 9.34% before the rule for
// thinking dropped by the API; 13.4% and 8.0% before the base
// prefix and the system prompt prefix read from calls; 15.08% and 9.94%
// before the shared prefix's lifetime followed the first call's read).
// The base prefix moved the calibration set's writes from −4.0% to −5.0%
// and one of its sessions out of 10% (f5a50440, −6.6% → −10.7%): four
// calls in new working directories that the model had written 12,517
// tokens too many each had been cancelling calls after a copied stretch
// that it cannot see expire. The thinking rule moved one real session out
// (c7d2069e, +6.0% → +10.4%): two turns it now predicts had been
// cancelling the two of its 18 that fell back less far than the rule has
// it. The model-name rule brought 5f2d5220 from −6.7% to +0.3%, which
// had been cancelling the real set's calls written too much (+1.0% →
// +2.7%).
func TestFidelityBars(t *testing.T) {
	for _, c := range []struct {
		dir          string
		autoComp     int     // sessions that auto-compacted after their first call
		exact        int     // of those, at least this many with claude-code's first auto-compaction at the real call
		falseComp    int     // at most this many sessions compact under claude-code where none happened
		read, write  float64 // the bounds on the whole-set cache read and write errors, ± %
		writesWithin int
		perCall      float64 // the bound on the per-call write error, %
		postWithin   int     // prompts after the first compaction within 10%
		postMedian   float64 // the bound on their median |error|, %
		costWithin   int     // sessions whose cache cost is within 10% (of those over 100K)
		unexplained  int     // disagreements the model cannot account for
	}{
		// The prompt after the first compaction: 1.0.x restoration by
		// last touch, files written included (docs/simulation.md), took
		// the median from 4.0% to 4.75% in the calibration set (beee53d0
		// −2.4% → +4.1%, f5a50440 +2.0% → +9.1%, both 1.0.89). The
		// per-file limit on the tokens the API counts before 2.1.6 took
		// 5f2d5220 (1.0.89) from +25.1% to +5.1%, and the median here
		// from 9.75% to 6.0% (7.9% before restoration followed Claude
		// Code's files).
		{testcorpus.Realdata, 4, 4, 0, 0.5, 6, 9, 5.4, 3, 6.5, 11, 0},
		{testcorpus.Calibration, 6, 6, 0, 0.5, 6, 7, 4.1, 6, 5, 9, 0},
		// d80e8a73: the one compaction where none happened, at a restart
		// that sent a smaller prompt (explained as such); 0c45b0a6 (1.0.81):
		// Claude Code re-attached far more than the restoration rule gives
		// (docs/simulation.md); a1bb1115 (1.0.80), −66.5% until files
		// written counted before 1.0.114, is −15.3%. a1bb1115 starts from
		// a summary, so its first compaction is its second (before it was
		// counted, 3 of 4 were 2 of 3, the median 6.7%). 48244adb's
		// compaction was at call 125 until the results its micro-compaction
		// cleared were sized by what clearing them freed, and at 78 until
		// 2.1.19's count kept the transcript's placeholder output.
		{testcorpus.Calibration2, 4, 4, 1, 0.5, 6, 4, 7.8, 2, 12, 8, 0},
		// Three users' whole folders (1.0.81–1.0.102, 2.0.76–2.1.19), pinned
		// where they stood when added: first auto-compaction exact in 13 of
		// 14 (7eb3ce7b compacts a call early where Claude Code's compaction
		// failed, TestCalibration3FailedCompaction), reads +0.6%, writes
		// −9.4%, per-call write error 15.58%, the prompt after the first
		// compaction within 10% in 6 of 14 (median 12.3%; 3 of 14 and 29.3%
		// before restoration followed each version's files), cache cost within 10% in
		// 37 of 45. The eight others are 1.0.83–1.0.102 sessions whose
		// simulated writes fall short: in six, mostly at turns after one
		// that first used a tool that asks (claudecode.AllowedTools: the
		// user's "don't ask again", which the transcript does not record);
		// in 8c69c2fb, two calls 315 and 316 s after the previous one that
		// read nothing, the 5-minute lifetime past though within the
		// model's clock slack; in f1d9485a, calls after idle gaps that read
		// nothing where the model reads the system prompt prefix as kept
		// warm by other requests, and one fallback with no visible cause.
		// The allowed-tools rule (TraceCall.AllowedChanged) breaks the
		// turns whose read stopped at the base prefix in every run: reads
		// +0.4%, writes −5.7%, writes within 10% in 51 sessions, per-call
		// write error 12.08%, cache cost within 10% in 39 of 45 (5f1c35b5
		// −29% → −7%, f55cf430 −29% → +2%). Breaking each such turn at its
		// recorded read, wherever in the tools and system prompt it
		// stopped: reads +0.3%, writes −4.5%, writes within 10% in 55,
		// per-call write error 10.87%, cache cost within 10% in 42 of 45
		// (53dac36c −28.8% → −8.5%, 63bff843 −24.1% → +0.6%, 4d761729
		// −14.7% → +1.2%); the real set's per-call error 5.61% → 5.33%
		// (97b0ffde's second turn exact, writes −9.2% → 0.0%). With the
		// tools and system prompt a resumed conversation's new process
		// brings measured at its first call: reads +0.2%, writes −3.8%,
		// writes within 10% in 56, per-call 10.10%, cache cost within 10%
		// in 43 of 45 (4e55affd −23.5% → −3.0%).
		// The tools an MCP server brings while the session runs kept after
		// a full compaction (TraceCall.ToolsGrowth): the prompt after the
		// first compaction within 10% in 9 of 14, median 6.8% (4a0dc817
		// −33.5% → +3.0%, f902560e −36.6% → −2.7%, 63bff843 −11.9% →
		// +8.7%; 32ac3cae +18.4% → +21.7%).
		// Each bound fails only when the figure gets worse.
		{testcorpus.Calibration3, 14, 13, 0, 0.5, 6, 56, 10.1, 9, 7, 43, 0},
	} {
		// Read as compare --fidelity reads a folder: a file that continues
		// another's conversation marked (replay.MarkContinued), and the
		// calls a resumed conversation copied left out of the copy's
		// figures (fidelity.LeaveOutCopies).
		var rows []fidelity.Row
		var callErr, recorded int64
		for _, s := range corpusload.Marked(t, c.dir) {
			r := fidelityRun(t, s)
			rows = append(rows, r.row)
			for i, oc := range r.obs.Calls {
				if p := oc.Predicted; p != nil {
					w := r.tr.Calls[i].Usage.CacheWrite()
					callErr += max(p.Write-w, w-p.Write)
					recorded += w
				}
			}
		}
		fidelity.LeaveOutCopies(rows, fidelity.DefaultTolerances())
		for _, f := range rows {
			if !f.Explained() && c.unexplained == 0 {
				t.Errorf("%s %s: %q", c.dir, f.Session, f.Reasons)
			}
		}
		sum := fidelity.Summarize(rows, fidelity.DefaultTolerances())
		got := -1.0
		if p := sum.CallWriteErrorPct; p != nil {
			got = *p
		}
		t.Logf("%s: per-call write error %.2f%% (%d of %d recorded over every call)", c.dir, got, callErr, recorded)
		if got < 0 || got > c.perCall {
			t.Errorf("%s: per-call write error %.2f%% of the recorded writes, want at most %.1f%%", c.dir, got, c.perCall)
		}
		// Without copies the summary sums every call's error.
		if perCall := 100 * float64(callErr) / float64(recorded); sum.CopiedCalls == 0 && math.Abs(got-perCall) > 0.005 {
			t.Errorf("%s: the summary's per-call write error is %.2f%%, computed here %.4f%%", c.dir, got, perCall)
		}
		t.Logf("%s: %+v read %+.2f%% write %+.2f%%", c.dir, sum, *sum.CacheReadErrorPct, *sum.CacheWriteErrorPct)
		if sum.AutoCompacted != c.autoComp || sum.Exact < c.exact {
			t.Errorf("%s: first auto-compaction exact in %d of %d, want at least %d of %d", c.dir, sum.Exact, sum.AutoCompacted, c.exact, c.autoComp)
		}
		if sum.PromptMismatches != 0 || sum.Unexplained != c.unexplained || sum.FalseCompactions > c.falseComp {
			t.Errorf("%s: %d prompt mismatches, %d unexplained (want %d), %d false compactions (want at most %d)",
				c.dir, sum.PromptMismatches, sum.Unexplained, c.unexplained, sum.FalseCompactions, c.falseComp)
		}
		// The bars are ±2% and ±10%; these files do better, and the
		// bounds guard that.
		if r := *sum.CacheReadErrorPct; math.Abs(r) > c.read {
			t.Errorf("%s: cache reads %+.2f%%, want within ±%.1f%%", c.dir, r, c.read)
		}
		if w := *sum.CacheWriteErrorPct; math.Abs(w) > c.write {
			t.Errorf("%s: cache writes %+.2f%%, want within ±%.1f%%", c.dir, w, c.write)
		}
		if sum.WritesWithin < c.writesWithin {
			t.Errorf("%s: writes within 10%% in %d of %d sessions, want at least %d", c.dir, sum.WritesWithin, sum.WritesChecked, c.writesWithin)
		}
		if sum.CacheCostWithin < c.costWithin {
			t.Errorf("%s: cache cost within 10%% in %d of %d sessions, want at least %d", c.dir, sum.CacheCostWithin, sum.CacheCostChecked, c.costWithin)
		}
		// Every session that auto-compacted after its first call is one
		// claude-code compacts in too.
		if sum.PostCompactionChecked != c.autoComp || sum.PostCompactionWithin < c.postWithin ||
			sum.PostCompactionMedianErrorPct == nil || *sum.PostCompactionMedianErrorPct > c.postMedian {
			t.Errorf("%s: prompt after the first compaction within 10%% in %d of %d (want at least %d of %d), median |error| %v (want at most %.1f%%)",
				c.dir, sum.PostCompactionWithin, sum.PostCompactionChecked, c.postWithin, c.autoComp, sum.PostCompactionMedianErrorPct, c.postMedian)
		}
	}
}

// TestRealdataNewVersion pins the version-change rule on the one real
// session that changes version within the cache lifetime on Anthropic's
// cache. 0ccf1a04's first call read 18,277 tokens (its system prompt
// prefix, usage.cache_read_input_tokens of its first line). Call 3, 95
// minutes after call 2, read 13,681: a shorter prefix of the system
// prompt, which from then on is the one the model keeps warm (the base
// prefix). Six minutes after the last 2.1.15 call, a haiku call on 2.1.16
// restarts the session, and the next opus call read 10,467 and wrote
// 12,074. The model reads the base prefix, 13,681, and writes the rest of
// the recorded prompt, 9 + 12,074 + 10,467 − 13,681 − 9 = 8,860; the
// fidelity row counts that call apart, 13,681 − 10,467 = 3,214 tokens
// read too many (7,810 before the base prefix, when the model read
// 18,277).
func TestRealdataNewVersion(t *testing.T) {
	tr, obs, f := realFidelity(t, "0ccf1a04-1b4c-43b6-8aa5-79e41db43a68")
	found := false
	for i, c := range obs.Calls {
		tc := tr.Calls[i]
		if tc.Version != "2.1.16" || tc.Usage.CacheRead != 10_467 {
			continue
		}
		found = true
		if p := c.Predicted; p == nil || p.Read != 13_681 || p.Write != 8_860 {
			t.Errorf("call %d (%s): predicted %+v, want read 13681, write 8860", c.Call, tc.Model, c.Predicted)
		}
		break
	}
	if !found {
		t.Fatal("no 2.1.16 call reading 10,467 tokens")
	}
	want := "1 call on a new Claude Code version read a shorter system prompt prefix than the previous version's, which the model reads: 3,214 tokens"
	if f.NewVersionShorter != 1 || !hasReason(f, want) {
		t.Errorf("new-version calls %d, reasons %q", f.NewVersionShorter, f.Reasons)
	}
	// Call 3 read 13,681 where the model, which has seen no shorter read
	// yet, reads the first call's 18,277: 18,277 − 13,681 = 4,596 tokens.
	want = "1 call at which the model reads only the system prompt prefix it takes (18,277 tokens, the first call's cache read) read a shorter one: 4,596 tokens"
	if f.ShorterPrefix != 1 || f.UnseenBreaks != 0 || !hasReason(f, want) {
		t.Errorf("shorter-prefix calls %d, unseen breaks %d, reasons %q", f.ShorterPrefix, f.UnseenBreaks, f.Reasons)
	}
	// The shortest read is the new version's, at call 7.
	if f.BasePrefix != 10_467 || f.BasePrefixCall != 7 {
		t.Errorf("base prefix %d at call %d, want 10467 at call 7", f.BasePrefix, f.BasePrefixCall)
	}
}

// TestRealdataWorkingDirectory pins the base prefix on 5f2d5220, a 1.0.89
// session whose Bash commands move the working directory, which Claude
// Code names in its system prompt. Its first call read nothing, so the
// model's system prompt prefix is the first prompt less its messages,
// 27,923 tokens. Call 33, the first in a new directory, read 12,232: a
// breakpoint inside the system prompt and tools, the base prefix. The
// model, which has seen no such read before it, reads nothing there;
// calls 65, 148 and 174, later turns in new directories, read 12,232
// again, as the model now predicts, and write exactly what they recorded.
// Call 188 read 15,904 (a longer prefix than the base survived); the model
// reads 12,232.
//
// Call 69, where the thinking budget changed and the cached messages were
// lost two minutes after the call before, read 15,898, where the model
// reads its 27,923: the system prompt ends there (TraceCall.SysRead).
// Calls 87 and 98 fall back the same way and read 15,898, as the model now
// predicts.
func TestRealdataWorkingDirectory(t *testing.T) {
	tr, obs, f := realFidelity(t, "5f2d5220-e018-4795-8fcb-23e42b068058")
	want := map[int]int64{33: 0, 65: 12_232, 148: 12_232, 174: 12_232, 188: 12_232}
	seen := 0
	for i, c := range obs.Calls {
		tc := tr.Calls[i]
		if !tc.CwdChanged {
			continue
		}
		w, ok := want[c.Call]
		if !ok {
			t.Errorf("call %d: a new working directory the test does not expect", c.Call)
			continue
		}
		seen++
		p := c.Predicted
		if p == nil || p.Read != w {
			t.Errorf("call %d: predicted %+v, want read %d", c.Call, p, w)
			continue
		}
		if w == tc.Usage.CacheRead && p.Write != tc.Usage.CacheWrite() {
			t.Errorf("call %d: predicted write %d, recorded %d", c.Call, p.Write, tc.Usage.CacheWrite())
		}
	}
	if seen != len(want) {
		t.Errorf("%d calls in a new working directory, want %d", seen, len(want))
	}
	for _, n := range []int{69, 87, 98} {
		c, tc := obs.Calls[n-1], tr.Calls[n-1]
		want := int64(15_898)
		if n == 69 {
			want = 27_923
		}
		if p := c.Predicted; tc.Usage.CacheRead != 15_898 || p == nil || p.Read != want || tc.SysRead != (n == 69) {
			t.Errorf("call %d: recorded read %d, predicted %+v, SysRead %v; want 15898, a read of %d", n, tc.Usage.CacheRead, p, tc.SysRead, want)
		}
	}
	if f.SystemPrefix != 27_923 || f.BasePrefix != 12_232 || f.BasePrefixCall != 33 {
		t.Errorf("system prefix %d, base prefix %d at call %d, want 27923, 12232 at call 33", f.SystemPrefix, f.BasePrefix, f.BasePrefixCall)
	}
	// The last such read on opus, the main model, is call 151's 15,904.
	if f.SystemPrefixRead != 15_904 || f.SystemPrefixReadCall != 151 {
		t.Errorf("system prefix read %d at call %d, want 15904 at call 151", f.SystemPrefixRead, f.SystemPrefixReadCall)
	}
}

// TestRealdataModelSwitch pins the model-name rule on 5f2d5220, a 1.0.89
// session whose turn at call 198 went on on Sonnet 4 after Opus 4.1's
// usage limit (call 199). The next turn, call 229 44 seconds after the
// call before, read only 12,232 tokens: its system prompt named Sonnet 4
// where Sonnet's entries had been written under Opus. Sonnet has shown no
// base prefix of its own and takes Opus's, 12,232 (call 33), so the model
// reads exactly that, where before the rule it read the whole previous
// prompt, 109,279 (97,047 tokens written too few). The session's cache
// writes go from −6.7% to +0.3%.
func TestRealdataModelSwitch(t *testing.T) {
	tr, obs, f := realFidelity(t, "5f2d5220-e018-4795-8fcb-23e42b068058")
	var marked []int
	for _, c := range obs.Calls {
		if slices.Contains(c.Actions, "the system prompt names the model the previous turn switched to") {
			marked = append(marked, c.Call)
		}
	}
	if !slices.Equal(marked, []int{229}) {
		t.Fatalf("the rule marks calls %v, want [229]", marked)
	}
	c, tc := obs.Calls[228], tr.Calls[228]
	if p := c.Predicted; tc.Usage.CacheRead != 12_232 || p == nil || p.Read != 12_232 || p.Write != tc.Usage.CacheWrite() {
		t.Errorf("call 229: recorded read %d write %d, predicted %+v; want the same", tc.Usage.CacheRead, tc.Usage.CacheWrite(), p)
	}
	if e := f.CacheWriteErrorPct; e == nil || *e != 0.33 {
		t.Errorf("write error %v, want 0.33", e)
	}
}

// TestRealdataThinkingDropped pins the rule for a user turn after a turn
// with thinking on c7d2069e, a 2.0.76 Sonnet 4.5 session whose responses
// all think. All 18 turns the rule marks fell back (each recorded read is
// shorter than the previous call's prompt), and the model predicts 14 of
// them exactly (11 until the allowed-tools rule broke the turns after one
// that first used a tool that asks at their recorded read: calls 7, 141
// and 212, where the model had read 17,311 and 12,834). Calls 10 and 83,
// whose prompts grew, are two of those: before the rule the model read
// the whole previous prompt there.
func TestRealdataThinkingDropped(t *testing.T) {
	tr, obs, f := realFidelity(t, "c7d2069e-c561-4759-8adf-b0745be78c29")
	marked, fell, exact := 0, 0, 0
	for i, c := range obs.Calls {
		if !slices.Contains(c.Actions, "thinking of the previous turn dropped") {
			continue
		}
		marked++
		u := tr.Calls[i].Usage
		if i > 0 && u.CacheRead < tr.Calls[i-1].Usage.Prompt()-1000 {
			fell++
		}
		if p := c.Predicted; p != nil && p.Read == u.CacheRead {
			exact++
		}
		if (c.Call == 10 || c.Call == 83) && (c.Predicted == nil || c.Predicted.Read != 14_477 || u.CacheRead != 14_477) {
			t.Errorf("call %d: recorded read %d, predicted %+v, want both 14477", c.Call, u.CacheRead, c.Predicted)
		}
	}
	if marked != 18 || fell != 18 || exact != 14 {
		t.Errorf("%d turns marked, %d fell back, %d predicted exactly; want 18, 18, 14", marked, fell, exact)
	}
	// Four calls fell back less far than a rule has them, to the system
	// prompt's 14,477: calls 107 and 159 read the previous turn's start,
	// 90,328 and 126,498, and calls 198 and 266 (after a compaction)
	// 17,945 and 18,004. 75,851 + 112,021 + 3,468 + 3,527 = 194,867.
	want := "4 calls fell back less far than a rule of the model has it (the recorded reads reached past where the model's read stops): 194,867 tokens"
	if f.ShallowerFallbacks != 4 || f.WarmElsewhere != 0 || !hasReason(f, want) {
		t.Errorf("shallower fallbacks %d, warm elsewhere %d, reasons %q", f.ShallowerFallbacks, f.WarmElsewhere, f.Reasons)
	}
}

// realFidelity prepares the real session id and runs it under observed and
// claude-code, as compare --fidelity does; it skips the test when the
// session is not in the real transcripts.
func realFidelity(t *testing.T, id string) (*simulate.Trace, *simulate.Result, fidelity.Row) {
	t.Helper()
	for _, s := range realSessions(t) {
		if s.ID == id {
			tr := simulate.Prepare(s)
			obs := simulate.Run(tr, mustParse(t, "observed"), simulate.DefaultConfig())
			cc := simulate.Run(tr, mustParse(t, "claude-code"), simulate.DefaultConfig())
			return tr, obs, fidelity.New(s, tr, obs, cc, fidelity.DefaultTolerances())
		}
	}
	t.Skipf("%s not in the real transcripts", id)
	return nil, nil, fidelity.Row{}
}

// hasReason reports whether one of f's reasons begins with want.
func hasReason(f fidelity.Row, want string) bool {
	return slices.ContainsFunc(f.Reasons, func(r string) bool { return strings.HasPrefix(r, want) })
}

// TestRealdataToolRunTime pins eb58ac6d, a 1.0.81 file in which 107 of the
// 151 responses carry one timestamp (2025-08-14T21:44:19.910Z). Its call 42
// read nothing from the cache and wrote 97,995 tokens; call 41, stamped
// with the same time, had read 95,905. Between them a Task sub-agent ran
// for 451,847 ms (toolUseResult.totalDurationMs), past the 5-minute
// lifetime: the session's entries had expired, and the model, whose clock
// the run time moves on, reads nothing either. The file begins with the
// summary of the conversation it continues (Trace.Continued), so the
// first call's 15,576-token read was its own compaction's prefix, which no
// other request keeps warm, and call 42 writes all 98,002 − 7 uncached =
// 97,995. Call 41's clock is itself 104,648 ms ahead: an earlier Task's
// 104,619 ms and three Glob searches' 29. The session's one reason says
// what the clock was. Before the run times were read, the model read
// 96,126 at call 42 and the session's cache writes were 17.6% under the
// recorded ones; with them and the first call's read kept warm, 6.2% over
// (82,419 written at call 42, but also its second turn, call 12, read only
// the system prompt: the conversation is past its second turn). Now they
// are (339,706 − 338,728) / 338,728 = +0.29% over.
func TestRealdataToolRunTime(t *testing.T) {
	tr, obs, f := realFidelity(t, "eb58ac6d-1d26-40b0-b0d2-e767a62574a3")
	c41, c42 := tr.Calls[40], tr.Calls[41]
	if c42.Usage.CacheRead != 0 || c41.Usage.CacheRead != 95_905 || c41.Time-c41.Ahead != c42.Time-c42.Ahead {
		t.Fatalf("calls 41 and 42: %+v at %d, %+v at %d", c41.Usage, c41.Time-c41.Ahead, c42.Usage, c42.Time-c42.Ahead)
	}
	if c41.Ahead != 104_648 || c42.Time != c41.Time+451_847 {
		t.Errorf("clocks: call 41 %d ms ahead, call 42 %d ms after it; want 104648 and 451847", c41.Ahead, c42.Time-c41.Time)
	}
	if !tr.Continued || !f.Continued || f.KeptWarm || obs.KeptWarm() {
		t.Errorf("the transcript begins with a summary: Continued %v (report %v), kept warm %v (report %v)", tr.Continued, f.Continued, obs.KeptWarm(), f.KeptWarm)
	}
	// c7d2069e's first call read 17,311 tokens with no summary before it:
	// the user's other requests kept that prefix warm.
	if _, _, g := realFidelity(t, "c7d2069e-c561-4759-8adf-b0745be78c29"); !g.KeptWarm || g.Continued {
		t.Errorf("c7d2069e: kept warm %v, continued %v; want true, false", g.KeptWarm, g.Continued)
	}
	if p := obs.Calls[41].Predicted; p == nil || p.Read != 0 || p.Write != 97_995 {
		t.Errorf("call 42 predicted %+v, want a read of 0 and a write of 97995", p)
	}
	if p := obs.Calls[11].Predicted; p == nil || p.Read != 51_036 {
		t.Errorf("call 12 (the turn after the summary's) predicted %+v, want a read of 51036", p)
	}
	if f.SimulatedCacheWrite != 339_706 || f.RecordedCacheWrite != 338_728 || f.StoppedClock != 0 {
		t.Errorf("writes %d simulated, %d recorded; stopped-clock calls %d", f.SimulatedCacheWrite, f.RecordedCacheWrite, f.StoppedClock)
	}
	// The report says what it inferred: calls 19 to 65 are measured on the
	// moved clock (47 calls), at most 104,648 + 451,847 = 556,495 ms ahead.
	want := "clock inferred: at 47 calls, where the timestamps stop, tools' recorded run times (toolUseResult) move the model's clock up to 9m16s past the timestamp"
	if f.ClockMoved != 47 || f.ClockMovedMs != 556_495 || len(f.Reasons) != 1 || !hasReason(f, want) {
		t.Errorf("clock moved at %d calls, by up to %d ms; reasons %q", f.ClockMoved, f.ClockMovedMs, f.Reasons)
	}
}

// TestObservedIsRecorded: on every session of the four sets of genuine
// transcripts, the observed run's usage metrics are what the transcript
// recorded, exactly: its main thread's input, cache writes, cache reads,
// output and cost are replay's usage of the main thread, and its totals
// replay's usage of the whole session. What the cache model predicts for a
// call that recorded no prompt (a usage all zero) is its prediction
// (Predicted), never billed.
func TestObservedIsRecorded(t *testing.T) {
	for _, corpus := range testcorpus.All {
		checked := 0
		for _, s := range corpusload.Sessions(t, corpus) {
			rep := accounting.Analyze(s, accounting.DefaultConfig())
			var main accounting.UsageRow
			for _, row := range rep.Usage.ByThread {
				if row.Name == "main" {
					main = row
				}
			}
			if s.Auxiliary != "" {
				// A side request read without its session is not replayed:
				// its calls are costed among the sub-agents'.
				main = accounting.UsageRow{}
			}
			res := simulate.Run(simulate.Prepare(s), mustParse(t, "observed"), simulate.DefaultConfig())
			m := res.Metrics
			got := [6]float64{float64(m.Input), float64(m.CacheWrite5m), float64(m.CacheWrite1h), float64(m.CacheRead), float64(m.Output), m.Cost}
			want := [6]float64{float64(main.Input), float64(main.CacheWrite5m), float64(main.CacheWrite1h), float64(main.CacheRead), float64(main.Output), prices.RoundUSD(main.Cost)}
			if got != want || m.Calls != main.Calls {
				t.Errorf("%s/%s: observed %d calls, usage %v; replay's main thread %d calls, %v (input, writes 5m and 1h, read, output, cost)",
					corpus, s.ID, m.Calls, got, main.Calls, want)
			}
			tot := rep.Usage.Total
			gotT := [6]float64{float64(m.TotalInput), float64(m.TotalCacheWrite5m), float64(m.TotalCacheWrite1h), float64(m.TotalCacheRead), float64(m.TotalOutput), m.TotalCost}
			wantT := [6]float64{float64(tot.Input), float64(tot.CacheWrite5m), float64(tot.CacheWrite1h), float64(tot.CacheRead), float64(tot.Output), prices.RoundUSD(tot.Cost)}
			if gotT != wantT {
				t.Errorf("%s/%s: observed totals %v, replay's session %v", corpus, s.ID, gotT, wantT)
			}
			checked++
		}
		t.Logf("%s: %d sessions", corpus, checked)
	}
}

// calibration3Fidelity loads the third calibration set's session id and
// returns its fidelity row, or skips when the set or the session is absent.
func calibration3Fidelity(t *testing.T, id string) fidelity.Row {
	t.Helper()
	for _, s := range corpusload.Sessions(t, testcorpus.Calibration3) {
		if s.ID == id {
			tr := simulate.Prepare(s)
			obs := simulate.Run(tr, mustParse(t, "observed"), simulate.DefaultConfig())
			cc := simulate.Run(tr, mustParse(t, "claude-code"), simulate.DefaultConfig())
			return fidelity.New(s, tr, obs, cc, fidelity.DefaultTolerances())
		}
	}
	t.Skipf("%s not in the third calibration set", id)
	return fidelity.Row{}
}

// TestCalibration3FinalOutput pins the final output Claude Code 1.0.x
// counts. In f1d9485a (1.0.85) the recorded usage total of call 63 is
// 154,897, 103 under the 155,000 threshold, with an output of 1: the
// placeholder the transcript wrote before the response ended. Claude
// Code's count had the final output, and it compacted before call 64; the
// model, counting the response's estimate (120), compacts there too, and
// not before call 63 (call 62: 154,657 and an estimate of 115). d05c4f7d
// resumed the same conversation after call 63: the restarted Claude Code
// read the transcript's placeholder back, counted 154,897, and did not
// compact, nor does the model.
func TestCalibration3FinalOutput(t *testing.T) {
	if f := calibration3Fidelity(t, "f1d9485a-2de6-4eac-ad9b-76d552f66b08"); f.RealAutoCompaction != 64 || f.SimulatedAutoCompaction != 64 {
		t.Errorf("f1d9485a: first auto-compaction at call %d, claude-code's at %d, want 64 and 64", f.RealAutoCompaction, f.SimulatedAutoCompaction)
	}
	if f := calibration3Fidelity(t, "d05c4f7d-ef93-4559-9c22-37ec57f6a6a5"); f.RealAutoCompaction != 0 || f.SimulatedAutoCompaction != 0 {
		t.Errorf("d05c4f7d: first auto-compaction at call %d, claude-code's at %d, want none", f.RealAutoCompaction, f.SimulatedAutoCompaction)
	}
}

// TestCalibration3FailedCompaction pins 7eb3ce7b (1.0.95), which
// auto-compacted before calls 161, 352 and 511 at its 200K window's
// 155,000 threshold, and sent call 510 after a usage total of 155,893
// without compacting. That call proves no larger window: the session's
// auto-compactions prove the default one, so nothing is inferred. Call 160
// came 85 s after its prompt, where every call sent below the warning
// level came within 54 s: after call 159's 154,767 and its response's
// final output, Claude Code tried to compact there and failed or was
// interrupted, and compacted at the next call. claude-code compacts
// before call 160, and the reason says why.
func TestCalibration3FailedCompaction(t *testing.T) {
	f := calibration3Fidelity(t, "7eb3ce7b-3f5c-4a5a-9110-b3542712a058")
	if f.Inferred != nil {
		t.Errorf("limits inferred: %+v, want none", *f.Inferred)
	}
	if f.RealAutoCompaction != 161 || f.SimulatedAutoCompaction != 160 {
		t.Errorf("first auto-compaction at call %d, claude-code's at %d, want 161 and 160", f.RealAutoCompaction, f.SimulatedAutoCompaction)
	}
	if !hasReason(f, "first auto-compaction at call 161, claude-code at call 160") || !f.Explained() {
		t.Errorf("reasons %q, want the failed compaction's", f.Reasons)
	}
}
