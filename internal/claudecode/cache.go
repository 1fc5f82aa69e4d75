package claudecode

import "strings"

// BillsCacheWrites reports whether a model's calls bill cache writes:
// Anthropic's Claude models do. Other models reached through an
// Anthropic-compatible endpoint (deepseek-*, for one) cache prefixes
// automatically and report no cache_creation_input_tokens at all: their
// transcripts show reads but never a write.
func BillsCacheWrites(model string) bool { return strings.Contains(model, "claude") }

// Claude Code's prompt-cache break detector (2.1.x) flags a call whose
// cache read fell by more than BreakMinFraction of the previous call's
// read and by more than BreakMinTokens.
const (
	BreakMinFraction = 0.05
	BreakMinTokens   = 2000
)

// BreakExcluded reports the models whose calls Claude Code's break detector
// skips: they neither break nor count as the previous call (Haiku, whose
// caching behaves differently).
func BreakExcluded(model string) bool { return strings.Contains(model, "haiku") }

// MinPrefix is a row of the minimum cacheable prefix table: a model whose
// id contains Match caches no prefix shorter than Tokens.
type MinPrefix struct {
	Match  string
	Tokens int64
}

// DefaultMinCacheableTokens is the minimum cacheable prefix of the models
// DefaultMinCacheable does not list (Sonnet 4.x, Opus 4/4.1).
const DefaultMinCacheableTokens = 1024

// DefaultMinCacheable returns the minimum cacheable prefix by model
// (Anthropic's "Prompt caching"): 4,096 for Opus 4.5/4.6 and Haiku 4.5,
// 2,048 for the other (3.x) Haiku models. The first row that matches wins.
func DefaultMinCacheable() []MinPrefix {
	return []MinPrefix{{"opus-4-5", 4096}, {"opus-4-6", 4096}, {"haiku-4-5", 4096}, {"haiku", 2048}}
}

// MinCacheable is the shortest prefix model caches under table (the first
// row that matches, else DefaultMinCacheableTokens); shorter prompts are
// not cached at all.
func MinCacheable(table []MinPrefix, model string) int64 {
	for _, r := range table {
		if strings.Contains(model, r.Match) {
			return r.Tokens
		}
	}
	return DefaultMinCacheableTokens
}

// SharedPrefixFrom is the first Claude Code version whose call on a new
// version (a restarted Claude Code) still reads a system prompt prefix
// from Anthropic's cache, which the user's other requests on that version
// keep warm; before it such a call reads nothing.
const SharedPrefixFrom = "2.0.0"
