package accounting

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
)

func TestCompactionTimeline(t *testing.T) {
	m := newTr("ct")
	m.user("go")                                                               // line 1
	m.call(sonnet45, use{in: 10, w5: 1000, read: 100_000, out: 50}, text("x")) // 2: prompt 101,010
	m.call(sonnet45, use{in: 20, w5: 2000, read: 150_000, out: 50}, text("x")) // 3: prompt 152,020
	m.after(minute)
	// 2.1.114+: preTokens, postTokens and durationMs.
	m.boundary(`{"trigger":"auto","preTokens":170719,"postTokens":17071,"durationMs":105411}`, rep("s", 4000)) // 4, 5
	m.call(sonnet45, use{in: 3, w5: 17_000}, text("x"))                                                        // 6: prompt 17,003
	// 2.0.x: preTokens only; After is the next call's prompt.
	m.boundary(`{"trigger":"manual","preTokens":31469}`, rep("t", 42))                                   // 7, 8
	m.call(sonnet45, use{in: 5, w5: 9000, read: 1000}, text("x"))                                        // 9: prompt 10,005
	m.micro(`{"trigger":"auto","preTokens":59492,"tokensSaved":21761,"compactedToolIds":["a","b","c"]}`) // 10
	m.call(sonnet45, use{in: 1, w5: 100, read: 9000}, text("x"))                                         // 11: prompt 9,101
	// 1.0.x: the summary line alone.
	m.summaryOnly(rep("u", 80))                       // 12
	m.call(sonnet45, use{in: 7, w5: 8000}, text("x")) // 13: prompt 8,007
	// No preTokens and no call after it.
	m.boundary(`{"trigger":"auto"}`, "") // 14, 15

	cfg := DefaultConfig()
	cfg.SpiralCalls = -1 // never; spirals are TestCompactionSpirals'
	r := Analyze(load(t, m, nil), cfg)
	at := stamp("2026-01-01T10:01:00Z")
	want := []CompactionEvent{
		// 170,719 − 17,071 = 153,648; summary 4000/4 = 1000.
		{Thread: "main", Kind: "compact", Trigger: "auto", Line: 4, Time: at, AfterCall: 2, LastPrompt: 152_020,
			Before: 170_719, BeforeSource: "pre_tokens", After: 17_071, AfterSource: "post_tokens", Freed: 153_648,
			SummaryTokens: 1000, DurationMs: 105_411},
		// 31,469 − 10,005 = 21,464; summary round(42/4) = round(10.5) = 11.
		{Thread: "main", Kind: "compact", Trigger: "manual", Line: 7, Time: at, AfterCall: 3, LastPrompt: 17_003,
			Before: 31_469, BeforeSource: "pre_tokens", After: 10_005, AfterSource: "next_prompt", Freed: 21_464,
			SummaryTokens: 11},
		// 59,492 − 21,761 = 37,731.
		{Thread: "main", Kind: "microcompact", Trigger: "auto", Line: 10, Time: at, AfterCall: 4, LastPrompt: 10_005,
			Before: 59_492, BeforeSource: "pre_tokens", After: 37_731, AfterSource: "tokens_saved", Freed: 21_761,
			ClearedTools: 3},
		// 9,101 − 8,007 = 1,094; summary 80/4 = 20.
		{Thread: "main", Kind: "summary", Trigger: "", Line: 12, Time: at, AfterCall: 5, LastPrompt: 9101,
			Before: 9101, BeforeSource: "last_prompt", After: 8007, AfterSource: "next_prompt", Freed: 1094,
			SummaryTokens: 20},
		{Thread: "main", Kind: "compact", Trigger: "auto", Line: 14, Time: at, AfterCall: 6, LastPrompt: 8007,
			Before: 8007, BeforeSource: "last_prompt", After: 0, AfterSource: "none", Freed: 0},
	}
	checkEvents(t, r.Compactions, want)
	if len(r.Spirals) != 0 {
		t.Errorf("Spirals = %+v, want none", r.Spirals)
	}
}

