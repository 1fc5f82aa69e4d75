package simulate

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/replay"
)

// edgeCacheMin is m minutes in ms.
func edgeCacheMin(m int) int64 { return int64(m) * 60_000 }

// edgeCachePositions lists the prefixes the cache holds for its current
// model, shortest first.
func edgeCachePositions(c *cache) []int64 {
	var ps []int64
	for _, e := range c.entries {
		ps = append(ps, e.pos)
	}
	slices.Sort(ps)
	return ps
}

// edgeCacheReq is one request on model "m" and what it should price.
type edgeCacheReq struct {
	at                    int64
	prompt, tail, sys     int64
	read, write, uncached int64
}

func (r edgeCacheReq) check(t *testing.T, name string, c *cache, minCache int64) {
	t.Helper()
	read, write, uncached := c.request(r.at, "m", r.prompt, r.tail, r.sys, minCache)
	if read != r.read || write != r.write || uncached != r.uncached {
		t.Errorf("%s: request at %d ms: read %d write %d uncached %d, want %d %d %d",
			name, r.at, read, write, uncached, r.read, r.write, r.uncached)
	}
	// Every prompt token is read, written or sent uncached, once.
	if read+write+uncached != r.prompt {
		t.Errorf("%s: request at %d ms: read+write+uncached = %d, want the prompt's %d",
			name, r.at, read+write+uncached, r.prompt)
	}
}

// TestEdgeCacheRequestEdges pins what a request reads and writes at the
// edges of the model: the minimum cacheable prefix, an entry read exactly
// to its end (which a read refreshes with the lifetime it was written
// with), and a prompt too short to cache that still reads what it can.
// Lifetimes are 5 minutes unless a step sets ttl; minCache is 1,024.
func TestEdgeCacheRequestEdges(t *testing.T) {
	type step struct {
		ttl time.Duration // when set, the lifetime this and later writes take
		req edgeCacheReq
	}
	m := edgeCacheMin
	cases := []struct {
		name  string
		warm  int64 // a prefix cached before the conversation, live at 0
		steps []step
	}{
		// Breakpoint 1,034 − 10 = 1,024, exactly the minimum: cached, and
		// the next request reads it.
		{"breakpoint at the minimum", 0, []step{
			{0, edgeCacheReq{0, 1_034, 10, 0, 0, 1_024, 10}},
			{0, edgeCacheReq{m(1), 2_010, 10, 0, 1_024, 976, 10}},
		}},
		// Reading the 5,000 entry to its end at minute 4 refreshes it to
		// minute 9, so minute 8 reads it again (written at 0, it would have
		// gone at minute 5).
		{"a read refreshes the entry it ends at", 0, []step{
			{0, edgeCacheReq{0, 5_010, 10, 0, 0, 5_000, 10}},
			{0, edgeCacheReq{m(4), 5_010, 10, 0, 5_000, 0, 10}},
			{0, edgeCacheReq{m(8), 5_010, 10, 0, 5_000, 0, 10}},
		}},
		// Written for an hour; the session then writes 5-minute entries. A
		// request that reads the entry whole writes nothing and leaves its
		// hour: 30 minutes later it is still read.
		{"a whole read keeps the entry's lifetime", 0, []step{
			{time.Hour, edgeCacheReq{0, 10_010, 10, 0, 0, 10_000, 10}},
			{5 * time.Minute, edgeCacheReq{m(1), 10_010, 10, 0, 10_000, 0, 10}},
			{0, edgeCacheReq{m(31), 10_010, 10, 0, 10_000, 0, 10}},
		}},
		// A 640-token prefix is warm (a gateway, which caches in 64-token
		// units, read it before the conversation); a 910-token prompt
		// (breakpoint 900, under the minimum) writes nothing, reads the 640
		// and sends the other 270 uncached.
		{"short prompt reads what is warm", 640, []step{
			{0, edgeCacheReq{0, 910, 10, 0, 640, 0, 270}},
		}},
	}
	for _, tc := range cases {
		c := newCache(5*time.Minute, MaxCacheEntries, 0)
		if tc.warm > 0 {
			c.warm("m", tc.warm, 0)
		}
		for _, s := range tc.steps {
			if s.ttl > 0 {
				c.ttl = s.ttl.Milliseconds()
			}
			s.req.check(t, tc.name, c, 1_024)
		}
	}
}

