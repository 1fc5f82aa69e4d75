package simulate

import (
	"slices"
	"testing"
	"time"

	"github.com/ctxlab/ctxlab/accounting/prices"
)

// edgeActPrices prices Sonnet 4.6 at round numbers (USD per million
// tokens), a 1-hour write dearer than a 5-minute one.
func edgeActPrices() *prices.Table {
	return &prices.Table{Models: map[string]prices.Price{
		sonnet46: {Input: 1, CacheWrite5m: 2, CacheWrite1h: 4, CacheRead: 0.1, Output: 10},
	}}
}

// edgeActBefore is a policy that runs f before call i only.
func edgeActBefore(i int, f func(*State)) Policy {
	return policyFunc(func(s *State) {
		if s.Call == i {
			f(s)
		}
	})
}

// edgeActLayout names a context's items by kind, and path when they have
// one.
func edgeActLayout(items []Item) []string {
	var out []string
	for _, it := range items {
		name := it.Kind.String()
		if it.Path != "" {
			name += ":" + it.Path
		}
		out = append(out, name)
	}
	return out
}

// edgeActFreshBuffers empties the pool of finished runs' context buffers,
// so that the next run's context has room for the trace's items and no
// more.
func edgeActFreshBuffers() {
	for range 1000 {
		if b := itemBuffers.Get().(*[]Item); cap(*b) == 0 {
			return
		}
	}
}

// A Clear that clears nothing (no index, a result no larger than the
// placeholder, a result already cleared) is no clearing: it neither counts
// in Metrics.Clearings nor marks the call Cleared nor lists an action.
func TestEdgeActClearOnlyCountsWhatItCleared(t *testing.T) {
	tests := []struct {
		name      string
		clears    [][]string // the result ids of each Clear, in order
		freed     []int64    // what each returns
		clearings int
	}{
		{"no index", [][]string{nil}, []int64{0}, 0},
		// The placeholder is round(33/4) = 8 tokens at ratio 1.
		{"a result the size of the placeholder", [][]string{{"small"}}, []int64{0}, 0},
		// 1,000 − 8 = 992 freed once; the second Clear finds it cleared.
		{"a result cleared twice", [][]string{{"big"}, {"big"}}, []int64{992, 0}, 1},
	}
	for _, tt := range tests {
		tr := build(
			step{0, "", []Item{user(100), result("small", "s.go", 8), result("big", "b.go", 1000)}},
			step{1, "", []Item{asst(50)}},
		)
		var freed []int64
		res := Run(tr, edgeActBefore(1, func(s *State) {
			for _, ids := range tt.clears {
				freed = append(freed, s.Clear(results(s, ids...), "test"))
			}
		}), DefaultConfig())
		c, m := res.Calls[1], res.Metrics
		if !slices.Equal(freed, tt.freed) || m.Clearings != tt.clearings || c.Cleared != (tt.clearings > 0) || len(c.Actions) != tt.clearings {
			t.Errorf("%s: freed %v, clearings %d, cleared %v, actions %q; want %v, %d, %v, %d actions",
				tt.name, freed, m.Clearings, c.Cleared, c.Actions, tt.freed, tt.clearings, tt.clearings > 0, tt.clearings)
		}
	}
}

