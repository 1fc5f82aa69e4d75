package simulate

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/replay"
)

// edgeEngineThreshold is a policy that compacts everything at call 2 and
// reports a threshold that grows with the call (1,000 tokens per call), so
// that a test can tell which call's threshold Result.CompactAt holds.
type edgeEngineThreshold struct{ seen func(*State) }

func (edgeEngineThreshold) Name() string { return "edge-threshold" }
func (p edgeEngineThreshold) Before(s *State) {
	p.seen(s)
	if s.Call == 2 {
		s.Compact(Compaction{From: 1, To: len(s.Items), Label: "auto"})
	}
}
func (edgeEngineThreshold) CompactAt(s *State) int64 { return 1000 * int64(s.Call+1) }

// edgeEngineTokens lists the sizes of the items a policy sees.
func edgeEngineTokens(items []Item) []int64 {
	out := make([]int64, len(items))
	for j, it := range items {
		out[j] = it.Tokens
	}
	return out
}

// edgeEngineContextAt returns a policy that records the context's item
// sizes and kinds as the policy sees them before call n, and where it
// records them.
func edgeEngineContextAt(n int) (policy Policy, tokens *[]int64, kinds *[]ItemKind) {
	tokens, kinds = new([]int64), new([]ItemKind)
	policy = observer{policyFunc(func(s *State) {
		if s.Call == n {
			*tokens = edgeEngineTokens(s.Items)
			for _, it := range s.Items {
				*kinds = append(*kinds, it.Kind)
			}
		}
	})}
	return policy, tokens, kinds
}

// What a run reports besides its calls, and what a policy sees of the run
// so far. The run's threshold is the one the policy gave at the first call;
// its limits are the first call's (Sonnet 4.6 on 2.1.146: a 200,000-token
// window); its end count is the last prompt plus its output, which Claude
// Code tests before the next call. Calls since the last compaction start
// at 0 and restart after one; the overhead is never a message of the
// thread (Msg −1, which policies use to skip it). An empty trace gives an
// empty result.
func TestEdgeEngineRunSummary(t *testing.T) {
	res := Run(&Trace{Session: "empty", Overhead: 1000, Ratio: 1, Method: "usage", TTL: 5 * time.Minute, Thread: &replay.Thread{}}, nothing{}, DefaultConfig())
	if len(res.Calls) != 0 || res.Limits.Window != 0 || res.Compacted.EndCount != 0 {
		t.Errorf("empty trace: %d calls, window %d, end count %d; want 0 0 0", len(res.Calls), res.Limits.Window, res.Compacted.EndCount)
	}

	tr := build(
		step{0, "", []Item{user(2000)}},
		step{1, "", []Item{asst(100), user(100)}},
		step{2, "", []Item{asst(100), user(100)}}, // compacted before the call
		step{3, "", []Item{asst(100), user(100)}},
		step{4, "", []Item{asst(100), user(100)}},
	)
	var since []int
	overheadMsg := map[int]bool{}
	p := edgeEngineThreshold{seen: func(s *State) {
		since = append(since, s.CallsSinceCompact)
		overheadMsg[s.Items[0].Msg] = true
	}}
	res = Run(tr, p, DefaultConfig())
	if res.CompactAt != 1000 {
		t.Errorf("CompactAt %d, want the first call's 1000", res.CompactAt)
	}
	if res.Limits.Window != 200_000 || res.Limits.Threshold != 167_000 {
		t.Errorf("limits %+v, want Sonnet 4.6's window 200,000 and threshold 167,000", res.Limits)
	}
	if want := []int{0, 1, 2, 1, 2}; !reflect.DeepEqual(since, want) {
		t.Errorf("calls since compaction %v, want %v", since, want)
	}
	if !reflect.DeepEqual(overheadMsg, map[int]bool{-1: true}) {
		t.Errorf("overhead Msg %v, want always -1", overheadMsg)
	}
	// tinyTrace ends on a 6,600-token prompt and 50 tokens of output.
	if got := Run(tinyTrace(), nothing{}, DefaultConfig()).Compacted.EndCount; got != 6650 {
		t.Errorf("end count %d, want 6,600 + 50 = 6,650", got)
	}
}

