package fidelity

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate"
)

// edgeObserved is an observed run that predicts each of tr's calls' cache
// read and write as recorded: no cache disagreement to explain.
func edgeObserved(tr *simulate.Trace) *simulate.Result {
	r := &simulate.Result{}
	for _, c := range tr.Calls {
		u := c.Usage
		r.Calls = append(r.Calls, simulate.CallResult{Call: c.Index + 1, Prompt: u.Prompt(), Recorded: u.Prompt(),
			Predicted: &simulate.Predicted{Read: u.CacheRead, Write: u.CacheWrite()}})
	}
	return r
}

// edgeAuto is a session whose main thread auto-compacted after calls
// calls and has no calls of its own.
func edgeAuto(calls int) *replay.Session {
	return &replay.Session{ID: "s", Main: &replay.Thread{Compactions: []replay.Compaction{
		{Kind: replay.CompactFull, Trigger: "auto", CallsBefore: calls},
	}}}
}

// An empty trace gives an empty row: no system prefix or micro-compaction
// decision (both need a call), no compaction after the last call (there
// is no last call to take limits from, though the file is continued), and
// no reason.
func TestEdgeEmptyTrace(t *testing.T) {
	s := &replay.Session{ID: "s", ContinuedIn: "next"}
	tr := &simulate.Trace{SystemPrefix: 10_000, SystemPrefixSource: simulate.PrefixFromFirstRead}
	f := New(s, tr, &simulate.Result{}, &simulate.Result{}, DefaultTolerances())
	if want := (Row{Session: "s", Reasons: []string{}}); !reflect.DeepEqual(exported(f), want) {
		t.Errorf("got %+v\nwant %+v", f, want)
	}
}

// TestEdgeReadDifferenceCauses pins how a call's read difference d (the
// model's read − the recorded) is sorted: only |d| above Tolerances.Tokens
// (2,000) counts; an excess is a shallower fallback when the call had an
// action or a shrink, else warm elsewhere. Call 1 (model m, 2.1.30, at
// 1,000 ms, d = 0) is the same in every case; call 2 is the case's.
func TestEdgeReadDifferenceCauses(t *testing.T) {
	type counts struct{ newVersion, stopped, shorter, unseen, shallower, warm int }
	cases := []struct {
		name      string
		version   string // call 2's
		at        int64  // call 2's timestamp
		prefix    int64  // the trace's SystemPrefix
		read, rec int64  // call 2's predicted and recorded cache read
		actions   []string
		shrink    int64
		want      counts
		reason    string // the only reason, when one is wanted
	}{
		{name: "2,000 short on a new version", version: "2.1.31", at: 2_000, read: 10_000, rec: 8_000},
		{name: "2,000 short on a stopped clock", version: "2.1.30", at: 1_000, read: 10_000, rec: 8_000},
		{name: "2,000 short at the system prefix", version: "2.1.30", at: 2_000, prefix: 10_000, read: 10_000, rec: 8_000},
		{name: "2,000 short", version: "2.1.30", at: 2_000, read: 10_000, rec: 8_000},
		{name: "2,000 over after an action", version: "2.1.30", at: 2_000, read: 10_000, rec: 12_000, actions: []string{"micro"}},
		{name: "2,000 over", version: "2.1.30", at: 2_000, read: 10_000, rec: 12_000},
		{name: "equal, with an action and a shrink", version: "2.1.30", at: 2_000, read: 10_000, rec: 10_000, actions: []string{"micro"}, shrink: 500},
		// d = −3,000; reads 10,000 against 13,000 are 23% off, so the
		// cache is explained, by this cause alone.
		{name: "3,000 over after an action", version: "2.1.30", at: 2_000, read: 10_000, rec: 13_000, actions: []string{"micro"},
			want: counts{shallower: 1}, reason: "1 call fell back less far than a rule of the model has it (the recorded reads reached past where the model's read stops): 3,000 tokens"},
		{name: "3,000 over after a shrink", version: "2.1.30", at: 2_000, read: 10_000, rec: 13_000, shrink: 500,
			want: counts{shallower: 1}, reason: "1 call fell back less far than a rule of the model has it (the recorded reads reached past where the model's read stops): 3,000 tokens"},
		{name: "3,000 over", version: "2.1.30", at: 2_000, read: 10_000, rec: 13_000,
			want: counts{warm: 1}, reason: "1 call read prefixes the model had expired or never written, kept warm by other requests (sub-agents, other sessions, the shared system prompt): 3,000 tokens"},
	}
	for _, c := range cases {
		tr := &simulate.Trace{SystemPrefix: c.prefix, Calls: []simulate.TraceCall{
			{Index: 0, Time: 1_000, Model: "m", Version: "2.1.30", Usage: replay.Usage{CacheWrite5m: 10_000}},
			{Index: 1, Time: c.at, Model: "m", Version: c.version, Shrink: c.shrink, Usage: replay.Usage{CacheRead: c.rec}},
		}}
		observed := &simulate.Result{Calls: []simulate.CallResult{
			{Call: 1, Prompt: 10_000, Recorded: 10_000, Predicted: &simulate.Predicted{Write: 10_000}},
			{Call: 2, Prompt: c.rec, Recorded: c.rec, Actions: c.actions, Predicted: &simulate.Predicted{Read: c.read}},
		}}
		f := New(&replay.Session{ID: "s"}, tr, observed, &simulate.Result{}, DefaultTolerances())
		got := counts{f.NewVersionShorter, f.StoppedClock, f.ShorterPrefix, f.UnseenBreaks, f.ShallowerFallbacks, f.WarmElsewhere}
		if got != c.want {
			t.Errorf("%s: counts %+v, want %+v", c.name, got, c.want)
		}
		if c.reason != "" && (len(f.Reasons) != 1 || !strings.HasPrefix(f.Reasons[0], c.reason)) {
			t.Errorf("%s: reasons %q, want only one beginning %q", c.name, f.Reasons, c.reason)
		}
	}
}

