package simulate

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/replay"
)

const sonnet46 = "claude-sonnet-4-6"

// at is a call's time, min minutes after the start of a test session.
func at(min int) int64 { return 1_700_000_000_000 + int64(min)*60_000 }

// step is one call of a test trace: when, on which model ("" is Sonnet
// 4.6), and what it appends.
type step struct {
	min   int
	model string
	items []Item
}

// build makes a trace from steps: overhead 1,000 tokens (below Sonnet's
// 1,024-token minimum, so the system prompt never has a cache entry of its
// own); each call appends its step's items (exact, Msg = the call's index),
// and records its prompt as a 10-token uncached tail plus a cache write, and
// 100 output tokens.
func build(steps ...step) *Trace {
	tr := &Trace{
		Session: "t", Overhead: 1000, Ratio: 1, Method: "usage", TTL: 5 * time.Minute,
		Thread: &replay.Thread{Calls: make([]replay.Call, len(steps))},
	}
	prompt := int64(1000)
	for i, s := range steps {
		tr.Thread.Calls[i].Msg = i
		for k := range s.items {
			it := &s.items[k]
			it.Msg, it.Exact = i, true
			if it.Est == 0 {
				it.Est = int(it.Tokens)
			}
			prompt += it.Tokens
		}
		model := s.model
		if model == "" {
			model = sonnet46
		}
		tr.Calls = append(tr.Calls, TraceCall{
			Index: i, Line: i + 1, Time: at(s.min), Model: model, Version: "2.1.146", Clean: true,
			Usage: replay.Usage{Input: 10, CacheWrite5m: prompt - 10, Output: 100}, Items: s.items,
		})
	}
	return tr
}

func user(tok int64) Item { return Item{Kind: KindUser, Tokens: tok, Text: "go on"} }
func asst(tok int64) Item { return Item{Kind: KindAssistant, Tokens: tok} }
func result(id, path string, tok int64) Item {
	return Item{Kind: KindToolResult, Tool: "Read", ToolID: id, Path: path, Tokens: tok}
}

// policyFunc is a policy made of a function.
type policyFunc func(*State)

func (policyFunc) Name() string      { return "test" }
func (f policyFunc) Before(s *State) { f(s) }

// results returns the indexes of the tool results with the given ids.
func results(s *State, ids ...string) []int {
	var out []int
	for _, id := range ids {
		for j, it := range s.Items {
			if it.Kind == KindToolResult && it.ToolID == id {
				out = append(out, j)
			}
		}
	}
	return out
}

// Clearing two results with server-side cache edits shifts the cache
// entries past each by what that one freed, at its position once the
// earlier clearings are accounted for.
func TestClearTwoWithCacheEdits(t *testing.T) {
	for _, order := range [][]string{{"a", "b"}, {"b", "a"}} {
		tr := build(
			// 1,000 + 100 + 1,000 + 1,000 = 3,100: an entry at 3,090.
			step{0, "", []Item{user(100), result("a", "a.go", 1000), result("b", "b.go", 1000)}},
			// 3,200: reads 3,090, an entry at 3,190.
			step{1, "", []Item{asst(100)}},
			step{2, "", nil},
		)
		p := policyFunc(func(s *State) {
			if s.Call == 2 {
				s.Clear(results(s, order...), "test")
			}
		})
		cfg := DefaultConfig()
		cfg.CacheEdits = true
		res := Run(tr, p, cfg)
		// Each result becomes the 8-token placeholder, freeing 992. a sits
		// at 1,100: the entries move to 2,098 and 2,198. b then sits at
		// 1,100 + 8 = 1,108: they move to 1,106 and 1,206. The prompt is
		// 3,200 − 1,984 = 1,216, its breakpoint 1,206: all of it is read.
		c := res.Calls[2]
		if c.Prompt != 1216 || c.Read != 1206 || c.Write5m != 0 || c.Input != 10 {
			t.Errorf("clearing %v: prompt %d read %d write %d input %d, want 1216 1206 0 10", order, c.Prompt, c.Read, c.Write5m, c.Input)
		}
	}
}

// PolicyBreaks counts the breaks that follow an edit of the context; a
// fork adds an action without editing anything.
func TestPolicyBreaksCountEdits(t *testing.T) {
	tr := build(
		step{0, "", []Item{user(1000), result("r", "r.go", 4000)}}, // 6,000: write 5,990
		step{1, "", []Item{asst(100)}},                             // 6,100: read 5,990
		step{20, "", []Item{user(100)}},                            // 6,200: expired, read 0: a break
		step{21, "", []Item{asst(100)}},                            // 6,300: read 6,190
		step{22, "", []Item{user(100)}},                            // r cleared at 2,000: read 0, a break
	)
	p := policyFunc(func(s *State) {
		switch s.Call {
		case 2:
			s.Fork(1000, 100, "background")
		case 4:
			s.Clear(results(s, "r"), "test")
		}
	})
	res := Run(tr, p, DefaultConfig())
	reads := []int64{0, 5990, 0, 6190, 0}
	for i, c := range res.Calls {
		if c.Read != reads[i] {
			t.Errorf("call %d: read %d, want %d", i+1, c.Read, reads[i])
		}
	}
	if m := res.Metrics; m.CacheBreaks != 2 || m.PolicyBreaks != 1 {
		t.Errorf("breaks %d, by policy %d; want 2, 1", m.CacheBreaks, m.PolicyBreaks)
	}
}