// Config.Breaks decides which drops of the cache read count as breaks;
// left zero it is Claude Code's rule (more than 5% and more than 2,000
// tokens). The observed run reports the recorded reads: 100,990, then
// 99,490, a drop of 1,500 (1.49%), which breaks under a 1%/1,000-token
// rule and not under the default.
func TestEdgeEngineBreakRule(t *testing.T) {
	tr := build(
		step{0, "", []Item{user(100_000)}},        // 101,000
		step{1, "", []Item{asst(100), user(100)}}, // 101,200: read 100,990
		step{2, "", []Item{asst(100), user(100)}}, // 101,400: read 99,490
	)
	tr.Calls[1].Usage = replay.Usage{Input: 10, CacheRead: 100_990, CacheWrite5m: 200, Output: 100}
	tr.Calls[2].Usage = replay.Usage{Input: 10, CacheRead: 99_490, CacheWrite5m: 1900, Output: 100}
	for _, c := range []struct {
		name string
		rule claudecode.BreakRule
		want int
	}{
		{"default rule", claudecode.BreakRule{}, 0},
		{"1% and 1,000 tokens", claudecode.BreakRule{BreakMinFraction: 0.01, BreakMinTokens: 1000}, 1},
	} {
		cfg := DefaultConfig()
		if c.rule != (claudecode.BreakRule{}) {
			cfg.Breaks = c.rule
		}
		res := Run(tr, nothing{}, cfg)
		if got := res.Metrics.CacheBreaks; got != c.want {
			t.Errorf("%s: %d breaks, want %d (reads %d, %d, %d)", c.name, got, c.want, res.Calls[0].Read, res.Calls[1].Read, res.Calls[2].Read)
		}
	}
}

// Without Config.TTL, a call whose usage shows no cache write keeps the
// lifetime of the trace (here 1 hour): its write is a 1-hour one, and a
// call 30 minutes later reads it. Config.TTL overrides it (5 minutes: the
// entry has expired 30 minutes later).
func TestEdgeEngineTraceTTL(t *testing.T) {
	for _, c := range []struct {
		cfg          time.Duration
		want         time.Duration
		w5m, w1h     int64
		secondReadOf int64
	}{
		{0, time.Hour, 0, 2990, 2990},
		{5 * time.Minute, 5 * time.Minute, 2990, 0, 0},
	} {
		tr := build(
			step{0, "", []Item{user(2000)}},            // 3,000: an entry at 2,990
			step{30, "", []Item{asst(100), user(100)}}, // 3,200
		)
		tr.TTL = time.Hour
		for i := range tr.Calls {
			tr.Calls[i].Usage = replay.Usage{Input: 10, Output: 100} // no write shows a lifetime
		}
		var ttls []time.Duration
		cfg := DefaultConfig()
		cfg.TTL = c.cfg
		res := Run(tr, policyFunc(func(s *State) { ttls = append(ttls, s.TTL) }), cfg)
		if !reflect.DeepEqual(ttls, []time.Duration{c.want, c.want}) {
			t.Errorf("Config.TTL %v: State.TTL %v, want %v twice", c.cfg, ttls, c.want)
		}
		if r := res.Calls[0]; r.Write5m != c.w5m || r.Write1h != c.w1h {
			t.Errorf("Config.TTL %v: first call wrote 5m %d 1h %d, want %d %d", c.cfg, r.Write5m, r.Write1h, c.w5m, c.w1h)
		}
		if got := res.Calls[1].Read; got != c.secondReadOf {
			t.Errorf("Config.TTL %v: read %d after 30 minutes, want %d", c.cfg, got, c.secondReadOf)
		}
	}
}

// State.GapMs is the time since the previous call, 0 for the first call
// and whenever either call's time is unknown (0).
func TestEdgeEngineGap(t *testing.T) {
	for _, c := range []struct {
		name       string
		t0, t1     int64
		wantSecond int64
	}{
		{"three minutes", at(0), at(3), 180_000},
		{"previous time unknown", 0, at(3), 0},
		{"this time unknown", at(0), 0, 0},
	} {
		tr := build(step{0, "", []Item{user(2000)}}, step{3, "", []Item{asst(100), user(100)}})
		tr.Calls[0].Time, tr.Calls[1].Time = c.t0, c.t1
		var gaps []int64
		Run(tr, policyFunc(func(s *State) { gaps = append(gaps, s.GapMs) }), DefaultConfig())
		if want := []int64{0, c.wantSecond}; !reflect.DeepEqual(gaps, want) {
			t.Errorf("%s: gaps %v, want %v", c.name, gaps, want)
		}
	}
}

