// Package replay reads Claude Code session transcripts and reconstructs
// each session: its threads (the main conversation and every sub-agent),
// the API calls with their deduplicated usage, the messages with their
// sizes, tool_use↔tool_result pairs, and the compactions Claude Code left
// in the file.
//
//	Discover(paths) → []Source        files and directories → sessions (main file + agent files)
//	Load(source)    → *Session        every line of every file, streamed through a Reader
//	Reader.Scan     → *Entry | *SyntaxError   one line at a time
//
// A bad line is a *SyntaxError naming its file and line, and reading goes
// on. Sizes (JavaScript string lengths, the unit of Claude Code's length/4
// estimate) and hashes are kept rather than text, so a session takes a
// small fraction of its file's size. docs/session-model.md has the rest.
package replay
