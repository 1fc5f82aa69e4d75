// Package claudecode holds what Claude Code, and the Anthropic API it
// calls, do by version and by model, as facts: its context window and
// compaction thresholds, the prompt cache's lifetimes and Claude Code's
// cache-break rule, the turns at which the cached conversation is
// rewritten, how it micro-compacts and what it re-attaches after a
// compaction, which models bill cache writes, what its transcripts record
// (the fields of a line, the placeholder output counts), how its versions
// compare and how model ids read.
//
// Each fact is a value (Fact, or Value with its value) with its name, the
// versions it holds in, what it does and where anyone can check it:
// Claude Code's bundled cli.js of a version, a transcript field, or one of
// Anthropic's public documents by title. Facts lists them all, and
// docs/claude-code.md lists them by name; docs/simulation.md gives the
// figures from real transcripts that place each version cut-off. replay,
// accounting, simulate and the policies read these facts; this package
// imports nothing of ctxlab's.
package claudecode