// State.Trigger is Claude Code's own count: the last prompt and output,
// plus, from EstimateFrom (2.1.2), the estimate of what followed the last
// response, plus, from EstimateResponseFrom (2.1.88), the last response's
// blocks after its first. A call without a version counts both.
//
// Call 2 appends three blocks of call 1's response (message 0: estimates
// 10, 20 and 30, the first not counted) and a user message (estimate 40).
// Call 1's prompt was 2,000 and its output 100: 2,100, + 40 from 2.1.2,
// + 50 from 2.1.88.
func TestEdgeEngineTriggerEstimates(t *testing.T) {
	for _, c := range []struct {
		version string
		want    int64
	}{
		{"2.1.146", 2190},
		{"2.1.88", 2190},
		{"2.1.87", 2140},
		{"2.1.2", 2140},
		{"2.1.1", 2100},
		{"2.0.77", 2100},
		{"", 2190},
	} {
		tr := build(
			step{0, "", []Item{user(1000)}},
			step{1, "", []Item{
				{Kind: KindAssistant, Tokens: 15, Est: 10},
				{Kind: KindAssistant, Tokens: 25, Est: 20},
				{Kind: KindToolUse, Tokens: 35, Est: 30},
				{Kind: KindUser, Tokens: 45, Est: 40, Text: "go on"},
			}},
		)
		for k := range 3 {
			tr.Calls[1].Items[k].Msg = 0 // call 1's response
		}
		for i := range tr.Calls {
			tr.Calls[i].Version = c.version
		}
		var trig []int64
		Run(tr, policyFunc(func(s *State) { trig = append(trig, s.Trigger) }), DefaultConfig())
		if want := []int64{2000, c.want}; !reflect.DeepEqual(trig, want) {
			t.Errorf("version %q: triggers %v, want %v", c.version, trig, want)
		}
	}
}

// Claude Code's estimate weighs some blocks by version
// (claudecode.CountRulesFor). Call 2 appends a tool result of 500 text
// units with an image (Est 2,500) and a document (which Est leaves out),
// an image (2,000), a document and a newer kind of block (the estimates of
// their JSON, 10,000 and 300), and an attachment that sends 400 units and
// whose JSON is 900. Call 1's prompt and output are 2,100; before
// EstimateFrom (2.1.2) nothing more counts.
func TestEdgeEngineTriggerCountWeights(t *testing.T) {
	for _, c := range []struct {
		version string
		after   int64
	}{
		{"2.1.1", 0},
		// Images 1,334; documents, other blocks and attachments nothing.
		{"2.1.2", 500 + 1334 + 1334},
		{"2.1.32", 500 + 1334 + 1334},
		// Attachments by their JSON.
		{"2.1.33", 500 + 1334 + 1334 + 900},
		// Images 2,000.
		{"2.1.38", 500 + 2000 + 2000 + 900},
		// Attachments by what they send.
		{"2.1.45", 500 + 2000 + 2000 + 400},
		{"2.1.73", 500 + 2000 + 2000 + 400},
		// Documents 2,000, other blocks their estimate.
		{"2.1.74", 500 + 2000 + 2000 + 2000 + 2000 + 300 + 400},
		{"", 500 + 2000 + 2000 + 2000 + 2000 + 300 + 400},
	} {
		tr := build(
			step{0, "", []Item{user(1000)}},
			step{1, "", []Item{
				{Kind: KindToolResult, Tokens: 900, Est: 2500, Images: 1, Docs: 1},
				{Kind: KindImage, Tokens: 1500, Est: 2000, Images: 1},
				{Kind: KindImage, Tokens: 1800, Est: 10_000, Docs: 1},
				{Kind: KindImage, Tokens: 250, Est: 300},
				{Kind: KindAttachment, Tokens: 350, Est: 400, Raw: 900},
			}},
		)
		for i := range tr.Calls {
			tr.Calls[i].Version = c.version
		}
		var trig []int64
		Run(tr, policyFunc(func(s *State) { trig = append(trig, s.Trigger) }), DefaultConfig())
		if want := []int64{2000, 2100 + c.after}; !reflect.DeepEqual(trig, want) {
			t.Errorf("version %q: triggers %v, want %v", c.version, trig, want)
		}
	}
}

