// Package replay reads Claude Code session transcripts and reconstructs
// each session: its threads (the main conversation and every sub-agent),
// the API calls with their deduplicated usage, the messages with their
// sizes, tool_use↔tool_result pairs, and the compactions Claude Code left
// in the file.
//
// Data flows in three steps:
//
//	Discover(paths) → []Source        files and directories → sessions (main file + agent files)
//	Load(source)    → *Session        every line of every file, streamed through a Reader
//	Reader.Scan     → *Entry | *SyntaxError   one line at a time
//
// The reader never stops on a bad line: it returns a *SyntaxError naming
// the file and line and moves on. It keeps sizes and hashes rather than
// text (only user prompts are kept), so a session's memory is a small
// fraction of its file size, and only one session need be held at a time.
//
// Sizes are JavaScript string lengths (UTF-16 code units), the unit of
// Claude Code's own length/4 token estimate (Estimate).
//
// See docs/session-model.md for the model and the format facts behind it.
package replay