// TestEdgeCacheSystemPromptEntry pins the system prompt's own entry: a
// system prompt exactly the minimum cacheable size gets one, no entry is
// put past a request's breakpoint even where the base prefix ends, and
// with no minimum at all no empty (position 0) entry takes a slot.
func TestEdgeCacheSystemPromptEntry(t *testing.T) {
	m := edgeCacheMin
	t.Run("system prompt at the minimum", func(t *testing.T) {
		// 5,000 and 1,024 are cached; an edit at 2,000 leaves the 1,024,
		// which the next request reads, writing 5,000 − 1,024 = 3,976.
		c := newCache(5*time.Minute, MaxCacheEntries, 0)
		edgeCacheReq{0, 5_010, 10, 1_024, 0, 5_000, 10}.check(t, "cold", c, 1_024)
		c.edit(2_000)
		edgeCacheReq{m(1), 5_010, 10, 1_024, 1_024, 3_976, 10}.check(t, "after the edit", c, 1_024)
	})
	t.Run("base prefix at the minimum", func(t *testing.T) {
		// A base of exactly 1,024 was read; an edit at 1,000 then dropped
		// every entry. The next request caches its breakpoint, the system
		// prompt and the base again, and after an edit at 2,000 the base
		// is what is read.
		c := newCache(5*time.Minute, MaxCacheEntries, 0)
		edgeCacheReq{0, 5_010, 10, 3_000, 0, 5_000, 10}.check(t, "cold", c, 1_024)
		c.readBase(1_024, 0)
		c.edit(1_000)
		edgeCacheReq{m(1), 5_010, 10, 3_000, 0, 5_000, 10}.check(t, "after the edit", c, 1_024)
		if got, want := edgeCachePositions(c), []int64{1_024, 3_000, 5_000}; !slices.Equal(got, want) {
			t.Errorf("cached %v, want %v", got, want)
		}
		c.edit(2_000)
		edgeCacheReq{m(2), 5_010, 10, 3_000, 1_024, 3_976, 10}.check(t, "after the second edit", c, 1_024)
	})
	t.Run("nothing past the breakpoint", func(t *testing.T) {
		// The base prefix and the system prompt both end at 3,000 (a read
		// of 3,000 showed the base; an edit at 2,900 then dropped its
		// entry). A request with a 2,510-token uncached tail has its
		// breakpoint at 2,500: it caches 2,500 and nothing at 3,000.
		c := newCache(5*time.Minute, MaxCacheEntries, 0)
		c.readBase(3_000, 0)
		c.edit(2_900)
		edgeCacheReq{m(1), 5_010, 2_510, 3_000, 0, 2_500, 2_510}.check(t, "large tail", c, 1_024)
		if got, want := edgeCachePositions(c), []int64{2_500}; !slices.Equal(got, want) {
			t.Errorf("cached %v, want %v", got, want)
		}
	})
	// With no minimum (0) and a bound of two entries, the conversation's
	// entries and the system prompt's fill the bound; an empty prefix,
	// which reads nothing, must not take a slot.
	for _, tc := range []struct {
		name string
		sys  int64
		reqs []edgeCacheReq
		want []int64
	}{
		// A gateway request has no system breakpoint (sys 0): the bound
		// holds the two conversation entries.
		{"no system breakpoint", 0, []edgeCacheReq{
			{0, 5_010, 10, 0, 0, 5_000, 10},
			{m(1), 6_010, 10, 0, 5_000, 1_000, 10},
		}, []int64{5_000, 6_000}},
		// No base prefix read yet (0): the bound holds the system prompt
		// and the conversation entry.
		{"no base prefix", 3_000, []edgeCacheReq{
			{0, 5_010, 10, 3_000, 0, 5_000, 10},
		}, []int64{3_000, 5_000}},
	} {
		c := newCache(5*time.Minute, 2, 0)
		for _, r := range tc.reqs {
			r.check(t, tc.name, c, 0)
		}
		if got := edgeCachePositions(c); !slices.Equal(got, tc.want) {
			t.Errorf("%s: cached %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestEdgeCacheSystemPromptLifetime: each request puts the system
// prompt's breakpoint with its own lifetime, and that does not depend on
// whether the prompt goes past the system prompt. Here a base prefix
// (2,000) is known, so the system prompt's entry (3,000) lives only its
// own lifetime; written for 5 minutes, then requested again at minute 1
// with 1-hour writes, it lives an hour from then either way: at minute
// 30 it is what is read (the 6,000 entry, 5 minutes, is gone).
func TestEdgeCacheSystemPromptLifetime(t *testing.T) {
	m := edgeCacheMin
	for _, prompt := range []int64{3_010, 6_010} {
		name := fmt.Sprintf("prompt %d", prompt)
		bp := prompt - 10
		c := newCache(5*time.Minute, MaxCacheEntries, 0)
		edgeCacheReq{0, prompt, 10, 3_000, 0, bp, 10}.check(t, name, c, 1_024)
		c.readBase(2_000, 0)
		c.ttl, c.sysTTL = time.Hour.Milliseconds(), time.Hour.Milliseconds()
		edgeCacheReq{m(1), prompt, 10, 3_000, bp, 0, 10}.check(t, name, c, 1_024)
		edgeCacheReq{m(30), 7_010, 10, 3_000, 3_000, 4_000, 10}.check(t, name+" at 30 min", c, 1_024)
	}
}

// TestEdgeCacheBaseRead pins readBase: once a shorter prefix of the system
// prompt is read (the base), the system prompt's entry, and any earlier
// base's, live only their own 5 minutes from their last use, while the
// new base lives the shared prefix's hour. The conversation wrote 10,000
// and the system prompt's 5,000 at 0; bases are read at minutes 1 and 2;
// an edit at 8,000 then drops the 10,000.
func TestEdgeCacheBaseRead(t *testing.T) {
	m := edgeCacheMin
	for _, tc := range []struct {
		name  string
		bases []int64 // read at minutes 1, 2, …
		req   edgeCacheReq
	}{
		// At minute 3 the system prompt's entry, used at 0, is still
		// within its 5 minutes: read 5,000 of the 11,990-token breakpoint.
		{"system prompt within its own lifetime", []int64{3_000},
			edgeCacheReq{m(3), 12_010, 10, 5_000, 5_000, 7_000, 10}},
		// At minute 30 it is gone; the base, 3,000, lives an hour.
		{"system prompt past its own lifetime", []int64{3_000},
			edgeCacheReq{m(30), 12_010, 10, 5_000, 3_000, 9_000, 10}},
		// A second, shorter base: the first (3,000, used at minute 1) is
		// gone by minute 30 too; the newest, 2,000, is read.
		{"an earlier base past its own lifetime", []int64{3_000, 2_000},
			edgeCacheReq{m(30), 12_010, 10, 5_000, 2_000, 10_000, 10}},
	} {
		c := newCache(5*time.Minute, MaxCacheEntries, 0)
		c.sysTTL = time.Hour.Milliseconds()
		edgeCacheReq{0, 10_010, 10, 5_000, 0, 10_000, 10}.check(t, tc.name, c, 1_024)
		for i, b := range tc.bases {
			c.readBase(b, m(i+1))
		}
		c.edit(8_000)
		tc.req.check(t, tc.name, c, 1_024)
	}
}

// TestEdgeCacheBaseFollowsModel: each model keeps its own base prefix.
// Model A reads a base of 3,000; B, which inherits it, then reads a
// shorter one (2,000). Back on A the base is A's 3,000 again: its entry
// is refreshed for the shared prefix's hour and is what A reads at
// minute 30, when A's 5-minute entries are gone.
func TestEdgeCacheBaseFollowsModel(t *testing.T) {
	m := edgeCacheMin
	c := newCache(5*time.Minute, MaxCacheEntries, 0)
	c.sysTTL = time.Hour.Milliseconds()
	req := func(name string, at int64, model string, prompt, read, write int64) {
		t.Helper()
		r, w, _ := c.request(at, model, prompt, 10, 5_000, 1_024)
		if r != read || w != write {
			t.Errorf("%s: read %d write %d, want %d %d", name, r, w, read, write)
		}
	}
	req("A cold", 0, "A", 10_010, 0, 10_000)
	c.readBase(3_000, 0)
	req("B cold", m(1), "B", 10_010, 0, 10_000)
	c.readBase(2_000, m(1))
	req("back on A", m(2), "A", 10_010, 10_000, 0)
	if c.base != 3_000 {
		t.Errorf("back on A: base %d, want A's 3000", c.base)
	}
	req("A at 30 min", m(30), "A", 12_010, 3_000, 9_000)
}

// TestEdgeCacheFork: a fork (the compaction summarizer) whose shared
// prefix ends exactly where an entry ends reads that entry whole and
// writes only its own suffix.
func TestEdgeCacheFork(t *testing.T) {
	c := newCache(5*time.Minute, MaxCacheEntries, 0)
	edgeCacheReq{0, 5_010, 10, 0, 0, 5_000, 10}.check(t, "cold", c, 1_024)
	if r, w := c.fork(edgeCacheMin(1), "m", 5_000, 300); r != 5_000 || w != 300 {
		t.Errorf("fork: read %d write %d, want 5000 300", r, w)
	}
}

// TestEdgeCacheEviction pins the entry bound: once full, the entry that
// expires first goes; of those that expire together, the shortest; never
// the system prompt's entry; and the bound is never exceeded.
func TestEdgeCacheEviction(t *testing.T) {
	m := edgeCacheMin
	t.Run("system prompt stays", func(t *testing.T) {
		// Bound 2: 10,000 and the system prompt's 3,000, both to minute
		// 5. A base read of 2,000 at minute 1 needs a slot: the 10,000
		// goes, not the system prompt's entry, which minute 2 then reads.
		c := newCache(5*time.Minute, 2, 0)
		edgeCacheReq{0, 10_010, 10, 3_000, 0, 10_000, 10}.check(t, "cold", c, 1_024)
		c.readBase(2_000, m(1))
		if got, want := edgeCachePositions(c), []int64{2_000, 3_000}; !slices.Equal(got, want) {
			t.Errorf("after the base read: cached %v, want %v", got, want)
		}
		edgeCacheReq{m(2), 10_010, 10, 3_000, 3_000, 7_000, 10}.check(t, "minute 2", c, 1_024)
	})
	for _, tc := range []struct {
		name string
		ttls []time.Duration // the lifetime each request writes with
		want []int64
	}{
		// Requests at minutes 0–3 grow the prompt by 1,000 each; every read
		// refreshes all entries, so all expire together and the shortest,
		// 5,000, goes for 8,000.
		{"shortest of those expiring together",
			[]time.Duration{5 * time.Minute, 5 * time.Minute, 5 * time.Minute, 5 * time.Minute, 5 * time.Minute},
			[]int64{7_000, 8_000, 9_000}},
		// 6,000 and 7,000 are written for an hour, 5,000, 8,000 and 9,000
		// for 5 minutes: 5,000 goes for 8,000, then 8,000 (to minute 9)
		// for 9,000, before the shorter 1-hour entries (to minute 64).
		{"first to expire, even the longest",
			[]time.Duration{5 * time.Minute, time.Hour, time.Hour, 5 * time.Minute, 5 * time.Minute},
			[]int64{6_000, 7_000, 9_000}},
	} {
		c := newCache(5*time.Minute, 3, 0)
		for i, ttl := range tc.ttls {
			c.ttl = ttl.Milliseconds()
			prompt := int64(5_010 + 1_000*i)
			var read, write int64 = 0, 5_000
			if i > 0 {
				read, write = prompt-1_010, 1_000
			}
			edgeCacheReq{m(i), prompt, 10, 0, read, write, 10}.check(t, tc.name, c, 1_024)
		}
		if got := edgeCachePositions(c); !slices.Equal(got, tc.want) {
			t.Errorf("%s: cached %v, want %v", tc.name, got, tc.want)
		}
	}
	t.Run("shortest goes, then an edit falls back", func(t *testing.T) {
		// Bound 3, four requests: 6,000, 7,000 and 8,000 remain. An edit at
		// 7,500 leaves 6,000 and 7,000: 7,000 is read.
		c := newCache(5*time.Minute, 3, 0)
		for i := range 4 {
			prompt := int64(5_010 + 1_000*i)
			var read, write int64 = 0, 5_000
			if i > 0 {
				read, write = prompt-1_010, 1_000
			}
			edgeCacheReq{m(i), prompt, 10, 0, read, write, 10}.check(t, "grow", c, 1_024)
		}
		c.edit(7_500)
		edgeCacheReq{m(4), 7_510, 10, 0, 7_000, 500, 10}.check(t, "after the edit", c, 1_024)
	})
}

// TestEdgeCacheInferLimits pins what the recorded prompt sizes prove. On
// 2.1.19 a 200K-window model's auto-compact threshold is 200,000 − 32,000
// − 13,000 = 155,000. A prompt above the window proves the long window; a
// call sent, without a compaction and on the same model, after a usage
// total (prompt and output) at or above the threshold proves the long
// window where the model offers one, else auto-compaction off, unless the
// session auto-compacted (a compaction not marked manual, after a measured
// call): that proves auto-compaction on at the model's own window, and the
// call above the threshold one whose compaction failed. A prompt above the
// window still proves the long window.
func TestEdgeCacheInferLimits(t *testing.T) {
	const (
		sonnet = "claude-sonnet-4-5-20250929"
		haiku  = "claude-haiku-4-5-20251001"
		long   = "claude-sonnet-4-5[1m]"
		ver    = "2.1.19"
	)
	call := func(index int, model string, read, output int64) TraceCall {
		return TraceCall{Index: index, Model: model, Version: ver, Usage: replay.Usage{CacheRead: read, Output: output}}
	}
	compacted := call(5, sonnet, 20_000, 0)
	compacted.RealCompact = &replay.Compaction{Kind: replay.CompactFull}
	after := "call 6 was sent without a compaction after call 5's usage total of 155,000 tokens, at or above the 155,000-token auto-compact threshold"
	compactedAt := func(index int, kind replay.CompactionKind, trigger string) TraceCall {
		c := call(index, sonnet, 20_000, 0)
		c.RealCompact = &replay.Compaction{Kind: kind, Trigger: trigger, CallsBefore: index}
		return c
	}
	autoAt := func(index int) TraceCall { return compactedAt(index, replay.CompactFull, "auto") }
	manualAt := func(index int) TraceCall { return compactedAt(index, replay.CompactFull, "manual") }
	summaryAt := func(index int) TraceCall { return compactedAt(index, replay.CompactSummaryOnly, "") }
	microAt := func(index int) TraceCall {
		c := call(index, sonnet, 20_000, 0)
		c.RealMicro = &replay.Compaction{Kind: replay.CompactMicro, CallsBefore: index}
		return c
	}
	for _, tc := range []struct {
		name  string
		calls []TraceCall
		want  Inferred
	}{
		{"prompt above the window", []TraceCall{call(4, sonnet, 200_001, 0)},
			Inferred{Window: 1_000_000, Reason: "call 5's recorded prompt of 200,001 tokens passed the 200,000-token window"}},
		{"prompt at the window", []TraceCall{call(4, sonnet, 200_000, 0)}, Inferred{}},
		{"already the long window", []TraceCall{call(4, long, 1_000_001, 0)}, Inferred{}},
		{"total at the threshold", []TraceCall{call(4, sonnet, 150_000, 5_000), call(5, sonnet, 20_000, 0)},
			Inferred{Window: 1_000_000, Reason: after}},
		{"total at the threshold, no long window", []TraceCall{call(4, haiku, 150_000, 5_000), call(5, haiku, 20_000, 0)},
			Inferred{AutoCompactOff: true, Reason: after}},
		{"total under the threshold", []TraceCall{call(4, sonnet, 150_000, 4_999), call(5, sonnet, 20_000, 0)}, Inferred{}},
		{"compaction before the next call", []TraceCall{call(4, sonnet, 150_000, 5_000), compacted}, Inferred{}},
		{"next call on another model", []TraceCall{call(4, sonnet, 150_000, 5_000), call(5, haiku, 20_000, 0)}, Inferred{}},
		{"no recorded prompt", []TraceCall{call(4, sonnet, 0, 155_000), call(5, sonnet, 20_000, 0)}, Inferred{}},
		{"an auto-compaction earlier", []TraceCall{call(2, sonnet, 150_000, 5_000), autoAt(3), call(4, sonnet, 150_000, 5_000), call(5, sonnet, 20_000, 0)}, Inferred{}},
		{"an auto-compaction later", []TraceCall{call(2, sonnet, 150_000, 5_000), call(3, sonnet, 20_000, 0), call(4, sonnet, 150_000, 5_000), autoAt(5)}, Inferred{}},
		{"a 1.0.x compaction (no trigger)", []TraceCall{call(2, sonnet, 150_000, 5_000), summaryAt(3), call(4, sonnet, 150_000, 5_000), call(5, sonnet, 20_000, 0)}, Inferred{}},
		{"a manual compaction only", []TraceCall{call(2, sonnet, 150_000, 5_000), manualAt(3), call(4, sonnet, 150_000, 5_000), call(5, sonnet, 20_000, 0)},
			Inferred{Window: 1_000_000, Reason: after}},
		{"a continued file's summary only", []TraceCall{summaryAt(3), call(4, sonnet, 150_000, 5_000), call(5, sonnet, 20_000, 0)},
			Inferred{Window: 1_000_000, Reason: after}},
		{"a micro-compaction only", []TraceCall{call(2, sonnet, 20_000, 0), microAt(3), call(4, sonnet, 150_000, 5_000), call(5, sonnet, 20_000, 0)},
			Inferred{Window: 1_000_000, Reason: after}},
		{"an auto-compaction and a prompt above the window", []TraceCall{call(2, sonnet, 150_000, 5_000), autoAt(3), call(4, sonnet, 200_001, 0)},
			Inferred{Window: 1_000_000, Reason: "call 5's recorded prompt of 200,001 tokens passed the 200,000-token window"}},
	} {
		if got := inferLimits(tc.calls); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
	// With fills in only a window left to the default.
	in := Inferred{Window: 1_000_000}
	if got := in.With(claudecode.LimitParams{}).Window; got != 1_000_000 {
		t.Errorf("With, no window set: %d, want 1000000", got)
	}
	if got := in.With(claudecode.LimitParams{Window: 500_000}).Window; got != 500_000 {
		t.Errorf("With, window set: %d, want 500000", got)
	}
}

// edgeCacheResults are n compactable (Read) results of est tokens each
// in message msg, ids prefixed by id.
func edgeCacheResults(id string, msg, n, est int) []Item {
	var items []Item
	for k := range n {
		items = append(items, Item{Kind: KindToolResult, Tool: "Read", ToolID: fmt.Sprintf("%s%d", id, k), Est: est, Msg: msg})
	}
	return items
}

// TestEdgeCacheInferMicro pins which results and counts the size rule's
// evidence uses. On 2.1.19 the warning level is 155,000 − 20,000 =
// 135,000. Claude Code's count before a call is the previous call's usage
// total (prompt and output) and the estimate appended since; the size rule
// keeps the last 3 compactable results and clears the oldest while the
// rest exceed 40,000, which must free at least 20,000. Ten 7,000-token
// results clear five: 35,000.
func TestEdgeCacheInferMicro(t *testing.T) {
	const model, ver = "claude-sonnet-4-5-20250929", "2.1.19"
	call := func(index int, read, output int64, items ...[]Item) TraceCall {
		return TraceCall{Index: index, Model: model, Version: ver, Usage: replay.Usage{CacheRead: read, Output: output}, Items: slices.Concat(items...)}
	}
	user := func(msg, est int) []Item { return []Item{{Kind: KindUser, Est: est, Msg: msg}} }
	reason := func(index int, count, saved string) string {
		return fmt.Sprintf("call %d", index+1) + " was sent with its tool results whole although Claude Code's count (at least " + count +
			" tokens) was past the 135,000-token warning level and micro-compaction would have cleared " + saved + " tokens of them (by Claude Code's estimate)"
	}
	compacted := call(1, 100_000, 0, edgeCacheResults("old", 4, 2, 7_000), edgeCacheResults("new", 5, 10, 7_000))
	compacted.RealCompact = &replay.Compaction{Kind: replay.CompactFull, Msg: 5}
	for _, tc := range []struct {
		name  string
		calls []TraceCall
		want  MicroEvidence
	}{
		// Five results in each of two calls: the ten count together. Before
		// call 3: 100,000 + 35,000 = 135,000.
		{"results from earlier calls", []TraceCall{
			call(0, 10_000, 0),
			call(1, 100_000, 0, edgeCacheResults("a", 2, 5, 7_000)),
			call(2, 20_000, 0, edgeCacheResults("b", 4, 5, 7_000)),
		}, MicroEvidence{Off: true, Reason: reason(2, "135,000", "35,000")}},
		// A compaction before call 2 (its first message is message 5): the
		// two results before it are gone, the ten from message 5 on count.
		// Before call 3: 100,000 + 35,000 of user text.
		{"results from a compaction's first message on", []TraceCall{
			call(0, 10_000, 0),
			compacted,
			call(2, 20_000, 0, user(7, 35_000)),
		}, MicroEvidence{Off: true, Reason: reason(2, "135,000", "35,000")}},
		// The thread's first message (0) holds the results.
		{"results in the first message", []TraceCall{
			call(0, 100_000, 0, edgeCacheResults("a", 0, 10, 7_000)),
			call(1, 20_000, 0, user(1, 35_000)),
		}, MicroEvidence{Off: true, Reason: reason(1, "135,000", "35,000")}},
		// The output counts: 55,000 + 10,000 + 70,000 = 135,000.
		{"output counts", []TraceCall{
			call(0, 55_000, 10_000),
			call(1, 20_000, 0, edgeCacheResults("a", 1, 10, 7_000)),
		}, MicroEvidence{Off: true, Reason: reason(1, "135,000", "35,000")}},
		// 20,000, 10,000 ×4: clearing the 20,000 leaves 40,000, not above
		// the target: exactly the minimum saving.
		{"exactly the minimum saving", []TraceCall{
			call(0, 100_000, 0),
			call(1, 20_000, 0, edgeCacheResults("a", 1, 1, 20_000), edgeCacheResults("b", 1, 4, 10_000)),
		}, MicroEvidence{Off: true, Reason: reason(1, "160,000", "20,000")}},
	} {
		if got := inferMicro(tc.calls); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