// A restarted Claude Code (here a resumed conversation) loses the cached
// messages; from SharedPrefixFrom (2.0.0) it still reads the system
// prompt's entry, before it nothing. The run's first call is never a
// restart: there is nothing of the run's to lose.
//
// Overhead 25,000 (its own entry, above the 1,024-token minimum): call 1
// writes 26,990, call 2 reads it and writes 27,190, call 3 (restarted)
// reads 25,000 or nothing.
func TestEdgeEngineRestart(t *testing.T) {
	const resumed = "Claude Code restarted (a resumed conversation)"
	for _, c := range []struct {
		name      string
		version   string
		restarted int
		reads     []int64
	}{
		{"resumed on 2.0.0", "2.0.0", 2, []int64{0, 26_990, 25_000}},
		{"resumed on 2.1.146", "2.1.146", 2, []int64{0, 26_990, 25_000}},
		{"resumed on 1.0.128", "1.0.128", 2, []int64{0, 26_990, 0}},
		{"first call", "2.1.146", 0, []int64{0, 26_990, 27_190}},
	} {
		tr := build(
			step{0, "", []Item{user(2000)}},
			step{1, "", []Item{asst(100), user(100)}},
			step{2, "", []Item{asst(100), user(100)}},
		)
		tr.Overhead = 25_000
		for i := range tr.Calls {
			tr.Calls[i].Version = c.version
		}
		tr.Calls[c.restarted].Restarted = true
		res := Run(tr, policyFunc(func(*State) {}), DefaultConfig())
		for i, want := range c.reads {
			if got := res.Calls[i].Read; got != want {
				t.Errorf("%s: call %d read %d, want %d", c.name, i+1, got, want)
			}
			if got, want := slices.Contains(res.Calls[i].Actions, resumed), i == c.restarted && i > 0; got != want {
				t.Errorf("%s: call %d actions %q", c.name, i+1, res.Calls[i].Actions)
			}
		}
	}
}

// A call whose items are recorded to have shrunk (TraceCall.Shrink) loses
// those tokens from the earlier messages, newest first, and the loss,
// which the transcript does not explain, breaks the cache at the first
// message. Call 3 appends 1,100 and shrank by 300: call 2's user and
// assistant messages give 100 each, call 1's message the last 100. The
// prompt is 4,000 and reads nothing (the entries at 2,990 and 3,190 lie
// past the first message).
func TestEdgeEngineShrink(t *testing.T) {
	tr := build(
		step{0, "", []Item{user(2000)}},            // 3,000: an entry at 2,990
		step{1, "", []Item{asst(100), user(100)}},  // 3,200: an entry at 3,190
		step{2, "", []Item{asst(100), user(1000)}}, // 4,300 − 300
	)
	tr.Calls[2].Shrink = 300
	var items []int64
	res := Run(tr, policyFunc(func(s *State) {
		if s.Call == 2 {
			items = edgeEngineTokens(s.Items)
		}
	}), DefaultConfig())
	if want := []int64{1000, 1900, 0, 0, 100, 1000}; !reflect.DeepEqual(items, want) {
		t.Errorf("items %v, want %v", items, want)
	}
	if c := res.Calls[2]; c.Prompt != 4000 || c.Read != 0 {
		t.Errorf("call 3: prompt %d read %d, want 4000 0", c.Prompt, c.Read)
	}
}

// edgeEngineFitTrace is an observed session: call 1 writes 2,990, call 2
// appends a 3,000-token Read of a.go (result r1) and reads 2,990, writing
// an entry at 6,090; call 3 appends 500 and is recorded at prompt.
func edgeEngineFitTrace(prompt int64, micro *replay.Compaction) *Trace {
	tr := build(
		step{0, "", []Item{user(2000)}},                                   // 3,000
		step{1, "", []Item{result("r1", "a.go", 3000), asst(100)}},        // 6,100
		step{2, "", []Item{{Kind: KindUser, Tokens: 500, Text: "go on"}}}, // 6,600
	)
	tr.Calls[1].Usage = replay.Usage{Input: 10, CacheRead: 2990, CacheWrite5m: 3100, Output: 100}
	tr.Calls[2].Usage = replay.Usage{Input: 10, CacheWrite5m: prompt - 10, Output: 100}
	tr.Calls[2].RealMicro = micro
	return tr
}