func checkEvents(t *testing.T, got, want []CompactionEvent) {
	t.Helper()
	// The keys are the lines' uuids, which TestMergeCompactionCopies checks.
	got = slices.Clone(got)
	for i := range got {
		got[i].DedupKey = ""
	}
	if reflect.DeepEqual(got, want) {
		return
	}
	rowDiff(t, got, want)
}

// TestCompactionLastPromptSkips: the prompts around a compaction come from
// counted calls only: not a <synthetic> one.
func TestCompactionLastPromptSkips(t *testing.T) {
	m := newTr("lp")
	m.call(sonnet45, use{in: 1, read: 150_000}, text("x")) // prompt 150,001
	m.call(synthetic, use{}, text("rate limited"))
	m.summaryOnly("summary")
	m.call(synthetic, use{}, text("rate limited"))
	m.call(sonnet45, use{in: 2, w5: 9000}, text("x")) // prompt 9,002
	c := analyze(t, m, nil).Compactions
	// 150,001 − 9,002 = 140,999.
	if len(c) != 1 || c[0].AfterCall != 2 || c[0].LastPrompt != 150_001 || c[0].Before != 150_001 || c[0].After != 9002 || c[0].Freed != 140_999 {
		t.Errorf("compactions = %+v", c)
	}
}

// TestMicrocompactionWithoutPreTokens: with no preTokens, Before is the last
// prompt and After is Before − tokensSaved, never −tokensSaved.
func TestMicrocompactionWithoutPreTokens(t *testing.T) {
	m := newTr("mc")
	m.call(sonnet45, use{in: 1, w5: 9999, read: 50_000}, text("x")) // prompt 60,000
	m.micro(`{"trigger":"auto","tokensSaved":20000,"compactedToolIds":["a"]}`)
	m.call(sonnet45, use{in: 1, w5: 100, read: 30_000}, text("x"))
	c := analyze(t, m, nil).Compactions
	// 60,000 − 20,000 = 40,000.
	want := []CompactionEvent{{Thread: "main", Kind: "microcompact", Trigger: "auto", Line: 2, Time: stamp("2026-01-01T10:00:00Z"),
		AfterCall: 1, LastPrompt: 60_000, Before: 60_000, BeforeSource: "last_prompt", After: 40_000, AfterSource: "tokens_saved",
		Freed: 20_000, ClearedTools: 1}}
	checkEvents(t, c, want)
}

// TestCompactionAtStart: a file that starts with a summary (a 1.0.x session
// continued from another) has nothing before it: Before is unknown and
// nothing is freed, not −After; the timeline marks it continued.
func TestCompactionAtStart(t *testing.T) {
	m := newTr("st")
	m.summaryOnly(rep("u", 40))
	m.call(sonnet45, use{in: 6, w5: 7000, read: 40_000}, text("x")) // prompt 47,006
	m.micro(`{"trigger":"auto","tokensSaved":5000,"compactedToolIds":[]}`)
	c := analyze(t, m, nil).Compactions
	checkEvents(t, c, []CompactionEvent{
		{Thread: "main", Kind: "summary", Continued: true, Line: 1, Time: stamp("2026-01-01T10:00:00Z"), AfterCall: 0, LastPrompt: 0,
			Before: 0, BeforeSource: "none", After: 47_006, AfterSource: "next_prompt", Freed: 0, SummaryTokens: 10},
		// 47,006 − 5,000 = 42,006.
		{Thread: "main", Kind: "microcompact", Trigger: "auto", Line: 3, Time: stamp("2026-01-01T10:00:00Z"), AfterCall: 1, LastPrompt: 47_006,
			Before: 47_006, BeforeSource: "last_prompt", After: 42_006, AfterSource: "tokens_saved", Freed: 5000},
	})

	m = newTr("st2")
	m.micro(`{"trigger":"auto","tokensSaved":5000,"compactedToolIds":["a"]}`)
	m.call(sonnet45, use{in: 1}, text("x"))
	c = analyze(t, m, nil).Compactions
	checkEvents(t, c, []CompactionEvent{
		{Thread: "main", Kind: "microcompact", Trigger: "auto", Line: 1, Time: stamp("2026-01-01T10:00:00Z"),
			BeforeSource: "none", AfterSource: "none", ClearedTools: 1},
	})
}

