package policies

import (
	"testing"
	"time"

	"github.com/ctxlab/ctxlab/simulate"
)

// The size variant of micro-compaction. The session (reads of 1,000) runs
// 2,500, 3,550, 4,600, 5,650, 6,700, 7,750, 8,800 unmanaged. At the test
// version (20,000 reserved: available 180,000), buffer=151200 puts the
// threshold at 180,000 − 151,200 = 28,800 (never reached) and the warning
// level at 28,800 − 20,000 = 8,800: call 6 exactly. Micro-compaction
// counts a result's whole size as saved; it frees that minus the 8-token
// placeholder (992 for a 1,000-token result).
func TestClaudeCodeSizeMicro(t *testing.T) {
	const base = "claude-code:micro=size,buffer=151200"
	tests := []struct {
		name, spec string
		want       expect
	}{
		{
			// Calls 0–5 are below the warning level, although at call 5
			// clearing f1.go would leave 4,000 ≤ 4,500 and save 1,000. Call 6
			// (8,800 ≥ 8,800): the 6 results total 6,000; all but the last 3
			// may go, oldest first, while the rest exceed the target: f1.go
			// (6,000 > 4,500, saved 1,000), f2.go (5,000 > 4,500, saved
			// 2,000), not f3.go (4,000 ≤ 4,500). 2,000 ≥ 1,000: cleared,
			// 8,800 − 2 × 992 = 6,816.
			name: "warning level and target",
			spec: base + ",target=4500,min_savings=1000",
			want: expect{
				prompts: []int64{2500, 3550, 4600, 5650, 6700, 7750, 6816},
				actions: map[int][]string{6: {"micro: cleared 2 results, freed 1984"}},
			},
		},
		{
			// As above, but saving 2,000 < min_savings 2,500: nothing.
			name: "min_savings",
			spec: base + ",target=4500,min_savings=2500",
			want: expect{prompts: []int64{2500, 3550, 4600, 5650, 6700, 7750, 8800}},
		},
		{
			// target=0: everything but the last 3 goes (f1–f3.go, saved
			// 3,000): 8,800 − 3 × 992 = 5,824.
			name: "keep 3 by default",
			spec: base + ",target=0,min_savings=1000",
			want: expect{
				prompts: []int64{2500, 3550, 4600, 5650, 6700, 7750, 5824},
				actions: map[int][]string{6: {"micro: cleared 3 results, freed 2976"}},
			},
		},
		{
			// keep=5: only f1.go may go (saved 1,000 ≥ 1,000): 8,800 − 992
			// = 7,808.
			name: "keep",
			spec: base + ",target=0,min_savings=1000,keep=5",
			want: expect{
				prompts: []int64{2500, 3550, 4600, 5650, 6700, 7750, 7808},
				actions: map[int][]string{6: {"micro: cleared 1 results, freed 992"}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.check(t, run(t, tt.spec, reads(1000, 1000, 1000, 1000, 1000, 1000)))
		})
	}

	t.Run("measured by the estimate", func(t *testing.T) {
		// The results are 1,000 tokens but 500 by Claude Code's estimate
		// (a session whose text is two tokens a character in four): at call
		// 6 the 6 results total 3,000 ≤ 4,500, so nothing is cleared, where
		// counting tokens (6,000) would clear two as in the first case.
		tr := reads(1000, 1000, 1000, 1000, 1000, 1000)
		for i := range tr.Calls {
			for j := range tr.Calls[i].Items {
				if it := &tr.Calls[i].Items[j]; it.Kind == simulate.KindToolResult {
					it.Est = int(it.Tokens / 2)
				}
			}
		}
		expect{prompts: []int64{2500, 3550, 4600, 5650, 6700, 7750, 8800}}.check(t, run(t, base+",target=4500,min_savings=1000", tr))
	})
	t.Run("only compactable tools", func(t *testing.T) {
		// Call 1 is a 3,000-token MCP result, then 1,000-token reads:
		// 2,500, 5,550, 6,600, 7,650, 8,700, 9,750, 10,800. Call 5 (9,750
		// ≥ 8,800): the four Read results total 4,000 ≤ 4,500: nothing.
		// Call 6: five total 5,000: the first Read goes (saved 1,000), the
		// rest fit: 10,800 − 992 = 9,808. Counting the MCP result would
		// have cleared it at call 5 (7,000 > 4,500, saved 3,000).
		tr := session(turn{user: 500}, turn{tools: []tool{{"mcp__db__query", "", 50, 3000}}},
			turn{tools: []tool{read("a.go", 1000)}}, turn{tools: []tool{read("b.go", 1000)}},
			turn{tools: []tool{read("c.go", 1000)}}, turn{tools: []tool{read("d.go", 1000)}},
			turn{tools: []tool{read("e.go", 1000)}})
		expect{
			prompts: []int64{2500, 5550, 6600, 7650, 8700, 9750, 9808},
			actions: map[int][]string{6: {"micro: cleared 1 results, freed 992"}},
		}.check(t, run(t, base+",target=4500,min_savings=1000", tr))
	})
}

// The version picks the reservation and the micro-compaction variant. The
// session (reads of 30,000) runs 2,500, 32,550, 62,600, 92,650, 122,700,
// 152,750 unmanaged.
//
// Before 2.1.22 (32,000 reserved): available 168,000, threshold 155,000,
// warning 135,000. Micro-compaction (size, by default for 2.1.0–2.1.21)
// fires first at call 5 (152,750): the 5 results total 150,000; with the
// defaults (keep 3, target 40,000) f1.go (150,000 > 40,000, saved 30,000)
// and f2.go (120,000 > 40,000, saved 60,000) may go; 60,000 ≥ min_savings
// 20,000: cleared, 152,750 − 2 × 29,992 = 92,766, below the threshold.
//
// From 2.1.22 (20,000 reserved): threshold 167,000, warning 147,000.
// Call 5 is above the warning level, but micro-compaction is off by
// default; 152,750 < 167,000: nothing.
func TestClaudeCodeVersions(t *testing.T) {
	micro := expect{
		prompts: []int64{2500, 32550, 62600, 92650, 122700, 92766},
		actions: map[int][]string{5: {"micro: cleared 2 results, freed 59984"}},
	}
	none := expect{prompts: []int64{2500, 32550, 62600, 92650, 122700, 152750}}
	tests := []struct {
		spec, recorded string // recorded: the trace's version
		want           expect
	}{
		{"claude-code:version=2.1.0", testVersion, micro},
		{"claude-code:version=2.1.21", testVersion, micro},
		{"claude-code:version=2.1.22", testVersion, none},
		// Micro-compaction asked for at 2.1.22: the warning level (147,000)
		// is passed at call 5, as above.
		{"claude-code:version=2.1.22,micro=size", testVersion, micro},
		// 2.0.x: off, and 152,750 is just below its threshold 155,000.
		{"claude-code:version=2.0.76", testVersion, none},
		// With no version the policy follows each call's recorded one.
		{"claude-code", "2.1.21", micro},
		{"claude-code", "2.1.22", none},
		{"claude-code:micro=off", "2.1.21", none},
	}
	for _, tt := range tests {
		t.Run(tt.spec+"@"+tt.recorded, func(t *testing.T) {
			tr := reads(30000, 30000, 30000, 30000, 30000)
			for i := range tr.Calls {
				tr.Calls[i].Version = tt.recorded
			}
			tt.want.check(t, run(t, tt.spec, tr))
		})
	}
}

// The time variant: when the call comes more than idle minutes (by
// default the cache TTL) after the previous one, every compactable result
// but the last keep (by default 5) is cleared, whatever the context's
// size. The session (reads of 1,000) runs 2,500, 3,550, …, 9,850 over
// calls 0–7, one minute apart except before call 7. Calls 1–6 are never
// idle; at call 7 the 7 results f1–f7.go are live.
func TestClaudeCodeTimeMicro(t *testing.T) {
	unmanaged := []int64{2500, 3550, 4600, 5650, 6700, 7750, 8800, 9850}
	// Keep 5: f1.go and f2.go go, 9,850 − 2 × 992 = 7,866.
	cleared := expect{
		prompts: []int64{2500, 3550, 4600, 5650, 6700, 7750, 8800, 7866},
		actions: map[int][]string{7: {"micro (idle): cleared 2 results, freed 1984"}},
	}
	tests := []struct {
		name, spec string
		gap        time.Duration // before call 7
		ttl        time.Duration // the session's cache TTL
		want       expect
	}{
		{"longer than the TTL", "claude-code:micro=time", 6 * time.Minute, 5 * time.Minute, cleared},
		{"exactly the TTL", "claude-code:micro=time", 5 * time.Minute, 5 * time.Minute, expect{prompts: unmanaged}},
		{"within a 1h TTL", "claude-code:micro=time", 6 * time.Minute, time.Hour, expect{prompts: unmanaged}},
		{"longer than a 1h TTL", "claude-code:micro=time", 61 * time.Minute, time.Hour, cleared},
		{"within idle", "claude-code:micro=time,idle=10", 6 * time.Minute, 5 * time.Minute, expect{prompts: unmanaged}},
		{"longer than idle", "claude-code:micro=time,idle=10", 11 * time.Minute, 5 * time.Minute, cleared},
		{
			// keep=2: f1–f5.go go, 9,850 − 5 × 992 = 4,890.
			"keep", "claude-code:micro=time,keep=2", 6 * time.Minute, 5 * time.Minute,
			expect{
				prompts: []int64{2500, 3550, 4600, 5650, 6700, 7750, 8800, 4890},
				actions: map[int][]string{7: {"micro (idle): cleared 5 results, freed 4960"}},
			},
		},
		// By version (2.1.146): off, idle or not.
		{"off by default", "claude-code", 6 * time.Minute, 5 * time.Minute, expect{prompts: unmanaged}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := reads(1000, 1000, 1000, 1000, 1000, 1000, 1000)
			tr.TTL = tt.ttl
			if tt.ttl == time.Hour { // the calls write 1-hour entries
				for i := range tr.Calls {
					u := &tr.Calls[i].Usage
					u.CacheWrite1h, u.CacheWrite5m = u.CacheWrite5m, 0
				}
			}
			tr.Calls[7].Time = tr.Calls[6].Time + tt.gap.Milliseconds()
			tt.want.check(t, run(t, tt.spec, tr))
		})
	}
}