// The observed run fits a prompt recorded below the context by taking the
// difference from the newest items. Unexplained, the loss breaks the cache
// at the first message (the model predicts no read); after a real
// micro-compaction the loss is explained and only the micro-compaction's
// own edit counts (at a.go's result, 3,000: the entry at 2,990 is read).
//
// The micro-compaction clears r1 to the 8-token placeholder (freeing
// 2,992: 6,600 → 3,608), the fit to 3,508 takes 100 more from the new
// user message. One naming only a result no longer there clears nothing,
// and the call is then not marked as cleared.
func TestEdgeEngineObservedFitShrink(t *testing.T) {
	micro := func(ids ...string) *replay.Compaction {
		return &replay.Compaction{Kind: replay.CompactMicro, Trigger: "auto", TokensSaved: 2992, CompactedToolIDs: ids}
	}
	for _, c := range []struct {
		name      string
		prompt    int64
		micro     *replay.Compaction
		items     []int64 // what the policy sees at call 3, before the fit
		read      int64   // the model's prediction
		cleared   bool
		clearedR1 bool
		action    string
	}{
		{"unexplained", 6200, nil, []int64{1000, 2000, 3000, 100, 500}, 0, false, false, ""},
		{"after a micro-compaction", 3508, micro("r1"), []int64{1000, 2000, 8, 100, 500}, 2990, true, true, "real microcompact: 1 results"},
		{"a micro-compaction that finds nothing", 6600, micro("gone"), []int64{1000, 2000, 3000, 100, 500}, 6090, false, false, "real microcompact: 0 results"},
	} {
		var items []int64
		var clearedR1 bool
		p := observer{policyFunc(func(s *State) {
			if s.Call == 2 {
				items = edgeEngineTokens(s.Items)
				clearedR1 = s.Items[2].Cleared
			}
		})}
		res := Run(edgeEngineFitTrace(c.prompt, c.micro), p, DefaultConfig())
		if !reflect.DeepEqual(items, c.items) || clearedR1 != c.clearedR1 {
			t.Errorf("%s: items %v (r1 cleared %v), want %v (%v)", c.name, items, clearedR1, c.items, c.clearedR1)
		}
		r := res.Calls[2]
		if r.Prompt != c.prompt || r.Predicted == nil || r.Predicted.Read != c.read || r.Cleared != c.cleared {
			t.Errorf("%s: prompt %d predicted %+v cleared %v; want %d, read %d, %v", c.name, r.Prompt, r.Predicted, r.Cleared, c.prompt, c.read, c.cleared)
		}
		if c.action != "" && !slices.Contains(r.Actions, c.action) {
			t.Errorf("%s: actions %q, want %q", c.name, r.Actions, c.action)
		}
	}
}

// A recorded prompt below what the messages and the context before the
// first message can give comes from the system prompt itself: the fit
// reaches it, and the system prompt's breakpoint moves down with it (a
// 1.0.x compaction or a restarted process rebuilds what precedes the
// first message). Overhead 25,000, the system prompt ending at 20,000:
// call 1 writes 29,990, call 2 reads it and writes 3,050; Claude Code
// compacts before call 3, recorded at 18,000 where the overhead and the
// 2,000-token summary come to 27,000. The summary gives its 2,000, the
// context past the breakpoint 5,000 and the system prompt 2,000: call 3
// reads nothing (the entry at 20,000 lies past the new end) and writes
// 17,990; call 4 appends 3,050 and reads call 3's entry.
func TestEdgeEngineObservedFitBelowSystemPrompt(t *testing.T) {
	tr := observedTrace()
	tr.Overhead, tr.SystemPrefix = 25_000, 20_000
	tr.Calls[0].Usage = replay.Usage{Input: 10, CacheWrite5m: 29_990, Output: 100}
	tr.Calls[1].Usage = replay.Usage{Input: 10, CacheRead: 29_990, CacheWrite5m: 3050, Output: 100}
	tr.Calls[2].Usage = replay.Usage{Input: 10, CacheWrite5m: 17_990, Output: 100}
	tr.Calls[3].Usage = replay.Usage{Input: 10, CacheRead: 17_990, CacheWrite5m: 3050, Output: 100}
	p, tokensAt, _ := edgeEngineContextAt(3)
	res := Run(tr, p, DefaultConfig())
	for i, c := range res.Calls {
		if c.Prompt != c.Recorded {
			t.Errorf("call %d: prompt %d, recorded %d", i+1, c.Prompt, c.Recorded)
		}
	}
	if want := []int64{18_000, 0, 50, 3000}; !reflect.DeepEqual(*tokensAt, want) {
		t.Errorf("context at call 4 %v, want %v", *tokensAt, want)
	}
	for i, want := range []Predicted{{Input: 10, Write: 17_990}, {Input: 10, Write: 3050, Read: 17_990}} {
		if got := res.Calls[2+i].Predicted; got == nil || *got != want {
			t.Errorf("call %d: predicted %+v, want %+v", 3+i, got, want)
		}
	}
}