// observedTrace is a session Claude Code compacted before its third call;
// the fourth reads a.go again.
func observedTrace() *Trace {
	usage := func(read, write int64) replay.Usage {
		return replay.Usage{Input: 10, CacheRead: read, CacheWrite5m: write, Output: 100}
	}
	tr := &Trace{
		Session: "o", Overhead: 1000, Ratio: 1, Method: "usage", TTL: 5 * time.Minute,
		Thread: &replay.Thread{Calls: []replay.Call{{Msg: 1}, {Msg: 3}, {Msg: 5}, {Msg: 7}}},
	}
	add := func(min int, u replay.Usage, comp *replay.Compaction, items ...Item) {
		for k := range items {
			items[k].Exact, items[k].Est = true, int(items[k].Tokens)
		}
		i := len(tr.Calls)
		tr.Calls = append(tr.Calls, TraceCall{
			Index: i, Line: i + 1, Time: at(min), Model: sonnet46, Version: "2.1.146", Clean: comp == nil,
			Usage: u, Items: items, RealCompact: comp,
		})
	}
	// 1,000 + 5,000 = 6,000.
	add(0, usage(0, 5990), nil, Item{Kind: KindUser, Tokens: 5000, Msg: 0, Text: "read a.go"})
	// + 50 + 3,000 = 9,050.
	add(1, usage(5990, 3050), nil,
		Item{Kind: KindToolUse, Tokens: 50, Msg: 1, Tool: "Read", ToolID: "t1", Path: "a.go"},
		Item{Kind: KindToolResult, Tokens: 3000, Msg: 2, Tool: "Read", ToolID: "t1", Path: "a.go"})
	// Compacted at message 4: 1,000 + the 2,000-token summary = 3,000.
	add(2, usage(0, 2990), &replay.Compaction{Kind: replay.CompactFull, Trigger: "auto", Msg: 4},
		Item{Kind: KindAssistant, Tokens: 50, Msg: 3},
		Item{Kind: KindSummary, Tokens: 2000, Msg: 4, Artifact: true})
	// + 50 + 3,000 = 6,050: a.go read again.
	add(3, usage(2990, 3050), nil,
		Item{Kind: KindToolUse, Tokens: 50, Msg: 5, Tool: "Read", ToolID: "t2", Path: "a.go"},
		Item{Kind: KindToolResult, Tokens: 3000, Msg: 6, Tool: "Read", ToolID: "t2", Path: "a.go"})
	return tr
}

// The observed run counts the re-reads its real compactions caused, and
// the breaks they caused as its own.
func TestObservedRereadsAndBreaks(t *testing.T) {
	res := Run(observedTrace(), nothing{}, DefaultConfig())
	for i, want := range []int64{6000, 9050, 3000, 6050} {
		if c := res.Calls[i]; c.Prompt != want || c.Recorded != want {
			t.Errorf("call %d: prompt %d recorded %d, want %d", i+1, c.Prompt, c.Recorded, want)
		}
	}
	// The compaction removed a.go's result; call 4 reads it again. Call 3
	// reads 0 after call 2's 5,990: a break, the compaction's.
	m := res.Metrics
	if m.LikelyRereads != 1 || m.Compactions != 1 || m.CacheBreaks != 1 || m.PolicyBreaks != 1 || m.FirstCompaction != 3 {
		t.Errorf("metrics %+v", m)
	}
}

// Appended points at the first item of this call still in the context
// after a compaction, or past the end when none is left.
func TestAppendedAfterCompact(t *testing.T) {
	// Before call 3 of tinyTrace: [overhead, user, use t1, result t1,
	// use t2, result t2]; this call appended the last two (Appended 4).
	tests := []struct {
		c    Compaction
		want int
	}{
		// All summarised, a.go and b.go restored: [overhead, summary, b, a].
		{Compaction{From: 1, To: 6, Restore: true}, 4},
		{Compaction{From: 1, To: 6}, 2},
		// Only earlier items: [overhead, summary, use t2, result t2].
		{Compaction{From: 1, To: 4}, 2},
		// Items after the first appended: [overhead, user, use t1,
		// result t1, use t2, summary].
		{Compaction{From: 5, To: 6}, 4},
		// Every appended item: [overhead, user, use t1, result t1, summary].
		{Compaction{From: 4, To: 6}, 5},
		// Across the boundary: [overhead, user, use t1, summary, result t2].
		{Compaction{From: 3, To: 5}, 4},
	}
	for _, tt := range tests {
		before, after := -1, -1
		p := policyFunc(func(s *State) {
			if s.Call == 2 {
				before = s.Appended()
				s.Compact(tt.c)
				after = s.Appended()
			}
		})
		Run(tinyTrace(), p, DefaultConfig())
		if before != 4 || after != tt.want {
			t.Errorf("%+v: Appended %d then %d, want 4 then %d", tt.c, before, after, tt.want)
		}
	}
}

