package accounting

import (
	"reflect"
	"testing"
	"time"

	"github.com/ctxlab/ctxlab/replay"
)

// step is one API call of a cache-break scenario.
type step struct {
	gap     time.Duration // since the previous call
	model   string        // sonnet 4.5 when empty
	sid     string        // a new sessionId from this call on (a resume)
	read    int64
	w5, w1  int64
	before  string // a compaction just before the call: "compact", "summary" or "micro"
	version string // the Claude Code version from this call on
	cwd     string // a prompt typed in this working directory just before the call
	prompt  string // a prompt typed just before the call
	think   bool   // the call's response has thinking
	shrink  bool   // the prompt may be smaller than the previous call's
	write   string // the call's response writes this file (Write), and its result follows
}

// scenario writes the steps as a main thread: one line per call, so call n
// is line n (plus the compaction lines). Unless a step shrinks it, a prompt
// is at least the previous one: uncached input makes up what the read and
// writes leave out, as the prompt only grows.
func scenario(steps []step) *tr {
	m := newTr("b")
	var prompt int64
	for _, s := range steps {
		m.after(s.gap)
		switch s.before {
		case "compact":
			m.boundary(`{"trigger":"auto","preTokens":160000}`, "summary")
		case "summary":
			m.summaryOnly("summary")
		case "micro":
			m.micro(`{"trigger":"auto","preTokens":60000,"tokensSaved":25000,"compactedToolIds":["x"]}`)
		}
		if s.sid != "" {
			m.sid = s.sid
		}
		if s.version != "" {
			m.version = s.version
		}
		if s.cwd != "" {
			m.put(map[string]any{"type": "user", "cwd": s.cwd, "message": map[string]any{"role": "user", "content": "go on"}})
		}
		if s.prompt != "" {
			m.user(s.prompt)
		}
		model := s.model
		if model == "" {
			model = sonnet45
		}
		blocks := []any{text("x")}
		if s.think {
			blocks = append([]any{thinking("t")}, blocks...)
		}
		u := use{in: 1, w5: s.w5, w1: s.w1, read: s.read, out: 1}
		if p := u.in + u.w5 + u.w1 + u.read; p < prompt && !s.shrink && s.before == "" {
			u.in += prompt - p
		}
		if s.write != "" {
			blocks = append(blocks, toolUse("w"+s.write, "Write", `{"file_path":"`+s.write+`","content":"x"}`))
		}
		prompt = u.in + u.w5 + u.w1 + u.read
		m.call(model, u, blocks...)
		if s.write != "" {
			m.user([]any{result("w"+s.write, "ok")})
		}
	}
	return m
}

// brk is the part of a CacheBreak a scenario checks.
type brk struct {
	call      int
	cause     string
	expected  bool
	prev, now int64
	gap       int64
}

func brks(bs []CacheBreak) []brk {
	out := []brk{}
	for _, b := range bs {
		out = append(out, brk{b.Call, b.Cause, b.Expected, b.PrevRead, b.Read, b.GapSeconds})
	}
	return out
}

const minute = time.Minute

