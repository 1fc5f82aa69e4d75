package simulate

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate/promptcache"
)

// A turn whose thinking budget differs from the previous turn's reads
// none of the cached messages before 2.0 (here nothing at all: the 1,000
// token overhead is below the minimum cacheable prefix); the same budget,
// a keyword whose response did not think, a 2.x call, or the rule turned
// off reads the whole previous prompt.
func TestThinkingBudgetChangeBreaksCache(t *testing.T) {
	run := func(version string, second int64, thought bool, cfg Config) CallResult {
		tr := build(
			step{0, "", []Item{user(2000)}}, // 3,000: write 2,990
			step{1, "", []Item{asst(100), user(100)}},
		)
		for i := range tr.Calls {
			tr.Calls[i].Version = version
		}
		tr.Calls[1].Thinking, tr.Calls[1].NewTurn, tr.Calls[1].Thought = second, true, thought
		cfg.SecondTurnUntil = "0" // the new turn is the second: keep that rule out
		return Run(tr, policyFunc(func(*State) {}), cfg).Calls[1]
	}
	off := DefaultConfig()
	off.ThinkingKeywordsUntil = "0"
	for _, c := range []struct {
		name    string
		version string
		second  int64
		thought bool
		cfg     Config
		read    int64
	}{
		{"1.0.89, budget changed", "1.0.89", claudecode.ThinkHighest.Value, true, DefaultConfig(), 0},
		{"1.0.89, same budget", "1.0.89", 0, false, DefaultConfig(), 2990},
		{"1.0.80, keyword without thinking", "1.0.80", claudecode.ThinkBasic.Value, false, DefaultConfig(), 2990},
		{"2.1.146, budget changed", "2.1.146", claudecode.ThinkHighest.Value, true, DefaultConfig(), 2990},
		{"1.0.89, rule off", "1.0.89", claudecode.ThinkHighest.Value, true, off, 2990},
	} {
		got := run(c.version, c.second, c.thought, c.cfg)
		if got.Read != c.read {
			t.Errorf("%s: read %d, want %d (actions %v)", c.name, got.Read, c.read, got.Actions)
		}
	}
}

// Before 2.0 the cache keeps each keyword thinking budget's messages
// apart rather than losing them: a turn back on the budget of an earlier
// turn reads that turn's entries while they live, though a turn on
// another budget came between and though its prompt is smaller than that
// turn's (the request with thinking carried more: no rewrite). Turn 1
// (no thinking) writes 2,990; turn 2 thinks on "think" (4,000) and reads
// nothing of budget 0's entries (the 1,000-token overhead is below the
// minimum cacheable prefix, so no system prompt entry is shared); turn 3
// (no thinking, 50 tokens smaller than turn 2's prompt and response)
// reads turn 1's 2,990. On 2.0.0 the budget does not key the cache:
// turn 2 reads turn 1's prompt, and turn 3's smaller prompt is a rewrite.
func TestThinkingBudgetsCachedApart(t *testing.T) {
	run := func(version string) []CallResult {
		tr := build(
			step{0, "", []Item{user(2000)}},           // 3,000
			step{1, "", []Item{asst(100), user(100)}}, // 3,200
			step{2, "", []Item{asst(100), user(100)}}, // 3,400 − 250 = 3,150
		)
		for i := range tr.Calls {
			tr.Calls[i].Version = version
		}
		tr.Calls[0].NewTurn = true
		tr.Calls[1].Thinking, tr.Calls[1].NewTurn, tr.Calls[1].Thought = claudecode.ThinkBasic.Value, true, true
		tr.Calls[2].NewTurn = true
		tr.Calls[2].Shrink, tr.Calls[2].Items[0].Tokens, tr.Calls[2].Items[1].Tokens = 50, 0, 0
		tr.Calls[2].Usage.CacheWrite5m = 3150 - 10
		cfg := DefaultConfig()
		cfg.SecondTurnUntil = "0"
		return Run(tr, policyFunc(func(*State) {}), cfg).Calls
	}
	for _, c := range []struct {
		version string
		reads   []int64
	}{
		{"1.0.89", []int64{0, 0, 2990}},
		{"2.0.0", []int64{0, 2990, 0}},
	} {
		got := run(c.version)
		for i, want := range c.reads {
			if got[i].Read != want || got[i].Prompt != []int64{3000, 3200, 3150}[i] {
				t.Errorf("%s: call %d read %d of %d, want %d (actions %q)", c.version, i+1, got[i].Read, got[i].Prompt, want, got[i].Actions)
			}
		}
	}
	if k0, k4 := promptcache.ThinkingKey("m", 0), promptcache.ThinkingKey("m", 4000); k0 == k4 || promptcache.ModelOf(k0) != "m" || promptcache.ModelOf(k4) != "m" || promptcache.ModelOf("m") != "m" {
		t.Errorf("keys %q, %q: want two keys of model m", k0, k4)
	}
}