// A clearing earlier in the same Before invalidates cache entries before
// a fork or a compaction's summarizer reads them. A compaction's
// summarizer runs on the call's model, a fork on the previous call's.
func TestForkSeesPendingEdit(t *testing.T) {
	trace := func(model string) *Trace {
		return build(
			step{0, "", []Item{user(500), result("r", "a.go", 3000)}}, // 4,500: an entry at 4,490
			step{1, "", []Item{asst(50), user(5000)}},                 // 9,550: an entry at 9,540
			step{2, model, []Item{asst(50), user(10)}},                // 9,610
		)
	}
	at2 := func(then func(s *State)) Policy {
		return policyFunc(func(s *State) {
			if s.Call == 2 {
				then(s)
			}
		})
	}
	compact := func(s *State) { s.Compact(Compaction{From: 1, To: len(s.Items), Label: "test"}) }
	fork := func(s *State) { s.Fork(1030, 100, "fork") }
	clear := func(s *State) { s.Clear(results(s, "r"), "test") }
	tests := []struct {
		name        string
		tr          *Trace
		p           Policy
		read, write int64
		cost        float64
	}{
		// The clearing at 1,500 frees 2,992 (9,610 → 6,618) and
		// invalidates both entries: the fork reads nothing and writes
		// 6,618 + its own 1,030; the summarizer 6,618 + 1,000.
		{"clear, fork", trace(""), at2(func(s *State) { clear(s); fork(s) }), 0, 7648, 0},
		{"clear, compact", trace(""), at2(func(s *State) { clear(s); compact(s) }), 0, 7618, 0},
		// Call 3 is on Opus: the 9,540 entry is Sonnet's. The summarizer
		// reads nothing and writes 9,610 + 1,000.
		{"compact on another model", trace("claude-opus-4-6"), at2(compact), 0, 10_610, 0},
		// The fork ran when call 2's turn ended, on Sonnet: it reads the
		// 9,540 entry and writes 70 + 1,030 = 1,100. Sonnet 4.6: 9,540 ×
		// 0.30 + 1,100 × 3.75 + 100 × 15 = 8,487 µ$.
		{"fork before a model change", trace("claude-opus-4-6"), at2(fork), 9540, 1100, 0.008487},
	}
	for _, tt := range tests {
		res := Run(tt.tr, tt.p, DefaultConfig())
		if len(res.Summaries) != 1 {
			t.Fatalf("%s: summaries %+v", tt.name, res.Summaries)
		}
		if s := res.Summaries[0]; s.Read != tt.read || s.Write != tt.write || (tt.cost > 0 && s.Cost != tt.cost) {
			t.Errorf("%s: fork read %d write %d cost %v, want %d %d %v", tt.name, s.Read, s.Write, s.Cost, tt.read, tt.write, tt.cost)
		}
	}
}

// The metrics of a run that climbs through every threshold state, with a
// fork and sub-agents, priced by a table of round numbers.
func TestMetrics(t *testing.T) {
	tr := build(
		// Sonnet 4.6 on 2.1.146: warning 147,000, threshold 167,000,
		// blocking 197,000, window 200,000.
		step{0, "", []Item{user(100_000)}},               // 101,000 ok: write 100,990
		step{1, "", []Item{result("a", "a.go", 50_000)}}, // 151,000 warning: read 100,990, write 50,000
		step{2, "", []Item{result("b", "b.go", 20_000)}}, // 171,000 compact: read 150,990, write 20,000
		step{3, "", []Item{result("c", "c.go", 27_000)}}, // 198,000 blocking: read 170,990, write 27,000
		step{10, "", []Item{result("d", "d.go", 3_000)}}, // 201,000 overflow: expired, write 200,990
	)
	tr.AgentCalls = []replay.Call{
		{Model: sonnet46, Usage: replay.Usage{Input: 1000, Output: 1000}},
		{Model: "claude-haiku-4-5-20251001", Usage: replay.Usage{Input: 1000}},
	}
	cfg := DefaultConfig()
	// USD per million tokens; Haiku is left unpriced.
	cfg.Prices = &prices.Table{Models: map[string]prices.Price{
		sonnet46: {Input: 1, CacheWrite5m: 2, CacheWrite1h: 4, CacheRead: 0.1, Output: 10},
	}}
	p := policyFunc(func(s *State) {
		if s.Call == 2 {
			// Priced at call 2's time: reads call 2's 150,990 prefix
			// of the 171,000-token context, writes 20,010 + 1,000.
			s.Fork(1000, 200, "background")
		}
	})
	res := Run(tr, p, cfg)
	states := []CallState{StateOK, StateWarning, StateCompact, StateBlocking, StateOverflow}
	// Per call: 10 input, writes × 2, reads × 0.1, 100 output × 10 (µ$).
	costs := []float64{0.20299, 0.111109, 0.056109, 0.072109, 0.40299}
	for i, c := range res.Calls {
		if c.State != states[i] || c.Cost != costs[i] || !c.Priced {
			t.Errorf("call %d: state %s cost %v priced %v, want %s %v", i+1, c.State, c.Cost, c.Priced, states[i], costs[i])
		}
	}
	// Summarizer: 150,990 × 0.1 + 21,010 × 2 + 200 × 10 = 59,119 µ$.
	// Main: 845,307 µ$; agents: 1,000 + 10,000 = 11,000 µ$.
	// Writes: 398,980 + 21,010 = 419,990. Hit ratio: reads 422,970 +
	// 150,990 = 573,960 over 50 input + 419,990 writes + 573,960 reads =
	// 994,000: 0.57742… → 0.5774. The agents' usage, priced or not, is
	// 2,000 input and 1,000 output; with the main thread's, 2,050 and 1,700.
	want := Metrics{
		Calls: 5, PeakContext: 201_000, AboveWarning: 4, Overflows: 1,
		Input: 50, CacheWrite5m: 419_990, CacheRead: 573_960, Output: 700,
		CacheHitRatio: 0.5774, CacheBreaks: 1,
		Cost: 0.904426, SummarizerCost: 0.059119, AgentsCost: 0.011, TotalCost: 0.915426, AgentsUnpriced: 1,
		AgentsInput: 2000, AgentsOutput: 1000,
		TotalInput: 2050, TotalCacheWrite: 419_990, TotalCacheWrite5m: 419_990, TotalCacheRead: 573_960, TotalOutput: 1700,
		UsersVerbatim: 1,
	}
	if res.Metrics != want {
		t.Errorf("metrics\n got %+v\nwant %+v", res.Metrics, want)
	}
}

