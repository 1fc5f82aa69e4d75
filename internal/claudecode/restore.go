package claudecode

// Restoration after a full compaction: Claude Code re-attaches the
// RestoreFiles most recent files the session touched, each whole when its
// text is at most RestoreFileTokens, while they fit in RestoreTotalTokens
// (both by its estimate). From RestoreWrittenFrom the files a tool wrote
// come first; before it only files read come back (docs/simulation.md,
// "Compaction, the summarizer and restoration").
const (
	RestoreFiles       = 5
	RestoreFileTokens  = 5000
	RestoreTotalTokens = 50_000
	RestoreWrittenFrom = "2.0.0"
)

// ReadLinePrefix is what Claude Code's Read output adds to each line: the
// line number padded to six places and an arrow or tab.
const ReadLinePrefix = 7
