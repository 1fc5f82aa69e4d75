package simulate

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/replay"
)

// tinyTrace is a three-call session: overhead 1,000; each call appends a
// tool result (Read of a.go) and an assistant message.
func tinyTrace() *Trace {
	calls := make([]replay.Call, 3)
	for i := range calls {
		calls[i].Msg = i
	}
	at := func(m int) int64 { return 1_700_000_000_000 + int64(m)*60_000 }
	tr := &Trace{
		Session: "tiny", Thread: &replay.Thread{Calls: calls}, Overhead: 1000, Ratio: 1, Method: "usage", TTL: 5 * time.Minute,
		Calls: []TraceCall{
			{Index: 0, Time: at(0), Model: "claude-sonnet-4-5-20250929", Version: "2.1.146", Clean: true,
				Usage: replay.Usage{Input: 10, CacheWrite5m: 1490, Output: 50},
				Items: []Item{{Kind: KindUser, Tokens: 500, Est: 500, Msg: 0, Text: "fix a.go", Exact: true}}},
			{Index: 1, Time: at(1), Model: "claude-sonnet-4-5-20250929", Version: "2.1.146", Clean: true,
				Usage: replay.Usage{Input: 10, CacheWrite5m: 3050, CacheRead: 1490, Output: 50},
				Items: []Item{
					{Kind: KindToolUse, Tokens: 50, Est: 50, Msg: 0, Tool: "Read", ToolID: "t1", Path: "a.go", Exact: true},
					{Kind: KindToolResult, Tokens: 3000, Est: 3000, Msg: 1, Tool: "Read", ToolID: "t1", Path: "a.go", Exact: true, File: FileSize{Est: 3000, RawEst: 2800}}}},
			{Index: 2, Time: at(2), Model: "claude-sonnet-4-5-20250929", Version: "2.1.146", Clean: true,
				Usage: replay.Usage{Input: 10, CacheWrite5m: 2050, CacheRead: 4540, Output: 50},
				Items: []Item{
					{Kind: KindToolUse, Tokens: 50, Est: 50, Msg: 1, Tool: "Read", ToolID: "t2", Path: "b.go", Exact: true},
					{Kind: KindToolResult, Tokens: 2000, Est: 2000, Msg: 2, Tool: "Read", ToolID: "t2", Path: "b.go", Exact: true, File: FileSize{Est: 2000, RawEst: 1900}}}},
		},
	}
	return tr
}

type nothing struct{}

func (nothing) Name() string   { return "nothing" }
func (nothing) Before(*State)  {}
func (nothing) Observed() bool { return true }

type clearFirst struct{}

func (clearFirst) Name() string { return "clear-first" }
func (clearFirst) Before(s *State) {
	if s.Call == 2 {
		for j, it := range s.Items {
			if it.ToolID == "t1" && it.Kind == KindToolResult {
				s.Clear([]int{j}, "test")
			}
		}
	}
}

func TestRunObservedAndClear(t *testing.T) {
	tr := tinyTrace()
	res := Run(tr, nothing{}, DefaultConfig())
	// Prompts: 1,000 + 500 = 1,500; + 3,050 = 4,550; + 2,050 = 6,600: the recorded ones.
	// Reads: 0, 1,490 (breakpoint of call 1 = 1,500 − 10), 4,540; writes the rest minus the 10-token tail.
	want := []struct{ prompt, read, write int64 }{{1500, 0, 1490}, {4550, 1490, 3050}, {6600, 4540, 2050}}
	for i, w := range want {
		c := res.Calls[i]
		if c.Prompt != w.prompt || c.Recorded != w.prompt || c.Read != w.read || c.Write5m != w.write || c.Input != 10 {
			t.Errorf("observed call %d: %+v, want %+v", i+1, c, w)
		}
	}
	res = Run(tinyTrace(), clearFirst{}, DefaultConfig())
	// Before call 3, t1's 3,000-token result becomes the placeholder:
	// round(33/4) = 8 tokens at ratio 1, freeing 2,992. It sat at position
	// 1,550 (overhead 1,000 + user 500 + tool_use 50), so the cached 4,540
	// prefix is gone; call 2's 1,490 prefix ends before the edit and is
	// read: prompt 6,600 − 2,992 = 3,608, breakpoint 3,598, write
	// 3,598 − 1,490 = 2,108.
	c := res.Calls[2]
	if c.Prompt != 3608 || c.Read != 1490 || c.Write5m != 2108 {
		t.Errorf("after clearing: %+v", c)
	}
	// Cleared marks the one call the clearing came before.
	for i, c := range res.Calls {
		if c.Cleared != (i == 2) {
			t.Errorf("call %d: Cleared %v", i+1, c.Cleared)
		}
	}
	// Claude Code's break rule compares with the previous call's read
	// (1,490): no drop, no break.
	if res.Metrics.Clearings != 1 || res.Metrics.TokensFreed != 2992 || res.Metrics.CacheBreaks != 0 {
		t.Errorf("metrics %+v", res.Metrics)
	}
	// With server-side cache edits the cached prefixes survive the edit,
	// shortened by what it removed. Call 2's breakpoint (4,540) fell inside
	// the cleared result, so its prefix now ends where that result starts,
	// 1,550 (it cannot end inside the placeholder): read 1,550, write
	// 3,598 − 1,550 = 2,048.
	cfg := DefaultConfig()
	cfg.CacheEdits = true
	res = Run(tinyTrace(), clearFirst{}, cfg)
	if c := res.Calls[2]; c.Read != 1550 || c.Write5m != 2048 {
		t.Errorf("with cache edits: %+v", c)
	}
}