// Prepare leaves out exactly the messages SizeThread does not size as
// sent: a duplicate call's response costs nothing in the context, and what
// each call appends adds up to its prompt's growth.
func TestPrepareDuplicateCall(t *testing.T) {
	text := func(role replay.Role, est int) replay.Message {
		return replay.Message{Role: role, Call: -1, Blocks: []replay.Block{{Kind: replay.BlockText, Est: est}}}
	}
	usage := func(prompt int64) replay.Usage { return replay.Usage{Input: 10, CacheRead: prompt - 10} }
	th := &replay.Thread{
		Messages: []replay.Message{
			text(replay.RoleUser, 10), text(replay.RoleAssistant, 5), // call 0
			text(replay.RoleUser, 20), text(replay.RoleAssistant, 4), // call 1: a duplicate
			text(replay.RoleUser, 6), text(replay.RoleAssistant, 7), // call 2
		},
		Calls: []replay.Call{
			{Msg: 1, HasUsage: true, Usage: usage(1100), Model: sonnet46},
			{Msg: 3, HasUsage: true, Usage: usage(1150), Model: sonnet46, Duplicate: true},
			{Msg: 5, HasUsage: true, Usage: usage(1162), Model: sonnet46},
		},
	}
	tr := Prepare(&replay.Session{ID: "d", Main: th})
	if len(tr.Calls) != 2 {
		t.Fatalf("%d calls, want 2", len(tr.Calls))
	}
	// Call 2 grew 1,162 − 1,100 = 62 over m1, m2 and m4.
	var sum int64
	for _, it := range tr.Calls[1].Items {
		sum += it.Tokens
	}
	if sum != 62 || len(tr.Calls[1].Items) != 3 {
		t.Errorf("call 2 appends %d tokens in %d items, want 62 in 3", sum, len(tr.Calls[1].Items))
	}
}

// TestMinCacheableConfig checks that a table in the Config replaces the
// default one.
func TestMinCacheableConfig(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MinCacheable = []claudecode.MinPrefix{{Match: "sonnet", Tokens: 100_000}}
	res := Run(tinyTrace(), nothing{}, cfg)
	// The observed run reports the recorded usage; the model's own figures
	// are its prediction.
	if p := res.Calls[2].Predicted; p == nil || p.Read != 0 || p.Write != 0 || p.Input != 6600 {
		t.Errorf("below a 100,000-token minimum: %+v", p)
	}
}

// TestWarmStart checks that a run starts with the prefix the session's
// first call read from the cache, whatever the policy, and with an empty
// cache under ColdStart or when that call read nothing.
func TestWarmStart(t *testing.T) {
	for _, c := range []struct {
		name      string
		firstRead int64
		cold      bool
		want      int64
	}{
		{"warm", 1500, false, 1500},
		{"cold start", 1500, true, 0},
		{"first call read nothing", 0, false, 0},
	} {
		tr := build(step{0, "", []Item{user(2000)}}, step{1, "", []Item{asst(100), user(100)}})
		u := &tr.Calls[0].Usage
		u.CacheRead, u.CacheWrite5m = c.firstRead, u.CacheWrite5m-c.firstRead
		cfg := DefaultConfig()
		cfg.ColdStart = c.cold
		res := Run(tr, policyFunc(func(*State) {}), cfg)
		if got, want := res.Calls[0].Read, c.want; got != want {
			t.Errorf("%s: first call read %d, want %d", c.name, got, want)
		}
		if got, want := res.Calls[0].Write5m, int64(2990)-c.want; got != want {
			t.Errorf("%s: first call wrote %d, want %d", c.name, got, want)
		}
	}
	// An unmeasured first call (no prompt recorded) is passed over.
	tr := build(step{0, "", []Item{user(2000)}}, step{1, "", []Item{asst(100), user(100)}})
	tr.Calls[0].Usage = replay.Usage{}
	tr.Calls[1].Usage.CacheRead, tr.Calls[1].Usage.CacheWrite5m = 2500, tr.Calls[1].Usage.CacheWrite5m-2500
	if c := WarmStart(tr.Calls); c != &tr.Calls[1] {
		t.Errorf("WarmStart = %v, want the second call", c)
	}
}

