// Package promptcache models Anthropic's prompt cache for one
// conversation, as the simulator prices each request through it: what a
// request reads of the live cached prefixes, what it writes, and how long
// each entry lives (Anthropic's "Prompt caching" documentation).
package promptcache

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// Cache is the prompt cache of one conversation. A request caches the prefix
// up to its breakpoint (the end of its last message); a later request reads
// the longest live cached prefix of its own prompt and writes the rest up to
// its breakpoint. Entries live for the lifetime they were written with,
// from their last read or write.
//
// Prefixes are tracked by position: every entry is a prefix of the current
// context, because an edit at position p invalidates all entries longer
// than p (their bytes no longer match). That is the same as comparing
// content hashes, without hashing.
type Cache struct {
	// TTL is the lifetime (ms) of the entries a request writes, and SysTTL
	// the system prompt entry's (≥ TTL): each request sets them.
	TTL     int64
	SysTTL  int64
	max     int // entries kept
	entries []entry
	model   string
	// parked holds the entries of the other models the conversation was
	// sent to: the cache key includes the model, so switching models
	// reads none of the current entries, and switching back can read the
	// old model's entries while they live.
	parked map[string][]entry
	sys    int64 // the system prompt's entry, never evicted
	// Base is the shortest prefix of the system prompt a call on the
	// current model has read (0 before any did; simulate.TraceCall.BaseRead), and
	// parkedBase the other models'. Its entry is never evicted, and once
	// it is shorter than sys it, not sys, is what other requests keep
	// warm (lifetime). A model that has shown none takes the base of the
	// model before it (switchModel): the breakpoint sits in the tool
	// definitions and system prompt before the model is named, so it
	// falls at the same place whatever the model.
	Base       int64
	parkedBase map[string]int64
	// slack (ms) is added to an entry's lifetime when it is read: the
	// times the model sees are those of the recorded responses, which
	// come after the requests that refreshed the entries (simulate.Config.ClockSlack).
	slack int64
}

type entry struct {
	pos     int64 // prefix length in tokens
	expires int64 // Unix ms
	used    int64 // Unix ms, the last read or write
	ttl     int64 // ms, the lifetime it was written with
}

// MaxEntries is the default bound on the entries the model keeps
// (simulate.Config.CacheEntries). It is not a documented limit of Anthropic's cache
// but the model's bookkeeping: a request reads the longest live prefix, and
// in an append-mostly conversation old, shorter entries are shadowed by
// newer, longer ones, so once the bound is reached the entry that expires
// first is dropped.
const MaxEntries = 16

// DefaultSharedPrefixTTL is how long the system prompt prefix stays
// readable after the session's own entries, when the session's first call
// read from the cache: every request of the same Claude Code setup begins
// with that prefix, so the user's other requests keep it warm. Three days
// covers the longest gap after which the transcripts show such a prefix
// read, 67.5 hours (docs/simulation.md, "The system prompt outlives the
// session's own entries").
const DefaultSharedPrefixTTL = 72 * time.Hour

// DefaultClockSlack is how much later than its lifetime a cache entry is
// still read, by the transcript's clock (simulate.Config.ClockSlack): timestamps
// are written when responses arrive, after the requests that refreshed
// the cache, so the gap between two recorded calls overstates the one the
// cache saw (docs/simulation.md, "The prompt cache").
const DefaultClockSlack = 20 * time.Second

// DefaultGatewayTTL is the cache lifetime assumed for models reached
// through an Anthropic-compatible endpoint: DeepSeek's "Context Caching"
// guide says unused entries are cleared "within a few hours to a few
// days", and twelve hours covers the longest gap after which DeepSeek
// transcripts show the prompt read (docs/simulation.md).
const DefaultGatewayTTL = 12 * time.Hour

// DefaultGatewayCacheUnit is the unit in which a model reached through an
// Anthropic-compatible endpoint caches a request's prompt (DeepSeek's
// "Context Caching": 64 tokens). Such an endpoint caches every request's
// whole prompt, with no breakpoint, and its usage reports as input what it
// did not read, or for some endpoints the whole prompt
// (simulate.Trace.MissOnlyInput): never the uncached tail after a breakpoint that
// Anthropic's usage reports.
const DefaultGatewayCacheUnit = 64

// New returns an empty cache whose entries live ttl (until TTL and SysTTL
// change), of which it keeps at most entries, each read up to slack after
// it expires.
func New(ttl time.Duration, entries int, slack time.Duration) *Cache {
	return &Cache{TTL: ttl.Milliseconds(), SysTTL: ttl.Milliseconds(), max: entries, slack: max(slack, 0).Milliseconds()}
}

