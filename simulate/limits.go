package simulate

import (
	"strings"

	"github.com/ctxlab/ctxlab/replay"
)

// Limits are Claude Code's context thresholds for one model and version
// (seeds 000 and 002; reference.md §1).
type Limits struct {
	Window    int64 `json:"window"`
	Reserved  int64 `json:"reserved_output"`
	Available int64 `json:"available"` // window − reserved output
	Threshold int64 `json:"threshold"` // auto-compact threshold
	Warning   int64 `json:"warning"`   // warning level
	Blocking  int64 `json:"blocking"`  // input blocked
}

// Windows and thresholds, each from its source.
const (
	// DefaultWindow is the context window of Claude models; "[1m]"
	// variants have LongWindow (reference.md §1).
	DefaultWindow = 200_000
	LongWindow    = 1_000_000
	// Reserved output: 32K up to 2.1.19, 20K from 2.1.22 on (measured from
	// where real auto-compactions fired, reference.md §1). Versions between
	// keep the older value.
	ReservedOld       = 32_000
	ReservedNew       = 20_000
	ReservedNewFrom   = "2.1.22"
	AutoCompactBuffer = 13_000 // uL0 / zQ0, seed 000 and 002
	WarningOffset     = 20_000 // rD5 / c97
	BlockingOffset    = 3_000  // mL0
)

// LimitParams are the overridable inputs of Limits. Zero fields take the
// defaults above.
type LimitParams struct {
	Window   int64   // 0: by model
	Reserved int64   // 0: by version
	Buffer   int64   // 0: AutoCompactBuffer
	Pct      float64 // CLAUDE_AUTOCOMPACT_PCT_OVERRIDE; 0: unset
	// AutoCompactOff computes the warning level from the available window,
	// as Claude Code does when auto-compaction is disabled.
	AutoCompactOff bool
}

// LimitsFor computes the limits for a model and CLI version.
func LimitsFor(p LimitParams, model, version string) Limits {
	l := Limits{Window: p.Window, Reserved: p.Reserved}
	if l.Window == 0 {
		l.Window = DefaultWindow
		if strings.Contains(model, "[1m]") || strings.HasSuffix(model, "-1m") {
			l.Window = LongWindow
		}
	}
	if l.Reserved == 0 {
		l.Reserved = ReservedOld
		if version == "" || replay.CompareVersions(version, ReservedNewFrom) >= 0 {
			l.Reserved = ReservedNew
		}
	}
	buf := p.Buffer
	if buf == 0 {
		buf = AutoCompactBuffer
	}
	l.Available = l.Window - l.Reserved
	l.Threshold = l.Available - buf
	if p.Pct > 0 && p.Pct <= 100 {
		// The override can only lower the threshold (seed 002, aI2).
		l.Threshold = min(int64(float64(l.Available)*p.Pct/100), l.Threshold)
	}
	base := l.Threshold
	if p.AutoCompactOff {
		base = l.Available
	}
	l.Warning = base - WarningOffset
	l.Blocking = l.Window - BlockingOffset
	return l
}

// MinPrefix is a row of the minimum cacheable prefix table: a model whose
// id contains Match caches no prefix shorter than Tokens.
type MinPrefix struct {
	Match  string
	Tokens int64
}

// DefaultMinCacheableTokens is the minimum cacheable prefix of the models
// DefaultMinCacheable does not list (Sonnet 4.x, Opus 4/4.1; reference.md §2).
const DefaultMinCacheableTokens = 1024

// DefaultMinCacheable returns the minimum cacheable prefix by model
// (reference.md §2, from Anthropic's prompt-caching documentation): 4,096
// for Opus 4.5/4.6 and Haiku 4.5, 2,048 for the other (3.x) Haiku models.
// The first row that matches wins.
func DefaultMinCacheable() []MinPrefix {
	return []MinPrefix{{"opus-4-5", 4096}, {"opus-4-6", 4096}, {"haiku-4-5", 4096}, {"haiku", 2048}}
}

// MinCacheable is the shortest prefix a model caches under the default
// table; shorter prompts are not cached at all.
func MinCacheable(model string) int64 { return minCacheable(DefaultMinCacheable(), model) }

func minCacheable(table []MinPrefix, model string) int64 {
	for _, r := range table {
		if strings.Contains(model, r.Match) {
			return r.Tokens
		}
	}
	return DefaultMinCacheableTokens
}