// A recorded prompt above the context goes to this call's last estimated
// item, or, when all its items are exact, to a hidden item after them.
// Call 2 appends 200 tokens and is recorded at 3,300: 100 more. A call
// with no recorded usage is not fitted, and bills what was recorded,
// nothing, with the model's figures as its prediction (call 3: it would
// read call 2's entry, 3,290, and write the 10-token rest). The prediction
// of a 1-hour write counts it as written (call 1).
func TestEdgeEngineObservedFitGrow(t *testing.T) {
	for _, c := range []struct {
		name  string
		exact bool
		items []int64 // at call 3
		kinds []ItemKind
	}{
		{"estimated user message", false, []int64{1000, 2000, 100, 200}, []ItemKind{KindOverhead, KindUser, KindAssistant, KindUser}},
		{"all exact", true, []int64{1000, 2000, 100, 100, 100}, []ItemKind{KindOverhead, KindUser, KindAssistant, KindUser, KindHidden}},
	} {
		tr := build(
			step{0, "", []Item{user(2000)}},           // 3,000
			step{1, "", []Item{asst(100), user(100)}}, // 3,200, recorded 3,300
			step{2, "", nil},
		)
		tr.Calls[0].Usage = replay.Usage{Input: 10, CacheWrite1h: 2990, Output: 100}
		tr.Calls[1].Usage = replay.Usage{Input: 10, CacheRead: 2990, CacheWrite5m: 300, Output: 100}
		tr.Calls[1].Items[1].Exact = c.exact
		tr.Calls[2].Usage = replay.Usage{}
		p, itemsAt, kindsAt := edgeEngineContextAt(2)
		res := Run(tr, p, DefaultConfig())
		items, kinds := *itemsAt, *kindsAt
		if !reflect.DeepEqual(items, c.items) || !reflect.DeepEqual(kinds, c.kinds) {
			t.Errorf("%s: items %v kinds %v, want %v %v", c.name, items, kinds, c.items, c.kinds)
		}
		if p := res.Calls[0].Predicted; p == nil || *p != (Predicted{Input: 10, Write: 2990, Read: 0}) {
			t.Errorf("%s: call 1 predicted %+v, want input 10, write 2990, read 0", c.name, p)
		}
		if r := res.Calls[1]; r.Prompt != 3300 {
			t.Errorf("%s: call 2 prompt %d, want 3300", c.name, r.Prompt)
		}
		if r := res.Calls[2]; r.Prompt != 3300 || r.Read != 0 || r.Write5m != 0 || r.Input != 0 || r.Cost != 0 ||
			r.Predicted == nil || *r.Predicted != (Predicted{Input: 0, Write: 10, Read: 3290}) {
			t.Errorf("%s: call 3 %+v, predicted %+v; want prompt 3300, nothing billed, predicted read 3290, write 10, input 0", c.name, r, r.Predicted)
		}
	}
}

// A real micro-compaction without tool ids cleared images, newest first:
// one per 2,000 tokens saved. Images are at items 1, 4 and 6 (item 1 is the
// first message); 4,000 saved clears 6 and 4, 6,000 all three. One that
// names tool results clears no image.
func TestEdgeEngineRealMicroImages(t *testing.T) {
	img := func() Item { return Item{Kind: KindImage, Tokens: 2000} }
	for _, c := range []struct {
		name   string
		saved  int64
		ids    []string
		want   []int
		action string // the call's action; it is Cleared when images went
	}{
		{"4,000 saved", 4000, nil, []int{4, 6}, "real microcompact: 0 results, 2 images"},
		{"6,000 saved", 6000, nil, []int{1, 4, 6}, "real microcompact: 0 results, 3 images"},
		{"tool results named", 4000, []string{"x"}, nil, "real microcompact: 0 results"},
	} {
		tr := build(
			step{0, "", []Item{img(), user(100)}},                             // items 1, 2
			step{1, "", []Item{asst(100), img(), user(100), img(), user(50)}}, // items 3 to 7
			step{2, "", []Item{asst(100)}},
		)
		tr.Calls[2].RealMicro = &replay.Compaction{Kind: replay.CompactMicro, Trigger: "auto", TokensSaved: c.saved, CompactedToolIDs: c.ids}
		var got []int
		p := observer{policyFunc(func(s *State) {
			if s.Call == 2 {
				for j, it := range s.Items {
					if it.Cleared {
						got = append(got, j)
					}
				}
			}
		})}
		res := Run(tr, p, DefaultConfig())
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: cleared items %v, want %v", c.name, got, c.want)
		}
		if call := res.Calls[2]; !reflect.DeepEqual(call.Actions, []string{c.action}) || call.Cleared != (len(c.want) > 0) {
			t.Errorf("%s: actions %q, cleared %v; want %q, %v", c.name, call.Actions, call.Cleared, c.action, len(c.want) > 0)
		}
	}
}