// TestBasePrefix checks the base prefix: the shortest prefix of the system
// prompt a call has read. A session whose first call read 20,000 tokens
// (its system prompt prefix) and whose third call read only 15,000 reads,
// two calls later, 15,000 after a change of working directory, and 15,000
// after an idle gap past the session's own lifetime: from the shorter read on, that is
// the prefix other requests keep warm. Without the shorter read both fall
// back to the first call's 20,000; without a warm first call, a new
// directory reads nothing and an idle gap nothing. A transcript that
// continues a conversation from its summary (Trace.Continued) read at its
// first call what its own compaction had written: no other request keeps
// that warm, so the idle gap reads nothing.
func TestBasePrefix(t *testing.T) {
	for _, c := range []struct {
		name      string
		firstRead int64
		thirdRead int64
		cwd, idle int64 // want, after a new directory and after 40 minutes
		wantBase  bool  // the third call is a base read
		continued bool
	}{
		{"shorter read", 20_000, 15_000, 15_000, 15_000, true, false},
		{"no shorter read", 20_000, 0, 20_000, 20_000, false, false},
		{"cold first call", 0, 15_000, 15_000, 0, true, false},
		{"cold, no shorter read", 0, 0, 0, 0, false, false},
		{"continued", 20_000, 0, 20_000, 0, false, true},
	} {
		for _, idle := range []bool{false, true} {
			tr := build(
				step{0, "", []Item{user(2000)}},
				step{1, "", []Item{asst(100), user(100)}},
				step{2, "", []Item{asst(100), user(100)}},
				step{3, "", []Item{asst(100), user(100)}},
				step{4, "", []Item{asst(100), user(100)}},
			)
			tr.Overhead = 25_000
			if idle {
				tr.Calls[4].Time = at(44)
			} else {
				tr.Calls[4].CwdChanged = true
			}
			tr.Calls[0].Usage.CacheRead = c.firstRead
			tr.Calls[2].Usage.CacheRead = c.thirdRead
			tr.SystemPrefix, tr.SystemPrefixSource = SystemPrefixOf(tr.Overhead, tr.Calls)
			tr.Continued = c.continued
			tr.markPrefixReads()
			if got := tr.Calls[2].BaseRead; got != c.wantBase {
				t.Errorf("%s: third call BaseRead = %v, want %v", c.name, got, c.wantBase)
			}
			res := Run(tr, policyFunc(func(*State) {}), DefaultConfig())
			want := c.cwd
			if idle {
				want = c.idle
			}
			if got := res.Calls[4].Read; got != want {
				t.Errorf("%s (idle %v): last call read %d, want %d", c.name, idle, got, want)
			}
		}
	}
}

// TestSystemPrefixRead checks that a read below the system prompt prefix
// the model takes, within the lifetime of the session's own entries,
// moves the system prompt's breakpoint there. A session whose first call
// read nothing takes the whole 25,000-token overhead as its system prompt
// prefix. Its third call comes after an idle gap and reads 15,000 (the base
// prefix: what other requests keep warm, not where the session's own
// system prompt ends); its fourth, a minute later, reads 20,000, so its
// fifth, on a new Claude Code version (which keeps only the system prompt
// prefix), reads 20,000, not 25,000. A read in a new working directory
// does not move it (such a call reads about the base prefix); a read
// within the lifetime that is also the shortest moves both.
//
// When the first call read 15,000 that other sessions kept warm (the
// model's system prompt prefix, and the base prefix), a third call that
// reads more, 20,000, and less than the overhead, within the lifetime,
// shows where the session's own system prompt ends; after an idle gap it
// says nothing of it.
func TestSystemPrefixRead(t *testing.T) {
	for _, c := range []struct {
		name         string
		third        int   // minutes after the second call
		first        int64 // the first call's read
		read3, read4 int64 // the third and fourth calls' reads
		cwd          bool
		base3, sys3  bool // the third call's BaseRead and SysRead
		sys4         bool // the fourth call's SysRead
		wantRead     int64
	}{
		{name: "read above the base", third: 8, read3: 15_000, read4: 20_000, base3: true, sys4: true, wantRead: 20_000},
		{name: "read in a new directory", third: 8, read3: 15_000, read4: 20_000, cwd: true, base3: true, wantRead: 25_000},
		{name: "within the lifetime", third: 1, read3: 15_000, read4: 20_000, base3: true, sys3: true, sys4: true, wantRead: 20_000},
		{name: "past a warm first read", third: 1, first: 15_000, read3: 20_000, sys3: true, wantRead: 20_000},
		{name: "past a warm first read, after a gap", third: 8, first: 15_000, read3: 20_000, wantRead: 15_000},
		// A fallback to the very prefix the model takes shows nothing new.
		{name: "at a warm first read", third: 1, first: 15_000, read3: 15_000, wantRead: 15_000},
	} {
		m := 1 + c.third
		tr := build(
			step{0, "", []Item{user(2000)}},
			step{1, "", []Item{asst(100), user(100)}},
			step{m, "", []Item{asst(100), user(100)}},
			step{m + 1, "", []Item{asst(100), user(100)}},
			step{m + 2, "", []Item{asst(100), user(100)}},
		)
		tr.Overhead = 25_000
		tr.Calls[0].Usage.CacheRead = c.first
		tr.Calls[2].Usage.CacheRead = c.read3
		tr.Calls[3].Usage.CacheRead = c.read4
		tr.Calls[3].CwdChanged = c.cwd
		tr.Calls[4].Version = "2.1.147"
		tr.SystemPrefix, tr.SystemPrefixSource = SystemPrefixOf(tr.Overhead, tr.Calls)
		tr.markPrefixReads()
		if got := [3]bool{tr.Calls[2].BaseRead, tr.Calls[2].SysRead, tr.Calls[3].SysRead}; got != [3]bool{c.base3, c.sys3, c.sys4} {
			t.Errorf("%s: third call BaseRead, SysRead and fourth SysRead %v, want %v", c.name, got, [3]bool{c.base3, c.sys3, c.sys4})
		}
		res := Run(tr, policyFunc(func(*State) {}), DefaultConfig())
		if got := res.Calls[4].Read; got != c.wantRead {
			t.Errorf("%s: call on the new version read %d, want %d", c.name, got, c.wantRead)
		}
	}
}

