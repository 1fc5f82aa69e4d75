package claudecode

// Restoration after a full compaction: Claude Code re-attaches the
// RestoreFiles most recent files the session touched, each whole when its
// text is at most RestoreFileTokens, while they fit in RestoreTotalTokens
// (both by its estimate). From RestoreWritten the files a tool wrote come
// first; before it only files read come back (docs/simulation.md,
// "Compaction, the summarizer and restoration").
var (
	RestoreFiles = Value[int]{Fact{Name: "RestoreFiles",
		Doc:    "after a full compaction, Claude Code re-attaches this many of the files the session touched, newest first",
		Source: "the attachment lines (type file) 2.1.118 and later write after a compact_boundary"}, 5}
	RestoreFileTokens = Value[int64]{Fact{Name: "RestoreFileTokens",
		Doc:    "a file is re-attached whole when its text is at most these tokens, by Claude Code's estimate",
		Source: "the attachment lines 2.1.118 and later write after a compact_boundary (compact_file_reference for a larger file)"}, 5000}
	RestoreTotalTokens = Value[int64]{Fact{Name: "RestoreTotalTokens",
		Doc:    "the files re-attached stop at these tokens in all, by Claude Code's estimate",
		Source: "the attachment lines 2.1.118 and later write after a compact_boundary"}, 50_000}
	RestoreWritten = Fact{Name: "RestoreWritten", From: "2.0.0",
		Doc:    "restoration after a compaction counts the files a tool wrote, before those only read",
		Source: "usage of the first call after 1.0.89's compactions: no room for the files written"}
	ReadLinePrefix = Value[int]{Fact{Name: "ReadLinePrefix",
		Doc:    "what Claude Code's Read output adds to each line: the line number padded to six places and an arrow or tab, in characters",
		Source: "the Read tool results of every transcript"}, 7}
)
