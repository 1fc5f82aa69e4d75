// Package transcript reads the line format of Claude Code's session
// transcripts: one JSON object a line, each parsed into an *Entry, or a
// *SyntaxError naming its file and line, after which reading goes on.
//
// A Reader validates and walks a line in one pass (internal/jsonscan) and
// keeps sizes (JavaScript string lengths, the unit of Claude Code's
// length/4 estimate) and hashes rather than text. The fields and line
// types it knows come from internal/claudecode's tables (fields_gen.go,
// go generate). Package replay builds sessions from the entries.
package transcript