// Before 2.0 only a keyword turn thinks, so the thinking the API drops at
// the next user turn is in the previous turn's responses: the cached
// prefix breaks where that turn began, not at the first message. Turn 1
// (no thinking) writes 5,000 + 2,000 − 10; turn 2 thinks on "think" and
// writes up to 7,190; turn 3 says "think" again: the same budget, and
// Claude Sonnet 4's dropped thinking. It reads turn 2's own entry at its
// first prompt, 7,190 (7,200 − 10), on 1.0.89; on 2.0.76, where the
// budget keys nothing, the rule breaks the cache at the first message
// and the turn reads the system prompt's 5,000.
func TestThinkingDroppedBeforeTwo(t *testing.T) {
	const sys = 5000
	const sonnet4 = "claude-sonnet-4-20250514"
	for _, c := range []struct {
		version string
		read    int64
	}{
		{"1.0.89", 7190},
		{"2.0.76", sys},
	} {
		tr := build(
			step{0, sonnet4, []Item{user(2000)}},
			step{1, sonnet4, []Item{asst(100), user(100)}},
			step{2, sonnet4, []Item{asst(100), result("t1", "", 100)}},
			step{3, sonnet4, []Item{asst(100), user(100)}},
		)
		tr.Overhead = sys
		for i := range tr.Calls {
			tr.Calls[i].Version = c.version
			tr.Calls[i].Usage.CacheWrite5m += sys - 1000
		}
		tr.Calls[0].NewTurn = true
		for _, i := range []int{1, 3} {
			tr.Calls[i].NewTurn, tr.Calls[i].Thinking = true, claudecode.ThinkBasic.Value
		}
		tr.Calls[1].Thought, tr.Calls[2].Thought, tr.Calls[3].Thought = true, true, true
		cfg := DefaultConfig()
		cfg.SecondTurnUntil = "0"
		calls := Run(tr, policyFunc(func(*State) {}), cfg).Calls
		if got := calls[3].Read; got != c.read || !slices.Contains(calls[3].Actions, "thinking of the previous turn dropped") {
			t.Errorf("%s: third turn read %d, want %d (actions %q)", c.version, got, c.read, calls[3].Actions)
		}
	}
}

// From 2.1.126 the first turn after a compaction reads only the system
// prompt (here nothing: the overhead is below the minimum cacheable
// prefix); a call of the same turn, a 2.1.41 session, and the rule turned
// off read the previous prompt.
func TestFirstTurnAfterCompaction(t *testing.T) {
	run := func(version string, cfg Config) []CallResult {
		tr := build(
			step{0, "", []Item{user(3000)}},
			step{1, "", []Item{asst(100), result("r", "r.go", 2000)}}, // compacted before this call
			step{2, "", []Item{asst(100), result("s", "s.go", 100)}},  // same turn
			step{3, "", []Item{asst(100), user(100)}},                 // the next turn
			step{4, "", []Item{asst(100), user(100)}},                 // and the one after
		)
		for i := range tr.Calls {
			tr.Calls[i].Version = version
		}
		tr.Calls[0].NewTurn, tr.Calls[3].NewTurn, tr.Calls[4].NewTurn = true, true, true
		p := policyFunc(func(s *State) {
			if s.Call == 1 {
				s.Compact(Compaction{From: 1, To: len(s.Items) - 1, Label: "test"})
			}
		})
		return Run(tr, p, cfg).Calls
	}
	off := DefaultConfig()
	off.PostCompactTurnFrom = "99"
	for _, c := range []struct {
		name    string
		version string
		cfg     Config
		broken  bool
	}{
		{"2.1.146", "2.1.146", DefaultConfig(), true},
		{"2.1.41", "2.1.41", DefaultConfig(), false},
		{"2.1.146, rule off", "2.1.146", off, false},
	} {
		calls := run(c.version, c.cfg)
		for i, want := range map[int]bool{2: false, 3: c.broken, 4: false} {
			prev := calls[i-1].Prompt - 10 // the previous call's breakpoint
			got := calls[i].Read
			if broken := got == 0; broken != want || !broken && got != prev {
				t.Errorf("%s: call %d read %d, want %v (previous breakpoint %d; actions %v)", c.name, i, got, map[bool]string{true: "0", false: "the previous breakpoint"}[want], prev, calls[i].Actions)
			}
		}
	}
}

