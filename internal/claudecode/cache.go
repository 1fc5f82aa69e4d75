package claudecode

import (
	"slices"
	"strings"
	"time"
)

// The prompt cache's lifetimes: an entry lives CacheTTL5m, or CacheTTL1h
// when written as a 1-hour entry, from its last read or write.
var (
	CacheTTL5m = Value[time.Duration]{Fact{Name: "CacheTTL5m",
		Doc:    "the lifetime of a prompt-cache entry written for 5 minutes, from its last read or write",
		Source: `Anthropic's "Prompt caching"; usage.cache_creation.ephemeral_5m_input_tokens`}, 5 * time.Minute}
	CacheTTL1h = Value[time.Duration]{Fact{Name: "CacheTTL1h",
		Doc:    "the lifetime of a prompt-cache entry written for 1 hour, from its last read or write",
		Source: `Anthropic's "Prompt caching"; usage.cache_creation.ephemeral_1h_input_tokens`}, time.Hour}
)

// CacheWriteModels are the models whose calls bill cache writes: Claude's.
// Other models reached through an Anthropic-compatible endpoint
// (deepseek-*, for one) cache prefixes automatically and report no
// cache_creation_input_tokens at all: their transcripts show reads but
// never a write.
var CacheWriteModels = Value[string]{Fact{Name: "CacheWriteModels",
	Doc:    "the models whose id holds this bill cache writes; other models cache on their own and bill what they do not read as input",
	Source: "usage.cache_creation_input_tokens, never above 0 for deepseek-* models"}, "claude"}

// BillsCacheWrites reports whether a model's calls bill cache writes
// (CacheWriteModels).
func BillsCacheWrites(model string) bool { return strings.Contains(model, CacheWriteModels.Value) }

// MinPrefix is a row of the minimum cacheable prefix table: a model whose
// id contains Match caches no prefix shorter than Tokens.
type MinPrefix struct {
	Match  string
	Tokens int64
}

// The minimum cacheable prefix by model: the first row of MinCacheable
// that matches, else MinCacheableOther (Sonnet 4.x, Opus 4/4.1).
var (
	MinCacheable = Value[[]MinPrefix]{Fact{Name: "MinCacheable",
		Doc:    "the shortest prompt prefix a model caches, by model id: the first row that matches",
		Source: `Anthropic's "Prompt caching"`},
		[]MinPrefix{{"opus-4-5", 4096}, {"opus-4-6", 4096}, {"haiku-4-5", 4096}, {"haiku", 2048}}}
	MinCacheableOther = Value[int64]{Fact{Name: "MinCacheableOther",
		Doc:    "the shortest prompt prefix the models MinCacheable does not list cache",
		Source: `Anthropic's "Prompt caching"`}, 1024}
)

// DefaultMinCacheable returns a copy of MinCacheable's table, for a
// configuration to hold.
func DefaultMinCacheable() []MinPrefix { return slices.Clone(MinCacheable.Value) }

// MinCacheableTokens is the shortest prefix model caches under table (the
// first row that matches, else MinCacheableOther); shorter prompts are
// not cached at all.
func MinCacheableTokens(table []MinPrefix, model string) int64 {
	for _, r := range table {
		if strings.Contains(model, r.Match) {
			return r.Tokens
		}
	}
	return MinCacheableOther.Value
}

// Claude Code's prompt-cache break detector (2.1.x) flags a call whose
// cache read fell by more than BreakMinFraction of the previous call's
// read and by more than BreakMinTokens; it skips the calls of
// BreakExcludedModels, which neither break nor count as the previous call.
var (
	BreakMinFraction = Value[float64]{Fact{Name: "BreakMinFraction",
		Doc:    "a call breaks the cache when its cache read fell by more than this share of the previous call's read, and by more than BreakMinTokens",
		Source: "Claude Code 2.1.x's bundled cli.js (its prompt-cache break detector)"}, 0.05}
	BreakMinTokens = Value[int64]{Fact{Name: "BreakMinTokens",
		Doc:    "a call breaks the cache when its cache read fell by more than these tokens, and by more than BreakMinFraction",
		Source: "Claude Code 2.1.x's bundled cli.js (its prompt-cache break detector)"}, 2000}
	BreakExcludedModels = Value[string]{Fact{Name: "BreakExcludedModels",
		Doc:    "the models whose id holds this are skipped by the break detector: they neither break nor count as the previous call",
		Source: "Claude Code 2.1.x's bundled cli.js (its prompt-cache break detector)"}, "haiku"}
)

// BreakRule is a cache-break rule: a call breaks the cache when its cache
// read fell by more than BreakMinFraction of the previous call's read AND
// by more than BreakMinTokens. The previous call is the thread's previous
// call whose model Claude Code's detector does not skip (BreakExcluded).
// accounting.Config and simulate.Config each carry one; DefaultBreakRule
// is Claude Code's own.
type BreakRule struct {
	BreakMinFraction float64
	BreakMinTokens   int64
}

// DefaultBreakRule returns Claude Code's thresholds (BreakMinFraction,
// BreakMinTokens).
func DefaultBreakRule() BreakRule {
	return BreakRule{BreakMinFraction: BreakMinFraction.Value, BreakMinTokens: BreakMinTokens.Value}
}

// IsBreak reports whether a call that read read tokens from the cache
// broke it, the previous call having read prevRead.
func (r BreakRule) IsBreak(prevRead, read int64) bool {
	drop := prevRead - read
	return float64(drop) > r.BreakMinFraction*float64(prevRead) && drop > r.BreakMinTokens
}

// BreakExcluded reports whether Claude Code's break detector skips a
// model's calls (BreakExcludedModels: Haiku, whose caching behaves
// differently).
func BreakExcluded(model string) bool { return strings.Contains(model, BreakExcludedModels.Value) }

// SharedPrefix: from it, a call on a new version (a restarted Claude
// Code) still reads a system prompt prefix from Anthropic's cache, which
// the user's other requests on that version keep warm; before it such a
// call reads nothing (docs/simulation.md, "The prompt cache").
var SharedPrefix = Fact{Name: "SharedPrefix", From: "2.0.0",
	Doc:    "the first call on a new version still reads the system prompt prefix",
	Source: "usage.cache_read_input_tokens of the first call after a version change"}