// The clock a call's timestamp is compared by is its recorded one (Time −
// Ahead): call 2's clock is 3,000 but its timestamp 1,000, the same as
// call 1's, so its shortfall is put down to the stopped clock. The move
// is counted, and told in whole seconds (2,000 ms: 2s).
func TestEdgeClockAhead(t *testing.T) {
	tr := &simulate.Trace{Calls: []simulate.TraceCall{
		{Index: 0, Time: 1_000, Usage: replay.Usage{CacheWrite5m: 10_000}},
		{Index: 1, Time: 3_000, Ahead: 2_000, Usage: replay.Usage{CacheWrite5m: 12_000}},
	}}
	observed := &simulate.Result{Calls: []simulate.CallResult{
		{Call: 1, Prompt: 10_000, Recorded: 10_000, Predicted: &simulate.Predicted{Write: 10_000}},
		{Call: 2, Prompt: 12_000, Recorded: 12_000, Predicted: &simulate.Predicted{Read: 10_000, Write: 2_000}},
	}}
	f := New(&replay.Session{ID: "s"}, tr, observed, &simulate.Result{}, DefaultTolerances())
	if f.StoppedClock != 1 || f.UnseenBreaks != 0 || f.ClockMoved != 1 || f.ClockMovedMs != 2_000 {
		t.Errorf("stopped clock %d, unseen %d, clock moved %d by %d ms; want 1, 0, 1, 2000", f.StoppedClock, f.UnseenBreaks, f.ClockMoved, f.ClockMovedMs)
	}
	wantReason(t, f, "clock inferred: at 1 call, where the timestamps stop, tools' recorded run times (toolUseResult) move the model's clock up to 2s past the timestamp;")
}