// TestSystemPrefixReadSlack: "within the lifetime" counts the clock's
// slack as the cache model does: a read 5 minutes and 20 seconds after the
// previous call still shows the session's own system prompt; a
// millisecond later it shows nothing of it.
func TestSystemPrefixReadSlack(t *testing.T) {
	life := (5*time.Minute + DefaultClockSlack).Milliseconds()
	for _, c := range []struct {
		gap  int64 // ms from the second call to the third
		want bool
	}{{life, true}, {life + 1, false}} {
		tr := build(
			step{0, "", []Item{user(2000)}},
			step{1, "", []Item{asst(100), user(100)}},
			step{2, "", []Item{asst(100), user(100)}},
		)
		tr.Overhead = 25_000
		tr.Calls[0].Usage.CacheRead = 15_000
		tr.Calls[2].Usage.CacheRead = 20_000
		tr.Calls[2].Time = tr.Calls[1].Time + c.gap
		tr.SystemPrefix, tr.SystemPrefixSource = SystemPrefixOf(tr.Overhead, tr.Calls)
		tr.markPrefixReads()
		if got := tr.Calls[2].SysRead; got != c.want {
			t.Errorf("gap %d ms: SysRead %v, want %v", c.gap, got, c.want)
		}
	}
}

// TestModelNamedInSystemPrompt: a turn that goes on on another model
// writes the new model's entries under a system prompt naming the old one,
// so the next turn on the new model reads only up to where the system
// prompt changes: the base prefix (the old model's, while the new one has
// shown none), or the system prompt's end while no model has. The old
// model's entries are not touched, and a switch between turns breaks
// nothing.
func TestModelNamedInSystemPrompt(t *testing.T) {
	const opus = "claude-opus-4-1-20250805"
	for _, c := range []struct {
		name     string
		midTurn  bool  // the switch comes on a tool call
		opusRead int64 // the recorded read of call 2, on the old model
		sonnet   int64 // the read of call 5, the next turn on the new model
		opusBack int64 // the read of call 6, back on the old model
		action   bool
	}{
		// The system prompt ends at the 25,000-token overhead; the new
		// turn reads that and writes the rest. Back on the old model, its
		// own entry at call 2's prompt still reads: 25,000 + 2,000 + 200,
		// less the 10-token uncached tail.
		{"mid-turn", true, 0, 25_000, 27_190, true},
		// The old model read a 15,000-token base prefix at call 2: the new
		// model, which has shown none, writes an entry there too and falls
		// back to it.
		{"mid-turn, a base prefix shown", true, 15_000, 15_000, 27_190, true},
		// Switched at a turn: call 5 reads call 4's whole prompt (25,000 +
		// 2,000 + 3 × 200 − 10).
		{"between turns", false, 0, 27_590, 27_190, false},
	} {
		// Call 2 comes after an idle gap: its read shows the base prefix
		// only, not where the session's own system prompt ends.
		tr := build(
			step{0, opus, []Item{user(2000)}},
			step{10, opus, []Item{asst(100), user(100)}},
			step{11, "", []Item{asst(100), user(100)}},
			step{12, "", []Item{asst(100), user(100)}},
			step{13, "", []Item{asst(100), user(100)}},
			step{14, opus, []Item{asst(100), user(100)}},
		)
		tr.Overhead = 25_000
		tr.Calls[1].Usage.CacheRead = c.opusRead
		tr.SystemPrefix, tr.SystemPrefixSource = SystemPrefixOf(tr.Overhead, tr.Calls)
		tr.Calls[0].NewTurn, tr.Calls[2].NewTurn, tr.Calls[4].NewTurn, tr.Calls[5].NewTurn = true, !c.midTurn, true, true
		tr.markPrefixReads()
		res := Run(tr, policyFunc(func(*State) {}), DefaultConfig())
		if got := res.Calls[4].Read; got != c.sonnet {
			t.Errorf("%s: call 5 read %d, want %d", c.name, got, c.sonnet)
		}
		if got := res.Calls[5].Read; got != c.opusBack {
			t.Errorf("%s: call 6 read %d, want %d", c.name, got, c.opusBack)
		}
		if got := slices.Contains(res.Calls[4].Actions, "the system prompt names the model the previous turn switched to"); got != c.action {
			t.Errorf("%s: call 5 actions %q", c.name, res.Calls[4].Actions)
		}
	}
}

// replayer is a policy that models Claude Code: it replays the user's
// /compact.
type replayer struct{ policyFunc }

func (replayer) ReplaysManual() bool { return true }