func TestClaudeCodeAuto(t *testing.T) {
	t.Run("compacts at the threshold", func(t *testing.T) {
		// buffer=175000: threshold 180,000 − 175,000 = 5,000 (as
		// TestThreshold's restore case). Call 3 (5,650): 3,650 → 1,200 +
		// ⌊3,650 × 8 / 1,000⌋ = 1,229, plus f3, f2, f1.go restored, each
		// 1,000 and 44 of Claude Code's notes around it (172 characters
		// and the path): 4,361, the prompt 6,361. Call 4: 7,411 ≥ 5,000
		// again: 5,411 → 1,243, plus f4.go and the three files restored
		// before (4,176): 7,419.
		expect{
			prompts: []int64{2500, 3550, 4600, 6361, 7419},
			actions: map[int][]string{3: {"compact (auto): 3650 → 4361"}, 4: {"compact (auto): 5411 → 5419"}},
		}.check(t, run(t, "claude-code:buffer=175000", reads(1000, 1000, 1000, 1000)))
	})
	t.Run("auto=false", func(t *testing.T) {
		// No compaction above the threshold.
		expect{prompts: []int64{2500, 3550, 4600, 5650, 6700}}.check(t,
			run(t, "claude-code:buffer=175000,auto=false", reads(1000, 1000, 1000, 1000)))
	})
	// With auto-compaction off the warning level is the available window −
	// 20,000. window=48800: available 28,800, threshold 15,800 (never
	// reached: the session peaks at 8,800).
	t.Run("auto=false warning level", func(t *testing.T) {
		// Warning 28,800 − 20,000 = 8,800: as TestClaudeCodeSizeMicro's
		// first case, call 6 clears f1.go and f2.go: 6,816.
		expect{
			prompts: []int64{2500, 3550, 4600, 5650, 6700, 7750, 6816},
			actions: map[int][]string{6: {"micro: cleared 2 results, freed 1984"}},
		}.check(t, run(t, "claude-code:micro=size,auto=false,window=48800,target=4500,min_savings=1000",
			reads(1000, 1000, 1000, 1000, 1000, 1000)))
	})
	t.Run("auto=true warning level", func(t *testing.T) {
		// Warning 15,800 − 20,000 < 0: every call. Calls 1–3: no more than
		// 3 results. Call 4: 4 total 4,000 ≤ 4,500: nothing. Call 5: 5
		// total 5,000: f1.go goes (saved 1,000 ≥ 1,000), 7,750 − 992 =
		// 6,758. Call 6: 7,808; f2–f6.go total 5,000: f2.go goes, 6,816.
		expect{
			prompts: []int64{2500, 3550, 4600, 5650, 6700, 6758, 6816},
			actions: map[int][]string{
				5: {"micro: cleared 1 results, freed 992"},
				6: {"micro: cleared 1 results, freed 992"},
			},
		}.check(t, run(t, "claude-code:micro=size,window=48800,target=4500,min_savings=1000",
			reads(1000, 1000, 1000, 1000, 1000, 1000)))
	})
}