type compactBefore3 struct{}

func (compactBefore3) Name() string { return "compact-before-3" }
func (compactBefore3) Before(s *State) {
	if s.Call == 2 {
		s.Compact(Compaction{From: 1, To: len(s.Items), Restore: true, Label: "test"})
	}
}

func TestRunCompaction(t *testing.T) {
	res := Run(tinyTrace(), compactBefore3{}, DefaultConfig())
	// Before call 3 the context is overhead 1,000 + 500 + 50 + 3,000 + 50 +
	// 2,000 = 6,600; items 1..5 (5,600 tokens) are summarised.
	// Summary: 1,200 + 5,600 × 8 / 1,000 = 1,244 (within 1,200–4,500).
	// Restored: b.go then a.go, most recent first, each under 5,000 and
	// 5,000 in all under 50,000; each sent with Claude Code's notes around
	// it, 172 characters and its 4-character path: 44 more, 2,044 and
	// 3,044.
	// Context: 1,000 + 1,244 + 2,044 + 3,044 = 7,332.
	c := res.Calls[2]
	if c.Prompt != 7332 || !c.Compacted {
		t.Fatalf("call 3: %+v", c)
	}
	// The compaction edits from position 1,000 on, so only a system-prompt
	// prefix could survive, and this 1,000-token one is below Sonnet's
	// 1,024-token minimum: it never had an entry. Read 0, write 7,322.
	if c.Read != 0 || c.Write5m != 7322 {
		t.Errorf("call 3 cache: read %d write %d", c.Read, c.Write5m)
	}
	// The summarizer forks the 6,600-token conversation: it reads the
	// 4,540 prefix call 2 cached, writes 6,600 − 4,540 + 1,000 (its prompt)
	// = 3,060, and outputs the 1,244-token summary. Sonnet 4.5:
	// 4,540 × 0.30 + 3,060 × 3.75 + 1,244 × 15 = 1,362 + 11,475 + 18,660
	// = 31,497 µ$.
	if len(res.Summaries) != 1 {
		t.Fatalf("summaries: %+v", res.Summaries)
	}
	s := res.Summaries[0]
	if s.Read != 4540 || s.Write != 3060 || s.Output != 1244 || s.Cost != 0.031497 || s.BeforeCall != 3 {
		t.Errorf("summary call %+v", s)
	}
	m := res.Metrics
	// Freed: 5,600 − (1,244 + 5,088) = −732: restoring both files costs
	// more than the tiny history it replaced.
	if m.Compactions != 1 || m.TokensFreed != -732 || m.SummaryTokens != 1244 || m.FirstCompaction != 3 ||
		m.UsersVerbatim != 1 || m.UsersSummarised != 0 || m.LikelyRereads != 0 {
		t.Errorf("metrics %+v", m)
	}
}