// The prefixes a call read are noted only for calls on the main model
// (opus, two calls of three): haiku's later reads do not replace them.
func TestEdgePrefixFactsMainModel(t *testing.T) {
	tr := &simulate.Trace{Calls: []simulate.TraceCall{
		{Index: 0, Time: 1, Model: "opus", BaseRead: true, Usage: replay.Usage{CacheRead: 5_000}},
		{Index: 1, Time: 2, Model: "opus", SysRead: true, Usage: replay.Usage{CacheRead: 7_000}},
		{Index: 2, Time: 3, Model: "haiku", BaseRead: true, SysRead: true, Usage: replay.Usage{CacheRead: 3_000}},
	}}
	f := New(&replay.Session{ID: "s"}, tr, edgeObserved(tr), &simulate.Result{}, DefaultTolerances())
	if f.BasePrefix != 5_000 || f.BasePrefixCall != 1 || f.SystemPrefixRead != 7_000 || f.SystemPrefixReadCall != 2 {
		t.Errorf("base prefix %d at call %d, system prefix read %d at call %d; want 5000 at 1, 7000 at 2",
			f.BasePrefix, f.BasePrefixCall, f.SystemPrefixRead, f.SystemPrefixReadCall)
	}
}

// Where the trace leaves out calls that sent nothing, the call before the
// real compaction is the last trace call numbered below it: with call 2
// left out, call 1 (the trace's first) for a compaction before call 3;
// with calls 1 and 2 left out, none, and the reason says so.
func TestEdgeCompactionAfterLeftOutCalls(t *testing.T) {
	after := simulate.TraceCall{Index: 2, Time: 2, Usage: replay.Usage{CacheRead: 30_000}}
	for _, c := range []struct {
		name      string
		calls     []simulate.TraceCall
		total     int64
		threshold int64
		reason    string
	}{
		// Call 1's total 100,000 + 2,000; no version: 200,000 − 20,000
		// reserved − 13,000 buffer.
		{"call 2 left out", []simulate.TraceCall{{Index: 0, Time: 1, Usage: replay.Usage{CacheRead: 100_000, Output: 2_000}}, after}, 102_000, 167_000,
			"first auto-compaction at call 3, claude-code never (call 1's recorded usage total 102,000 tokens, its threshold there 167,000): not explained"},
		{"calls 1 and 2 left out", []simulate.TraceCall{after}, 0, 0,
			"first auto-compaction at call 3, claude-code never (the transcript has no call before it): not explained"},
	} {
		tr := &simulate.Trace{Calls: c.calls}
		f := New(edgeAuto(2), tr, edgeObserved(tr), &simulate.Result{}, DefaultTolerances())
		// claude-code never compacted: the prompt after the real compaction
		// (30,000) has nothing to be compared with.
		if f.RealAutoCompaction != 3 || f.RealAutoCompactionTotal != c.total || f.ClaudeCodeThreshold != c.threshold || f.RealPostCompactionPrompt != 30_000 || f.PostCompactionErrorPct != nil {
			t.Errorf("%s: real %d, total %d, threshold %d, post prompt %d, error %v; want 3, %d, %d, 30000, nil",
				c.name, f.RealAutoCompaction, f.RealAutoCompactionTotal, f.ClaudeCodeThreshold, f.RealPostCompactionPrompt, f.PostCompactionErrorPct, c.total, c.threshold)
		}
		if len(f.Reasons) != 1 || f.Reasons[0] != c.reason {
			t.Errorf("%s: reasons %q, want only %q", c.name, f.Reasons, c.reason)
		}
	}
}