// claude-code-sm's micro-compaction is claude-code's: its defaults too.
func TestClaudeCodeSMMicro(t *testing.T) {
	// init above the session: no notes. Threshold 155,000 at 2.1.21, so as
	// TestClaudeCodeVersions: call 5 clears f1.go and f2.go.
	tr := reads(30000, 30000, 30000, 30000, 30000)
	for i := range tr.Calls {
		tr.Calls[i].Version = "2.1.21"
	}
	expect{
		prompts: []int64{2500, 32550, 62600, 92650, 122700, 92766},
		actions: map[int][]string{5: {"micro: cleared 2 results, freed 59984"}},
	}.check(t, run(t, "claude-code-sm:init=1000000", tr))
}

// The version picks what a compaction re-attaches: from 1.0.85 a file
// over 5,000 tokens comes back as a note that names it; before, whole
// when it is within 10,000.
func TestClaudeCodeRestoreByVersion(t *testing.T) {
	// 500-token prompt; a Read of a.go (1,000); a Write of b.go (its text
	// 6,000 in the call, a 50-token result); then 100 of user text. The
	// context before call 3 is 2,000 + 500 + 50 + 1,000 + 6,000 + 50 +
	// 100 = 9,700; 200,000 − 20,000 − 175,000 puts the threshold at 5,000,
	// which call 2 (3,550) does not reach.
	tr := session(turn{user: 500}, turn{tools: []tool{read("a.go", 1000)}},
		turn{tools: []tool{{"Write", "b.go", 6000, 50}}, user: 100})
	for _, c := range []struct {
		version string
		want    string
	}{
		// 7,700 replaced → 1,200 + ⌊7,700 × 8 / 1,000⌋ = 1,261, then b.go
		// as a note (180 characters and its path: 46) and a.go (1,000
		// and 44 of notes around it): 2,351.
		{"2.1.146", "compact (auto): 7700 → 2351"},
		{"1.0.85", "compact (auto): 7700 → 2351"},
		// Up to 1.0.84 b.go is within 10,000: 6,044, and 8,349 in all.
		{"1.0.84", "compact (auto): 7700 → 8349"},
	} {
		res := run(t, "claude-code:buffer=175000,reserve=20000,version="+c.version, tr)
		if acts := res.Calls[2].Actions; len(acts) == 0 || acts[len(acts)-1] != c.want {
			t.Errorf("version %s: call 3's actions %q, want %q last", c.version, acts, c.want)
		}
	}
}
