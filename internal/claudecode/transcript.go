package claudecode

// What Claude Code writes in its transcripts, by version.
var (
	// SyntheticModel marks a response Claude Code wrote itself (an API
	// error, a rate-limit notice, an interrupted turn): it was never
	// sent.
	SyntheticModel = Value[string]{Fact{Name: "SyntheticModel",
		Doc:    "the message.model of a response Claude Code wrote itself, never sent to the API",
		Source: "message.model of assistant lines"}, "<synthetic>"}
	// PlaceholderOutput: 2.1.9 to 2.1.41 write on every line of a
	// response the usage of its first streamed message (message_start),
	// whose output_tokens is a placeholder, with stop_reason null; the
	// versions before write a snapshot per line, the last one final, and
	// the later ones the final usage on every line.
	PlaceholderOutput = Fact{Name: "PlaceholderOutput", From: "2.1.9", Until: "2.1.42",
		Doc:    "every line of a response records the usage of its first streamed message, whose output_tokens is a placeholder",
		Source: "message.usage.output_tokens and message.stop_reason of assistant lines (2.1.9–2.1.41)"}
	// ResultAsSent: Claude Code builds a tool result's message from the
	// result it sends the model (cut, or saved to a file with a preview
	// in its place: PersistResults), and toolUseResult from the tool's
	// own output. A Bash result of 2.1.7 records a 2,267-character
	// preview in message.content and 164,273 characters of stdout in
	// toolUseResult; Grep results of 2.1.19, previews of 2,146–2,200
	// for 24,280–49,753 characters of content. So what the transcript's
	// message.content holds is what Claude Code counted.
	ResultAsSent = Fact{Name: "ResultAsSent",
		Doc:    "a tool result's message.content holds what Claude Code sent the model and counted (an output cut to its limit, or the preview of a result saved to a file); toolUseResult holds the tool's own output",
		Source: "the bundled cli.js of 2.0.53–2.1.50 (the tool result message and its toolUseResult); message.content and toolUseResult of the persisted-output results of 2.1.7–2.1.41 transcripts"}
	// SummarySaysAuto: before 1.0.106, which is the first to write a
	// compact_boundary line with compactMetadata.trigger, a compaction's
	// trigger shows only in its summary message: the summary function has
	// two callers, the automatic compaction, which asks for a closing
	// instruction to go on with the last task, and /compact, which does
	// not (1.0.0, 1.0.30, 1.0.51, 1.0.62, 1.0.80, 1.0.83, 1.0.85, 1.0.96,
	// 1.0.98, 1.0.103 and 1.0.105 checked).
	SummarySaysAuto = Fact{Name: "SummarySaysAuto", Until: "1.0.106",
		Doc:    "the summary message of a compaction Claude Code made on its own ends with an instruction to go on with the last task; a /compact summary does not",
		Source: "cli.js of 1.0.0–1.0.105 (the summary function's callers); isCompactSummary user lines; compact_boundary lines from 1.0.106"}
)

// Field is a top-level field of a transcript line, or a line type, that
// ctxlab knows. A field or line type not listed is counted as unknown
// (replay.Stats.Unknown).
type Field struct {
	Name string
	// From is the first Claude Code version known to write it: the oldest
	// version of the transcripts ctxlab is checked on whose lines carry
	// it ("" when that is the oldest of them all, 1.0.70, so that when it
	// came is not known), or, for one none of them carries, the oldest
	// of the bundled cli.js versions read that writes it.
	From string
	// Skimmed is set for a field replay reads past: it checks the
	// structure of its value and decodes none of it.
	Skimmed bool
}

// Row is the field's row in docs/claude-code.md's tables.
func (f Field) Row() string {
	from, how := f.From, "read"
	if from == "" {
		from = "every version"
	}
	if f.Skimmed {
		how = "read past"
	}
	return "| `" + f.Name + "` | " + from + " | " + how + " |"
}

// TranscriptFields lists the top-level fields of a transcript line that
// ctxlab knows. The reader's switch of the fields it reads past is generated
// from it (replay/transcript/fields_gen.go, go generate ./replay/transcript).
func TranscriptFields() []Field {
	return []Field{
		// Read by the reader (replay/transcript/reader.go, lineParse.field and flag).
		{"type", "", false}, {"uuid", "", false}, {"parentUuid", "", false}, {"sessionId", "", false},
		{"version", "", false}, {"cwd", "", false}, {"timestamp", "", false}, {"requestId", "", false},
		{"message", "", false}, {"toolUseResult", "", false}, {"isSidechain", "", false}, {"isMeta", "", false},
		{"isCompactSummary", "1.0.80", false}, {"isApiErrorMessage", "1.0.80", false},
		{"isVisibleInTranscriptOnly", "1.0.93", false}, {"subtype", "2.0.60", false},
		{"logicalParentUuid", "2.0.60", false}, {"compactMetadata", "2.0.60", false}, {"agentId", "2.1.2", false},
		{"microcompactMetadata", "2.1.19", false}, {"attachment", "2.1.97", false},
		// Read past: skimmed.
		{"userType", "", true}, {"gitBranch", "", true}, {"level", "", true}, {"toolUseID", "", true},
		{"content", "", true}, {"summary", "1.0.80", true}, {"leafUuid", "1.0.80", true},
		{"slug", "2.0.60", true}, {"todos", "2.0.60", true}, {"thinkingMetadata", "2.0.60", true},
		{"messageId", "2.0.60", true}, {"snapshot", "2.0.60", true}, {"isSnapshotUpdate", "2.0.60", true},
		{"operation", "2.0.60", true}, {"planContent", "2.0.59", true}, {"error", "2.0.76", true},
		{"sourceToolAssistantUUID", "2.1.2", true}, {"durationMs", "2.1.7", true},
		{"retryInMs", "2.1.7", true}, {"retryAttempt", "2.1.7", true}, {"maxRetries", "2.1.7", true},
		{"data", "2.1.9", true}, {"parentToolUseID", "2.1.9", true}, {"cause", "2.1.15", true},
		{"permissionMode", "2.1.15", true}, {"mcpMeta", "2.1.19", true}, {"hookCount", "2.1.19", true},
		{"hookInfos", "2.1.19", true}, {"hookErrors", "2.1.19", true},
		{"preventedContinuation", "2.1.19", true}, {"stopReason", "2.1.19", true},
		{"hasOutput", "2.1.19", true}, {"prNumber", "2.1.27", true}, {"prUrl", "2.1.27", true},
		{"prRepository", "2.1.27", true}, {"imagePasteIds", "2.1.41", true},
		{"sourceToolUseID", "2.1.41", true}, {"entrypoint", "2.1.97", true}, {"promptId", "2.1.97", true},
		{"messageCount", "2.1.97", true}, {"lastPrompt", "2.1.97", true}, {"aiTitle", "2.1.118", true},
		{"customTitle", "2.1.118", true}, {"apiErrorStatus", "2.1.119", true},
	}
}

// LineTypes lists the line types (a line's type field) that ctxlab knows.
func LineTypes() []Field {
	return []Field{
		{"user", "", false}, {"assistant", "", false}, {"system", "", false}, {"summary", "1.0.80", false},
		{"file-history-snapshot", "2.0.60", false}, {"queue-operation", "2.0.60", false},
		{"progress", "2.1.9", false}, {"pr-link", "2.1.27", false}, {"attachment", "2.1.97", false},
		{"permission-mode", "2.1.97", false}, {"last-prompt", "2.1.97", false},
		{"ai-title", "2.1.118", false}, {"custom-title", "2.1.118", false},
	}
}