func TestCompactionSpirals(t *testing.T) {
	type cmp struct {
		after int  // calls before it
		micro bool // a micro-compaction
	}
	full := func(calls ...int) []cmp {
		var out []cmp
		for _, c := range calls {
			out = append(out, cmp{after: c})
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		cmps   []cmp
		want   []Spiral
		spiral []bool // Spiral flag of each event
	}{
		// 13−10 = 3 ≤ 5 and 17−13 = 4 ≤ 5: one run of 3 over 17−10 = 7
		// calls; 40−17 = 23 > 5 leaves the fourth out. Freed
		// 150,000+140,000+130,000 = 420,000.
		{"10 13 17 40", full(10, 13, 17, 40),
			[]Spiral{{Thread: "main", First: 0, Count: 3, Calls: 7, Freed: 420_000}}, []bool{true, true, true, false}},
		// 15−10 = 5 joins (within 5 calls), 21−15 = 6 does not.
		{"10 15 21", full(10, 15, 21),
			[]Spiral{{Thread: "main", First: 0, Count: 2, Calls: 5, Freed: 290_000}}, []bool{true, true, false}},
		{"10 16", full(10, 16), nil, []bool{false, false}},
		// Two runs: 10,12 (2 calls; 150,000+140,000) and 30,33,35 (5 calls;
		// 130,000+120,000+110,000 = 360,000).
		{"two runs", full(10, 12, 30, 33, 35),
			[]Spiral{
				{Thread: "main", First: 0, Count: 2, Calls: 2, Freed: 290_000},
				{Thread: "main", First: 2, Count: 3, Calls: 5, Freed: 360_000},
			}, []bool{true, true, true, true, true}},
		// A micro-compaction neither joins nor breaks a run; First indexes
		// Report.Compactions, micro-compactions included. The micro event
		// frees 20,000 and is no part of the run: 140,000+120,000.
		{"micro inside", []cmp{{after: 5, micro: true}, {after: 10}, {after: 12, micro: true}, {after: 14}},
			[]Spiral{{Thread: "main", First: 1, Count: 2, Calls: 4, Freed: 260_000}}, []bool{false, true, false, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newTr("sp")
			k := 0 // compactions written
			for call := 1; call <= 45; call++ {
				m.call(sonnet45, use{in: 1, read: 1000}, text("x"))
				for _, c := range tc.cmps {
					if c.after != call {
						continue
					}
					if c.micro {
						m.micro(`{"trigger":"auto","preTokens":60000,"tokensSaved":20000,"compactedToolIds":[]}`)
					} else {
						// Event k frees 160,000 − 10,000×(k+1): 150,000, 140,000, …
						m.boundary(fmt.Sprintf(`{"trigger":"auto","preTokens":160000,"postTokens":%d}`, 10_000*(k+1)), "summary")
					}
					k++
				}
			}
			r := analyze(t, m, nil)
			want := tc.want
			if want == nil {
				want = []Spiral{}
			}
			if !reflect.DeepEqual(r.Spirals, want) {
				t.Errorf("Spirals = %+v, want %+v", r.Spirals, want)
			}
			var flags []bool
			for _, e := range r.Compactions {
				flags = append(flags, e.Spiral)
			}
			if !reflect.DeepEqual(flags, tc.spiral) {
				t.Errorf("Spiral flags = %v, want %v", flags, tc.spiral)
			}
		})
	}
}

// TestMergeCompactionCopies: Claude Code 1.0.x wrote a compaction's
// summary at the end of the file it compacted and again as the first line
// of the file it went on in, with the same uuid; a resumed file copies the
// lines before it. The total counts such a compaction once, as it counts
// a call two files repeat once: the copy that knows most of the context
// around it, the first in input order on a tie. Each session's own report
// keeps its copy, and a spiral that loses a member keeps the rest, or is
// none when one is left.
func TestMergeCompactionCopies(t *testing.T) {
	summary := func(x *tr, uuid string) {
		x.put(map[string]any{"type": "user", "isCompactSummary": true, "parentUuid": nil, "uuid": uuid,
			"message": map[string]any{"role": "user", "content": "summary"}})
	}
	// sa compacts after call 2 (own), then after call 3 (shared): a spiral;
	// nothing follows in sa, so the shared copy knows only what came before.
	sa := newTr("sa")
	sa.version = "1.0.86"
	sa.user("hi")
	sa.call(sonnet4, use{in: 1, read: 70_000})
	sa.call(sonnet4, use{in: 1, read: 80_000})
	summary(sa, "own-a")
	sa.call(sonnet4, use{in: 1, read: 9000})
	summary(sa, "shared")
	// sb goes on from the shared summary, then compacts again at once.
	sb := newTr("sb")
	sb.version = "1.0.86"
	summary(sb, "shared")
	sb.call(sonnet4, use{in: 1, read: 12_000})
	summary(sb, "own-b")
	sb.call(sonnet4, use{in: 1, read: 8000})
	ra, rb := analyze(t, sa, nil), analyze(t, sb, nil)
	if len(ra.Compactions) != 2 || len(rb.Compactions) != 2 || ra.Compactions[1].DedupKey != "shared" || rb.Compactions[0].DedupKey != "shared" {
		t.Fatalf("sessions' own compactions: %+v, %+v", ra.Compactions, rb.Compactions)
	}
	if len(ra.Spirals) != 1 || len(rb.Spirals) != 1 {
		t.Fatalf("sessions' own spirals: %+v, %+v", ra.Spirals, rb.Spirals)
	}
	type ev struct {
		session, key string
		spiral       bool
	}
	evs := func(r *Report) []ev {
		var out []ev
		for _, c := range r.Compactions {
			out = append(out, ev{c.Session, c.DedupKey, c.Spiral})
		}
		return out
	}
	// A tie (sa's copy knows the context before, sb's the context after):
	// the first in input order. sb's spiral is left with own-b alone.
	m := Merge([]*Report{ra, rb}, nil)
	if got, want := evs(m), []ev{{"sa", "own-a", true}, {"sa", "shared", true}, {"sb", "own-b", false}}; !reflect.DeepEqual(got, want) {
		t.Errorf("merged compactions %+v, want %+v", got, want)
	}
	if want := []Spiral{{Session: "sa", Thread: "main", First: 0, Count: 2, Calls: 1, Freed: ra.Spirals[0].Freed}}; !reflect.DeepEqual(m.Spirals, want) {
		t.Errorf("merged spirals %+v, want %+v", m.Spirals, want)
	}
	m = Merge([]*Report{rb, ra}, nil)
	if got, want := evs(m), []ev{{"sb", "shared", true}, {"sb", "own-b", true}, {"sa", "own-a", false}}; !reflect.DeepEqual(got, want) {
		t.Errorf("merged compactions, sb first: %+v, want %+v", got, want)
	}
	if len(m.Spirals) != 1 || m.Spirals[0].Session != "sb" || m.Spirals[0].First != 0 {
		t.Errorf("merged spirals, sb first: %+v", m.Spirals)
	}
	// The copy that knows both sides wins over the first: sa with a call
	// after the shared summary.
	sa.call(sonnet4, use{in: 1, read: 12_000})
	ra = analyze(t, sa, nil)
	m = Merge([]*Report{rb, ra}, nil)
	if got, want := evs(m), []ev{{"sb", "own-b", false}, {"sa", "own-a", true}, {"sa", "shared", true}}; !reflect.DeepEqual(got, want) {
		t.Errorf("merged compactions, sa's copy knowing more: %+v, want %+v", got, want)
	}
	// The grouped views count each once too.
	for _, by := range []GroupBy{ByDay, ByProject, BySession} {
		groups, total := GroupsIn([]*Report{rb, ra}, by, nil, nil, Window{})
		n := 0
		for _, g := range groups {
			n += g.Compactions
		}
		if n != 3 || total.Compactions != 3 {
			t.Errorf("by %s: %d compactions in the groups, %d in the total; want 3", by, n, total.Compactions)
		}
	}
}