// The observed run drops the items a real compaction summarised (those of
// messages before the compaction's) and keeps its summary: before call 3
// of observedTrace the context is the overhead and the 2,000-token summary.
func TestEdgeEngineObservedCompactionKeepsSummary(t *testing.T) {
	p, tokensAt, kindsAt := edgeEngineContextAt(2)
	Run(observedTrace(), p, DefaultConfig())
	kinds, tokens := *kindsAt, *tokensAt
	if !reflect.DeepEqual(kinds, []ItemKind{KindOverhead, KindSummary}) || !reflect.DeepEqual(tokens, []int64{1000, 2000}) {
		t.Errorf("context %v %v, want overhead 1000 and summary 2000", kinds, tokens)
	}
}

// Clearing a tool result removes a file's content: a later tool call on
// that file counts as a likely re-read (once), whatever its result records
// (here no path). Clearing a tool call's input leaves the file's content in
// the context: a later call on it is no re-read.
//
// Results no larger than the 8-token placeholder are left alone: clearing
// one of exactly 8 tokens clears nothing and leaves the cache intact (call
// 2 reads call 1's entry at 3,098), while one of 9 frees 1 token and breaks
// the cache at its position (3,000: nothing is read).
func TestEdgeEngineClearing(t *testing.T) {
	use := func(id string, tok int64) Item {
		return Item{Kind: KindToolUse, Tool: "Read", ToolID: id, Path: "a.go", Tokens: tok}
	}
	t.Run("rereads", func(t *testing.T) {
		for _, c := range []struct {
			name string
			act  func(s *State) int64 // on items 2 (the call) and 3 (its result)
			want int
		}{
			{"result cleared", func(s *State) int64 { return s.Clear([]int{3}, "test") }, 1},
			{"input cleared", func(s *State) int64 { return s.ClearInputs([]int{2}, "test") }, 0},
		} {
			tr := build(
				step{0, "", []Item{user(100), use("r", 500), result("r", "a.go", 3000)}}, // items 1 to 3
				step{1, "", []Item{asst(100)}},
				step{2, "", []Item{use("r2", 50), {Kind: KindToolResult, Tool: "Read", ToolID: "r2", Tokens: 3000}}},
			)
			var freed int64
			res := Run(tr, policyFunc(func(s *State) {
				if s.Call == 1 {
					freed = c.act(s)
				}
			}), DefaultConfig())
			if got := res.Metrics.LikelyRereads; got != c.want || freed == 0 {
				t.Errorf("%s: %d rereads (freed %d), want %d", c.name, got, freed, c.want)
			}
		}
	})
	t.Run("placeholder size", func(t *testing.T) {
		for _, c := range []struct {
			size      int64
			freed     int64
			clearings int
			read      int64
		}{
			{8, 0, 0, 3098},
			{9, 1, 1, 0},
		} {
			tr := build(
				step{0, "", []Item{user(2000), result("r", "r.go", c.size), user(100)}}, // the result at 3,000
				step{1, "", []Item{asst(100)}},
			)
			var freed, placeholder int64
			res := Run(tr, policyFunc(func(s *State) {
				if s.Call == 1 {
					placeholder = s.PlaceholderTokens()
					freed = s.Clear(results(s, "r"), "test")
				}
			}), DefaultConfig())
			if placeholder != 8 {
				t.Fatalf("placeholder %d tokens, want 8", placeholder)
			}
			if freed != c.freed || res.Metrics.Clearings != c.clearings || res.Calls[1].Read != c.read || res.Calls[1].Cleared != (c.clearings > 0) {
				t.Errorf("%d-token result: freed %d, clearings %d, read %d, cleared %v; want %d %d %d",
					c.size, freed, res.Metrics.Clearings, res.Calls[1].Read, res.Calls[1].Cleared, c.freed, c.clearings, c.read)
			}
		}
	})
}

