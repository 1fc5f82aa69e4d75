// Package claudecode holds what Claude Code, and the Anthropic API it
// calls, do by version and by model, as facts: context windows and
// compaction thresholds, the prompt cache's lifetimes and cache-break rule,
// the turns that rewrite the cached conversation, micro-compaction and
// restoration, which models bill cache writes, what transcripts record,
// how versions compare and how model ids read.
//
// Each fact is a value (Fact, or Value with its value) with its name, the
// versions it holds in, what it does and where anyone can check it: the
// bundled cli.js of a version, a transcript field, or one of Anthropic's
// public documents by title. Facts lists them all; docs/claude-code.md
// lists them by name and docs/simulation.md the transcript figures that
// place each cut-off. This package imports nothing of ctxlab's.
package claudecode