// The prompt after the real compaction is the first recorded one: a call
// after it without usage (a failed response) is passed over, and what it
// appended counts. Ratio 2: the summary (est 1,000) on the empty call and
// the attachment (est 2,500) on the next are 2,000 and 5,000 tokens;
// claude-code's 20,000 against the recorded 30,000 is −33.3%.
func TestEdgePostCompactionPassesEmptyCall(t *testing.T) {
	tr := &simulate.Trace{Ratio: 2, Calls: []simulate.TraceCall{
		{Index: 0, Time: 1, Usage: replay.Usage{CacheRead: 150_000}},
		{Index: 1, Time: 2, Items: []simulate.Item{{Kind: simulate.KindSummary, Est: 1000, Artifact: true, Msg: 5}}},
		{Index: 2, Time: 3, Usage: replay.Usage{CacheRead: 20_000, CacheWrite5m: 10_000},
			Items: []simulate.Item{{Kind: simulate.KindAttachment, Est: 2500, Artifact: true, Msg: 6}}},
	}}
	cc := &simulate.Result{Compacted: simulate.RunCompactions{FirstAuto: 2, Summary: 2400, Restored: 3600},
		Calls: []simulate.CallResult{{Call: 1}, {Call: 2, Compacted: true, Prompt: 20_000}}}
	f := New(edgeAuto(1), tr, edgeObserved(tr), cc, DefaultTolerances())
	if f.RealPostCompactionPrompt != 30_000 || f.PostCompactionErrorPct == nil || *f.PostCompactionErrorPct != -33.33 {
		t.Errorf("post prompt %d, error %v; want 30000, -33.33", f.RealPostCompactionPrompt, f.PostCompactionErrorPct)
	}
	wantReason(t, f, "prompt after the first auto-compaction -33.3% against the recorded: recorded 30,000 (summary 2,000, re-attached 5,000, the rest 23,000:")
}

// A compaction before the first call (here the one after the last call of
// a thread with none) is not counted: nothing after it is measured and it
// needs no reason.
func TestEdgeCompactionBeforeFirstCall(t *testing.T) {
	s := &replay.Session{ID: "s", ContinuedIn: "next", Main: &replay.Thread{}}
	tr := &simulate.Trace{Calls: []simulate.TraceCall{{Index: 0, Time: 1, Usage: replay.Usage{CacheRead: 10_000}}}}
	f := New(s, tr, edgeObserved(tr), &simulate.Result{}, DefaultTolerances())
	if f.RealAutoCompaction != 1 || f.RealAutoCompactionTotal != 0 || f.RealPostCompactionPrompt != 0 || len(f.Reasons) != 0 {
		t.Errorf("real %d, total %d, post prompt %d, reasons %q; want 1, 0, 0, none", f.RealAutoCompaction, f.RealAutoCompactionTotal, f.RealPostCompactionPrompt, f.Reasons)
	}
}

// A row exactly at the tolerances has no reason: reads 102,000 against
// 100,000 (+2%, call 2's 2,000 not beyond Tokens), writes 110,000 against
// 100,000 (+10%), every call measured and fitted, and claude-code's
// compaction where the real one is (call 2).
func TestEdgeAtTolerances(t *testing.T) {
	tr := &simulate.Trace{Calls: []simulate.TraceCall{
		{Index: 0, Time: 1, Usage: replay.Usage{CacheWrite5m: 100_000}},
		{Index: 1, Time: 2, Usage: replay.Usage{CacheRead: 100_000}},
	}}
	observed := &simulate.Result{Calls: []simulate.CallResult{
		{Call: 1, Prompt: 100_000, Recorded: 100_000, Predicted: &simulate.Predicted{Write: 110_000}},
		{Call: 2, Prompt: 100_000, Recorded: 100_000, Predicted: &simulate.Predicted{Read: 102_000}},
	}}
	cc := &simulate.Result{Compacted: simulate.RunCompactions{FirstAuto: 2}}
	f := New(edgeAuto(1), tr, observed, cc, DefaultTolerances())
	if *f.CacheReadErrorPct != 2 || *f.CacheWriteErrorPct != 10 || f.RealAutoCompaction != 2 || f.SimulatedAutoCompaction != 2 {
		t.Errorf("errors %v %v, compactions %d %d; want 2 10, 2 2", *f.CacheReadErrorPct, *f.CacheWriteErrorPct, f.RealAutoCompaction, f.SimulatedAutoCompaction)
	}
	if len(f.Reasons) != 0 || !f.Explained() {
		t.Errorf("reasons %q, want none", f.Reasons)
	}
}

