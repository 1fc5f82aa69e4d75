package claudecode

import (
	"strings"

	"github.com/ctxlab/ctxlab/replay"
)

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

// Windows and thresholds, each from its source.
const (
	// DefaultWindow is the context window of Claude models; "[1m]"
	// variants have LongWindow (Anthropic's "Context windows"). "[1m]" is
	// the only mark Claude Code reads from a model's name: a gateway's
	// "claude-opus-4.6-1m" (2.1.63) auto-compacted like a 200K window.
	DefaultWindow = 200_000
	LongWindow    = 1_000_000
	// Reserved output: ReservedOld before ReservedNewFrom, ReservedNew
	// from it on, where real auto-compactions moved from ≈155K to ≈167K on
	// 200K models (2.1.19 and earlier against 2.1.22 and later).
	ReservedOld     = 32_000
	ReservedNew     = 20_000
	ReservedNewFrom = "2.1.22"
	// The auto-compact buffer below the available window, the warning
	// level below the threshold, and the blocking limit below the window
	// (cli.js: uL0 / zQ0, rD5 / c97, mL0).
	AutoCompactBuffer = 13_000
	WarningOffset     = 20_000
	BlockingOffset    = 3_000
)

// EstimateFrom is the first Claude Code version whose auto-compaction count
// is the last response's usage total (input, cache reads and writes,
// output) plus Claude Code's estimate of every message after the first
// block of that response; earlier versions count the usage total alone
// (its bundled cli.js: 2.1.1's check counts the usage alone, 2.1.2's adds
// the estimate). compactMetadata.preTokens shows which a version counts.
const EstimateFrom = "2.1.2"

// Claude Code's estimate of a message in its count
// (roughTokenCountEstimationForMessages in 2.1.88's published source; the
// same function in earlier bundles) weighs blocks by version. Up to
// AllBlocksFrom it counts text (round(length/4)), tool results (their text
// and images) and images, and nothing else: not a document (a PDF Read
// adds one, its base64 data in the transcript), a tool use or thinking.
// An image counts ImageEstimateOld until ImageEstimateFrom and
// replay.TokensPerImage from it. An attachment counts nothing until
// AttachmentJSONFrom, the estimate of its JSON (JSON.stringify of the
// attachment) until AttachmentSentFrom, and from it what it sends the
// model. From AllBlocksFrom a document counts replay.TokensPerImage, a
// tool use its name and input's JSON, thinking its text, and any other
// block its JSON.
const (
	ImageEstimateOld   = 1334
	ImageEstimateFrom  = "2.1.38"
	AttachmentJSONFrom = "2.1.33"
	AttachmentSentFrom = "2.1.45"
	AllBlocksFrom      = "2.1.74"
)

// CountRules are the weights Claude Code's estimate gives the blocks whose
// weight changed by version (see ImageEstimateFrom).
type CountRules struct {
	Image      int64          // an image
	Attachment AttachmentRule // an attachment
	// AllBlocks is set when a document counts replay.TokensPerImage and
	// any other block that is not text, a tool result or an image its
	// own estimate; else they count nothing.
	AllBlocks bool
}

// AttachmentRule says what an attachment counts in Claude Code's estimate.
type AttachmentRule uint8

// The attachment rules, oldest first.
const (
	AttachmentNothing AttachmentRule = iota
	AttachmentJSON                   // the estimate of its JSON
	AttachmentSent                   // the estimate of what it sends the model
)

// CountCutoffs are the versions the count rules change at (ImageEstimateFrom
// and the others); zero fields take the defaults.
type CountCutoffs struct {
	ImageEstimateFrom, AttachmentJSONFrom, AttachmentSentFrom, AllBlocksFrom string
}

// WithDefaults fills the zero fields with the defaults.
func (c CountCutoffs) WithDefaults() CountCutoffs {
	if c.ImageEstimateFrom == "" {
		c.ImageEstimateFrom = ImageEstimateFrom
	}
	if c.AttachmentJSONFrom == "" {
		c.AttachmentJSONFrom = AttachmentJSONFrom
	}
	if c.AttachmentSentFrom == "" {
		c.AttachmentSentFrom = AttachmentSentFrom
	}
	if c.AllBlocksFrom == "" {
		c.AllBlocksFrom = AllBlocksFrom
	}
	return c
}

