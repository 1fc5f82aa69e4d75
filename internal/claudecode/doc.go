// Package claudecode holds what Claude Code does, by version and by model:
// its context window and compaction thresholds, the turns at which it (or
// the API) rewrites the cached conversation, how it micro-compacts and what
// it re-attaches after a compaction, which models bill cache writes, and
// how its model ids read in short.
//
// Each fact names where anyone can check it: Claude Code's bundled cli.js
// of a version, a transcript field, or one of Anthropic's public documents
// by title. docs/simulation.md gives the figures from real transcripts that
// place each version cut-off. accounting and simulate read these facts;
// this package reads nothing above replay.
package claudecode

import "github.com/ctxlab/ctxlab/replay"

// before reports whether version is known and earlier than until.
func before(version, until string) bool {
	return version != "" && replay.CompareVersions(version, until) < 0
}
