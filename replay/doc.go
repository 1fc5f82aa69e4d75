// Package replay reads Claude Code session transcripts and reconstructs
// each session: its threads (the main conversation and every sub-agent),
// the API calls with their deduplicated usage, the messages with their
// sizes, tool_use↔tool_result pairs, and the compactions Claude Code left
// in the file.
//
//	Discover(paths) → []Source   files and directories → sessions (main file + agent files)
//	Load(source)    → *Session   every line of every file, read by package transcript
//
// A bad line is a *SyntaxError naming its file and line, and reading goes
// on. A session keeps sizes and hashes rather than text, so it takes a
// small fraction of its file's size. docs/session-model.md has the rest.
package replay