func TestLifetimes(t *testing.T) {
	const m5, h1, h3, h6 = 300_000, 3_600_000, 10_800_000, 21_600_000
	cfg := Config{SharedPrefixTTL: 6 * time.Hour, SharedPrefixFrom: "2.0.0", GatewayTTL: 3 * time.Hour}
	tests := []struct {
		name           string
		ttl, override  time.Duration
		warm           bool // the session's first call read from the cache
		model, version string
		entries, sys   int64
	}{
		{"cold start: one lifetime", 5 * time.Minute, 0, false, "claude-sonnet-4-5-20250929", "2.0.76", m5, m5},
		{"kept warm: the system prompt lives six hours", 5 * time.Minute, 0, true, "claude-sonnet-4-5-20250929", "2.0.76", m5, h6},
		{"kept warm, 1.0.x too", 5 * time.Minute, 0, true, "claude-opus-4-1-20250805", "1.0.89", m5, h6},
		{"kept warm, no version", 5 * time.Minute, 0, true, "claude-sonnet-4-5-20250929", "", m5, h6},
		{"1h writes, cold start", time.Hour, 0, false, "claude-sonnet-4-5-20250929", "2.1.146", h1, h1},
		{"1h writes, kept warm", time.Hour, 0, true, "claude-sonnet-4-5-20250929", "2.1.146", h1, h6},
		{"gateway", 5 * time.Minute, 0, true, "deepseek-v4-flash", "2.1.120", h3, h3},
		{"gateway, --ttl", 10 * time.Minute, 10 * time.Minute, false, "deepseek-v4-flash", "2.1.120", 600_000, 600_000},
	}
	for _, tt := range tests {
		c := cfg
		c.TTL = tt.override
		e := &engine{ttl: tt.ttl, cfg: c, keptWarm: tt.warm, res: &Result{}}
		entries, sys := e.lifetimes(&TraceCall{Model: tt.model, Version: tt.version})
		if entries != tt.entries || sys != tt.sys {
			t.Errorf("%s: %d, %d ms; want %d, %d", tt.name, entries, sys, tt.entries, tt.sys)
		}
		// The run says it kept the prefix warm only where it did.
		if got, want := e.res.KeptWarm(), sys > entries; got != want {
			t.Errorf("%s: KeptWarm %v, want %v", tt.name, got, want)
		}
	}
}

// TestGatewayCachesWholePrompt checks the cache of a model reached
// through a compatible endpoint: each request's whole prompt is cached, in
// 64-token units, so the next call reads the previous prompt rounded down
// (3,000 → 2,944; 3,200 → 3,200). An endpoint whose usage reports as input
// only what it did not read (MissOnly: a call's input is below its read)
// has the prompt input + read; one whose input counts the whole prompt has
// input + read count the read twice, and its real prompt is the input.
// Either way the model reads what the endpoint did. Before, the model
// took the recorded input as the uncached tail after a breakpoint, as in
// Anthropic's usage, and each call read only what the one before had read.
func TestGatewayCachesWholePrompt(t *testing.T) {
	const ds = "deepseek-v4-flash"
	for _, c := range []struct {
		name     string
		missOnly bool
		adds     []int64 // tokens each call adds to the prompt
		usage    []replay.Usage
	}{
		{"input is the miss", true, []int64{2000, 200, 230},
			[]replay.Usage{{Input: 3000}, {Input: 256, CacheRead: 2944}, {Input: 230, CacheRead: 3200}}},
		{"input is the whole prompt", false, []int64{2000, 3144, 486},
			[]replay.Usage{{Input: 3000}, {Input: 3200, CacheRead: 2944}, {Input: 3430, CacheRead: 3200}}},
	} {
		tr := build(
			step{0, ds, []Item{user(c.adds[0])}},
			step{1, ds, []Item{user(c.adds[1])}},
			step{2, ds, []Item{user(c.adds[2])}},
		)
		for i := range tr.Calls {
			tr.Calls[i].Usage = c.usage[i]
		}
		if tr.MissOnlyInput = MissOnly(tr.Calls); tr.MissOnlyInput != c.missOnly {
			t.Errorf("%s: MissOnly = %v", c.name, tr.MissOnlyInput)
		}
		res := Run(tr, policyFunc(func(*State) {}), DefaultConfig())
		for i, want := range []int64{0, 2944, 3200} {
			if got := res.Calls[i].Read; got != want || res.Calls[i].Prompt != c.usage[i].Prompt() {
				t.Errorf("%s: call %d read %d of %d, want %d of %d", c.name, i+1, got, res.Calls[i].Prompt, want, c.usage[i].Prompt())
			}
		}
	}
}

