package claudecode

import "strings"

// Limits are Claude Code's context thresholds for one model and version
// (its bundled cli.js, 2.1.x, checked against where real auto-compactions
// fired: compact_boundary's compactMetadata.preTokens).
type Limits struct {
	Window    int64 `json:"window"`
	Reserved  int64 `json:"reserved_output"`
	Available int64 `json:"available"` // window − reserved output
	Threshold int64 `json:"threshold"` // auto-compact threshold
	Warning   int64 `json:"warning"`   // warning level
	Blocking  int64 `json:"blocking"`  // input blocked
	// AutoCompactOff is set when auto-compaction is off
	// (LimitParams.AutoCompactOff).
	AutoCompactOff bool `json:"auto_compact_off,omitempty"`
}

// The windows and the thresholds below them.
var (
	// ContextWindow is the context window of Claude models.
	ContextWindow = Value[int64]{Fact{Name: "ContextWindow",
		Doc:    "the context window of Claude models, in tokens",
		Source: `Anthropic's "Context windows"`}, 200_000}
	// LongWindow is the window of "[1m]" models: the only mark Claude Code
	// reads from a model's name, so a gateway's "claude-opus-4.6-1m"
	// (2.1.63) auto-compacted like a 200K window.
	LongWindow = Value[int64]{Fact{Name: "LongWindow",
		Doc:    "the context window of a model whose id holds [1m], the only mark of it Claude Code reads",
		Source: `Anthropic's "Context windows"; compactMetadata.preTokens of a gateway's claude-opus-4.6-1m (2.1.63)`}, 1_000_000}
	// LongWindowModels are matched anywhere in a model id. The
	// transcript's message.model does not say whether a session used the
	// long window: Claude Code asks for it in a beta header, so the model
	// id is the same.
	LongWindowModels = Value[[]string]{Fact{Name: "LongWindowModels",
		Doc:    "the models offered with a 1M-token window (Claude Sonnet 4, 4.5 and 4.6, Claude Opus 4.6)",
		Source: `Anthropic's "Context windows"`}, []string{"sonnet-4-2", "sonnet-4-5", "sonnet-4-6", "opus-4-6"}}
	// ReservedOld and ReservedNew are the output reservations before and
	// from 2.1.22: real auto-compactions on 200K models moved from ≈155K
	// (2.1.19 and earlier) to ≈167K (2.1.22 and later).
	ReservedOld = Value[int64]{Fact{Name: "ReservedOld", Until: "2.1.22",
		Doc:    "output tokens reserved below the window",
		Source: "compactMetadata.preTokens: auto-compactions at ≈155K on 200K models up to 2.1.19"}, 32_000}
	ReservedNew = Value[int64]{Fact{Name: "ReservedNew", From: ReservedOld.Until,
		Doc:    "output tokens reserved below the window",
		Source: "compactMetadata.preTokens: auto-compactions at ≈167K on 200K models from 2.1.22"}, 20_000}
	// AutoCompactBuffer, WarningOffset and BlockingOffset place the
	// auto-compact threshold below the available window, the warning
	// level below the threshold and the blocking limit below the window.
	AutoCompactBuffer = Value[int64]{Fact{Name: "AutoCompactBuffer",
		Doc:    "the auto-compact threshold lies this far below the available window (window − reserved output)",
		Source: "Claude Code 2.1.x's bundled cli.js; compactMetadata.preTokens"}, 13_000}
	WarningOffset = Value[int64]{Fact{Name: "WarningOffset",
		Doc:    "the warning level lies this far below the threshold (below the available window with auto-compaction off)",
		Source: "Claude Code 2.1.x's bundled cli.js"}, 20_000}
	BlockingOffset = Value[int64]{Fact{Name: "BlockingOffset",
		Doc:    "input is blocked this far below the window",
		Source: "Claude Code 2.1.x's bundled cli.js"}, 3_000}
)

// What the auto-compaction count holds, by version. Before Estimate it is
// the last response's usage total (input, cache reads and writes,
// output); from it, that total plus Claude Code's estimate of every
// message after the response's first block. Before FinalOutput the total
// has the placeholder output the transcript records (PlaceholderOutput):
// 2.1.19's compactMetadata.preTokens equal the recorded usage total and
// the estimate of what followed, to the token, in both its compactions,
// and a 2.1.41 one exceeds them by 3,744, the size of the long Write its
// response made (no transcript between has a compaction). From
// EstimateResponse the count walks back to the response's first block, so
// the tool results between a response's blocks count: Claude Code writes
// each block as a message of its own with the response's usage.
var (
	Estimate = Fact{Name: "Estimate", From: "2.1.0",
		Doc:    "the auto-compaction count adds an estimate of what followed the last response to its usage total",
		Source: "compactMetadata.preTokens (2.0.76: the usage total; 2.1.19, 2.1.41: more)"}
	FinalOutput = Fact{Name: "FinalOutput", From: "2.1.41",
		Doc:    "the auto-compaction count has a response's final output where the transcript records a placeholder",
		Source: "compactMetadata.preTokens (2.1.19: the placeholder; 2.1.41: the final output)"}
	EstimateResponse = Fact{Name: "EstimateResponse", From: "2.1.88",
		Doc:    "the auto-compaction count also estimates the last response's blocks after its first",
		Source: "Claude Code 2.1.88's published source; compactMetadata.preTokens (2.1.118–2.1.146)"}
)

// LimitParams are the overridable inputs of Limits. Zero fields take the
// facts above.
type LimitParams struct {
	Window   int64   // 0: by model
	Reserved int64   // 0: by version
	Buffer   int64   // 0: AutoCompactBuffer
	Pct      float64 // CLAUDE_AUTOCOMPACT_PCT_OVERRIDE; 0: unset
	// AutoCompactOff computes the warning level from the available window,
	// as Claude Code does when auto-compaction is disabled.
	AutoCompactOff bool
}

// LimitsFor computes the limits for a model and Claude Code version; an
// unknown version ("") takes the newest reservation.
func LimitsFor(p LimitParams, model, version string) Limits {
	l := Limits{Window: p.Window, Reserved: p.Reserved}
	if l.Window == 0 {
		l.Window = ContextWindow.Value
		if hasLongMark(model) {
			l.Window = LongWindow.Value
		}
	}
	if l.Reserved == 0 {
		l.Reserved = ReservedNew.Value
		if ReservedOld.In(version) {
			l.Reserved = ReservedOld.Value
		}
	}
	buf := p.Buffer
	if buf == 0 {
		buf = AutoCompactBuffer.Value
	}
	l.Available = l.Window - l.Reserved
	l.Threshold = l.Available - buf
	if p.Pct > 0 && p.Pct <= 100 {
		// The override can only lower the threshold (cli.js: aI2).
		l.Threshold = min(int64(float64(l.Available)*p.Pct/100), l.Threshold)
	}
	base := l.Threshold
	if p.AutoCompactOff {
		base = l.Available
		l.AutoCompactOff = true
	}
	l.Warning = base - WarningOffset.Value
	l.Blocking = l.Window - BlockingOffset.Value
	return l
}

// OffersLongWindow reports whether model is offered with a 1M-token window
// (LongWindowModels).
func OffersLongWindow(model string) bool { return matchesAny(model, LongWindowModels.Value) }

// matchesAny reports whether model holds one of parts.
func matchesAny(model string, parts []string) bool {
	for _, m := range parts {
		if strings.Contains(model, m) {
			return true
		}
	}
	return false
}
