package fidelity

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate"
)

func TestNew(t *testing.T) {
	s := &replay.Session{ID: "s", Main: &replay.Thread{Compactions: []replay.Compaction{
		{Kind: replay.CompactMicro, CallsBefore: 1},
		{Kind: replay.CompactFull, Trigger: "manual", CallsBefore: 2},
		{Kind: replay.CompactSummaryOnly, CallsBefore: 4}, // 1.0.x: trigger unrecorded
		{Kind: replay.CompactFull, Trigger: "auto", CallsBefore: 6},
	}}}
	tr := &simulate.Trace{Calls: []simulate.TraceCall{
		{Index: 0, Time: 1, Usage: replay.Usage{CacheRead: 1000, CacheWrite5m: 100}},
		{Index: 1, Time: 2, Usage: replay.Usage{CacheRead: 1000, CacheWrite1h: 100}},
		{Index: 2, Time: 3, Usage: replay.Usage{CacheRead: 10_000}},
		// The call before the auto-compaction: its usage total (2,000) and
		// claude-code's threshold for Sonnet 4.5 on 2.1.30 (200,000 −
		// 20,000 reserved − 13,000 buffer) go into the reason.
		{Index: 3, Time: 4, Model: "claude-sonnet-4-5-20250929", Version: "2.1.30", Usage: replay.Usage{Output: 2000}},
	}}
	observed := &simulate.Result{Calls: []simulate.CallResult{
		{Call: 1, Prompt: 10, Recorded: 10, Predicted: &simulate.Predicted{Read: 900, Write: 250}},
		{Call: 2, Prompt: 11, Recorded: 12, Predicted: &simulate.Predicted{Read: 1000}},
		// The model reads 3,000 more than recorded: an unseen break.
		{Call: 3, Prompt: 20, Recorded: 20, Predicted: &simulate.Predicted{Read: 13_000}},
		// A usage without a prompt: nothing to compare.
		{Call: 4, Prompt: 20, Recorded: 0},
	}}
	cc := &simulate.Result{Metrics: simulate.Metrics{FirstCompaction: 4}, Compacted: simulate.RunCompactions{FirstAuto: 4}}
	f := New(s, tr, observed, cc, DefaultTolerances())
	// Reads 14,900 against 12,000: +24.17%; writes 250 against 200: +25%.
	// Call by call, writes are off by |250 − 100| + |0 − 100| + 0 = 250:
	// 125% of the recorded 200.
	if *f.CacheReadErrorPct != 24.17 || *f.CacheWriteErrorPct != 25 || *f.CallWriteErrorPct != 125 {
		t.Errorf("errors %v %v %v, want 24.17 25 125", *f.CacheReadErrorPct, *f.CacheWriteErrorPct, *f.CallWriteErrorPct)
	}
	f.CacheReadErrorPct, f.CacheWriteErrorPct, f.CallWriteErrorPct = nil, nil, nil
	reasons := f.Reasons
	f.Reasons = nil
	want := Row{
		Session: "s", Calls: 4,
		RecordedCacheRead: 12_000, SimulatedCacheRead: 14_900, RecordedCacheWrite: 200, SimulatedCacheWrite: 250, CallWriteError: 250,
		PromptMismatches: 1, Unmeasured: 1, RealAutoCompaction: 5, SimulatedAutoCompaction: 4, ManualCompactions: 1,
		RealAutoCompactionTotal: 2000, ClaudeCodeThreshold: 167_000,
		UnseenBreaks:    1,
		MicroCompaction: "off", MicroCompactionReason: "the transcript records no Claude Code version",
		afterLast: 1, // the thread records no call
	}
	if got := exported(f); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	wantReasons := []string{
		"1 call recorded a usage without a prompt",
		"1 prompt differs from the recorded ones",
		"first auto-compaction at call 5, claude-code at call 4 (call 4's recorded usage total 2,000 tokens, its threshold there 167,000): not explained",
		"1 call's recorded cache reads fell back where the transcript shows no cause (Claude Code changed an earlier part of the prompt): 3,000 tokens",
	}
	if len(reasons) != len(wantReasons) {
		t.Fatalf("reasons %q, want %d", reasons, len(wantReasons))
	}
	for i, w := range wantReasons {
		if !strings.HasPrefix(reasons[i], w) {
			t.Errorf("reason %d: %q, want it to start with %q", i, reasons[i], w)
		}
	}
	f.Reasons = reasons
	if f.Explained() {
		t.Error("a different first compaction without a cause counts as explained")
	}
}