// Warm starts the cache with an entry of model at pos that is live at
// now: a prefix cached before the conversation began.
func (c *Cache) Warm(model string, pos, now int64) {
	c.model = model
	c.entries = append(c.entries[:0], entry{pos: pos, expires: now, used: now, ttl: c.TTL})
}

// live says whether an entry can be read at now.
func (c *Cache) live(e entry, now int64) bool { return e.expires+c.slack >= now }

// Edit invalidates every entry longer than pos, of every model.
func (c *Cache) Edit(pos int64) {
	c.entries = upTo(c.entries, pos)
	for m, es := range c.parked {
		c.parked[m] = upTo(es, pos)
	}
}

// Forget invalidates the current model's entries longer than pos: a
// change that only its requests make (the model named in the system
// prompt).
func (c *Cache) Forget(pos int64) { c.entries = upTo(c.entries, pos) }

// upTo drops the entries longer than pos.
func upTo(es []entry, pos int64) []entry {
	kept := es[:0]
	for _, e := range es {
		if e.pos <= pos {
			kept = append(kept, e)
		}
	}
	return kept
}

// A cache key (the model argument of request, and the cache's model) is
// the model, and for Claude Code before claudecode.ThinkingKeywordsUntil
// also the keyword thinking budget its requests ran with (ThinkingKey):
// Anthropic's cache keeps the messages cached under one thinking
// configuration apart from those of another, while the tools and system
// prompt stay cached across them ("Building with extended thinking").

// ThinkingKey is the cache key of model's requests with a thinking budget.
func ThinkingKey(model string, budget int64) string {
	return model + "|thinking=" + strconv.FormatInt(budget, 10)
}

// ModelOf is the model of a cache key.
func ModelOf(key string) string {
	m, _, _ := strings.Cut(key, "|")
	return m
}

// switchModel parks the current key's entries and takes up key's. On
// another model it takes that model's base prefix, or the current one's
// position when it has shown none; another thinking budget of the same
// model keeps the entries of the tools and system prompt (those up to
// the system prompt's breakpoint, and the base prefix's).
func (c *Cache) switchModel(key string) {
	var shared []entry
	sameModel := c.model != "" && ModelOf(key) == ModelOf(c.model)
	if sameModel {
		for _, e := range c.entries {
			if e.pos <= c.sys || e.pos == c.Base {
				shared = append(shared, e)
			}
		}
	}
	if c.model != "" && len(c.entries) > 0 {
		if c.parked == nil {
			c.parked = map[string][]entry{}
		}
		c.parked[c.model] = append(c.parked[c.model][:0], c.entries...)
	}
	c.entries = append(c.entries[:0], c.parked[key]...)
	delete(c.parked, key)
	if sameModel {
		for _, e := range shared {
			if j := slices.IndexFunc(c.entries, func(x entry) bool { return x.pos == e.pos }); j >= 0 {
				if e.expires > c.entries[j].expires {
					c.entries[j] = e
				}
				continue
			}
			c.entries = append(c.entries, e)
		}
		c.model = key
		return
	}
	model := ModelOf(key)
	if c.Base > 0 || c.parkedBase[model] > 0 {
		if c.parkedBase == nil {
			c.parkedBase = map[string]int64{}
		}
		base := c.parkedBase[model]
		if base == 0 {
			base = c.Base
		}
		c.parkedBase[ModelOf(c.model)], c.Base = c.Base, base
	}
	c.model = key
}

// Shift moves entries past pos back by n tokens: a server-side cache edit
// removed n tokens there, and the cached prefixes stay usable. Entries the
// move brings to one position are one prefix: the one that lives longest
// stays, so that no two take the bound's slots.
func (c *Cache) Shift(pos, n int64) {
	c.entries = shift(c.entries, pos, n)
	for m, es := range c.parked {
		c.parked[m] = shift(es, pos, n)
	}
}

func shift(es []entry, pos, n int64) []entry {
	kept := es[:0]
	for _, e := range es {
		if e.pos > pos {
			e.pos = max(pos, e.pos-n)
		}
		if j := slices.IndexFunc(kept, func(k entry) bool { return k.pos == e.pos }); j >= 0 {
			if e.expires > kept[j].expires {
				kept[j] = e
			}
			continue
		}
		kept = append(kept, e)
	}
	return kept
}