// Limits the trace inferred are named with their reason; so is
// micro-compaction the recorded prompts show off on a version that
// micro-compacts by size (2.1.19).
func TestEdgeInferredReasons(t *testing.T) {
	for _, c := range []struct {
		in   simulate.Inferred
		want string
	}{
		{simulate.Inferred{Window: 1_000_000, Reason: "a prompt passed the window"}, "limits inferred, a 1,000,000-token window: a prompt passed the window"},
		{simulate.Inferred{AutoCompactOff: true, Reason: "no compaction above the threshold"}, "limits inferred, auto-compaction off: no compaction above the threshold"},
	} {
		tr := &simulate.Trace{Inferred: c.in, Micro: simulate.MicroEvidence{Off: true, Reason: "call 9 kept results"},
			Calls: []simulate.TraceCall{{Index: 0, Time: 1, Version: "2.1.19", Usage: replay.Usage{CacheWrite5m: 10_000}}}}
		f := New(&replay.Session{ID: "s"}, tr, edgeObserved(tr), &simulate.Result{}, DefaultTolerances())
		want := []string{c.want, "micro-compaction inferred off (Claude Code 2.1.19 micro-compacts by size unless an experiment flag turns it off): call 9 kept results"}
		if !reflect.DeepEqual(f.Reasons, want) || f.Inferred == nil || *f.Inferred != c.in {
			t.Errorf("reasons %q, inferred %v; want %q, %v", f.Reasons, f.Inferred, want, c.in)
		}
	}
}

// A session that compacted only by hand, and that claude-code compacts
// automatically (at call 3), is explained by the compactions claude-code
// did not replay; when it replayed them all, it is not. Where claude-code
// never compacts there is nothing to explain.
func TestEdgeManualCompactions(t *testing.T) {
	tr := &simulate.Trace{Calls: []simulate.TraceCall{
		{Index: 0, Time: 1, Usage: replay.Usage{CacheWrite5m: 50_000}},
		{Index: 1, Time: 2, Usage: replay.Usage{CacheRead: 100_000, Output: 1_000}},
		{Index: 2, Time: 3, Usage: replay.Usage{CacheRead: 120_000}},
	}}
	manual := func(n int) *replay.Session {
		s := &replay.Session{ID: "s", Main: &replay.Thread{}}
		for i := range n {
			s.Main.Compactions = append(s.Main.Compactions, replay.Compaction{Kind: replay.CompactFull, Trigger: "manual", CallsBefore: i + 1})
		}
		return s
	}
	for _, c := range []struct {
		name             string
		manual, replayed int
		firstAuto        int
		want             []string
	}{
		{"2 by hand, 1 replayed", 2, 1, 3, []string{"the session compacted by hand 2 times and never automatically; replayed without those, its context reaches the threshold at call 3"}},
		// Call 2's total: 100,000 + 1,000.
		{"1 by hand, replayed", 1, 1, 3, []string{"claude-code compacts at call 3 where the session never compacted (call 2's recorded usage total 101,000 tokens; with the response's final output where the transcript has a placeholder, and Claude Code's estimate of what followed, claude-code's count reaches its threshold there): not explained"}},
		{"1 by hand, claude-code never compacts", 1, 0, 0, nil},
	} {
		cc := &simulate.Result{Compacted: simulate.RunCompactions{FirstAuto: c.firstAuto, Manual: c.replayed}}
		f := New(manual(c.manual), tr, edgeObserved(tr), cc, DefaultTolerances())
		if f.ManualCompactions != c.manual || f.ManualReplayed != c.replayed || len(f.Reasons) != len(c.want) || (len(c.want) > 0 && !reflect.DeepEqual(f.Reasons, c.want)) {
			t.Errorf("%s: manual %d, replayed %d, reasons %q; want %d, %d, %q", c.name, f.ManualCompactions, f.ManualReplayed, f.Reasons, c.manual, c.replayed, c.want)
		}
	}
}