// TestGatewayHasNoBreakpoint: after a compaction rewrites the messages, a
// Claude call reads the system prompt prefix, cached at Claude Code's
// breakpoint, and a call through a compatible endpoint reads nothing: the
// endpoint caches whole prompts, and none of those is a prefix of the new
// one. In a DeepSeek transcript here the calls after each of 4 manual
// compactions read nothing, where the model had read 22,875.
func TestGatewayHasNoBreakpoint(t *testing.T) {
	compactThird := policyFunc(func(s *State) {
		if s.Call == 2 {
			s.Compact(Compaction{From: 1, To: len(s.Items), Label: "test"})
		}
	})
	for _, c := range []struct {
		model string
		want  int64
	}{{sonnet46, 5000}, {"deepseek-v4-flash", 0}} {
		tr := build(
			step{0, c.model, []Item{user(2000)}},
			step{1, c.model, []Item{asst(100), user(100)}},
			step{2, c.model, []Item{asst(100), user(100)}},
		)
		tr.Overhead = 5000
		for i := range tr.Calls {
			p := tr.Calls[i].Usage.Prompt() + 4000
			tr.Calls[i].Usage = replay.Usage{Input: 10, CacheWrite5m: p - 10}
			if !claudecode.BillsCacheWrites(c.model) && i > 0 {
				tr.Calls[i].Usage = replay.Usage{Input: 200, CacheRead: p - 200} // input below the read: the miss only
			} else if !claudecode.BillsCacheWrites(c.model) {
				tr.Calls[i].Usage = replay.Usage{Input: p}
			}
		}
		if tr.MissOnlyInput = MissOnly(tr.Calls); tr.MissOnlyInput == claudecode.BillsCacheWrites(c.model) {
			t.Fatalf("%s: MissOnly %v", c.model, tr.MissOnlyInput)
		}
		res := Run(tr, compactThird, DefaultConfig())
		if got := res.Calls[2].Read; got != c.want || !res.Calls[2].Compacted {
			t.Errorf("%s: the call after the compaction read %d (compacted %v), want %d", c.model, got, res.Calls[2].Compacted, c.want)
		}
	}
}

// TestZeroConfigIsDefault: the zero Config means every default.
func TestZeroConfigIsDefault(t *testing.T) {
	if got, want := (Config{}).withDefaults(), DefaultConfig(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Config{} with defaults = %+v, want %+v", got, want)
	}
	tr := tinyTrace()
	a, b := Run(tr, nothing{}, Config{}), Run(tr, nothing{}, DefaultConfig())
	if !reflect.DeepEqual(a, b) {
		t.Errorf("Run with Config{} differs from DefaultConfig():\n%+v\n%+v", a, b)
	}
	// A negative restoration bound restores nothing; zero is the default.
	if c := (Config{RestoreFiles: -1}).withDefaults(); c.RestoreFiles != -1 || c.RestoreFileTokens != claudecode.RestoreFileTokens.Value {
		t.Errorf("RestoreFiles -1: %+v", c)
	}
}

// TestSideRequestKeepsCacheWarm: an away summary sent between two calls
// reads the conversation's cached prefix and so keeps it alive.
func TestSideRequestKeepsCacheWarm(t *testing.T) {
	at := func(m int) int64 { return 1_700_000_000_000 + int64(m)*60_000 }
	for _, tt := range []struct {
		name string
		side []replay.SideRequest
		read int64
	}{
		// Call 1's entries (1,490 and 4,540) expire at minute 6: the
		// third call, at minute 9, reads nothing.
		{"no side request", nil, 0},
		// A recap at minute 5 refreshes both until minute 10: the third
		// call reads call 1's breakpoint, 4,540.
		{"away summary at minute 5", []replay.SideRequest{{Kind: "away_summary", Time: at(5), CallsBefore: 2}}, 4540},
		// At minute 7 they had already expired: nothing to refresh.
		{"away summary at minute 7", []replay.SideRequest{{Kind: "away_summary", Time: at(7), CallsBefore: 2}}, 0},
	} {
		tr := tinyTrace()
		tr.Calls[2].Time = at(9)
		tr.Calls[2].Side = tt.side
		res := Run(tr, nothing{}, Config{})
		if got := res.Calls[2].Predicted.Read; got != tt.read {
			t.Errorf("%s: third call reads %d, want %d", tt.name, got, tt.read)
		}
	}
}