// A /compact the user ran is replayed by the policies that model Claude
// Code (and by every policy, or none, as Config.ManualCompactions says),
// whether a 2.x boundary or a 1.0.x summary marks it, but not the summary
// a file goes on from; it is not the policy's first compaction.
func TestManualCompactionReplayed(t *testing.T) {
	comp := replay.Compaction{Kind: replay.CompactFull, Trigger: "manual"}
	manual := func() *Trace {
		tr := tinyTrace()
		c := comp
		tr.Calls[2].RealCompact = &c
		return tr
	}
	auto := policyFunc(func(s *State) {
		if s.Call == 2 && !s.e.compacted {
			s.Compact(Compaction{From: 1, To: len(s.Items), Label: "auto"})
		}
	})
	summary := replay.Compaction{Kind: replay.CompactSummaryOnly, Trigger: "manual", TriggerFrom: replay.TriggerCommand}
	continued := summary
	continued.Continued = true
	tests := []struct {
		name     string
		p        Policy
		mode     string
		comp     *replay.Compaction
		replayed bool
	}{
		{"Claude Code's, by default", replayer{auto}, "", nil, true},
		{"another policy, by default", auto, "", nil, false},
		{"another policy, all", auto, ManualAll, nil, true},
		{"Claude Code's, none", replayer{auto}, ManualNone, nil, false},
		{"a 1.0.x /compact", replayer{auto}, "", &summary, true},
		{"the summary a file goes on from", replayer{auto}, ManualAll, &continued, false},
	}
	for _, tt := range tests {
		cfg := DefaultConfig()
		if tt.mode != "" {
			cfg.ManualCompactions = tt.mode
		}
		comp = replay.Compaction{Kind: replay.CompactFull, Trigger: "manual"}
		if tt.comp != nil {
			comp = *tt.comp
		}
		res := Run(manual(), tt.p, cfg)
		acts := res.Calls[2].Actions
		if got := len(acts) > 0 && strings.HasPrefix(acts[0], "compact (manual)"); got != tt.replayed {
			t.Errorf("%s: actions %q, replayed %v, want %v", tt.name, acts, got, tt.replayed)
		}
		// The policy's own compaction follows only when nothing was
		// replayed; it is the first the policy decided.
		wantAuto := 3
		if tt.replayed {
			wantAuto = 0
		}
		if res.Compacted.FirstAuto != wantAuto || res.Metrics.FirstCompaction != 3 {
			t.Errorf("%s: first auto %d, first %d; want %d, 3", tt.name, res.Compacted.FirstAuto, res.Metrics.FirstCompaction, wantAuto)
		}
	}
}

// A recorded prompt below what the messages can give up fits by the
// context before the first message, past the system prompt's breakpoint;
// at a restart that part gives first (a new process builds it anew).
func TestFitShrinksOverhead(t *testing.T) {
	tests := []struct {
		name     string
		restart  bool
		recorded int64
		want     []int64 // overhead, then the items of calls 1 and 2
	}{
		// Call 2's context is 1,000 + 500 + 50 + 3,000 + 50 + 2,000 =
		// 6,600. Recorded 3,100: the messages give 3,500, newest first
		// (2,000, 50, 1,450 of the 3,000), the overhead nothing.
		{"messages first", false, 3100, []int64{1000, 500, 50, 1550, 0, 0}},
		// Recorded 600: the messages give all 5,600 they have, the overhead
		// the 400 it has past the breakpoint at 600.
		{"then the overhead", false, 600, []int64{600, 0, 0, 0, 0, 0}},
		// At a restart the overhead gives its 400 first, then the messages.
		{"restart", true, 3100, []int64{600, 500, 50, 1950, 0, 0}},
	}
	for _, tt := range tests {
		tr := tinyTrace()
		tr.SystemPrefix = 600
		tr.Calls[2].Restarted = tt.restart
		tr.Calls[2].Usage = replay.Usage{Input: 10, CacheWrite5m: tt.recorded - 10, Output: 50}
		var got []int64
		p := observer{policyFunc(func(s *State) {
			if s.Call == 2 {
				s.e.fit(tt.recorded, true, tt.restart)
				for _, it := range s.Items {
					got = append(got, it.Tokens)
				}
			}
		})}
		res := Run(tr, p, DefaultConfig())
		if !reflect.DeepEqual(got, tt.want) || res.Calls[2].Prompt != tt.recorded {
			t.Errorf("%s: items %v, prompt %d; want %v, %d", tt.name, got, res.Calls[2].Prompt, tt.want, tt.recorded)
		}
	}
}

// observer runs a function under the observed run's rules.
type observer struct{ policyFunc }

func (observer) Observed() bool { return true }