// A restart whose first call recorded no prompt (a failed response) is no
// evidence of a smaller rebuilt conversation: claude-code's compaction
// there stays unexplained. Call 1's total: 165,000 + 883.
func TestEdgeRestartWithoutPrompt(t *testing.T) {
	tr := &simulate.Trace{Calls: []simulate.TraceCall{
		{Index: 0, Time: 1, Version: "2.1.133", Usage: replay.Usage{CacheRead: 165_000, Output: 883}},
		{Index: 1, Time: 2, Version: "2.1.138"},
	}}
	cc := &simulate.Result{Compacted: simulate.RunCompactions{FirstAuto: 2}}
	f := New(&replay.Session{ID: "s", Main: &replay.Thread{}}, tr, edgeObserved(tr), cc, DefaultTolerances())
	want := "claude-code compacts at call 2 where the session never compacted (call 1's recorded usage total 165,883 tokens; with the response's final output where the transcript has a placeholder, and Claude Code's estimate of what followed, claude-code's count reaches its threshold there): not explained"
	if !slices.Contains(f.Reasons, want) {
		t.Errorf("reasons %q, want %q", f.Reasons, want)
	}
}

// claude-code compacts after the last call of a continued file when its
// count there reaches the threshold exactly: Opus 4.5 on 2.0.76, 200,000
// − 32,000 − 13,000 = 155,000.
func TestEdgeContinuedAtThreshold(t *testing.T) {
	tr := &simulate.Trace{Calls: []simulate.TraceCall{
		{Index: 0, Time: 1, Model: "claude-opus-4-5-20251101", Version: "2.0.76"},
		{Index: 1, Time: 2, Model: "claude-opus-4-5-20251101", Version: "2.0.76", Usage: replay.Usage{CacheRead: 150_000, Output: 5_000}},
	}}
	s := &replay.Session{ID: "s", ContinuedIn: "next", Main: &replay.Thread{Calls: make([]replay.Call, 2)}}
	f := New(s, tr, edgeObserved(tr), &simulate.Result{Compacted: simulate.RunCompactions{EndCount: 155_000}}, DefaultTolerances())
	if f.RealAutoCompaction != 3 || f.SimulatedAutoCompaction != 3 {
		t.Errorf("real %d, simulated %d; want 3 and 3", f.RealAutoCompaction, f.SimulatedAutoCompaction)
	}
}

// Summarize at its bounds: a compaction one call early is within one, two
// exact ones count two; a session where neither compacts is no false
// compaction; a write error of exactly 10% and a post-compaction error of
// exactly 10% are within.
func TestEdgeSummarizeBounds(t *testing.T) {
	e := func(v float64) *float64 { return &v }
	rows := []Row{
		{RealAutoCompaction: 5, SimulatedAutoCompaction: 5},
		{RealAutoCompaction: 6, SimulatedAutoCompaction: 6},
		{RealAutoCompaction: 8, SimulatedAutoCompaction: 7},
		{CacheWriteErrorPct: e(10), PostCompactionErrorPct: e(10)},
	}
	got := Summarize(rows, DefaultTolerances())
	got.CacheReadErrorPct, got.CacheWriteErrorPct, got.CallWriteErrorPct = nil, nil, nil
	median := got.PostCompactionMedianErrorPct
	got.PostCompactionMedianErrorPct = nil
	want := Summary{Sessions: 4, AutoCompacted: 3, Exact: 2, WithinOne: 3, WritesChecked: 1, WritesWithin: 1, PostCompactionChecked: 1, PostCompactionWithin: 1}
	if got != want || median == nil || *median != 10 {
		t.Errorf("got %+v, median %v\nwant %+v, median 10", got, median, want)
	}
}