func TestSummarize(t *testing.T) {
	pct := func(x float64) *float64 { return &x }
	rows := []Row{
		{Calls: 10, RealAutoCompaction: 5, SimulatedAutoCompaction: 5, RecordedCacheWrite: 100, SimulatedCacheWrite: 105, CacheWriteErrorPct: pct(5), CallWriteError: 15, RecordedCacheRead: 1000, SimulatedCacheRead: 990},
		{Calls: 20, RealAutoCompaction: 8, SimulatedAutoCompaction: 9, RecordedCacheWrite: 100, SimulatedCacheWrite: 150, CacheWriteErrorPct: pct(50), CallWriteError: 60, RecordedCacheRead: 1000, SimulatedCacheRead: 1010},
		{Calls: 3, SimulatedAutoCompaction: 2, Reasons: []string{"claude-code compacts at call 2 where the session never compacted: not explained"}},
		{Calls: 1, RealAutoCompaction: 1, SimulatedAutoCompaction: 0}, // compacted before its first call: not counted
	}
	got := Summarize(rows, DefaultTolerances())
	// Writes 255 against 200: +27.5%; reads 2,000 against 2,000: 0; call
	// by call, 15 + 60 = 75 of 200: 37.5%.
	want := Summary{Sessions: 4, Calls: 34, AutoCompacted: 2, Exact: 1, WithinOne: 2, FalseCompactions: 1,
		WritesChecked: 2, WritesWithin: 1, Unexplained: 1}
	if *got.CacheWriteErrorPct != 27.5 || *got.CacheReadErrorPct != 0 || *got.CallWriteErrorPct != 37.5 {
		t.Errorf("errors %v %v %v, want 0 27.5 37.5", *got.CacheReadErrorPct, *got.CacheWriteErrorPct, *got.CallWriteErrorPct)
	}
	got.CacheReadErrorPct, got.CacheWriteErrorPct, got.CallWriteErrorPct = nil, nil, nil
	if got != want {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

// The first call of a model on a new Claude Code version that read less
// than the model (which reads the previous version's system prompt
// prefix) is counted and explained on its own, not as a break with no
// cause; the version is compared with the same model's previous call.
func TestFidelityNewVersionShorter(t *testing.T) {
	s := &replay.Session{ID: "s", Main: &replay.Thread{}}
	tr := &simulate.Trace{Calls: []simulate.TraceCall{
		{Time: 1, Model: "opus", Version: "2.1.15", Usage: replay.Usage{CacheWrite5m: 20_000}},
		{Time: 2, Model: "haiku", Version: "2.1.16", Usage: replay.Usage{CacheWrite5m: 1_000}},
		{Time: 3, Model: "opus", Version: "2.1.16", Usage: replay.Usage{CacheRead: 10_000, CacheWrite5m: 12_000}},
		{Time: 4, Model: "opus", Version: "2.1.16", Usage: replay.Usage{CacheRead: 10_000, CacheWrite5m: 12_000}},
	}}
	observed := &simulate.Result{Calls: []simulate.CallResult{
		{Call: 1, Prompt: 20_000, Recorded: 20_000, Predicted: &simulate.Predicted{Write: 20_000}},
		{Call: 2, Prompt: 1_000, Recorded: 1_000, Predicted: &simulate.Predicted{Write: 1_000}},
		{Call: 3, Prompt: 22_000, Recorded: 22_000, Predicted: &simulate.Predicted{Read: 18_000, Write: 4_000}},
		// The same shortfall on the new version's second call has no cause.
		{Call: 4, Prompt: 22_000, Recorded: 22_000, Predicted: &simulate.Predicted{Read: 13_000, Write: 9_000}},
	}}
	f := New(s, tr, observed, &simulate.Result{}, DefaultTolerances())
	if f.NewVersionShorter != 1 || f.UnseenBreaks != 1 {
		t.Errorf("new-version calls %d, unseen breaks %d, want 1 and 1", f.NewVersionShorter, f.UnseenBreaks)
	}
	want := "1 call on a new Claude Code version read a shorter system prompt prefix than the previous version's, which the model reads: 8,000 tokens"
	wantReason(t, f, want)
}

// A shortfall where the clock does not tell the time since the call
// before (either response has no timestamp, or one another response
// shares) is put down to the stopped clock, not to a break with no cause:
// an idle gap could have expired the cache there unseen.
func TestFidelityStoppedClock(t *testing.T) {
	s := &replay.Session{ID: "s", Main: &replay.Thread{}}
	times := []int64{1_000, 2_000, 3_000, 3_000, 0, 5_000, 6_000}
	tr := &simulate.Trace{}
	observed := &simulate.Result{}
	for i, at := range times {
		w := int64(20_000 + 2_000*i)
		tr.Calls = append(tr.Calls, simulate.TraceCall{Time: at, Usage: replay.Usage{CacheWrite5m: w}})
		c := simulate.CallResult{Call: i + 1, Prompt: w, Recorded: w, Predicted: &simulate.Predicted{Write: w}}
		if i > 0 {
			// The model reads the previous prompt; the record read nothing.
			c.Predicted = &simulate.Predicted{Read: w - 2_000, Write: 2_000}
		}
		observed.Calls = append(observed.Calls, c)
	}
	f := New(s, tr, observed, &simulate.Result{}, DefaultTolerances())
	// Calls 2 and 7 have a clock before them (unseen breaks); 3 and 4 share
	// a timestamp, 5 has none, and 6 follows the one without. Call n's
	// shortfall is 18,000 + 2,000(n−1): 22,000 + 24,000 + 26,000 + 28,000
	// = 100,000 for the four.
	if f.StoppedClock != 4 || f.UnseenBreaks != 2 {
		t.Errorf("stopped-clock calls %d, unseen breaks %d, want 4 and 2", f.StoppedClock, f.UnseenBreaks)
	}
	want := "4 calls' recorded cache reads fell back where the transcript's clock stops (this response or the one before has no timestamp, or one another response shares), so an idle gap that let the cache expire cannot be seen: 100,000 tokens"
	wantReason(t, f, want)
}

// A call at which the model reads only its system prompt prefix and the
// record read a shorter prefix, not nothing, is counted apart; one that
// read nothing is still a break with no cause.
func TestFidelityShorterPrefix(t *testing.T) {
	s := &replay.Session{ID: "s", Main: &replay.Thread{}}
	tr := &simulate.Trace{SystemPrefix: 10_000, SystemPrefixSource: simulate.PrefixFromFirstRead, Calls: []simulate.TraceCall{
		{Time: 1, Usage: replay.Usage{CacheRead: 10_000, CacheWrite5m: 20_000}},
		{Time: 2, Usage: replay.Usage{CacheRead: 6_000, CacheWrite5m: 28_000}},
		{Time: 3, Usage: replay.Usage{CacheWrite5m: 36_000}},
	}}
	observed := &simulate.Result{Calls: []simulate.CallResult{
		{Call: 1, Prompt: 30_000, Recorded: 30_000, Predicted: &simulate.Predicted{Read: 10_000, Write: 20_000}},
		{Call: 2, Prompt: 34_000, Recorded: 34_000, Predicted: &simulate.Predicted{Read: 10_000, Write: 24_000}},
		{Call: 3, Prompt: 36_000, Recorded: 36_000, Predicted: &simulate.Predicted{Read: 10_000, Write: 26_000}},
	}}
	f := New(s, tr, observed, &simulate.Result{}, DefaultTolerances())
	if f.ShorterPrefix != 1 || f.UnseenBreaks != 1 {
		t.Errorf("shorter-prefix calls %d, unseen breaks %d, want 1 and 1", f.ShorterPrefix, f.UnseenBreaks)
	}
	want := "1 call at which the model reads only the system prompt prefix it takes (10,000 tokens, the first call's cache read) read a shorter one: 4,000 tokens"
	wantReason(t, f, want)
}

// exported is a row without its calls and the count of its reasons before
// the cache's, which only LeaveOutCopies reads.
func exported(f Row) Row {
	f.calls, f.cacheReasons = nil, 0
	return f
}

// wantReason fails the test unless one of f's reasons begins with want.
func wantReason(t *testing.T, f Row, want string) {
	t.Helper()
	if !slices.ContainsFunc(f.Reasons, func(r string) bool { return strings.HasPrefix(r, want) }) {
		t.Errorf("reasons %q, want one beginning %q", f.Reasons, want)
	}
}

// TestFidelityCompactionReason: the reason for a missed auto-compaction
// gives the recorded usage total before it and the threshold claude-code
// applied there, from the run's own limit parameters.
func TestFidelityCompactionReason(t *testing.T) {
	s := &replay.Session{ID: "s", Main: &replay.Thread{Compactions: []replay.Compaction{
		{Kind: replay.CompactFull, Trigger: "auto", CallsBefore: 3},
	}}}
	// The thread's call 2 sent nothing (a synthetic response), so the
	// trace leaves it out: the call before the compaction is call 3, the
	// trace's second.
	tr := &simulate.Trace{Calls: []simulate.TraceCall{
		{Index: 0, Time: 1, Model: "claude-opus-4-5-20251101", Version: "2.0.76"},
		{Index: 2, Time: 2, Model: "claude-opus-4-5-20251101", Version: "2.0.76", Usage: replay.Usage{Input: 10, CacheRead: 150_000, CacheWrite5m: 990, Output: 1_000}},
		{Index: 3, Time: 3, Model: "claude-opus-4-5-20251101", Version: "2.0.76"},
	}}
	observed := &simulate.Result{Calls: []simulate.CallResult{{Call: 1}, {Call: 3}, {Call: 4}}}
	for _, c := range []struct {
		name      string
		cc        *simulate.Result
		threshold int64
		want      string
	}{
		// 2.0.76 reserves 32,000 for output: 200,000 − 32,000 − 13,000.
		{"never", &simulate.Result{}, 155_000, "first auto-compaction at call 4, claude-code never (call 3's recorded usage total 152,000 tokens, its threshold there 155,000): not explained"},
		// A --window of 300,000: 300,000 − 32,000 − 13,000.
		{"later", &simulate.Result{Metrics: simulate.Metrics{FirstCompaction: 9}, Compacted: simulate.RunCompactions{FirstAuto: 9}, LimitParams: claudecode.LimitParams{Window: 300_000}}, 255_000, "first auto-compaction at call 4, claude-code at call 9 (call 3's recorded usage total 152,000 tokens, its threshold there 255,000): not explained"},
		{"off", &simulate.Result{LimitParams: claudecode.LimitParams{AutoCompactOff: true}}, 0, "first auto-compaction at call 4, claude-code never (call 3's recorded usage total 152,000 tokens, auto-compaction off there): not explained"},
	} {
		f := New(s, tr, observed, c.cc, DefaultTolerances())
		if f.RealAutoCompactionTotal != 152_000 || f.ClaudeCodeThreshold != c.threshold || !slices.Contains(f.Reasons, c.want) {
			t.Errorf("%s: total %d, threshold %d, reasons %q; want 152000, %d, %q", c.name, f.RealAutoCompactionTotal, f.ClaudeCodeThreshold, f.Reasons, c.threshold, c.want)
		}
	}
}

// A compaction claude-code decides at the first call after a restart,
// where the session did not compact and sent a smaller prompt, names the
// restart; elsewhere it stays unexplained.
func TestFidelityCompactionAfterRestart(t *testing.T) {
	s := &replay.Session{ID: "s", Main: &replay.Thread{}}
	calls := func(v2 string, restarted bool, prompt int64) *simulate.Trace {
		return &simulate.Trace{Calls: []simulate.TraceCall{
			{Index: 0, Time: 1, Version: "2.1.133", Usage: replay.Usage{Input: 10, CacheRead: 165_000, Output: 883}},
			{Index: 1, Time: 2, Version: v2, Restarted: restarted, Usage: replay.Usage{Input: 6, CacheRead: prompt - 6}},
		}}
	}
	observed := &simulate.Result{Calls: []simulate.CallResult{{Call: 1}, {Call: 2}}}
	cc := &simulate.Result{Metrics: simulate.Metrics{FirstCompaction: 2}, Compacted: simulate.RunCompactions{FirstAuto: 2}}
	for _, c := range []struct {
		name string
		tr   *simulate.Trace
		want string
	}{
		{"new version", calls("2.1.138", false, 139_706), "claude-code compacts at call 2 where the session never compacted: the first call after a restart (Claude Code 2.1.133 → 2.1.138), counting from call 1's usage total 165,893; " +
			"the restarted Claude Code sent a prompt 26,187 tokens smaller (139,706) and did not compact: what it counts after rebuilding a conversation is not in the transcript"},
		{"resumed", calls("2.1.133", true, 165_000), "claude-code compacts at call 2 where the session never compacted: the first call after a restart (a resumed conversation), counting from call 1's usage total 165,893; " +
			"the restarted Claude Code sent a prompt 893 tokens smaller (165,000) and did not compact: what it counts after rebuilding a conversation is not in the transcript"},
		// A restarted call that records no version is a resumed
		// conversation as far as the transcript shows.
		{"resumed, no version", calls("", true, 165_000), "claude-code compacts at call 2 where the session never compacted: the first call after a restart (a resumed conversation), counting from call 1's usage total 165,893; " +
			"the restarted Claude Code sent a prompt 893 tokens smaller (165,000) and did not compact: what it counts after rebuilding a conversation is not in the transcript"},
		{"not smaller", calls("2.1.138", false, 165_893), "claude-code compacts at call 2 where the session never compacted (call 1's recorded usage total 165,893 tokens; with the response's final output where the transcript has a placeholder, and Claude Code's estimate of what followed, claude-code's count reaches its threshold there): not explained"},
		{"no restart", calls("2.1.133", false, 139_706), "claude-code compacts at call 2 where the session never compacted (call 1's recorded usage total 165,893 tokens; with the response's final output where the transcript has a placeholder, and Claude Code's estimate of what followed, claude-code's count reaches its threshold there): not explained"},
	} {
		f := New(s, c.tr, observed, cc, DefaultTolerances())
		if !slices.Contains(f.Reasons, c.want) {
			t.Errorf("%s: reasons %q, want %q", c.name, f.Reasons, c.want)
		}
	}
}

// The prompt after the first auto-compaction: the first recorded prompt
// after the real one, claude-code's after its own, their error, and when
// it is over 10% a reason that splits both into the summary, what came
// back and the rest.
func TestPostCompaction(t *testing.T) {
	s := &replay.Session{ID: "s", Main: &replay.Thread{Compactions: []replay.Compaction{
		{Kind: replay.CompactFull, Trigger: "auto", CallsBefore: 1, Msg: 5},
	}}}
	// Ratio 2: the summary (est 1,000) and an attachment after the
	// boundary (est 2,500) are 2,000 and 5,000 tokens.
	tr := &simulate.Trace{Ratio: 2, Calls: []simulate.TraceCall{
		{Index: 0, Time: 1, Usage: replay.Usage{CacheRead: 150_000}},
		{Index: 1, Time: 2, Usage: replay.Usage{CacheRead: 20_000, CacheWrite5m: 10_000},
			Items: []simulate.Item{{Kind: simulate.KindSummary, Est: 1000, Tokens: 2600, Artifact: true, Msg: 5}, {Kind: simulate.KindAttachment, Est: 2500, Tokens: 6000, Artifact: true, Msg: 6}}},
	}}
	observed := &simulate.Result{Calls: []simulate.CallResult{{Call: 1}, {Call: 2}}}
	for _, c := range []struct {
		name   string
		prompt int64 // claude-code's after its compaction
		errPct float64
		reason string
	}{
		// 27,000 against 30,000: −10%, within the tolerance.
		{"within", 27_000, -10, ""},
		// 26,000: −13.33%. claude-code's summary 2,400 and restored 3,600
		// leave 20,000; the recorded 30,000 less 2,000 and 5,000, 23,000.
		{"off", 26_000, -13.33, "prompt after the first auto-compaction -13.3% against the recorded: recorded 30,000 (summary 2,000, re-attached 5,000, the rest 23,000: system prompt, tools and what Claude Code puts before the first message), claude-code 26,000 (summary 2,400, re-attached 3,600, the rest 20,000)"},
	} {
		cc := &simulate.Result{Compacted: simulate.RunCompactions{FirstAuto: 2, Summary: 2400, Restored: 3600}, Calls: []simulate.CallResult{{Call: 1}, {Call: 2, Compacted: true, Prompt: c.prompt}}}
		f := New(s, tr, observed, cc, DefaultTolerances())
		if f.RealPostCompactionPrompt != 30_000 || f.SimulatedPostCompactionPrompt != c.prompt || f.PostCompactionErrorPct == nil || *f.PostCompactionErrorPct != c.errPct {
			t.Errorf("%s: real %d, simulated %d, error %v; want 30000, %d, %v", c.name, f.RealPostCompactionPrompt, f.SimulatedPostCompactionPrompt, f.PostCompactionErrorPct, c.prompt, c.errPct)
		}
		got := ""
		for _, r := range f.Reasons {
			if strings.HasPrefix(r, "prompt after") {
				got = r
			}
		}
		if got != c.reason {
			t.Errorf("%s: reason %q, want %q", c.name, got, c.reason)
		}
	}
	// The summary: sessions with both, those within 10%, the median |error|.
	e := func(v float64) *float64 { return &v }
	sum := Summarize([]Row{{PostCompactionErrorPct: e(-10)}, {PostCompactionErrorPct: e(12)}, {PostCompactionErrorPct: e(3)}, {PostCompactionErrorPct: e(-40)}, {}}, DefaultTolerances())
	if sum.PostCompactionChecked != 4 || sum.PostCompactionWithin != 2 || *sum.PostCompactionMedianErrorPct != 11 {
		t.Errorf("summary: %d checked, %d within, median %v; want 4, 2, 11", sum.PostCompactionChecked, sum.PostCompactionWithin, *sum.PostCompactionMedianErrorPct)
	}
}

// A file that starts from a summary (a continued 1.0.x conversation) is
// measured from its own first compaction; a compaction after the last call
// shows only when another file goes on with the conversation, and then on
// both sides: the real one, and claude-code's when its count after the
// last call reaches its threshold.
func TestFidelityContinued(t *testing.T) {
	calls := make([]replay.Call, 3)
	// Opus 4.5 on 2.0.76: 200,000 − 32,000 − 13,000 = 155,000.
	tr := &simulate.Trace{Calls: []simulate.TraceCall{
		{Index: 0, Time: 1, Model: "claude-opus-4-5-20251101", Version: "2.0.76"},
		{Index: 1, Time: 2, Model: "claude-opus-4-5-20251101", Version: "2.0.76"},
		{Index: 2, Time: 3, Model: "claude-opus-4-5-20251101", Version: "2.0.76", Usage: replay.Usage{CacheRead: 150_000, Output: 6_000}},
	}}
	observed := &simulate.Result{Calls: []simulate.CallResult{{Call: 1}, {Call: 2}, {Call: 3}}}
	for _, c := range []struct {
		name        string
		comps       []replay.Compaction
		continuedIn string
		endCount    int64
		real, sim   int
		reason      string
	}{
		{"starts from a summary", []replay.Compaction{{Kind: replay.CompactSummaryOnly, Continued: true}, {Kind: replay.CompactSummaryOnly, CallsBefore: 2}}, "", 0, 3, 0, "first auto-compaction at call 3, claude-code never"},
		{"a summary copied in by a resume", []replay.Compaction{{Kind: replay.CompactSummaryOnly, Trigger: "auto", Continued: true, CallsBefore: 1}}, "", 0, 0, 0, ""},
		{"a /compact, then an automatic one", []replay.Compaction{{Kind: replay.CompactSummaryOnly, Trigger: "manual", CallsBefore: 1}, {Kind: replay.CompactSummaryOnly, Trigger: "auto", CallsBefore: 2}}, "", 0, 3, 0, "first auto-compaction at call 3, claude-code never"},
		{"ends over the threshold", nil, "", 156_000, 0, 0, ""},
		{"continued, claude-code too", nil, "next", 156_000, 4, 4, ""},
		{"continued, claude-code below", nil, "next", 154_999, 4, 0, "first auto-compaction after the last call, claude-code never (call 3's recorded usage total 156,000 tokens, its threshold there 155,000)"},
	} {
		s := &replay.Session{ID: "s", ContinuedIn: c.continuedIn, Main: &replay.Thread{Calls: calls, Compactions: c.comps}}
		f := New(s, tr, observed, &simulate.Result{Compacted: simulate.RunCompactions{EndCount: c.endCount}}, DefaultTolerances())
		got := ""
		for _, r := range f.Reasons {
			if strings.HasPrefix(r, "first auto-compaction") {
				got = r
			}
		}
		if f.RealAutoCompaction != c.real || f.SimulatedAutoCompaction != c.sim || !strings.HasPrefix(got, c.reason) || (c.reason == "") != (got == "") {
			t.Errorf("%s: real %d, simulated %d, reason %q; want %d, %d, %q", c.name, f.RealAutoCompaction, f.SimulatedAutoCompaction, got, c.real, c.sim, c.reason)
		}
	}
}

// The micro-compaction decision: by version, unless the recorded prompts
// show it off.
func TestMicroDecision(t *testing.T) {
	tr := &simulate.Trace{Calls: []simulate.TraceCall{{Version: "2.1.19"}}, Micro: simulate.MicroEvidence{Off: true, Reason: "call 9 kept results"}}
	if mode, why := microDecision(tr); mode != "off" || why != "the recorded prompts show it off: call 9 kept results" {
		t.Errorf("decision %q %q", mode, why)
	}
	tr.Micro = simulate.MicroEvidence{}
	if mode, why := microDecision(tr); mode != "size" || !strings.HasPrefix(why, "Claude Code 2.1.19 micro-compacts by size") {
		t.Errorf("2.1.19 without evidence: %q %q, want size", mode, why)
	}
	tr.Calls[0].Version = "2.1.30"
	if mode, _ := microDecision(tr); mode != "off" {
		t.Errorf("2.1.30: %q, want off", mode)
	}
	if mode, why := microDecision(&simulate.Trace{Calls: []simulate.TraceCall{{}}}); mode != "off" || why != "the transcript records no Claude Code version" {
		t.Errorf("no version: %q %q", mode, why)
	}
}

// A compaction claude-code decides at a call the session sent
// uncompacted is one Claude Code tried and failed (or the user
// interrupted) when the recorded response came later after the message
// before it than any response to a call sent below the warning level: the
// time a compaction takes. Call 2 was sent below the warning level
// (135,000 on 2.0.76), its response 12 s after its prompt; claude-code
// compacts before call 3, after call 2's total of 154,900 (the final
// output taking its count to the threshold); call 3 waited the case's
// wait. The session auto-compacted before call 4, or never.
func TestFidelityFailedCompaction(t *testing.T) {
	const model, version = "claude-opus-4-5-20251101", "2.0.76"
	sec := func(s int64) int64 { return 1_700_000_000_000 + s*1000 }
	session := func(wait int64, compacted bool) (*replay.Session, *simulate.Trace) {
		th := &replay.Thread{}
		tr := &simulate.Trace{Thread: th}
		totals := []int64{20_000, 154_900, 155_500, 40_000}
		at := int64(0)
		for i, w := range []int64{10, 12, wait, 10} {
			th.Messages = append(th.Messages, replay.Message{Role: replay.RoleUser, Time: sec(at), Call: -1})
			at += w
			th.Messages = append(th.Messages, replay.Message{Role: replay.RoleAssistant, Time: sec(at), Call: i})
			th.Calls = append(th.Calls, replay.Call{Model: model, Version: version, Time: sec(at), Msg: len(th.Messages) - 1})
			tc := simulate.TraceCall{Index: i, Time: sec(at), Model: model, Version: version, Usage: replay.Usage{Input: 10, CacheRead: totals[i] - 110, Output: 100}}
			if i == 3 && compacted {
				tc.RealCompact = &replay.Compaction{Kind: replay.CompactFull, Trigger: "auto", CallsBefore: 3}
				th.Compactions = []replay.Compaction{*tc.RealCompact}
			}
			tr.Calls = append(tr.Calls, tc)
			at += 30
		}
		return &replay.Session{ID: "s", Main: th}, tr
	}
	cc := &simulate.Result{Metrics: simulate.Metrics{FirstCompaction: 3}, Compacted: simulate.RunCompactions{FirstAuto: 3}}
	failed := "after call 2's recorded usage total of 154,900 tokens the session sent call 3 uncompacted 1m25s after the message before it, later than any call it sent below the warning level (at most 12s): " +
		"an auto-compaction tried there that failed or was interrupted (Claude Code then sends the request as it is, and the transcript records neither)"
	for _, c := range []struct {
		name      string
		wait      int64
		compacted bool
		want      string
	}{
		{"one call early", 85, true, "first auto-compaction at call 4, claude-code at call 3 (call 3's recorded usage total 155,500 tokens, its threshold there 155,000): " + failed},
		{"one call early, a usual wait", 12, true, "first auto-compaction at call 4, claude-code at call 3 (call 3's recorded usage total 155,500 tokens, its threshold there 155,000): not explained"},
		{"never compacted", 85, false, "claude-code compacts at call 3 where the session never compacted: " + failed},
		{"never compacted, a usual wait", 11, false, "claude-code compacts at call 3 where the session never compacted (call 2's recorded usage total 154,900 tokens; with the response's final output where the transcript has a placeholder, and Claude Code's estimate of what followed, claude-code's count reaches its threshold there): not explained"},
	} {
		s, tr := session(c.wait, c.compacted)
		f := New(s, tr, edgeObserved(tr), cc, DefaultTolerances())
		if !slices.Contains(f.Reasons, c.want) {
			t.Errorf("%s: reasons %q, want %q", c.name, f.Reasons, c.want)
		}
	}
}

// copyTrace is a session whose calls carry the message ids ids, recorded
// at times (ms), each writing 10,000 tokens the model predicts it writes,
// except the last, which the model predicts writes 4,000 (and reads
// 6,000 it did not).
func copyTrace(id string, ids []string, times []int64) (*replay.Session, *simulate.Trace, *simulate.Result) {
	th := &replay.Thread{}
	tr := &simulate.Trace{Thread: th}
	observed := &simulate.Result{}
	for i, mid := range ids {
		th.Calls = append(th.Calls, replay.Call{MessageID: mid, RequestID: "req_" + mid, Time: times[i]})
		u := replay.Usage{CacheWrite5m: 10_000}
		tr.Calls = append(tr.Calls, simulate.TraceCall{Index: i, Time: times[i], Usage: u})
		p := &simulate.Predicted{Write: 10_000}
		if i == len(ids)-1 {
			p = &simulate.Predicted{Read: 6_000, Write: 4_000}
		}
		observed.Calls = append(observed.Calls, simulate.CallResult{Call: i + 1, Prompt: 10_000, Recorded: 10_000, Predicted: p})
	}
	return &replay.Session{ID: id, Main: th}, tr, observed
}

// A call another row's session recorded first (the same message.id and
// requestId, an earlier timestamp) is left out of the row's cache figures
// and counted, with the session named; the row that recorded it first
// keeps it. a made calls m1 and m2 at 1,000 and 2,000 ms; b, a resumed
// copy, holds both at 9,000 ms (written at once) and makes m3; c copies
// m3 at b's own time (the same timestamp: the row first in the input
// keeps it). b measures m3 alone: a read 6,000 tokens too many, a write
// 6,000 too few (−60%), the write error 6,000.
func TestLeaveOutCopies(t *testing.T) {
	var rows []Row
	for _, s := range []struct {
		id    string
		ids   []string
		times []int64
	}{
		{"a", []string{"m1", "m2"}, []int64{1_000, 2_000}},
		{"b", []string{"m1", "m2", "m3"}, []int64{9_000, 9_000, 10_000}},
		{"c", []string{"m3", "m4"}, []int64{10_000, 20_000}},
	} {
		sess, tr, obs := copyTrace(s.id, s.ids, s.times)
		rows = append(rows, New(sess, tr, obs, &simulate.Result{}, DefaultTolerances()))
	}
	before := exported(rows[0])
	if rows[1].RecordedCacheWrite != 30_000 || rows[1].CopiedCalls != 0 {
		t.Fatalf("b before: recorded writes %d, copied %d; want 30000, 0", rows[1].RecordedCacheWrite, rows[1].CopiedCalls)
	}
	LeaveOutCopies(rows, DefaultTolerances())
	if got := exported(rows[0]); !reflect.DeepEqual(got, before) {
		t.Errorf("a changed: %+v", got)
	}
	b := rows[1]
	if b.CopiedCalls != 2 || !reflect.DeepEqual(b.CopiedFrom, []string{"a"}) || b.Calls != 3 {
		t.Errorf("b: %d calls copied from %v (of %d), want 2 from [a] (of 3)", b.CopiedCalls, b.CopiedFrom, b.Calls)
	}
	if b.RecordedCacheWrite != 10_000 || b.SimulatedCacheWrite != 4_000 || b.SimulatedCacheRead != 6_000 || b.CallWriteError != 6_000 || *b.CacheWriteErrorPct != -60 {
		t.Errorf("b: writes %d simulated %d (%v%%), reads simulated %d, per-call %d; want 10000, 4000 (-60%%), 6000, 6000",
			b.RecordedCacheWrite, b.SimulatedCacheWrite, *b.CacheWriteErrorPct, b.SimulatedCacheRead, b.CallWriteError)
	}
	wantReason(t, b, "2 calls recorded first in session a (the same message.id and requestId: a resumed conversation's copy) are left out of the cache figures: measured there")
	if c := rows[2]; c.CopiedCalls != 1 || !reflect.DeepEqual(c.CopiedFrom, []string{"b"}) {
		t.Errorf("c: %d calls copied from %v, want 1 from [b]", c.CopiedCalls, c.CopiedFrom)
	}
	if sum := Summarize(rows, DefaultTolerances()); sum.CopiedCalls != 3 {
		t.Errorf("summary: %d calls copied, want 3", sum.CopiedCalls)
	}
	// Again: the same rows (their calls are marked already).
	again := slices.Clone(rows)
	LeaveOutCopies(again, DefaultTolerances())
	if !reflect.DeepEqual(again, rows) {
		t.Error("a second LeaveOutCopies changed the rows")
	}
}

// A turn whose read fell short after a turn that first used a tool Claude
// Code asks permission for (TraceCall.AfterAsk) is counted apart, on the
// versions whose system prompt lists the allowed tools (1.0.66 until
// 2.1.0): 1.0.83 and 2.0.76, not 1.0.65 or 2.1.0, where it is a break
// with no cause. So is a read that went past the tools and system prompt
// (the 20,000-token overhead): the system prompt did not change there.
func TestFidelityAllowedTools(t *testing.T) {
	for _, c := range []struct {
		version  string
		overhead int64
		allowed  bool
	}{
		{"1.0.83", 20_000, true}, {"2.0.76", 20_000, true}, {"1.0.65", 20_000, false}, {"2.1.0", 20_000, false},
		{"1.0.83", 11_000, false},
	} {
		tr := &simulate.Trace{Overhead: c.overhead, Calls: []simulate.TraceCall{
			{Index: 0, Time: 1_000, Model: "m", Version: c.version, Usage: replay.Usage{CacheWrite5m: 40_000}},
			{Index: 1, Time: 60_000, Model: "m", Version: c.version, AfterAsk: true, Usage: replay.Usage{CacheRead: 11_331, CacheWrite5m: 30_000}},
		}}
		observed := &simulate.Result{Calls: []simulate.CallResult{
			{Call: 1, Prompt: 40_000, Recorded: 40_000, Predicted: &simulate.Predicted{Write: 40_000}},
			{Call: 2, Prompt: 41_331, Recorded: 41_331, Predicted: &simulate.Predicted{Read: 40_000, Write: 1_331}},
		}}
		f := New(&replay.Session{ID: "s"}, tr, observed, &simulate.Result{}, DefaultTolerances())
		if got := f.AllowedToolsBreaks == 1 && f.UnseenBreaks == 0; got != c.allowed || f.AllowedToolsBreaks+f.UnseenBreaks != 1 {
			t.Errorf("%s: allowed-tools breaks %d, unseen %d", c.version, f.AllowedToolsBreaks, f.UnseenBreaks)
		}
		if c.allowed {
			wantReason(t, f, `1 turn's recorded cache reads fell back after a turn that first used a tool Claude Code asks permission for: Claude Code 1.0.66–2.0.x lists the tools the user allowed in the system prompt it builds at each turn, and a "don't ask again" answer, which the transcript does not record, changes it: 28,669 tokens`)
		}
	}
}