// A new system prompt at a turn's start: a turn written in another working
// directory (the system prompt names it) reads nothing cached; one on
// another Claude Code version (a restarted Claude Code) loses the cached
// messages but, from 2.0.0 on Anthropic's cache, reads the system prompt
// prefix that other requests on the new version keep warm. Through a
// compatible gateway, or before 2.0.0, it reads nothing. So does the first
// call of a resumed conversation's new process (TraceCall.Restarted), and,
// before 1.0.110, a turn begun on a new UTC date (the system prompt names
// it; from 1.0.110 the local date, which nothing here shows). Otherwise
// the turn reads the whole previous prompt.
func TestSystemPromptChangeBreaksCache(t *testing.T) {
	const sys = 3000 // above every model's minimum cacheable prompt
	const restarted = "Claude Code restarted (a resumed conversation)"
	const skills = "a skill written in the session changed the skill list"
	const dateAction = "the UTC date the system prompt names changed"
	for _, c := range []struct {
		name   string
		model  string
		from   string
		change func(*TraceCall)
		action string
		want   int64
	}{
		{"same", sonnet46, "2.1.146", func(*TraceCall) {}, "", sys + 1990},
		{"cwd", sonnet46, "2.1.146", func(tc *TraceCall) { tc.CwdChanged = true }, "working directory changed", 0},
		{"skills", sonnet46, "2.1.146", func(tc *TraceCall) { tc.SkillsChanged = true }, skills, 0},
		{"version", sonnet46, "2.1.146", func(tc *TraceCall) { tc.Version = "2.1.147" }, "Claude Code version changed", sys},
		{"version 1.0.x", sonnet46, "1.0.88", func(tc *TraceCall) { tc.Version = "1.0.89" }, "Claude Code version changed", 0},
		{"version, gateway", "deepseek-v4-flash", "2.1.146", func(tc *TraceCall) { tc.Version = "2.1.147" }, "Claude Code version changed", 0},
		{"restart", sonnet46, "2.1.146", func(tc *TraceCall) { tc.Restarted = true }, restarted, sys},
		{"restart 1.0.x", sonnet46, "1.0.89", func(tc *TraceCall) { tc.Restarted = true }, restarted, 0},
		{"UTC date, 1.0.109", sonnet46, "1.0.109", func(tc *TraceCall) { tc.DateChanged = true }, dateAction, 0},
		{"UTC date, 1.0.110", sonnet46, "1.0.110", func(tc *TraceCall) { tc.DateChanged = true }, "", sys + 1990},
	} {
		tr := build(
			step{0, c.model, []Item{user(2000)}},
			step{1, c.model, []Item{asst(100), user(100)}},
		)
		tr.Overhead = sys
		for i := range tr.Calls {
			tr.Calls[i].Version = c.from
			tr.Calls[i].Usage.CacheWrite5m += sys - 1000 // build's prompts start at 1,000
		}
		tr.Calls[1].NewTurn = true
		c.change(&tr.Calls[1])
		got := Run(tr, policyFunc(func(*State) {}), DefaultConfig()).Calls[1]
		if got.Read != c.want {
			t.Errorf("%s: read %d, want %d (actions %q)", c.name, got.Read, c.want, got.Actions)
		}
		for _, act := range []string{"working directory changed", "Claude Code version changed", restarted, skills, dateAction} {
			if slices.Contains(got.Actions, act) != (act == c.action) {
				t.Errorf("%s: actions %q", c.name, got.Actions)
			}
		}
	}
}