// A call's row: its time is the recorded timestamp (the trace's time less
// what it moved the call forward, Ahead); a model reached through a
// compatible endpoint bills what it does not read as input and nothing as
// a cache write. Call 1 (prompt 3,000) reads nothing: input 3,000; call 2
// (3,200) reads the 2,990 cached up to call 1's 10-token tail: input 210.
func TestEdgeEngineCallRow(t *testing.T) {
	const gateway = "glm-4.6"
	tr := build(
		step{0, gateway, []Item{user(2000)}},
		step{1, gateway, []Item{asst(100), user(100)}},
	)
	tr.Calls[0].Ahead = 5000
	res := Run(tr, policyFunc(func(*State) {}), DefaultConfig())
	want := []struct {
		time               replay.Time
		input, read, write int64
	}{
		{replay.Time(at(0) - 5000), 3000, 0, 0},
		{replay.Time(at(1)), 210, 2990, 0},
	}
	for i, w := range want {
		c := res.Calls[i]
		if c.Time != w.time || c.Input != w.input || c.Read != w.read || c.Write5m+c.Write1h != w.write {
			t.Errorf("call %d: time %d input %d read %d writes %d/%d, want %d %d %d %d",
				i+1, c.Time, c.Input, c.Read, c.Write5m, c.Write1h, w.time, w.input, w.read, w.write)
		}
	}
}

// TestEdgeEngineLayout: State.Layout stays while items are appended or
// cleared in place, changes with a drop and a compaction, and no two runs
// share one.
func TestEdgeEngineLayout(t *testing.T) {
	tr := build(
		step{0, "", []Item{user(100), result("a", "a.go", 3000)}},
		step{1, "", []Item{asst(100), result("b", "b.go", 3000)}},
		step{2, "", []Item{asst(100)}},
		step{3, "", []Item{asst(100)}},
		step{4, "", []Item{asst(100)}},
	)
	var before, after []uint64 // each call's layout, before and after its action
	p := policyFunc(func(s *State) {
		before = append(before, s.Layout())
		switch s.Call {
		case 1:
			s.Clear([]int{2}, "test")
		case 2:
			s.Drop([]int{1}, "test")
		case 3:
			s.Compact(Compaction{From: 1, To: len(s.Items), Label: "test"})
		}
		after = append(after, s.Layout())
	})
	Run(tr, p, DefaultConfig())
	first := before[0]
	want := []bool{true, true, false, false, true} // after == before
	for i := range before {
		if (after[i] == before[i]) != want[i] {
			t.Errorf("call %d: layout %d before its action, %d after", i, before[i], after[i])
		}
		if i > 0 && before[i] != after[i-1] {
			t.Errorf("call %d: layout %d, call %d left %d", i, before[i], i-1, after[i-1])
		}
	}
	before, after = nil, nil
	Run(tr, p, DefaultConfig())
	if before[0] == first {
		t.Errorf("two runs share layout %d", first)
	}
}

// TestEdgeEngineClearTwo: clearing two results edits the context at the
// first of them. Call 0 caches its 5,990-token prefix (after r); call 1
// appends 5,100 and s. Call 2 clears r (at 3,000) and s (at 8,108 once r
// is a placeholder): the edit at 3,000 invalidates both entries, and the
// 1,000-token system prompt is below Sonnet's minimum, so nothing is read.
// An edit at s would have kept call 0's entry.
func TestEdgeEngineClearTwo(t *testing.T) {
	tr := build(
		step{0, "", []Item{user(2000), result("r", "r.go", 3000)}},
		step{1, "", []Item{asst(100), user(5000), result("s", "s.go", 3000)}},
		step{2, "", []Item{asst(100)}},
	)
	res := Run(tr, policyFunc(func(s *State) {
		if s.Call == 2 {
			s.Clear(results(s, "r", "s"), "test")
		}
	}), DefaultConfig())
	if got := res.Calls[0].Write5m; got != 5990 {
		t.Fatalf("call 0 wrote %d, want 5,990", got)
	}
	if got := res.Calls[2].Read; got != 0 {
		t.Errorf("call 2 read %d, want 0 (the edit is at r, before every entry)", got)
	}
}