// Request prices one request under a cache key (ThinkingKey): prompt
// tokens in all, of which the last tail come after the breakpoint and are
// never cached; minCache is the model's minimum cacheable prefix. It returns the tokens read from the cache,
// written to it, and sent uncached, and records the new entry.
//
// sys is the end of the system prompt and tools, where Claude Code sets a
// breakpoint of its own: after a compaction the new conversation still
// reads that prefix.
func (c *Cache) Request(now int64, model string, prompt, tail, sys, minCache int64) (read, write, uncached int64) {
	if model != c.model {
		c.switchModel(model)
	}
	c.sys = sys
	tail = min(max(tail, 0), prompt)
	bp := prompt - tail // breakpoint
	for _, e := range c.entries {
		if e.pos <= bp && c.live(e, now) && e.pos > read {
			read = e.pos
		}
	}
	// A read refreshes every live entry it passes through.
	for i := range c.entries {
		if c.entries[i].pos <= read && c.live(c.entries[i], now) {
			c.entries[i].expires = now + c.lifetime(c.entries[i])
			c.entries[i].used = now
		}
	}
	if bp < minCache {
		return read, 0, prompt - read
	}
	write = bp - read
	if write > 0 {
		c.put(bp, now)
	}
	if sys >= minCache && sys <= bp && sys > 0 {
		c.put(sys, now)
	}
	if b := c.Base; b >= minCache && b < sys && b > 0 {
		c.put(b, now)
	}
	return read, write, tail
}

// ReadBase records that the request just made read pos tokens at now, a
// shorter prefix of the system prompt than any before on its model: the
// base prefix ends there, and a prefix was cached there. What other
// requests keep warm is that prefix, so from now on the system prompt's
// entry lives only as long as the session's own entries, from its last
// use.
func (c *Cache) ReadBase(pos, now int64) {
	old := c.Base
	c.Base = pos
	for i := range c.entries {
		if x := &c.entries[i]; x.pos == c.sys || x.pos == old {
			x.expires = min(x.expires, x.used+x.ttl)
		}
	}
	c.put(pos, now)
}

// ReadSys records that the request just made, within the lifetime of the
// session's own entries, read pos tokens at now, less than the system
// prompt's entry (simulate.TraceCall.SysRead): the system prompt's breakpoint is
// there, and the entry the model had put at the old one is dropped (the
// session never wrote it).
func (c *Cache) ReadSys(pos, now int64) {
	if old := c.sys; old != c.Base && old != pos {
		c.entries = slices.DeleteFunc(c.entries, func(e entry) bool { return e.pos == old })
	}
	c.sys = pos
	c.put(pos, now)
}

// Show records a prefix of pos tokens that a recorded read shows cached
// on the model of key at now (the tools and system prompt after a tool
// allowed for good changed them): the request about to be made reads it.
func (c *Cache) Show(key string, pos, now int64) {
	if key != c.model {
		c.switchModel(key)
	}
	c.put(pos, now)
}

// lifetime is how long an entry lives from its last use: the lifetime it
// was written with (a read does not change it), or the system prompt's
// when other requests keep that entry warm.
func (c *Cache) lifetime(e entry) int64 {
	if e.pos == c.Base || e.pos == c.sys && c.Base == 0 {
		return max(e.ttl, c.SysTTL)
	}
	return e.ttl
}

// put writes an entry at pos at now, with the current lifetime.
func (c *Cache) put(pos, now int64) {
	e := entry{pos: pos, used: now, ttl: c.TTL}
	e.expires = now + c.lifetime(e)
	c.add(e)
}

// Fork prices a request on model that shares the first shared tokens of
// the conversation's prefix and adds its own suffix (the compaction
// summarizer): it reads through the live prefix, writes its own suffix, and
// leaves no entry the conversation could use. On another model than the
// cached prefixes' it reads nothing; on theirs, it reads the current
// key's.
func (c *Cache) Fork(now int64, model string, shared, own int64) (read, write int64) {
	if model != ModelOf(c.model) {
		return 0, shared + own
	}
	for _, e := range c.entries {
		if e.pos <= shared && c.live(e, now) && e.pos > read {
			read = e.pos
		}
	}
	for i := range c.entries {
		if c.entries[i].pos <= read && c.live(c.entries[i], now) {
			c.entries[i].expires = max(c.entries[i].expires, now+c.lifetime(c.entries[i]))
			c.entries[i].used = max(c.entries[i].used, now)
		}
	}
	return read, shared - read + own
}

func (c *Cache) add(e entry) {
	for i := range c.entries {
		if c.entries[i].pos == e.pos {
			c.entries[i] = e
			return
		}
	}
	if len(c.entries) >= c.max {
		// Drop the entry that expires first; of those that expire
		// together (a read refreshes every entry it passes through), the
		// shortest, which newer and longer entries shadow. The system
		// prompt's entry is Claude Code's own breakpoint and stays.
		j := -1
		for i, x := range c.entries {
			if x.pos == c.sys || x.pos == c.Base {
				continue
			}
			if j < 0 || x.expires < c.entries[j].expires || x.expires == c.entries[j].expires && x.pos < c.entries[j].pos {
				j = i
			}
		}
		if j >= 0 {
			c.entries[j] = e
			return
		}
	}
	c.entries = append(c.entries, e)
}
