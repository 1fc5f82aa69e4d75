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

	"github.com/ctxlab/ctxlab/internal/batch"
)

func main() {
	os.Exit(run(os.Args[1:], env{
		stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr,
		getenv: os.Getenv, home: os.UserHomeDir, isTerminal: isTerminal(os.Stderr),
		termWidth: terminalWidth(os.Stdout),
		hugeHeap:  batch.TuneGC(os.Getenv),
	}))
}

func isTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
