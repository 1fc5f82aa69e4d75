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

// What the auto-compaction count holds, by version: the last response's
// usage total (input, cache reads and writes, output), from Estimate plus
// Claude Code's estimate of the messages after it (CountRulesFor weighs
// them), and which output that total has, the final one or the
// transcript's placeholder. docs/claude-code.md ("The context window and
// auto-compaction") gives the stream and the preTokens behind each.
var (
	Estimate = Fact{Name: "Estimate", From: "2.1.2",
		Doc:    "the auto-compaction count adds an estimate of what followed the last response to its usage total",
		Source: "cli.js (2.1.1's check counts the usage alone, 2.1.2's adds the estimate); compactMetadata.preTokens (2.0.76: the usage total; 2.1.19, 2.1.41: more)"}
	FinalOutputHeld = Fact{Name: "FinalOutputHeld", Until: "2.1.8",
		Doc:    "the auto-compaction count has a response's final output, which the SDK's message stream updates in place, where the transcript may record a placeholder it does not mark",
		Source: "cli.js (beta.messages.stream up to 2.1.7, the raw event stream from 2.1.8); compactMetadata.preTokens (2.0.76)"}
	FinalOutput = Fact{Name: "FinalOutput", From: "2.1.30",
		Doc:    "the auto-compaction count has a response's final output again where the transcript records a placeholder",
		Source: "cli.js (the response's last message takes message_delta's usage from 2.1.30); compactMetadata.preTokens (2.1.19: the placeholder; 2.1.41: the final output)"}
	EstimateResponse = Fact{Name: "EstimateResponse", From: "2.1.88",
		Doc:    "the auto-compaction count also estimates the last response's blocks after its first",
		Source: "Claude Code 2.1.88's published source; compactMetadata.preTokens (2.1.118–2.1.146)"}
)

// CountsFinalOutput reports whether Claude Code of a version counts a
// response's final output rather than the placeholder of its first
// streamed event: before until (FinalOutputHeld) and from from
// (FinalOutput); an unknown version does.
func CountsFinalOutput(version, until, from string) bool {
	return version == "" || Before(version, until) || AtLeast(version, from)
}

// How Claude Code's estimate of a message in its count
// (roughTokenCountEstimationForMessages in 2.1.88's published source; the
// same function in earlier bundles) weighs blocks, by version. Before
// AllBlocks it counts text (round(length/4)), tool results (their text
// and images) and images, and nothing else: not a document (a PDF Read
// adds one, its base64 data in the transcript), a tool use or thinking.
// An image counts ImageEstimateOld before its Until, ImageTokens from it.
// An attachment counts nothing before AttachmentJSON, the estimate of its
// JSON (JSON.stringify of the attachment) from it, and what it sends the
// model from AttachmentSent. From AllBlocks a document counts ImageTokens,
// a tool use its name and input's JSON, thinking its text, and any other
// block its JSON.
var (
	ImageTokens = Value[int]{Fact{Name: "ImageTokens",
		Doc:    "Claude Code's estimate of an image, in tokens, whatever its size",
		Source: "cli.js (every version's token estimate of an image block)"}, 2000}
	ImageEstimate = Fact{Name: "ImageEstimate", From: "2.1.38",
		Doc:    "the auto-compaction count estimates an image at ImageTokens (before it, at ImageEstimateOld)",
		Source: "the bundled cli.js of 2.1.2–2.1.74 (the count's estimate of an image block)"}
	ImageEstimateOld = Value[int64]{Fact{Name: "ImageEstimateOld", Until: ImageEstimate.From,
		Doc:    "the auto-compaction count's estimate of an image, in tokens",
		Source: "the bundled cli.js of 2.1.2–2.1.37 (the count's estimate of an image block)"}, 1334}
	AttachmentJSON = Fact{Name: "AttachmentJSON", From: "2.1.33",
		Doc:    "the auto-compaction count estimates an attachment by its JSON (before it, attachments count nothing)",
		Source: "the bundled cli.js of 2.1.2–2.1.74 (the count's estimate of an attachment message)"}
	AttachmentSent = Fact{Name: "AttachmentSent", From: "2.1.45",
		Doc:    "the auto-compaction count estimates an attachment by what it sends the model",
		Source: "the bundled cli.js of 2.1.2–2.1.74 (the count's estimate of an attachment message)"}
	AllBlocks = Fact{Name: "AllBlocks", From: "2.1.74",
		Doc:    "the auto-compaction count weighs every block: a document as an image, a tool use by its name and input's JSON, thinking by its text (before it they count nothing)",
		Source: "the bundled cli.js of 2.1.2–2.1.74 (the count's estimate of a message's blocks); 2.1.88's published source (roughTokenCountEstimationForMessages)"}
)

// CountRules are the weights Claude Code's estimate gives the blocks whose
// weight changed by version (CountRulesFor).
type CountRules struct {
	Image      int64          // an image
	Attachment AttachmentRule // an attachment
	// AllBlocks is set when a document counts ImageTokens and any other
	// block that is not text, a tool result or an image its own estimate;
	// else they count nothing.
	AllBlocks bool
}

// AttachmentRule says what an attachment counts in Claude Code's estimate.
type AttachmentRule uint8

// The attachment rules, oldest first.
const (
	AttachmentNothing AttachmentRule = iota
	AttachmentByJSON                 // the estimate of its JSON
	AttachmentBySent                 // the estimate of what it sends the model
)