// TestAllowedToolsBreak checks the allowed-tools rule: from 1.0.66 until
// 2.1.0 (claudecode.AllowedTools) a turn after one that first used a tool
// that asks (TraceCall.AfterAsk) and whose recorded read fell back into
// the tools and system prompt (above 0, below the context before the first
// message) had its system prompt changed where the read stopped: every run
// breaks there and reads that prefix. A session whose first call read
// 20,000 (its system prompt prefix, with no shorter read) starts a turn at
// its fourth call, a minute after the third; without the rule the model
// reads the whole previous prompt. A read past the base prefix the model
// knows breaks too (a warm first call's read can be shorter than the
// base, and a new process can bring other tools); a read past the context
// before the first message, a turn after none that asks, and a version
// that no longer lists the allowed tools do not break.
func TestAllowedToolsBreak(t *testing.T) {
	for _, c := range []struct {
		name     string
		version  string
		afterAsk bool
		read     int64 // the fourth call's recorded read
		want     bool  // AllowedChanged
	}{
		{"read at the base prefix", "1.0.85", true, 20_000, true},
		{"read below it", "1.0.85", true, 18_000, true},
		{"read past it, inside the system prompt", "1.0.85", true, 22_000, true},
		{"read past the context before the first message", "1.0.85", true, 25_300, false},
		{"after no tool that asks", "1.0.85", false, 20_000, false},
		{"a version without the list", "2.1.0", true, 20_000, false},
	} {
		tr := build(
			step{0, "", []Item{user(2000)}},
			step{1, "", []Item{asst(100), user(100)}},
			step{2, "", []Item{asst(100), user(100)}},
			step{3, "", []Item{asst(100), user(100)}},
			step{4, "", []Item{asst(100), user(100)}},
		)
		tr.Overhead = 25_000
		for i := range tr.Calls {
			tr.Calls[i].Version = c.version
		}
		tr.Calls[0].Usage.CacheRead = 20_000
		tr.Calls[3].NewTurn, tr.Calls[3].AfterAsk = true, c.afterAsk
		tr.Calls[3].Usage.CacheRead = c.read
		tr.SystemPrefix, tr.SystemPrefixSource = SystemPrefixOf(tr.Overhead, tr.Calls)
		tr.markPrefixReads()
		if got := tr.Calls[3].AllowedChanged; got != c.want {
			t.Errorf("%s: AllowedChanged = %v, want %v", c.name, got, c.want)
		}
		// Any policy, not only the observed one, breaks there.
		for _, p := range []Policy{policyFunc(func(*State) {}), policyFunc(func(s *State) {
			if s.Call == 1 {
				s.Drop([]int{0}, "test") // a policy that rewrites the conversation
			}
		})} {
			res := Run(tr, p, DefaultConfig())
			got := res.Calls[3]
			broke := slices.Contains(got.Actions, "a tool allowed for good changed the system prompt's list of allowed tools")
			if broke != c.want || c.want && got.Read != c.read || !c.want && got.Read <= 20_000 {
				t.Errorf("%s: fourth call read %d, actions %q; want the break %v", c.name, got.Read, got.Actions, c.want)
			}
		}
	}
}

// TestAllowedToolsBreakAfterRestart checks that a resumed conversation's
// new process, whose tools and system prompt are its own, moves where the
// tools and system prompt end: its first call (TraceCall.Restarted) adds
// 8,000 tokens more than Claude Code's estimate of its messages, so a turn
// after one that first used a tool that asks and that fell back to 30,000
// tokens, past the first prompt's 25,000 of overhead, fell back inside
// the new process's and breaks there; without the restart it does not.
func TestAllowedToolsBreakAfterRestart(t *testing.T) {
	for _, restart := range []bool{true, false} {
		grown := user(8_100)
		grown.Est = 100 // the new process's overhead, not the message
		tr := build(
			step{0, "", []Item{user(2000)}},
			step{1, "", []Item{asst(100), user(100)}},
			step{2, "", []Item{asst(100), grown}},
			step{3, "", []Item{asst(100), user(100)}},
			step{4, "", []Item{asst(100), user(100)}},
		)
		tr.Overhead = 25_000
		for i := range tr.Calls {
			tr.Calls[i].Version = "1.0.85"
		}
		tr.Calls[2].Restarted = restart
		tr.Calls[3].NewTurn, tr.Calls[3].AfterAsk = true, true
		tr.Calls[3].Usage.CacheRead = 30_000
		tr.markPrefixReads()
		if got := tr.Calls[3].AllowedChanged; got != restart {
			t.Errorf("restarted %v: AllowedChanged = %v, want %v", restart, got, restart)
		}
	}
}

// A call whose recorded read fell back into the tools and system prompt,
// on the previous call's model, and whose items carry at least twice
// their estimate grew the tools (TraceCall.ToolsGrowth: 5,200 tokens over
// an estimate of 200); a full compaction keeps that growth ahead of the
// conversation unless tools-growth-min turns it off.
func TestToolsGrowth(t *testing.T) {
	mk := func(read int64) *Trace {
		grown := user(5_100)
		grown.Est = 100 // an MCP server's tools, not the message
		tr := build(
			step{0, "", []Item{user(2000)}},
			step{1, "", []Item{asst(100), user(100)}},
			step{2, "", []Item{asst(100), grown}},
			step{3, "", []Item{asst(100), user(100)}},
		)
		tr.Calls[2].Usage.CacheRead = read
		tr.markPrefixReads()
		return tr
	}
	for _, c := range []struct {
		read, want int64
	}{{500, 5_000}, {0, 0}, {1_000, 0}} {
		if got := mk(c.read).Calls[2].ToolsGrowth; got != c.want {
			t.Errorf("read %d: ToolsGrowth %d, want %d", c.read, got, c.want)
		}
	}
	for _, c := range []struct {
		min, want int64
	}{{0, 1_000 + 5_000}, {-1, 1_000}, {5_001, 1_000}} {
		var overhead int64
		p := policyFunc(func(s *State) {
			if s.Call == 3 {
				s.Compact(Compaction{From: 1, To: len(s.Items), Label: "test"})
				overhead = s.Items[0].Tokens
			}
		})
		cfg := DefaultConfig()
		cfg.ToolsGrowthMin = c.min
		Run(mk(500), p, cfg)
		if overhead != c.want {
			t.Errorf("tools-growth-min %d: overhead after the compaction %d, want %d", c.min, overhead, c.want)
		}
	}
}