// CountRulesFor returns the weights of Claude Code's estimate in a version
// under the cut-offs c (defaults in zero fields); an unknown version ("")
// takes the newest.
func CountRulesFor(version string, c CountCutoffs) CountRules {
	c = c.WithDefaults()
	from := func(cut string) bool { return !before(version, cut) }
	r := CountRules{Image: ImageEstimateOld, AllBlocks: from(c.AllBlocksFrom)}
	if from(c.ImageEstimateFrom) {
		r.Image = replay.TokensPerImage
	}
	switch {
	case from(c.AttachmentSentFrom):
		r.Attachment = AttachmentSent
	case from(c.AttachmentJSONFrom):
		r.Attachment = AttachmentJSON
	}
	return r
}

// FinalOutputUntil is the first Claude Code version whose count has the
// output of a response's first streamed event (message_start's usage, a
// placeholder of a few tokens) instead of its final output. Up to 2.1.7
// Claude Code streams a response with the SDK's message stream
// (beta.messages.stream in its bundled cli.js): each block's message shares
// its usage with the message of message_start, which the stream updates in
// place when message_delta brings the final output. 2.1.8 reads the raw
// event stream (beta.messages.create with stream: true), which updates
// nothing. The transcript writes a block's line when the block ends, before
// message_delta, so it often records the placeholder where the count has
// the final output: two 2.0.76 compactions' compactMetadata.preTokens
// exceed the recorded usage total, whose output is 1, by 327 and 618.
const FinalOutputUntil = "2.1.8"

// FinalOutputFrom is the first Claude Code version whose count has the
// final output again: from 2.1.30 its bundled cli.js gives the response's
// last message the usage message_delta brings. The transcript still
// records the placeholder (2.1.9 to 2.1.41 write one): a 2.1.41
// compaction's preTokens exceed the recorded usage total and the estimate
// of what followed by 3,744, the size of the long Write its response made.
const FinalOutputFrom = "2.1.30"

// CountsFinalOutput reports whether Claude Code of a version counts a
// response's final output (FinalOutputUntil, FinalOutputFrom) rather than
// the placeholder of its first streamed event; an unknown version does.
func CountsFinalOutput(version, until, from string) bool {
	return version == "" || before(version, until) || replay.CompareVersions(version, from) >= 0
}

// EstimateResponseFrom is the first Claude Code version whose count also
// adds the estimate of the last response's blocks after its first: Claude
// Code writes each block of a response as a message of its own, all with
// the response's usage, and from this version its count walks back to the
// response's first block, so the tool results between the blocks count
// (Claude Code 2.1.88's published source).
const EstimateResponseFrom = "2.1.88"

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

// LimitsFor computes the limits for a model and Claude Code version; an
// unknown version ("") takes the newest reservation.
func LimitsFor(p LimitParams, model, version string) Limits {
	l := Limits{Window: p.Window, Reserved: p.Reserved}
	if l.Window == 0 {
		l.Window = DefaultWindow
		if strings.Contains(model, "[1m]") {
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
		// The override can only lower the threshold (cli.js: aI2).
		l.Threshold = min(int64(float64(l.Available)*p.Pct/100), l.Threshold)
	}
	base := l.Threshold
	if p.AutoCompactOff {
		base = l.Available
		l.AutoCompactOff = true
	}
	l.Warning = base - WarningOffset
	l.Blocking = l.Window - BlockingOffset
	return l
}

// LongWindowModels lists the models offered with a 1M-token context window
// (Anthropic's "Context windows": Claude Sonnet 4, 4.5 and 4.6, and Claude
// Opus 4.6). The transcript's message.model does not say whether a session
// used it: Claude Code asks for the long window in a beta header, so the
// model id is the same.
var LongWindowModels = []string{"sonnet-4-2", "sonnet-4-5", "sonnet-4-6", "opus-4-6"}

// OffersLongWindow reports whether model is offered with a 1M-token window
// (LongWindowModels).
func OffersLongWindow(model string) bool {
	for _, m := range LongWindowModels {
		if strings.Contains(model, m) {
			return true
		}
	}
	return false
}