// What a compaction leaves before call 3 of tinyTrace ([overhead 1,000,
// user 500, use t1 50, result a.go 3,000, use t2 50, result b.go 2,000];
// call 3 appended the last two, Appended 4): the items before the range,
// the summary (a simulated item, Msg −1), the re-attached files, the items
// after the range; where Appended points; what it freed; and what the run
// reports of it (Result.Compacted).
func TestEdgeActCompactionLayout(t *testing.T) {
	tests := []struct {
		name     string
		c        Compaction
		layout   []string
		appended int
		freed    int64 // returned, and Metrics.TokensFreed
		prompt   int64 // call 3's
		summary  int64 // the summary's size; 0 when none
		compact  RunCompactions
	}{
		// 3,550 tokens replaced: a summary of 1,200 + 3,550 × 8 / 1,000 =
		// 1,228, and a.go re-attached, 3,000 and 44 of Claude Code's notes
		// around it; b.go is read again in the kept items. The kept tail
		// moves down to index 3, and with it the first item call 3
		// appended. Freed 3,550 − 4,272 = −722.
		{"files re-attached before the kept items",
			Compaction{From: 1, To: 4, Restore: true, Label: "auto"},
			[]string{"overhead", "summary", "restored:a.go", "tool_use:b.go", "tool_result:b.go"},
			3, -722, 7322, 1228, RunCompactions{FirstAuto: 3, Summary: 1228, Restored: 3044}},
		// One 2,000-token result becomes a 1,216-token summary and the
		// file (2,044); a.go's result stays before the range, so it does
		// not come back. The context grows by a slot and 1,260 tokens, and
		// the items before stay where they were.
		{"more items than it replaced",
			Compaction{From: 5, To: 6, Restore: true, Label: "auto"},
			[]string{"overhead", "user", "tool_use:a.go", "tool_result:a.go", "tool_use:b.go", "summary", "restored:b.go"},
			4, -1260, 7860, 1216, RunCompactions{FirstAuto: 3, Summary: 1216, Restored: 2044}},
		// 5,600 replaced: a summary of 1,244; the user's /compact is
		// counted apart from the policy's compactions.
		{"a manual compaction",
			Compaction{From: 1, To: 6, Label: "manual"},
			[]string{"overhead", "summary"},
			2, 4356, 2244, 1244, RunCompactions{Manual: 1}},
		// From 0 is raised to 1 (the overhead stays): the range is empty,
		// and nothing happens.
		{"an empty range",
			Compaction{From: 0, To: 1, Label: "auto"},
			[]string{"overhead", "user", "tool_use:a.go", "tool_result:a.go", "tool_use:b.go", "tool_result:b.go"},
			4, 0, 6600, 0, RunCompactions{}},
	}
	for _, tt := range tests {
		var layout []string
		var freed int64
		appended := -1
		summaryMsg := 0
		p := edgeActBefore(2, func(s *State) {
			freed = s.Compact(tt.c)
			layout, appended = edgeActLayout(s.Items), s.Appended()
			for _, it := range s.Items {
				if it.Kind == KindSummary {
					summaryMsg = it.Msg
				}
			}
		})
		// No spare room: a compaction that grows the context must make
		// room for it rather than write past its end.
		edgeActFreshBuffers()
		res := Run(tinyTrace(), p, DefaultConfig())
		if !slices.Equal(layout, tt.layout) || appended != tt.appended {
			t.Errorf("%s: context %v, Appended %d; want %v, %d", tt.name, layout, appended, tt.layout, tt.appended)
		}
		if tt.summary > 0 && summaryMsg != -1 {
			t.Errorf("%s: the summary's Msg is %d, want -1 (no message of the transcript)", tt.name, summaryMsg)
		}
		n := 0
		if tt.summary > 0 {
			n = 1
		}
		c, m := res.Calls[2], res.Metrics
		if freed != tt.freed || m.TokensFreed != tt.freed || c.Prompt != tt.prompt || c.Compacted != (n == 1) ||
			m.Compactions != n || len(res.Summaries) != n || m.SummaryTokens != tt.summary {
			t.Errorf("%s: freed %d (metrics %d), prompt %d, compacted %v, compactions %d, summaries %d, summary tokens %d; want %d, %d, %v, %d, %d",
				tt.name, freed, m.TokensFreed, c.Prompt, c.Compacted, m.Compactions, len(res.Summaries), m.SummaryTokens, tt.freed, tt.prompt, n == 1, n, tt.summary)
		}
		got := res.Compacted
		got.EndCount = 0
		if got != tt.compact {
			t.Errorf("%s: Result.Compacted %+v, want %+v", tt.name, got, tt.compact)
		}
	}
}

// The files a compaction re-attaches follow the Claude Code version its
// Version names, or the call's when it names none: from 1.0.114 a file the
// session wrote comes back first; before, the file the session touched
// last (here r.go, read after w.go was written).
func TestEdgeActRestoreVersion(t *testing.T) {
	tests := []struct {
		call, compaction string
		want             []string
	}{
		{"2.1.146", "", []string{"restored:w.go", "restored:r.go"}},
		{"2.1.146", "1.0.89", []string{"restored:r.go", "restored:w.go"}},
		{"1.0.89", "", []string{"restored:r.go", "restored:w.go"}},
		{"1.0.89", "2.1.146", []string{"restored:w.go", "restored:r.go"}},
	}
	for _, tt := range tests {
		wrote := Item{Kind: KindToolResult, Tool: "Write", ToolID: "w", Path: "w.go", Tokens: 100, File: FileSize{Est: 2000, RawEst: 2000}, Wrote: true}
		read := Item{Kind: KindToolResult, Tool: "Read", ToolID: "r", Path: "r.go", Tokens: 1000, File: FileSize{Est: 1000, RawEst: 1000}}
		tr := build(
			step{0, "", []Item{user(500)}},
			step{1, "", []Item{wrote, read}},
			step{2, "", []Item{asst(50)}},
		)
		for i := range tr.Calls {
			tr.Calls[i].Version = tt.call
		}
		var layout []string
		Run(tr, edgeActBefore(2, func(s *State) {
			s.Compact(Compaction{From: 1, To: len(s.Items), Restore: true, Version: tt.compaction, Label: "auto"})
			layout = edgeActLayout(s.Items)
		}), DefaultConfig())
		if want := append([]string{"overhead", "summary"}, tt.want...); !slices.Equal(layout, want) {
			t.Errorf("call on %s, compaction for %q: context %v, want %v", tt.call, tt.compaction, layout, want)
		}
	}
}

