// Package accounting reports what happened in a replay.Session: observed
// usage and cost, Claude Code's token accounting, duplicate file reads,
// prompt-cache breaks and TTL changes, and the compaction timeline.
//
//	rep := accounting.Analyze(session, accounting.DefaultConfig())
//	total := accounting.Merge(reports, prices) // corpus, deduplicated across sessions
//
// Every constant (break thresholds, TTLs, the spiral window, prices) is a
// field of Config whose default names its source. Reports are plain values
// with JSON tags; package report renders them. See docs/reports.md for the
// definition of every number.
package accounting
