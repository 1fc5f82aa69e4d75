package promptcache

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"
)

// sonnet46 is a model Anthropic bills cache writes for.
const sonnet46 = "claude-sonnet-4-6"

// edgeCacheMin is m minutes in ms.
func edgeCacheMin(m int) int64 { return int64(m) * 60_000 }

// edgeCachePositions lists the prefixes the cache holds for its current
// model, shortest first.
func edgeCachePositions(c *Cache) []int64 {
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

func (r edgeCacheReq) check(t *testing.T, name string, c *Cache, minCache int64) {
	t.Helper()
	read, write, uncached := c.Request(r.at, "m", r.prompt, r.tail, r.sys, minCache)
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
		c := New(5*time.Minute, MaxEntries, 0)
		if tc.warm > 0 {
			c.Warm("m", tc.warm, 0)
		}
		for _, s := range tc.steps {
			if s.ttl > 0 {
				c.TTL = s.ttl.Milliseconds()
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
		c := New(5*time.Minute, MaxEntries, 0)
		edgeCacheReq{0, 5_010, 10, 1_024, 0, 5_000, 10}.check(t, "cold", c, 1_024)
		c.Edit(2_000)
		edgeCacheReq{m(1), 5_010, 10, 1_024, 1_024, 3_976, 10}.check(t, "after the edit", c, 1_024)
	})
	t.Run("base prefix at the minimum", func(t *testing.T) {
		// A base of exactly 1,024 was read; an edit at 1,000 then dropped
		// every entry. The next request caches its breakpoint, the system
		// prompt and the base again, and after an edit at 2,000 the base
		// is what is read.
		c := New(5*time.Minute, MaxEntries, 0)
		edgeCacheReq{0, 5_010, 10, 3_000, 0, 5_000, 10}.check(t, "cold", c, 1_024)
		c.ReadBase(1_024, 0)
		c.Edit(1_000)
		edgeCacheReq{m(1), 5_010, 10, 3_000, 0, 5_000, 10}.check(t, "after the edit", c, 1_024)
		if got, want := edgeCachePositions(c), []int64{1_024, 3_000, 5_000}; !slices.Equal(got, want) {
			t.Errorf("cached %v, want %v", got, want)
		}
		c.Edit(2_000)
		edgeCacheReq{m(2), 5_010, 10, 3_000, 1_024, 3_976, 10}.check(t, "after the second edit", c, 1_024)
	})
	t.Run("nothing past the breakpoint", func(t *testing.T) {
		// The base prefix and the system prompt both end at 3,000 (a read
		// of 3,000 showed the base; an edit at 2,900 then dropped its
		// entry). A request with a 2,510-token uncached tail has its
		// breakpoint at 2,500: it caches 2,500 and nothing at 3,000.
		c := New(5*time.Minute, MaxEntries, 0)
		c.ReadBase(3_000, 0)
		c.Edit(2_900)
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
		c := New(5*time.Minute, 2, 0)
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
		c := New(5*time.Minute, MaxEntries, 0)
		edgeCacheReq{0, prompt, 10, 3_000, 0, bp, 10}.check(t, name, c, 1_024)
		c.ReadBase(2_000, 0)
		c.TTL, c.SysTTL = time.Hour.Milliseconds(), time.Hour.Milliseconds()
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
		c := New(5*time.Minute, MaxEntries, 0)
		c.SysTTL = time.Hour.Milliseconds()
		edgeCacheReq{0, 10_010, 10, 5_000, 0, 10_000, 10}.check(t, tc.name, c, 1_024)
		for i, b := range tc.bases {
			c.ReadBase(b, m(i+1))
		}
		c.Edit(8_000)
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
	c := New(5*time.Minute, MaxEntries, 0)
	c.SysTTL = time.Hour.Milliseconds()
	req := func(name string, at int64, model string, prompt, read, write int64) {
		t.Helper()
		r, w, _ := c.Request(at, model, prompt, 10, 5_000, 1_024)
		if r != read || w != write {
			t.Errorf("%s: read %d write %d, want %d %d", name, r, w, read, write)
		}
	}
	req("A cold", 0, "A", 10_010, 0, 10_000)
	c.ReadBase(3_000, 0)
	req("B cold", m(1), "B", 10_010, 0, 10_000)
	c.ReadBase(2_000, m(1))
	req("back on A", m(2), "A", 10_010, 10_000, 0)
	if c.Base != 3_000 {
		t.Errorf("back on A: base %d, want A's 3000", c.Base)
	}
	req("A at 30 min", m(30), "A", 12_010, 3_000, 9_000)
}

// TestEdgeCacheFork: a fork (the compaction summarizer) whose shared
// prefix ends exactly where an entry ends reads that entry whole and
// writes only its own suffix.
func TestEdgeCacheFork(t *testing.T) {
	c := New(5*time.Minute, MaxEntries, 0)
	edgeCacheReq{0, 5_010, 10, 0, 0, 5_000, 10}.check(t, "cold", c, 1_024)
	if r, w := c.Fork(edgeCacheMin(1), "m", 5_000, 300); r != 5_000 || w != 300 {
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
		c := New(5*time.Minute, 2, 0)
		edgeCacheReq{0, 10_010, 10, 3_000, 0, 10_000, 10}.check(t, "cold", c, 1_024)
		c.ReadBase(2_000, m(1))
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
		c := New(5*time.Minute, 3, 0)
		for i, ttl := range tc.ttls {
			c.TTL = ttl.Milliseconds()
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
		c := New(5*time.Minute, 3, 0)
		for i := range 4 {
			prompt := int64(5_010 + 1_000*i)
			var read, write int64 = 0, 5_000
			if i > 0 {
				read, write = prompt-1_010, 1_000
			}
			edgeCacheReq{m(i), prompt, 10, 0, read, write, 10}.check(t, "grow", c, 1_024)
		}
		c.Edit(7_500)
		edgeCacheReq{m(4), 7_510, 10, 0, 7_000, 500, 10}.check(t, "after the edit", c, 1_024)
	})
}

func TestCacheModel(t *testing.T) {
	min := func(m int) int64 { return int64(m) * 60_000 }
	c := New(5*time.Minute, MaxEntries, 0)
	type req struct {
		at                  int64
		model               string
		prompt, tail, sys   int64
		read, write, uncach int64
	}
	steps := []struct {
		name string
		req
		edit int64 // applied before the request when > 0
	}{
		// Nothing cached: write up to the breakpoint (10,000 − 10), 10 uncached.
		{"cold", req{0, "m", 10_000, 10, 3_000, 0, 9_990, 10}, 0},
		// One minute later: read the previous breakpoint, write the growth.
		{"warm", req{min(1), "m", 12_000, 10, 3_000, 9_990, 2_000, 10}, 0},
		// Six minutes after the last use: every entry expired.
		{"ttl", req{min(7), "m", 13_000, 10, 3_000, 0, 12_990, 10}, 0},
		// An edit at 5,000 invalidates the 12,990 prefix; the system prompt's
		// 3,000 survives and is read.
		{"edit", req{min(8), "m", 13_500, 10, 3_000, 3_000, 10_490, 10}, 5_000},
		// Another model: nothing it can read.
		{"model", req{min(9), "other", 13_500, 10, 3_000, 0, 13_490, 10}, 0},
		// Below the minimum cacheable prefix (1,024 here): all uncached.
		{"short", req{min(10), "m2", 900, 10, 0, 0, 0, 900}, 0},
	}
	for _, s := range steps {
		if s.edit > 0 {
			c.Edit(s.edit)
		}
		r, w, u := c.Request(s.at, s.model, s.prompt, s.tail, s.sys, 1024)
		if r != s.read || w != s.write || u != s.uncach {
			t.Errorf("%s: read %d write %d uncached %d, want %d %d %d", s.name, r, w, u, s.read, s.write, s.uncach)
		}
	}
}

// TestCacheSharedPrefix: the system prompt's entry outlives the session's
// own entries when other requests keep it warm.
func TestCacheSharedPrefix(t *testing.T) {
	min := func(m int) int64 { return int64(m) * 60_000 }
	c := New(5*time.Minute, MaxEntries, 0)
	c.SysTTL = time.Hour.Milliseconds()
	// Cold: 9,990 written (breakpoint 10,000 − 10); entries at 9,990 and 3,000.
	if r, w, _ := c.Request(0, "m", 10_000, 10, 3_000, 1024); r != 0 || w != 9_990 {
		t.Fatalf("cold: read %d write %d", r, w)
	}
	// 30 minutes idle: the 9,990 entry expired, the system prompt's 3,000
	// lives an hour: read 3,000, write 11,990 − 3,000 = 8,990.
	if r, w, _ := c.Request(min(30), "m", 12_000, 10, 3_000, 1024); r != 3_000 || w != 8_990 {
		t.Errorf("30 min: read %d write %d, want 3000 8990", r, w)
	}
	// 61 minutes after that: nothing lives.
	if r, w, _ := c.Request(min(91), "m", 12_000, 10, 3_000, 1024); r != 0 || w != 11_990 {
		t.Errorf("91 min: read %d write %d, want 0 11990", r, w)
	}
}

// An entry is read up to its lifetime plus the clock slack after its last
// use, and not later.
func TestCacheClockSlack(t *testing.T) {
	const ttl, slack = 300_000, 20_000
	for _, c := range []struct {
		after int64
		slack time.Duration
		read  int64
	}{
		{ttl, 0, 5000},
		{ttl + 1, 0, 0},
		{ttl + slack, slack * time.Millisecond, 5000},
		{ttl + slack + 1, slack * time.Millisecond, 0},
	} {
		ca := New(ttl*time.Millisecond, MaxEntries, c.slack)
		ca.Request(0, sonnet46, 5010, 10, 0, 1024)
		if read, _, _ := ca.Request(c.after, sonnet46, 6010, 10, 0, 1024); read != c.read {
			t.Errorf("%d ms later, slack %v: read %d, want %d", c.after, c.slack, read, c.read)
		}
	}
}

// The cache key includes the model: a request on another model reads none
// of the first model's entries, and a request back on the first reads
// them while they live. An edit invalidates every model's entries past it.
func TestCacheKeepsEachModelsEntries(t *testing.T) {
	const haiku = "claude-haiku-4-5-20251001"
	c := New(5*time.Minute, MaxEntries, 0)
	c.Request(0, sonnet46, 5010, 10, 0, 1024)
	if read, _, _ := c.Request(1000, haiku, 6010, 10, 0, 1024); read != 0 {
		t.Errorf("other model: read %d, want 0", read)
	}
	if read, _, _ := c.Request(2000, sonnet46, 7010, 10, 0, 1024); read != 5000 {
		t.Errorf("back on the first model: read %d, want 5000", read)
	}
	c.Edit(4000)
	if read, _, _ := c.Request(3000, haiku, 8010, 10, 0, 1024); read != 0 {
		t.Errorf("haiku after an edit below its entry: read %d, want 0", read)
	}
	if read, _, _ := c.Request(4000, sonnet46, 8010, 10, 0, 1024); read != 0 {
		t.Errorf("sonnet after an edit below its entries: read %d, want 0", read)
	}
}

// TestCacheEntryKeepsItsLifetime: an entry lives for the lifetime it was
// written with, and a read refreshes it by that lifetime, whatever the
// lifetime of the request that reads it.
func TestCacheEntryKeepsItsLifetime(t *testing.T) {
	min := func(m int) int64 { return int64(m) * 60_000 }
	c := New(time.Hour, MaxEntries, 0)
	if r, w, _ := c.Request(0, "m", 10_000, 10, 0, 1024); r != 0 || w != 9_990 {
		t.Fatalf("cold: read %d write %d", r, w)
	}
	c.TTL = (5 * time.Minute).Milliseconds()
	if r, w, _ := c.Request(min(1), "m", 12_000, 10, 0, 1024); r != 9_990 || w != 2_000 {
		t.Fatalf("warm: read %d write %d", r, w)
	}
	// At 31 minutes the 5-minute entry (11,990) is gone; the 1-hour one,
	// refreshed at minute 1 for an hour, is read.
	if r, w, _ := c.Request(min(31), "m", 13_000, 10, 0, 1024); r != 9_990 || w != 3_000 {
		t.Errorf("after 30 minutes: read %d write %d, want 9990 3000", r, w)
	}
	// 61 minutes after its last read it is gone too.
	if r, _, _ := c.Request(min(92), "m", 14_000, 10, 0, 1024); r != 0 {
		t.Errorf("after 61 minutes: read %d, want 0", r)
	}
}

// TestCacheShiftMerges: a server-side edit that brings two entries to one
// position leaves one entry there, the one that lives longest, and the
// others move back by what the edit removed.
func TestCacheShiftMerges(t *testing.T) {
	c := New(5*time.Minute, MaxEntries, 0)
	c.Request(0, "m", 2_010, 10, 0, 1024)      // entry at 2,000, expires 5:00
	c.Request(60_000, "m", 3_010, 10, 0, 1024) // 3,000, expires 6:00; 2,000 refreshed to 6:00
	c.Request(90_000, "m", 4_010, 10, 0, 1024) // 4,000, expires 6:30; the others to 6:30
	c.entries[0].expires = 100                 // 2,000 now outlived by the one moved onto it
	// Remove 1,500 tokens after 2,000: 3,000 would move to 1,500, so it
	// stops at 2,000; 4,000 moves to 2,500.
	c.Shift(2_000, 1_500)
	var got [][2]int64
	for _, e := range c.entries {
		got = append(got, [2]int64{e.pos, e.expires})
	}
	want := [][2]int64{{2_000, 390_000}, {2_500, 390_000}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("entries after the edit %v, want %v", got, want)
	}
}

// The cache shares the entries of the tools and system prompt between a
// model's thinking budgets, and keeps the others apart; another model
// shares none, and a fork on the model reads the current budget's.
func TestCacheThinkingKeys(t *testing.T) {
	c := New(5*time.Minute, 16, 0)
	k0, k4 := ThinkingKey("m", 0), ThinkingKey("m", 4000)
	c.Request(0, k0, 5000, 10, 2000, 1024) // writes 4,990, and the system prompt's entry at 2,000
	if r, _, _ := c.Request(1000, k4, 5200, 10, 2000, 1024); r != 2000 {
		t.Errorf("another budget read %d, want the system prompt's 2,000", r)
	}
	if r, _, _ := c.Request(2000, k0, 5400, 10, 2000, 1024); r != 4990 {
		t.Errorf("back on the first budget: read %d, want its 4,990", r)
	}
	if r, w := c.Fork(2500, "m", 5390, 100); r != 5390 || w != 100 {
		t.Errorf("a fork on m: read %d, wrote %d; want 5390, 100", r, w)
	}
	if r, _, _ := c.Request(3000, "n", 5400, 10, 2000, 1024); r != 0 {
		t.Errorf("another model read %d, want 0", r)
	}
}
