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