// Runs share their context slices through a pool: a run after runs of
// other sessions and policies gives what the same run gives first.
func TestRunsIndependentOfPool(t *testing.T) {
	srcs, errs := replay.Discover([]string{"../fixtures/testdata/projects"})
	if len(errs) > 0 || len(srcs) < 2 {
		t.Fatalf("fixtures: %d sources, %v", len(srcs), errs)
	}
	var trs []*Trace
	for _, src := range srcs {
		s, err := replay.Load(src, replay.Options{})
		if err != nil {
			t.Fatal(err)
		}
		trs = append(trs, Prepare(s))
	}
	run := func(tr *Trace, spec string) string {
		p := Policy(nothing{})
		if spec == "compacting" {
			// a summary of all but the last two items every seventh call
			p = policyFunc(func(s *State) {
				if s.Call%7 == 6 && len(s.Items) > 4 {
					s.Compact(Compaction{From: 1, To: len(s.Items) - 2, Label: "test"})
				}
			})
		}
		b, err := json.Marshal(Run(tr, p, DefaultConfig()))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	// The smallest session last, after the largest, so that it gets the
	// largest's slice from the pool.
	items := func(tr *Trace) (n int) {
		for _, c := range tr.Calls {
			n += len(c.Items)
		}
		return n
	}
	slices.SortFunc(trs, func(a, b *Trace) int { return items(b) - items(a) })
	small := trs[len(trs)-1]
	first := run(small, "compacting")
	for _, tr := range trs {
		run(tr, "compacting")
		run(tr, "observed")
	}
	if again := run(small, "compacting"); again != first {
		t.Errorf("%s: a run after other runs differs from the first", small.Session)
	}
}

// TestCallTTL: each call writes entries with the lifetime its recorded
// writes show, so a session that switches from 1-hour to 5-minute entries
// still reads, half an hour later, what it wrote for an hour. --ttl
// overrides every call.
func TestCallTTL(t *testing.T) {
	tr := build(
		step{0, "", []Item{user(2000)}},           // 3,000: writes 2,990 for an hour
		step{1, "", []Item{asst(100), user(100)}}, // 3,200: reads 2,990, writes 200 for 5 minutes
		step{31, "", []Item{asst(100), user(100)}},
	)
	tr.Calls[0].Usage.CacheWrite1h, tr.Calls[0].Usage.CacheWrite5m = tr.Calls[0].Usage.CacheWrite5m, 0
	res := Run(tr, policyFunc(func(*State) {}), DefaultConfig())
	if c := res.Calls[0]; c.Write1h != 2990 || c.Write5m != 0 {
		t.Errorf("call 1 wrote %d (1h) and %d (5m), want 2990 and 0", c.Write1h, c.Write5m)
	}
	if c := res.Calls[1]; c.Write1h != 0 || c.Write5m != 200 {
		t.Errorf("call 2 wrote %d (1h) and %d (5m), want 0 and 200", c.Write1h, c.Write5m)
	}
	if got := res.Calls[2].Read; got != 2990 {
		t.Errorf("call 3 read %d, want 2990 (the 1-hour entry)", got)
	}
	cfg := DefaultConfig()
	cfg.TTL = 5 * time.Minute
	if got := Run(tr, policyFunc(func(*State) {}), cfg).Calls[2].Read; got != 0 {
		t.Errorf("--ttl 5m: call 3 read %d, want 0", got)
	}
}

// TestEngineMemos: the answers the engine keeps for each call's version
// and limits are those it would work out afresh, whatever the order of the
// questions and past the eight limits it keeps.
func TestEngineMemos(t *testing.T) {
	e := &engine{cfg: DefaultConfig()}
	versions := []string{"2.1.146", "", "1.0.89", "2.1.19", "2.1.146", "2.0.0", "", "2.1.41"}
	for _, v := range versions {
		from := func(cut string) bool { return v == "" || claudecode.CompareVersions(v, cut) >= 0 }
		want := versionRules{version: v, estimateAfter: from(e.cfg.EstimateFrom), estimateResponse: from(e.cfg.EstimateResponseFrom),
			finalOutput:  claudecode.CountsFinalOutput(v, e.cfg.FinalOutputUntil, e.cfg.FinalOutputFrom),
			unmarked:     claudecode.Before(v, e.cfg.FinalOutputUntil),
			count:        claudecode.CountRulesFor(v, e.cfg.CountCutoffs),
			sharedPrefix: claudecode.CompareVersions(v, e.cfg.SharedPrefixFrom) >= 0}
		if got := e.rulesOf(v); got != want {
			t.Errorf("rulesOf(%q) = %+v, want %+v", v, got, want)
		}
	}
	models := []string{"claude-sonnet-4-6", "claude-sonnet-4-6[1m]", "claude-opus-4-5-20251101"}
	params := []claudecode.LimitParams{{}, {Pct: 60}, {Window: 500_000}, {AutoCompactOff: true}}
	for round := range 2 {
		for _, p := range params {
			for _, m := range models {
				for _, v := range []string{"1.0.89", "2.1.146"} {
					if got, want := e.limitsFor(p, m, v), claudecode.LimitsFor(p, m, v); got != want {
						t.Errorf("round %d: limitsFor(%+v, %s, %s) = %+v, want %+v", round, p, m, v, got, want)
					}
				}
			}
		}
	}
	if len(e.limitsMemo) > 8 {
		t.Errorf("%d limits kept, want at most 8", len(e.limitsMemo))
	}
}