func TestCacheBreakRule(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps []step
		want  []brk
	}{
		// 100,000 − 94,999 = 5,001 > 5% of 100,000 = 5,000, and > 2,000.
		{"drop just over 5%", []step{{read: 100_000}, {gap: minute, read: 94_999}},
			[]brk{{2, CauseUnexplained, false, 100_000, 94_999, 60}}},
		// 5,000 is not > 5,000.
		{"drop of exactly 5%", []step{{read: 100_000}, {gap: minute, read: 95_000}}, nil},
		// 30,000 − 27,999 = 2,001 > 2,000 and > 1,500.
		{"drop just over 2000", []step{{read: 30_000}, {gap: minute, read: 27_999}},
			[]brk{{2, CauseUnexplained, false, 30_000, 27_999, 60}}},
		// 2,000 > 1,500 (5%) but is not > 2,000.
		{"drop of exactly 2000", []step{{read: 30_000}, {gap: minute, read: 28_000}}, nil},
		// 67% but only 2,000 tokens.
		{"large fraction, few tokens", []step{{read: 3_000}, {gap: minute, read: 1_000}}, nil},
		{"rise", []step{{read: 10_000}, {gap: minute, read: 50_000}}, nil},
		{"first call", []step{{read: 0, w5: 50_000}}, nil},
		// The break call is the next baseline: 50,000 → 48,000 drops 2,000
		// (no); 50,000 → 47,000 drops 3,000 > 2,500 and > 2,000 (yes).
		{"baseline moves", []step{{read: 100_000}, {gap: minute, read: 50_000}, {gap: minute, read: 48_000}},
			[]brk{{2, CauseUnexplained, false, 100_000, 50_000, 60}}},
		{"two breaks", []step{{read: 100_000}, {gap: minute, read: 50_000}, {gap: 2 * minute, read: 47_000}},
			[]brk{{2, CauseUnexplained, false, 100_000, 50_000, 60}, {3, CauseUnexplained, false, 50_000, 47_000, 120}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := brks(analyze(t, scenario(tc.steps), nil).CacheBreaks)
			if tc.want == nil {
				tc.want = []brk{}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("breaks = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestCacheBreakCauses(t *testing.T) {
	sec := time.Second
	for _, tc := range []struct {
		name  string
		steps []step
		want  []brk
	}{
		{"compaction", []step{{read: 150_000}, {gap: minute, before: "compact", read: 20_000}},
			[]brk{{2, CauseCompaction, true, 150_000, 20_000, 60}}},
		{"1.0.x compaction", []step{{read: 150_000}, {gap: minute, before: "summary", read: 20_000}},
			[]brk{{2, CauseCompaction, true, 150_000, 20_000, 60}}},
		{"microcompaction", []step{{read: 60_000}, {gap: minute, before: "micro", read: 30_000}},
			[]brk{{2, CauseMicrocompaction, true, 60_000, 30_000, 60}}},
		// A compaction explains the drop before anything else.
		{"compaction and model change", []step{{model: opus46, read: 150_000}, {gap: 2 * time.Hour, before: "compact", read: 20_000}},
			[]brk{{2, CauseCompaction, true, 150_000, 20_000, 7200}}},
		{"model change", []step{{model: opus46, read: 100_000}, {gap: minute, read: 0}},
			[]brk{{2, CauseModelChange, false, 100_000, 0, 60}}},
		{"resume", []step{{read: 100_000}, {gap: minute, sid: "b2", read: 10_000}},
			[]brk{{2, CauseResume, false, 100_000, 10_000, 60}}},
		// Responses copied at once when a conversation was resumed (one
		// timestamp); the next call, stamped later, is the new process's.
		{"resumed after a copied stretch", []step{{read: 90_000}, {read: 100_000}, {gap: 4 * minute, read: 0, w5: 100_000}},
			[]brk{{3, CauseResume, false, 100_000, 0, 240}}},
		// A call on another Claude Code version: a restarted process.
		{"version change", []step{{read: 100_000}, {gap: minute, version: "2.1.101", read: 10_000}},
			[]brk{{2, CauseVersionChange, false, 100_000, 10_000, 60}}},
		// A turn typed in another working directory, which the system
		// prompt names; one typed in the same directory breaks nothing
		// that the transcript shows.
		{"cwd change", []step{{cwd: "/a", read: 100_000}, {gap: minute, cwd: "/b", read: 10_000}},
			[]brk{{2, CauseCwdChange, false, 100_000, 10_000, 60}}},
		{"same cwd", []step{{cwd: "/a", read: 100_000}, {gap: minute, cwd: "/a", read: 10_000}},
			[]brk{{2, CauseUnexplained, false, 100_000, 10_000, 60}}},
		// Two calls four minutes apart, each with its own time: no resume.
		{"no copied stretch", []step{{read: 90_000}, {gap: minute, read: 100_000}, {gap: 4 * minute, read: 0, w5: 100_000}},
			[]brk{{3, CauseUnexplained, false, 100_000, 0, 240}}},
		// The turn rules, on Claude Code 2.0.76 (2.1.100 for the
		// compaction): each explains a fallback within the cache lifetime.
		{"thinking dropped", []step{{version: "2.0.76", prompt: "a", read: 50_000}, {gap: minute, prompt: "b", read: 100_000, think: true}, {gap: minute, prompt: "c", read: 10_000}},
			[]brk{{3, CauseThinkingDropped, false, 100_000, 10_000, 60}}},
		// The second-turn rule holds in no version by default
		// (claudecode.SecondTurn); TestSecondTurnCause turns it on.
		{"second turn", []step{{version: "2.0.76", prompt: "a", read: 50_000}, {gap: minute, read: 100_000}, {gap: minute, prompt: "b", read: 10_000}},
			[]brk{{3, CauseUnexplained, false, 100_000, 10_000, 60}}},
		{"third turn", []step{{version: "2.0.76", prompt: "a", read: 50_000}, {gap: minute, prompt: "b", read: 100_000}, {gap: minute, prompt: "c", read: 10_000}},
			[]brk{{3, CauseUnexplained, false, 100_000, 10_000, 60}}},
		{"thinking budget", []step{{version: "1.0.89", prompt: "a", read: 50_000}, {gap: minute, prompt: "b", read: 100_000}, {gap: minute, prompt: "ultrathink", think: true, read: 10_000}},
			[]brk{{3, CauseThinkingBudget, false, 100_000, 10_000, 60}}},
		// From 2.1.0 a skill written in the session changes the skill list
		// in the system prompt: the second call after the write reads less.
		{"skill written", []step{{version: "2.1.22", read: 50_000}, {gap: minute, read: 100_000, write: "/u/.claude/skills/a/SKILL.md"},
			{gap: minute, read: 100_100}, {gap: minute, read: 5_000}},
			[]brk{{4, CauseSkillsChange, false, 100_100, 5_000, 60}}},
		{"skill written, 2.0", []step{{version: "2.0.76", read: 50_000}, {gap: minute, read: 100_000, write: "/u/.claude/skills/a/SKILL.md"},
			{gap: minute, read: 100_100}, {gap: minute, read: 5_000}},
			[]brk{{4, CauseUnexplained, false, 100_100, 5_000, 60}}},
		{"other file written", []step{{version: "2.1.22", read: 50_000}, {gap: minute, read: 100_000, write: "/u/repo/skills/a/SKILL.md"},
			{gap: minute, read: 100_100}, {gap: minute, read: 5_000}},
			[]brk{{4, CauseUnexplained, false, 100_100, 5_000, 60}}},
		// A keyword whose response did not think set no budget.
		{"thinking keyword, no thinking", []step{{version: "1.0.89", prompt: "a", read: 50_000}, {gap: minute, prompt: "b", read: 100_000}, {gap: minute, prompt: "ultrathink", read: 10_000}},
			[]brk{{3, CauseUnexplained, false, 100_000, 10_000, 60}}},
		// Opus 4.1 switched to Sonnet 4 within the turn; the next turn on
		// Sonnet 4 names it.
		{"model named", []step{{version: "1.0.89", model: opus41, prompt: "a", read: 50_000}, {gap: minute, prompt: "b", model: opus41, read: 60_000}, {gap: minute, model: sonnet4, read: 0}, {gap: minute, model: sonnet4, read: 100_000}, {gap: minute, prompt: "c", model: sonnet4, read: 10_000}},
			[]brk{{3, CauseModelChange, false, 60_000, 0, 60}, {5, CauseModelNamed, false, 100_000, 10_000, 60}}},
		{"first turn after a compaction", []step{{version: "2.1.146", prompt: "a", read: 150_000}, {gap: minute, before: "compact", read: 20_000}, {gap: minute, read: 40_000}, {gap: minute, prompt: "b", read: 10_000}},
			[]brk{{2, CauseCompaction, true, 150_000, 20_000, 60}, {4, CausePostCompaction, false, 40_000, 10_000, 60}}},
		// A prompt smaller than the previous one lost part of the
		// conversation; a turn rule names why first.
		{"prompt shrank", []step{{read: 100_000}, {gap: minute, read: 10_000, w5: 50_000, shrink: true}},
			[]brk{{2, CausePromptShrank, false, 100_000, 10_000, 60}}},
		{"prompt shrank, thinking dropped", []step{{version: "2.0.76", prompt: "a", read: 50_000}, {gap: minute, prompt: "b", read: 100_000, think: true}, {gap: minute, prompt: "c", read: 10_000, shrink: true}},
			[]brk{{3, CauseThinkingDropped, false, 100_000, 10_000, 60}}},
		// A compatible endpoint may count the read in the input too: its
		// prompt falls with a break.
		{"prompt shrank, deepseek", []step{{model: deepseek, read: 100_000}, {gap: minute, model: deepseek, read: 10_000, shrink: true}},
			[]brk{{2, CauseUnexplained, false, 100_000, 10_000, 60}}},
		// A gap past the TTL explains the break before a turn rule.
		{"thinking dropped, 6 minutes", []step{{version: "2.0.76", prompt: "a", read: 50_000}, {gap: minute, prompt: "b", read: 100_000, think: true}, {gap: 6 * minute, prompt: "c", read: 10_000}},
			[]brk{{3, CauseTTL5m, false, 100_000, 10_000, 360}}},
		// 5-minute writes: a gap over 5 minutes expires them.
		{"ttl 5m", []step{{read: 100_000, w5: 1000}, {gap: 5*minute + sec, read: 10_000, w5: 90_000}},
			[]brk{{2, CauseTTL5m, false, 100_000, 10_000, 301}}},
		{"5m gap of exactly 5 minutes", []step{{read: 100_000, w5: 1000}, {gap: 5 * minute, read: 10_000, w5: 90_000}},
			[]brk{{2, CauseUnexplained, false, 100_000, 10_000, 300}}},
		// No write seen yet: 5 minutes is the default TTL.
		{"no writes, 6 minutes", []step{{read: 100_000}, {gap: 6 * minute, read: 10_000}},
			[]brk{{2, CauseTTL5m, false, 100_000, 10_000, 360}}},
		// 1-hour writes outlive a 30-minute gap, not a gap over an hour.
		{"ttl 1h", []step{{read: 100_000, w1: 1000}, {gap: time.Hour + sec, read: 10_000, w1: 90_000}},
			[]brk{{2, CauseTTL1h, false, 100_000, 10_000, 3601}}},
		{"1h writes, 30 minutes", []step{{read: 100_000, w1: 1000}, {gap: 30 * minute, read: 10_000, w1: 90_000}},
			[]brk{{2, CauseUnexplained, false, 100_000, 10_000, 1800}}},
		{"1h writes, exactly 1 hour", []step{{read: 100_000, w1: 1000}, {gap: time.Hour, read: 10_000, w1: 90_000}},
			[]brk{{2, CauseUnexplained, false, 100_000, 10_000, 3600}}},
		// The cached prefix has the TTL it was written with, not the TTL of
		// the call that finds it gone: written for 1 hour, it outlives 30
		// minutes even though the rewrite is for 5 minutes ...
		{"1h prefix, 5m rewrite, 30 minutes", []step{{read: 100_000, w1: 1000}, {gap: 30 * minute, read: 10_000, w5: 90_000}},
			[]brk{{2, CauseUnexplained, false, 100_000, 10_000, 1800}}},
		// ... and written for 5 minutes, it is gone after 10 even though
		// the rewrite is for an hour.
		{"5m prefix, 1h rewrite, 10 minutes", []step{{read: 100_000, w5: 1000}, {gap: 10 * minute, read: 10_000, w1: 90_000}},
			[]brk{{2, CauseTTL5m, false, 100_000, 10_000, 600}}},
		// Haiku calls are neither checked nor a baseline.
		{"haiku skipped", []step{{read: 100_000}, {gap: minute, model: haiku45, read: 0}, {gap: minute, read: 100_000}}, nil},
		{"haiku drop", []step{{model: haiku45, read: 100_000}, {gap: minute, model: haiku45, read: 0}}, nil},
		{"haiku not a baseline", []step{{read: 100_000}, {gap: minute, model: haiku45, read: 100_000}, {gap: minute, model: haiku45, read: 0}, {gap: minute, read: 50_000}},
			[]brk{{4, CauseUnexplained, false, 100_000, 50_000, 180}}},
		// A <synthetic> call is not a baseline but has a call number.
		{"synthetic between", []step{{read: 100_000}, {gap: minute, model: synthetic}, {gap: minute, read: 90_000}},
			[]brk{{3, CauseUnexplained, false, 100_000, 90_000, 120}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := brks(analyze(t, scenario(tc.steps), nil).CacheBreaks)
			if tc.want == nil {
				tc.want = []brk{}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("breaks = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestSecondTurnCause: with the second-turn rule turned on (before
// 2.1.0), the session's second turn is its cause.
func TestSecondTurnCause(t *testing.T) {
	cfg := DefaultConfig()
	cfg.SecondTurnUntil = "2.1.0"
	steps := []step{{version: "2.0.76", prompt: "a", read: 50_000}, {gap: minute, read: 100_000}, {gap: minute, prompt: "b", read: 10_000}}
	got := brks(Analyze(load(t, scenario(steps), nil), cfg).CacheBreaks)
	if want := []brk{{3, CauseSecondTurn, false, 100_000, 10_000, 60}}; !reflect.DeepEqual(got, want) {
		t.Errorf("breaks = %+v, want %+v", got, want)
	}
}

// TestCacheBreakThreads: each thread has its own baseline.
func TestCacheBreakThreads(t *testing.T) {
	m := newTr("th")
	m.call(sonnet45, use{in: 1, read: 100_000}, text("x"))
	m.after(2 * minute)
	m.call(sonnet45, use{in: 1, read: 100_000}, text("x"))

	a := agentTr("th", "a1")
	a.after(minute)
	a.user("task")
	a.call(sonnet45, use{in: 1, read: 0, w5: 10_000}, text("x")) // far below the main thread: no break
	a.after(minute)
	a.call(sonnet45, use{in: 1, read: 50_000}, text("x"))
	a.after(minute)
	a.call(sonnet45, use{in: 1, read: 10_000, w5: 40_000}, text("x")) // 50,000 → 10,000

	got := analyze(t, m, map[string]*tr{"a1": a}).CacheBreaks
	if len(got) != 1 {
		t.Fatalf("breaks = %+v, want one in a1", got)
	}
	b := got[0]
	// The agent's lines: user 1, calls 2, 3, 4; its third call at 10:03.
	if b.Thread != "a1" || b.Call != 3 || b.Line != 4 || b.Time.String() != "2026-01-01T10:03:00Z" || b.PrevRead != 50_000 || b.Read != 10_000 ||
		b.GapSeconds != 60 || b.Cause != CauseUnexplained || b.Model != sonnet45 || b.Rewritten != 40_000 {
		t.Errorf("break = %+v", b)
	}
}

func TestCacheBreakCost(t *testing.T) {
	m := newTr("c")
	m.call(sonnet45, use{in: 1, read: 100_000}, text("x"))
	m.after(minute)
	// 100,000 → 10,000 after a minute; rewrites 50,000 for 5 minutes.
	m.call(sonnet45, use{in: 1, read: 10_000, w5: 50_000}, text("x"))
	m.after(2 * time.Hour)
	// 10,000 → 0 on another model; rewrites 40,000 for an hour.
	m.call(opus46, use{in: 1, w1: 40_000}, text("x"))
	m.after(minute)
	m.call(opus46, use{in: 1, read: 40_000}, text("x"))
	m.after(minute)
	// 40,000 → 0 on an unpriced model.
	m.call(deepseek, use{in: 1, out: 1}, text("x"))
	m.after(minute)
	m.call(opus46, use{in: 1, read: 30_000}, text("x"))
	m.after(minute)
	// 30,000 → 0; rewrites 1,000 for 5 minutes and 2,000 for an hour.
	m.call(opus46, use{in: 1, w5: 1000, w1: 2000}, text("x"))

	type cost struct {
		call      int
		cause     string
		rewritten int64
		cost      float64
		extra     float64
		priced    bool
	}
	var got []cost
	for _, b := range analyze(t, m, nil).CacheBreaks {
		got = append(got, cost{b.Call, b.Cause, b.Rewritten, b.Cost, b.ExtraCost, b.Priced})
	}
	want := []cost{ // most expensive first
		// 40,000×10 = 400,000 µ$; reading them would have cost 40,000×0.5 =
		// 20,000 µ$: 380,000 µ$ extra.
		{3, CauseModelChange, 40_000, 0.4, 0.38, true},
		// 50,000×3.75 = 187,500 µ$; minus 50,000×0.3 = 15,000 µ$ → 172,500 µ$.
		{2, CausePromptShrank, 50_000, 0.1875, 0.1725, true}, // 100,001 → 60,001 tokens
		// 1,000×6.25 + 2,000×10 = 6,250+20,000 = 26,250 µ$; minus 3,000×0.5 =
		// 1,500 µ$ → 24,750 µ$.
		{7, CausePromptShrank, 3000, 0.02625, 0.02475, true}, // 30,001 → 3,001
		{5, CauseModelChange, 0, 0, 0, false},
	}
	if len(got) != len(want) {
		t.Fatalf("breaks = %+v, want %+v", got, want)
	}
	for i := range want {
		g, w := got[i], want[i]
		usd(t, "cost", g.cost, w.cost)
		usd(t, "extra cost", g.extra, w.extra)
		g.cost, g.extra, w.cost, w.extra = 0, 0, 0, 0
		if g != w {
			t.Errorf("break %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestCacheBreakCostLongContext: a Sonnet 4.5 request over 200K prompt tokens
// pays every input-side token, its cache write included, at 2× (Anthropic's
// pricing page, long-context pricing), so its rewrite costs twice the 5m rate.
func TestCacheBreakCostLongContext(t *testing.T) {
	for _, tc := range []struct {
		name        string
		read, write int64
		cost, extra float64
	}{
		// prompt 1 + 140,000 + 65,000 = 205,001 > 200K:
		// 65,000×3.75×2 = 487,500 µ$; minus 65,000×0.3×2 = 39,000 µ$ → 448,500 µ$.
		{"over 200K", 140_000, 65_000, 0.4875, 0.4485},
		// prompt 1 + 134,999 + 65,000 = 200,000: normal rates:
		// 65,000×3.75 = 243,750 µ$; minus 65,000×0.3 = 19,500 µ$ → 224,250 µ$.
		{"at 200K", 134_999, 65_000, 0.24375, 0.22425},
	} {
		m := newTr("lc")
		m.call(sonnet45, use{in: 1, read: 190_000}, text("x"))
		m.after(minute)
		m.call(sonnet45, use{in: 1, read: tc.read, w5: tc.write}, text("x"))
		bs := analyze(t, m, nil).CacheBreaks
		if len(bs) != 1 {
			t.Fatalf("%s: breaks = %+v", tc.name, bs)
		}
		usd(t, tc.name+" cost", bs[0].Cost, tc.cost)
		usd(t, tc.name+" extra cost", bs[0].ExtraCost, tc.extra)
	}
}

func TestTTLChange(t *testing.T) {
	m := newTr("ttl1")
	m.call(opus46, use{w1: 1000}, text("x"))
	m.after(minute)
	m.call(opus46, use{w5: 1000}, text("x"))
	got := analyze(t, m, nil).TTLChanges
	want := []TTLChange{{Thread: "main", Call: 2, Line: 2, Time: stamp("2026-01-01T10:01:00Z"), From: "1h", To: "5m"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("TTLChanges = %+v, want %+v", got, want)
	}
}

func TestTTLChanges(t *testing.T) {
	m := newTr("ttl")
	for _, u := range []use{
		{w1: 1000},          // 1: 1h
		{w1: 1000},          // 2: 1h
		{w5: 1000},          // 3: 5m ← change
		{},                  // 4: no write
		{w5: 1000},          // 5: 5m
		{w5: 1000, w1: 100}, // 6: both: no TTL of its own
		{w1: 1000},          // 7: 1h ← change
		{w1: 1000},          // 8: 1h
	} {
		m.after(minute)
		m.call(opus46, u, text("x"))
	}
	a := agentTr("ttl", "a1")
	a.call(opus46, use{w5: 10}, text("x"))
	a.call(opus46, use{w1: 10}, text("x"))  // a1 call 2: 5m → 1h
	a.call(haiku45, use{w5: 10}, text("x")) // a1 call 3: 1h → 5m, haiku or not

	got := analyze(t, m, map[string]*tr{"a1": a}).TTLChanges
	want := []TTLChange{
		{Thread: "main", Call: 3, Line: 3, Time: stamp("2026-01-01T10:03:00Z"), From: "1h", To: "5m"},
		{Thread: "main", Call: 7, Line: 7, Time: stamp("2026-01-01T10:07:00Z"), From: "5m", To: "1h"},
		{Thread: "a1", Call: 2, Line: 2, Time: stamp("2026-01-01T10:00:00Z"), From: "5m", To: "1h"},
		{Thread: "a1", Call: 3, Line: 3, Time: stamp("2026-01-01T10:00:00Z"), From: "1h", To: "5m"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("TTLChanges =\n  %+v\nwant\n  %+v", got, want)
	}
}

func TestCacheBreaksEmpty(t *testing.T) {
	m := newTr("e")
	m.user("hi")
	r := analyze(t, m, nil)
	if r.CacheBreaks == nil || len(r.CacheBreaks) != 0 || r.TTLChanges == nil || len(r.TTLChanges) != 0 {
		t.Errorf("CacheBreaks, TTLChanges = %#v, %#v; want empty, not nil", r.CacheBreaks, r.TTLChanges)
	}
}

// TestCacheBreakConfig: the thresholds and TTLs come from Config.
func TestCacheBreakConfig(t *testing.T) {
	steps := []step{{read: 30_000}, {gap: 3 * minute, read: 27_999}} // drop 2,001 after 3 minutes
	for _, tc := range []struct {
		name string
		set  func(*Config)
		want []brk
	}{
		{"default", func(*Config) {}, []brk{{2, CauseUnexplained, false, 30_000, 27_999, 180}}},
		{"BreakMinTokens 2001", func(c *Config) { c.BreakMinTokens = 2001 }, []brk{}},
		// 10% of 30,000 = 3,000 ≥ 2,001.
		{"BreakMinFraction 0.1", func(c *Config) { c.BreakMinFraction = 0.1 }, []brk{}},
		{"TTL5m 2 minutes", func(c *Config) { c.TTL5m = 2 * minute }, []brk{{2, CauseTTL5m, false, 30_000, 27_999, 180}}},
		{"no prices", func(c *Config) { c.Prices = nil }, []brk{{2, CauseUnexplained, false, 30_000, 27_999, 180}}},
	} {
		cfg := DefaultConfig()
		tc.set(&cfg)
		got := brks(Analyze(load(t, scenario(steps), nil), cfg).CacheBreaks)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: breaks = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestCacheBreakToolRunTime: where the timestamps stop (a copied session
// writes its lines with one time), a tool's recorded run time is the gap:
// a sub-agent that ran 6 minutes (toolUseResult.totalDurationMs) expired
// the 5-minute prefix, one that ran 4 minutes did not.
func TestCacheBreakToolRunTime(t *testing.T) {
	for _, tc := range []struct {
		ran  int64 // ms
		want []brk
	}{
		{360_000, []brk{{2, CauseTTL5m, false, 100_000, 0, 360}}},
		{240_000, []brk{{2, CauseUnexplained, false, 100_000, 0, 240}}},
	} {
		m := newTr("b")
		m.call(sonnet45, use{in: 1, w5: 1000, read: 100_000, out: 1}, toolUse("t1", "Task", `{}`))
		m.put(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": []any{result("t1", "done")}},
			"toolUseResult": map[string]any{"totalDurationMs": tc.ran}})
		m.call(sonnet45, use{in: 1, w5: 101_000, out: 1}, text("x"))
		if got := brks(analyze(t, m, nil).CacheBreaks); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("a tool that ran %d ms: breaks = %+v, want %+v", tc.ran, got, tc.want)
		}
	}
}

// breakCauses totals by cause, the most extra cost first, ties in the
// order of Causes; costs are the breaks' summed, unpriced breaks counted.
func TestBreakCauses(t *testing.T) {
	bs := []CacheBreak{
		{Cause: CauseTTL5m, Rewritten: 100, Cost: 0.25, ExtraCost: 0.2, Priced: true},
		{Cause: CauseCompaction, Rewritten: 10, Cost: 0.5, ExtraCost: 0.45, Priced: true},
		{Cause: CauseTTL5m, Rewritten: 200, Cost: 0.125, ExtraCost: 0.1, Priced: true},
		{Cause: CauseTTL5m, Rewritten: 50},
		{Cause: CauseUnexplained, Rewritten: 7},
		{Cause: CauseResume, Rewritten: 8},
	}
	want := []BreakCause{
		{CauseCompaction, 1, 10, 0.5, 0.45, 0},
		{CauseTTL5m, 3, 350, 0.375, 0.3, 1}, // 0.2 + 0.1
		{CauseResume, 1, 8, 0, 0, 1},        // resume comes before unexplained in Causes
		{CauseUnexplained, 1, 7, 0, 0, 1},
	}
	if got := breakCauses(bs); !reflect.DeepEqual(got, want) {
		t.Errorf("breakCauses = %+v, want %+v", got, want)
	}
	if got := breakCauses(nil); got == nil || len(got) != 0 {
		t.Errorf("breakCauses(nil) = %#v, want an empty list", got)
	}
	for _, c := range Causes {
		if ExpectedCause(c) != (c == CauseCompaction || c == CauseMicrocompaction) {
			t.Errorf("ExpectedCause(%q) = %v", c, ExpectedCause(c))
		}
	}
}

// stamp is an RFC 3339 time as reports keep it.
func stamp(s string) replay.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return replay.Time(t.UnixMilli())
}