// CountCutoffs are the versions the count's weights change at: the
// cut-offs of ImageEstimate, AttachmentJSON, AttachmentSent and
// AllBlocks, which simulate's parameters move; a zero field takes the
// fact's.
type CountCutoffs struct {
	ImageEstimateFrom, AttachmentJSONFrom, AttachmentSentFrom, AllBlocksFrom string
}

// WithDefaults fills the zero fields with the facts' cut-offs.
func (c CountCutoffs) WithDefaults() CountCutoffs {
	for _, f := range []struct {
		dst *string
		cut string
	}{{&c.ImageEstimateFrom, ImageEstimate.From}, {&c.AttachmentJSONFrom, AttachmentJSON.From},
		{&c.AttachmentSentFrom, AttachmentSent.From}, {&c.AllBlocksFrom, AllBlocks.From}} {
		if *f.dst == "" {
			*f.dst = f.cut
		}
	}
	return c
}

// CountRulesFor returns the weights of Claude Code's estimate in a version
// under the cut-offs c (the facts' in zero fields); an unknown version
// ("") takes the newest.
func CountRulesFor(version string, c CountCutoffs) CountRules {
	c = c.WithDefaults()
	from := func(cut string) bool { return !Before(version, cut) }
	r := CountRules{Image: ImageEstimateOld.Value, AllBlocks: from(c.AllBlocksFrom)}
	if from(c.ImageEstimateFrom) {
		r.Image = int64(ImageTokens.Value)
	}
	switch {
	case from(c.AttachmentSentFrom):
		r.Attachment = AttachmentBySent
	case from(c.AttachmentJSONFrom):
		r.Attachment = AttachmentByJSON
	}
	return r
}

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

// What Claude Code sends of a tool result, and so what its count weighs
// (ResultAsSent: the transcript's message.content holds it). From
// PersistResults on, Claude Code saves a result longer than its tool's
// limit (ResultLimitFor) to a file under the session's folder and sends a
// <persisted-output> message instead: the size, the file's path and the
// first PersistPreview characters (cut back to a line end past half of
// them). A result that holds an image is sent whole. A string counts by
// its length, a list of blocks by its JSON. Before PersistResults the
// same saving ran only behind a switch (the environment variable
// ENABLE_TOOL_RESULT_SIZE_LIMIT in 2.0.53, a server-side flag in 2.0.60
// to 2.1.1, at 400,000 characters), so a result whole in a transcript of
// those versions was sent whole.
var (
	PersistResults = Fact{Name: "PersistResults", From: "2.1.2",
		Doc:    "Claude Code saves a tool result longer than its tool's limit to a file and sends a preview of it instead, unless the result holds an image",
		Source: "the bundled cli.js of 2.0.53–2.1.50 (the persisting of a tool result: tengu_tool_result_persisted; behind a switch before 2.1.2)"}
	ResultLimitOld = Value[int]{Fact{Name: "ResultLimitOld", From: PersistResults.From, Until: "2.1.6",
		Doc:    "the characters of a tool result Claude Code sends whole, for a tool ToolResultLimits does not list",
		Source: "the bundled cli.js of 2.1.2–2.1.5"}, 400_000}
	ResultLimit = Value[int]{Fact{Name: "ResultLimit", From: ResultLimitOld.Until,
		Doc:    "the characters of a tool result Claude Code sends whole, for a tool ToolResultLimits does not list (its maxResultSizeChars)",
		Source: "the bundled cli.js of 2.1.6–2.1.50 (each tool's maxResultSizeChars)"}, 100_000}
	ToolResultLimits = Value[[]ToolLimit]{Fact{Name: "ToolResultLimits", From: PersistResults.From,
		Doc:    "the tools whose results Claude Code sends whole up to a lower limit, in characters",
		Source: "the bundled cli.js of 2.1.2–2.1.50 (the limits by tool name, then maxResultSizeChars)"},
		[]ToolLimit{{"Bash", 30_000}, {"Grep", 20_000}, {"WebFetch", 100_000}}}
	PersistPreview = Value[int]{Fact{Name: "PersistPreview", From: PersistResults.From,
		Doc:    "the characters of a saved tool result that Claude Code's preview holds at most",
		Source: "the bundled cli.js of 2.1.2–2.1.50; the persisted-output results of 2.1.7–2.1.146 transcripts (previews of 1,650–1,999 characters)"}, 2_000}
	// PersistedWrapper is what the preview message adds to the preview:
	// the markers, the size and the file's path, whose length varies
	// (230–283 characters in the 15 persisted results of the transcripts
	// here, 2.1.7–2.1.146, which are 1,892–2,280 characters in all).
	PersistedWrapper = Value[int]{Fact{Name: "PersistedWrapper", From: PersistResults.From,
		Doc:    "the characters the preview message adds to the preview: its markers, the result's size and the saved file's path",
		Source: "the persisted-output results of 2.1.7–2.1.146 transcripts (230–283 characters beyond the preview)"}, 260}
)

// ToolLimit is a tool's own limit on the result Claude Code sends whole.
type ToolLimit struct {
	Tool  string
	Chars int
}

// ResultLimitFor returns the characters of a tool's result that Claude
// Code of a version sends whole, 0 for no limit: a version before from
// (PersistResults.From by default) saves nothing. An unknown version
// ("") takes the newest limits.
func ResultLimitFor(version, tool, from string) int {
	if from == "" {
		from = PersistResults.From
	}
	if version != "" && Before(version, from) {
		return 0
	}
	for _, l := range ToolResultLimits.Value {
		if l.Tool == tool {
			return l.Chars
		}
	}
	if version != "" && Before(version, ResultLimitOld.Until) {
		return ResultLimitOld.Value
	}
	return ResultLimit.Value
}