// A reason that is exactly "not explained" says so.
func TestEdgeExplainedExact(t *testing.T) {
	if (&Row{Reasons: []string{"not explained"}}).Explained() {
		t.Error(`a reason "not explained" counts as explained`)
	}
}

// The cache cost counts sessions from CacheCostMin on, and is within at
// exactly CacheCostPct; a first auto-compaction counts below half the
// threshold only strictly below it, and only where claude-code had one.
func TestEdgeSummarizeCacheCostAndHalf(t *testing.T) {
	rows := []Row{
		// Recorded 0.1 × 600,000 + 1.25 × 32,000 = 100,000; simulated 110,000: +10%.
		{RecordedCacheRead: 600_000, RecordedCacheWrite: 32_000, SimulatedCacheRead: 700_000, SimulatedCacheWrite: 32_000},
		// Recorded 100,000; simulated 110,000: within.
		{RecordedCacheRead: 1_000_000, SimulatedCacheRead: 1_100_000},
		// Recorded 100,000; simulated 89,999.9: just outside.
		{RecordedCacheRead: 1_000_000, SimulatedCacheRead: 899_999},
		// Recorded 99,999.9: not counted.
		{RecordedCacheRead: 999_999, SimulatedCacheRead: 0},
		// Half the threshold exactly: not below; one token under: below.
		{RealAutoCompaction: 5, RealAutoCompactionTotal: 77_500, ClaudeCodeThreshold: 155_000},
		{RealAutoCompaction: 5, RealAutoCompactionTotal: 77_499, ClaudeCodeThreshold: 155_000},
		// No threshold (auto-compaction off there), or before the first call.
		{RealAutoCompaction: 5, RealAutoCompactionTotal: 1},
		{RealAutoCompaction: 1, RealAutoCompactionTotal: 1, ClaudeCodeThreshold: 155_000},
	}
	got := Summarize(rows, DefaultTolerances())
	if got.CacheCostChecked != 3 || got.CacheCostWithin != 2 || got.AutoBelowHalf != 1 {
		t.Errorf("cache cost %d of %d, below half %d; want 2 of 3, 1", got.CacheCostWithin, got.CacheCostChecked, got.AutoBelowHalf)
	}
	if rec, sim := rows[0].CacheCost(); rec != 100_000 || sim != 110_000 {
		t.Errorf("CacheCost = %v, %v; want 100000, 110000", rec, sim)
	}
}

// SummarizeBy orders versions as versions (1.0.9 before 1.0.85), the
// sessions without one last, and projects byte by byte; each group sums
// its own rows.
func TestSummarizeBy(t *testing.T) {
	rows := []Row{
		{Project: "b", Version: "1.0.85", Calls: 1},
		{Project: "a", Version: "", Calls: 2},
		{Project: "b", Version: "1.0.9", Calls: 4},
		{Project: "a", Version: "2.1.0", Calls: 8},
		{Project: "c", Version: "1.0.85", Calls: 16},
	}
	keys := func(gs []Group) (out []string) {
		for _, g := range gs {
			out = append(out, fmt.Sprintf("%s:%d", g.Key, g.Calls))
		}
		return out
	}
	if got, want := keys(SummarizeBy(rows, DefaultTolerances(), ByVersion)), []string{"1.0.9:4", "1.0.85:17", "2.1.0:8", ":2"}; !slices.Equal(got, want) {
		t.Errorf("by version %v, want %v", got, want)
	}
	if got, want := keys(SummarizeBy(rows, DefaultTolerances(), ByProject)), []string{"a:10", "b:5", "c:16"}; !slices.Equal(got, want) {
		t.Errorf("by project %v, want %v", got, want)
	}
	if got := SummarizeBy(rows, DefaultTolerances(), "model"); got != nil {
		t.Errorf("by model: %v, want nil", got)
	}
}