// A fork is listed before the call it preceded and runs when the previous
// turn ended, on the previous call's model, while that call's entries are
// warm; before the first call, on that call's model at its time.
func TestEdgeActForkTimeAndModel(t *testing.T) {
	// Call 1: 3,000, an entry at 2,990. Call 2, 20 minutes later: 3,100.
	tr := func() *Trace {
		return build(step{0, "", []Item{user(2000)}}, step{20, "", []Item{user(100)}})
	}
	tests := []struct {
		name        string
		before      int
		read, write int64
		cost        float64
	}{
		// Nothing cached: writes 3,000 + its own 1,000. 4,000 × 2 + 100 ×
		// 10 = 9,000 µ$ at Sonnet's price.
		{"before the first call", 0, 0, 4000, 0.009},
		// At call 1's time its 2,990 entry lives (at call 2's it has
		// expired): reads it and writes 110 + 1,000. 2,990 × 0.1 + 1,110
		// × 2 + 1,000 = 3,519 µ$.
		{"after an idle gap", 1, 2990, 1110, 0.003519},
	}
	for _, tt := range tests {
		cfg := DefaultConfig()
		cfg.Prices = edgeActPrices()
		res := Run(tr(), edgeActBefore(tt.before, func(s *State) { s.Fork(1000, 100, "background") }), cfg)
		if len(res.Summaries) != 1 {
			t.Fatalf("%s: summaries %+v", tt.name, res.Summaries)
		}
		s := res.Summaries[0]
		if s.BeforeCall != tt.before+1 || s.Read != tt.read || s.Write != tt.write || s.Output != 100 || s.Cost != tt.cost {
			t.Errorf("%s: %+v; want before call %d, read %d, write %d, output 100, cost %v", tt.name, s, tt.before+1, tt.read, tt.write, tt.cost)
		}
	}
}

// The summarizer's writes are billed and counted at the run's lifetime, 1
// hour from a TTL of exactly an hour; calls on an unpriced model are
// counted.
func TestEdgeActSideWritesAndUnpriced(t *testing.T) {
	// Call 1: 3,000, write 2,990; call 2: 3,100, read 2,990, write 100. The
	// fork before call 2 reads 2,990 and writes 110 + 1,000 = 1,110:
	// writes 4,200 in all, reads 5,980.
	tests := []struct {
		name       string
		ttl        time.Duration
		prices     *prices.Table
		w5m, w1h   int64
		summarizer float64
		unpriced   int
	}{
		// 2,990 × 0.1 + 1,110 × 2 + 100 × 10 = 3,519 µ$.
		{"5-minute writes", 0, edgeActPrices(), 4200, 0, 0.003519, 0},
		// 2,990 × 0.1 + 1,110 × 4 + 100 × 10 = 5,739 µ$.
		{"1-hour writes", time.Hour, edgeActPrices(), 0, 4200, 0.005739, 0},
		{"no price", 0, &prices.Table{Models: map[string]prices.Price{}}, 4200, 0, 0, 2},
	}
	for _, tt := range tests {
		cfg := DefaultConfig()
		cfg.TTL, cfg.Prices = tt.ttl, tt.prices
		tr := build(step{0, "", []Item{user(2000)}}, step{1, "", []Item{user(100)}})
		m := Run(tr, edgeActBefore(1, func(s *State) { s.Fork(1000, 100, "background") }), cfg).Metrics
		if m.CacheWrite5m != tt.w5m || m.CacheWrite1h != tt.w1h || m.CacheRead != 5980 || m.SummarizerCost != tt.summarizer || m.Unpriced != tt.unpriced {
			t.Errorf("%s: writes 5m %d 1h %d, read %d, summarizer $%v, unpriced %d; want %d %d 5980 $%v %d",
				tt.name, m.CacheWrite5m, m.CacheWrite1h, m.CacheRead, m.SummarizerCost, m.Unpriced, tt.w5m, tt.w1h, tt.summarizer, tt.unpriced)
		}
	}
}

// After a compaction, a user message is verbatim when it is still in the
// context or the summary quotes it, and summarised otherwise.
func TestEdgeActUsersAfterCompaction(t *testing.T) {
	long := Item{Kind: KindUser, Tokens: 100, Text: "please fix the parser"} // 21 characters
	later := Item{Kind: KindUser, Tokens: 100, Text: "and the lexer"}
	tests := []struct {
		name                 string
		keepCall3            bool // compact only the earlier calls' items
		verbatim, summarised int
	}{
		// "go on" (5 characters) is quoted, the 21-character message
		// only summarised, and "and the lexer" too.
		{"everything summarised", false, 1, 2},
		// "and the lexer" stays in the context.
		{"the last call's items kept", true, 2, 1},
	}
	for _, tt := range tests {
		tr := build(
			step{0, "", []Item{user(500)}},
			step{1, "", []Item{asst(50), long}},
			step{2, "", []Item{asst(50), later}},
		)
		cfg := DefaultConfig()
		cfg.Summarizer.QuoteChars = 10
		res := Run(tr, edgeActBefore(2, func(s *State) {
			to := len(s.Items)
			if tt.keepCall3 {
				to = s.Appended()
			}
			s.Compact(Compaction{From: 1, To: to, Label: "auto"})
		}), cfg)
		if m := res.Metrics; m.UsersVerbatim != tt.verbatim || m.UsersSummarised != tt.summarised {
			t.Errorf("%s: verbatim %d, summarised %d; want %d, %d", tt.name, m.UsersVerbatim, m.UsersSummarised, tt.verbatim, tt.summarised)
		}
	}
}