// Prepare marks a turn whose prompt's cwd differs from the previous
// turn's; a directory changed and changed back within a turn (a tool's
// line in between) does not count, nor does the first turn.
func TestPrepareCwdChanged(t *testing.T) {
	lines := []string{}
	n := 0
	add := func(typ, cwd, content string) {
		n++
		id := fmt.Sprintf("%d", n)
		parent := "null"
		if n > 1 {
			parent = fmt.Sprintf("%q", fmt.Sprintf("%d", n-1))
		}
		msg := fmt.Sprintf(`{"role":"user","content":%s}`, content)
		if typ == "assistant" {
			msg = fmt.Sprintf(`{"id":"m%s","role":"assistant","model":"claude-sonnet-4-20250514","content":%s,"usage":{"input_tokens":10,"cache_creation_input_tokens":%d,"cache_read_input_tokens":0,"output_tokens":5}}`, id, content, 3000+100*n)
		}
		lines = append(lines, fmt.Sprintf(`{"parentUuid":%s,"isSidechain":false,"cwd":%q,"sessionId":"s","version":"1.0.89","type":%q,"message":%s,"uuid":%q,"timestamp":"2025-08-24T19:%02d:00Z"}`, parent, cwd, typ, msg, id, n))
	}
	text := `[{"type":"text","text":"ok"}]`
	add("user", "/a", `"first"`)
	add("assistant", "/a", text)
	add("user", "/a", `"second"`) // same directory
	add("assistant", "/b", text)  // a tool changed it mid-turn…
	add("user", "/a", `"third"`)  // …and back: no change
	add("assistant", "/a", text)
	add("user", "/b", `"fourth"`) // changed
	add("assistant", "/b", text)
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srcs, errs := replay.Discover([]string{path})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	s, err := replay.Load(srcs[0], replay.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []bool
	for _, c := range Prepare(s).Calls {
		got = append(got, c.CwdChanged)
	}
	if want := []bool{false, false, false, true}; !slices.Equal(got, want) {
		t.Errorf("CwdChanged %v, want %v", got, want)
	}
}

// A rewrite of the conversation falls back to the system prompt's
// breakpoint (Trace.SystemPrefix), not to the end of the overhead, which
// holds the context Claude Code adds to the first message.
func TestRewriteFallsBackToSystemPrefix(t *testing.T) {
	for _, c := range []struct{ prefix, want int64 }{
		{0, 1100},    // unknown: the whole overhead
		{1050, 1050}, // the system prompt's breakpoint
		{5000, 1100}, // larger than the overhead: ignored
		{600, 0},     // below Sonnet's 1,024-token minimum: never cached
	} {
		tr := build(
			step{0, "", []Item{user(3000)}},
			step{1, "", []Item{{Kind: KindSummary, Tokens: 500}}},
		)
		tr.Overhead, tr.SystemPrefix = 1100, c.prefix
		tr.Calls[0].Usage = replay.Usage{Input: 10, CacheWrite5m: 4090, Output: 100}
		// A real compaction before the second call: the conversation
		// starts over after the system prompt.
		tr.Calls[1].RealCompact = &replay.Compaction{Kind: replay.CompactFull, Trigger: "auto"}
		tr.Calls[1].Usage = replay.Usage{Input: 10, CacheWrite5m: 1590, Output: 100}
		got := Run(tr, nothing{}, DefaultConfig()).Calls[1]
		if got.Predicted == nil || got.Predicted.Read != c.want {
			t.Errorf("system prefix %d: predicted %+v, want a read of %d", c.prefix, got.Predicted, c.want)
		}
	}
}

// SystemPrefixOf takes the first measured call's cache read when it is
// smaller than the overhead.
func TestSystemPrefixOf(t *testing.T) {
	call := func(read int64) TraceCall {
		return TraceCall{Usage: replay.Usage{Input: 10, CacheRead: read, CacheWrite5m: 500}}
	}
	for _, c := range []struct {
		calls []TraceCall
		want  int64
		from  string
	}{
		{[]TraceCall{call(14000)}, 14000, PrefixFromFirstRead},
		{[]TraceCall{{}, call(14000)}, 14000, PrefixFromFirstRead}, // a call without usage is skipped
		{[]TraceCall{call(0), call(14000)}, 20000, PrefixFromOverhead},
		{[]TraceCall{call(20000)}, 20000, PrefixFromOverhead}, // a resumed conversation's read
		{nil, 20000, PrefixFromOverhead},
	} {
		got, from := SystemPrefixOf(20000, c.calls)
		if got != c.want || from != c.from {
			t.Errorf("%v: %d (%s), want %d (%s)", c.calls, got, from, c.want, c.from)
		}
	}
}

// The second-turn rule holds in no version by default
// (claudecode.SecondTurn): the second turn reads the whole previous
// prompt. Turned on (SecondTurnUntil 2.1.0), the session's second turn
// reads only the system prompt before it; its third turn, and any turn
// from 2.1.0 on, reads the whole previous prompt. So does the second turn
// of a transcript that continues a conversation from its summary
// (replay.Thread.Continues): the conversation is past its second turn.
func TestSecondTurnRewrite(t *testing.T) {
	for _, c := range []struct {
		version      string
		until        string // SecondTurnUntil
		continued    bool
		turn2, turn3 int64
	}{
		{"2.0.76", "", false, 3290, 3490},
		{"1.0.83", "", false, 3290, 3490},
		{"2.0.76", "2.1.0", false, 1100, 3490},
		{"2.1.0", "2.1.0", false, 3290, 3490},
		{"2.0.76", "2.1.0", true, 3290, 3490},
	} {
		tr := build(
			step{0, "", []Item{user(2000)}},
			step{1, "", []Item{asst(100), user(100)}},
			step{2, "", []Item{asst(100), user(100)}},
			step{3, "", []Item{asst(100), user(100)}},
		)
		tr.Overhead = 1100
		for i := range tr.Calls {
			tr.Calls[i].Version = c.version
			tr.Calls[i].NewTurn = i != 1 // call 1 is a tool call of the first turn
			tr.Calls[i].Usage.CacheWrite5m += 100
		}
		tr.Continued = c.continued
		cfg := DefaultConfig()
		if c.until != "" {
			cfg.SecondTurnUntil = c.until
		}
		res := Run(tr, policyFunc(func(*State) {}), cfg)
		if got := res.Calls[2].Read; got != c.turn2 {
			t.Errorf("%s (until %q, continued %v): second turn read %d, want %d", c.version, c.until, c.continued, got, c.turn2)
		}
		if got := res.Calls[3].Read; got != c.turn3 {
			t.Errorf("%s (continued %v): third turn read %d, want %d", c.version, c.continued, got, c.turn3)
		}
		if got := slices.Contains(res.Calls[2].Actions, "second turn"); got != (c.turn2 == 1100) {
			t.Errorf("%s: actions %q", c.version, res.Calls[2].Actions)
		}
	}
}

// TestThinkingDropped checks the rule for a user turn after a turn with
// thinking: before DropThinkingUntil, on a model the API drops earlier
// turns' thinking for (before Claude Opus 4.5), the turn reads only the
// system prompt prefix; otherwise it reads the whole previous prompt.
func TestThinkingDropped(t *testing.T) {
	const sys = 5000 // above every model's minimum cacheable prompt
	const sonnet45, opus45 = "claude-sonnet-4-5-20250929", "claude-opus-4-5-20251101"
	off := DefaultConfig()
	off.DropThinkingUntil = "0"
	for _, c := range []struct {
		name    string
		model   string
		version string
		thought bool
		cfg     Config
		dropped bool
	}{
		{"2.0.76 after thinking", sonnet45, "2.0.76", true, DefaultConfig(), true},
		{"2.0.76 without thinking", sonnet45, "2.0.76", false, DefaultConfig(), false},
		{"2.1.41 after thinking", sonnet45, "2.1.41", true, DefaultConfig(), false},
		{"Opus 4.5 keeps thinking", opus45, "2.0.76", true, DefaultConfig(), false},
		{"rule off", sonnet45, "2.0.76", true, off, false},
	} {
		tr := build(
			step{0, c.model, []Item{user(2000)}},
			step{1, c.model, []Item{asst(100), user(100)}},
			step{2, c.model, []Item{asst(100), result("t1", "", 100)}},
			step{3, c.model, []Item{asst(100), user(100)}},
		)
		tr.Overhead = sys
		for i := range tr.Calls {
			tr.Calls[i].Version = c.version
			tr.Calls[i].Usage.CacheWrite5m += sys - 1000 // build's prompts start at 1,000
		}
		tr.Calls[1].NewTurn, tr.Calls[3].NewTurn = true, true
		tr.Calls[2].Thought = c.thought // the second turn's tool loop
		calls := Run(tr, policyFunc(func(*State) {}), c.cfg).Calls
		want := calls[2].Prompt - 10 // the previous call's breakpoint
		if c.dropped {
			want = sys
		}
		if got := calls[3].Read; got != want {
			t.Errorf("%s: third turn read %d, want %d (actions %q)", c.name, got, want, calls[3].Actions)
		}
		if got := slices.Contains(calls[3].Actions, "thinking of the previous turn dropped"); got != c.dropped {
			t.Errorf("%s: actions %q", c.name, calls[3].Actions)
		}
	}
}

// Claude Code's count has the output it held for the previous response:
// up to 2.1.7 and from 2.1.30 the final output, from 2.1.8 to 2.1.29 the
// placeholder of its first streamed event, which the transcript records
// too (4 here). Where the count has the final output the model estimates
// it: a marked placeholder (2.1.9–2.1.41) by the response's estimate at
// the session's ratio (500 units at 2: 1,000), an unmarked one (before
// 2.1.8) by the estimate itself, one token a unit (500). A restarted
// Claude Code counts what the transcript recorded. The rest of call 2's
// count is call 1's prompt (3,000) and, from 2.1.0, the estimate of what
// followed (200).
func TestTriggerCountsFinalOutput(t *testing.T) {
	count := func(version, until, from string, marked, restart bool) int64 {
		tr := build(
			step{0, "", []Item{user(2000)}},
			step{1, "", []Item{asst(100), user(100)}},
		)
		tr.Ratio = 2
		for i := range tr.Calls {
			tr.Calls[i].Version = version
		}
		tr.Calls[0].Usage.Output, tr.Calls[0].OutputLowerBound, tr.Calls[0].OutputEst = 4, marked, 500
		tr.Calls[1].Restarted = restart
		cfg := DefaultConfig()
		cfg.FinalOutputUntil, cfg.FinalOutputFrom = until, from
		var got int64
		Run(tr, policyFunc(func(s *State) {
			if s.Call == 1 {
				got = s.Trigger
			}
		}), cfg)
		return got
	}
	for _, c := range []struct {
		version, until, from string
		marked, restart      bool
		output               int64 // what the count has for call 1's output
	}{
		{"2.1.41", "", "", true, false, 1000},
		{"2.1.30", "", "", true, false, 1000},
		{"2.1.146", "", "", true, false, 1000},
		{"2.1.29", "", "", true, false, 4},
		{"2.1.8", "", "", false, false, 4},
		{"2.1.19", "", "0", true, false, 1000},
		{"2.1.41", "", "99", true, false, 4},
		{"2.1.7", "", "", false, false, 500},
		{"2.0.76", "", "", false, false, 500},
		{"1.0.85", "", "", false, false, 500},
		{"1.0.85", "0", "", false, false, 4},
		{"2.1.19", "99", "", false, false, 500},
		{"1.0.85", "", "", false, true, 4},
		{"2.1.41", "", "", true, true, 4},
		{"2.1.146", "", "", false, false, 4}, // a final output recorded
	} {
		want := 3000 + c.output
		if claudecode.CompareVersions(c.version, "2.1.0") >= 0 {
			want += 200
		}
		if got := count(c.version, c.until, c.from, c.marked, c.restart); got != want {
			t.Errorf("%s (final-output-until %q, -from %q, marked %v, restarted %v): count %d, want %d",
				c.version, c.until, c.from, c.marked, c.restart, got, want)
		}
	}
}
