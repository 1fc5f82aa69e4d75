package claudecode

// Restoration after a full compaction. Claude Code keeps the files a
// session touched (its readFileState: what a Read returned, what an Edit
// or Write left, each with a time); a compaction empties it and re-reads
// the RestoreFiles newest with the Read tool under a per-file token limit
// (RestoreFileTokensOld, then RestoreFileTokens from RestoreReference),
// keeping those whose attachments fit in RestoreTotalTokens, then the todo
// list; what it re-read is the state's new content. Read in the bundled
// cli.js of 1.0.80–1.0.89, 1.0.113–1.0.120, 2.0.0, 2.0.55–2.0.76, 2.1.7,
// 2.1.19 and 2.1.50 (docs/simulation.md, "Compaction, the summarizer and
// restoration", gives the transcripts' evidence).
var (
	RestoreFiles = Value[int]{Fact{Name: "RestoreFiles",
		Doc:    "after a full compaction, Claude Code re-attaches this many of the files the session touched, newest first",
		Source: "the bundled cli.js of 1.0.80–2.1.50 (the compaction's file restoration); the attachment lines (type file) 2.1.118 and later write after a compact_boundary"}, 5}
	RestoreFileTokensOld = Value[int64]{Fact{Name: "RestoreFileTokensOld", Until: "1.0.85",
		Doc:    "a file is re-attached whole when its text is at most these tokens, as the API counts them",
		Source: "the bundled cli.js of 1.0.80–1.0.84 (the compaction's file restoration reads with this token limit)"}, 10_000}
	RestoreFileTokens = Value[int64]{Fact{Name: "RestoreFileTokens", From: "1.0.85",
		Doc:    "a file is re-attached whole when its text is at most these tokens, as the API counts them",
		Source: "the bundled cli.js of 1.0.85–2.1.50 (the compaction's file restoration); the attachment lines 2.1.118 and later write after a compact_boundary (compact_file_reference for a larger file)"}, 5000}
	RestoreCounted = Fact{Name: "RestoreCounted",
		Doc:    "the per-file limit is checked on the file's tokens as the API counts them (messages.countTokens), and only when Claude Code's estimate of its text is above a quarter of the limit",
		Source: "the bundled cli.js of 1.0.80–2.1.50 (the Read tool's token check)"}
	ReadCountFallback = Fact{Name: "ReadCountFallback", From: "2.1.6",
		Doc:    "when the API's count of a file's tokens fails, the Read tool checks its token limit (and restoration its per-file limit) on Claude Code's estimate; before it, a file whose count failed passes the limit",
		Source: "the bundled cli.js of 2.1.5 and 2.1.6 (the Read tool's token check)"}
	RestoreReference = Fact{Name: "RestoreReference", From: "1.0.85",
		Doc:    "a file over the per-file limit keeps its place among the files re-attached as a one-line note that names it (compact_file_reference); before it, it comes back as its first ReadLineLimit lines when those are within the limit, else not at all",
		Source: "the bundled cli.js of 1.0.84 and 1.0.85 (the compaction's file restoration)"}
	RestoreTotalTokens = Value[int64]{Fact{Name: "RestoreTotalTokens",
		Doc:    "the files re-attached stop at these tokens in all, by Claude Code's estimate of each attachment's JSON (its text, its path twice and its fields)",
		Source: "the bundled cli.js of 1.0.80–2.1.50 (the compaction's file restoration)"}, 50_000}
	RestoreWritten = Fact{Name: "RestoreWritten", From: "1.0.114",
		Doc:    "a Read dates a file by its modification time, so that restoration puts the files a tool wrote first, newest write first; before it, a Read is dated when it ran and files come back by when the session last touched them, read or written",
		Source: "the bundled cli.js of 1.0.113 and 1.0.114 (the Read tool's entry in readFileState)"}
	SharedFiles = Fact{Name: "SharedFiles", Until: "1.0.117",
		Doc:    "sub-agents (the Task tool) share the session's files, so what they read or write can come back after a compaction",
		Source: "the bundled cli.js of 1.0.115 (the sub-agent's context takes the session's readFileState) and 1.0.117 (a state of its own)"}
	RestoreSeed = Fact{Name: "RestoreSeed", From: "2.0.59",
		Doc:    "a restarted process (a resumed conversation) rebuilds the files it can re-attach from the history it loads: the files a Read returned whole and those a Write wrote; before it, a new process starts with none",
		Source: "the bundled cli.js of 2.0.58 and 2.0.59 (the interactive session's readFileState at start)"}
	PlanFile = Fact{Name: "PlanFile", From: "2.0.56",
		Doc:    "the session's plan file (plan mode's plans/<slug>.md in Claude Code's directory) comes back whole after a compaction, apart from the files (plan_file_reference)",
		Source: "the bundled cli.js of 2.0.55 and 2.0.56 (the compaction's attachments)"}
	ReadLinePrefix = Value[int]{Fact{Name: "ReadLinePrefix",
		Doc:    "what Claude Code's Read output adds to each line: the line number padded to six places and an arrow or tab, in characters",
		Source: "the Read tool results of every transcript"}, 7}
	ReadLineLimit = Value[int]{Fact{Name: "ReadLineLimit",
		Doc:    "the lines a Read returns of a file when it is given no limit and the whole file is too large",
		Source: "the bundled cli.js of 1.0.80–2.1.50 (the Read tool's default limit)"}, 2000}
	RestoreWrapChars = Value[int]{Fact{Name: "RestoreWrapChars",
		Doc:    "what Claude Code sends around a re-attached file's text besides its path, in characters: \"Called the Read tool with the following input:\" and \"Result of calling the Read tool:\" notes, each in system-reminder tags, the text a JSON string",
		Source: "the bundled cli.js of 1.0.80–2.1.50 (how a file attachment is sent)"}, 172}
	ReferenceChars = Value[int]{Fact{Name: "ReferenceChars", From: RestoreReference.From,
		Doc:    "the note that stands for a file over the per-file limit, besides its path, in characters, in system-reminder tags",
		Source: "the bundled cli.js of 1.0.85–2.1.50 (compact_file_reference)"}, 180}
	TruncatedChars = Value[int]{Fact{Name: "TruncatedChars", Until: RestoreReference.From,
		Doc:    "the note after a file cut to its first ReadLineLimit lines, besides its path, in characters, in system-reminder tags",
		Source: "the bundled cli.js of 1.0.80–1.0.84 (a truncated file attachment)"}, 204}
	PlanChars = Value[int]{Fact{Name: "PlanChars", From: PlanFile.From,
		Doc:    "the text around a re-attached plan file besides its path, in characters",
		Source: "the bundled cli.js of 2.0.56 (plan_file_reference)"}, 188}
	AttachmentJSONChars = Value[int]{Fact{Name: "AttachmentJSONChars",
		Doc:    "the JSON around a re-attached file's text and its path twice that the total (RestoreTotalTokens) measures: the attachment's fields, its uuid and timestamp, in characters",
		Source: "the bundled cli.js of 1.0.85 (JSON.stringify of the attachment message)"}, 261}
	ReferenceJSONChars = Value[int]{Fact{Name: "ReferenceJSONChars", From: RestoreReference.From,
		Doc:    "the JSON of a note that stands for a file, besides its path, that the total (RestoreTotalTokens) measures, in characters",
		Source: "the bundled cli.js of 1.0.85 (JSON.stringify of the attachment message)"}, 167}
)
