// Command ctxlab analyses and replays Claude Code session transcripts.
//
// Usage:
//
//	ctxlab replay [paths…]     what happened: usage, cost, token accounting,
//	                           duplicate reads, cache breaks, compactions;
//	                           with --policy, the session replayed under it
//	ctxlab compare [paths…]    sessions replayed under several policies
//	ctxlab gate --budget F     budgets checked over sessions, for CI
//	ctxlab sweep --vary K=V    a grid of policy parameters over sessions
//	ctxlab export --out DIR    the reports' rows as Parquet or NDJSON tables
//	ctxlab policies            the policies and their parameters
//
// Exit codes (docs/cli.md): 0 success; 1 input errors and, for gate, a
// broken limit; 2 usage errors.
package main

import (
	"os"
	"runtime/debug"
	"strings"
)

// GC tuning: transcripts are read as a stream of short-lived allocations
// over a live heap of 10–15 MB, so the collector runs less often than by
// default (GOGC 400) under a soft memory limit that keeps a corpus run
// inside 200 MB. A higher GOGC collects less but touches more fresh
// memory. With the heap in 4 KB pages those page faults cost more than
// the collections saved (400 took 6% more CPU than 200 on the 441 MB
// corpus); with the heap in huge pages (heap.go) 400 took 0.91× the wall
// of 200 on copies of the genuine transcripts and the same on the
// generated corpus, and 600 no less than 400. GOGC and GOMEMLIMIT
// override both.
const (
	gcPercent   = 400
	memoryLimit = 160 << 20
)

func main() {
	tuned := tuneGC()
	os.Exit(run(os.Args[1:], env{
		stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr,
		getenv: os.Getenv, home: os.UserHomeDir, isTerminal: isTerminal(os.Stderr),
		termWidth: terminalWidth(os.Stdout),
		hugeHeap:  tuned && !strings.Contains(os.Getenv("GODEBUG"), "disablethp=1"),
	}))
}

// tuneGC applies the GC tuning above unless GOGC or GOMEMLIMIT is set, and
// reports whether it did. Either variable also turns off the huge-page
// heap (heap.go), as GODEBUG=disablethp=1 does.
func tuneGC() bool {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return false
	}
	debug.SetGCPercent(gcPercent)
	debug.SetMemoryLimit(memoryLimit)
	return true
}

func isTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
