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
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/internal/batch"
	"github.com/ctxlab/ctxlab/internal/cliflag"
	"github.com/ctxlab/ctxlab/policies"
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

// Exit codes, documented in docs/cli.md.
const (
	exitOK    = 0
	exitInput = 1
	exitUsage = 2
)

// env is everything a command may take from the process, so tests can run
// commands in-process with their own.
type env struct {
	stdin      io.Reader
	stdout     io.Writer
	stderr     io.Writer
	getenv     func(string) string
	home       func() (string, error)
	isTerminal bool             // stderr is a terminal (progress)
	termWidth  int              // stdout's terminal width; 0 when it is not a terminal
	now        func() time.Time // nil: time.Now
	hugeHeap   bool             // grow the heap in huge pages before a large run (batch.TuneGC)
	parts      *batch.Merged    // ctxlab merge: the sessions come from these parts
}

func (e env) clock() time.Time {
	if e.now != nil {
		return e.now()
	}
	return time.Now()
}

// exitError carries an exit code up to run.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }

// Unwrap gives errors.Is and errors.As the cause.
func (e *exitError) Unwrap() error { return e.err }

func run(args []string, e env) int {
	root := &cobra.Command{
		Use:           "ctxlab",
		Short:         "Analyse and replay Claude Code session transcripts",
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.Version = batch.Build()
	root.SetVersionTemplate("ctxlab {{.Version}}\n")
	root.SetArgs(args)
	root.SetIn(e.stdin)
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	root.AddCommand(commandsFor(args, e)...)
	cliflag.CompleteWords(root)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &exitError{code: exitUsage, err: cliflag.FlagError(c, err)}
	})
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if ue := (*cliflag.UsageError)(nil); !errors.As(err, &ee) && errors.As(err, &ue) {
		ee = &exitError{code: exitUsage, err: ue.Err}
	}
	if ee != nil {
		if ee.err != nil && ee.err.Error() != "" {
			fmt.Fprintln(e.stderr, "ctxlab:", ee.err)
		}
		return ee.code
	}
	// cobra's own errors: unknown command, bad arguments.
	fmt.Fprintln(e.stderr, "ctxlab:", err)
	fmt.Fprintln(e.stderr, "Run 'ctxlab --help' for usage.")
	return exitUsage
}

// commandsFor makes the command args name first, alone; any other args
// (help, completion, a flag, a mistyped name) get every command. Making
// every command's flags took about half a millisecond of CPU a run,
// which the fuzz targets pay on each command of each input.
func commandsFor(args []string, e env) []*cobra.Command {
	commands := []struct {
		name string
		make func(env) *cobra.Command
	}{{"replay", newReplayCmd}, {"compare", newCompareCmd}, {"gate", newGateCmd}, {"sweep", newSweepCmd}, {"plot", newPlotCmd}, {"policies", newPoliciesCmd}, {"export", newExportCmd}, {"merge", newMergeCmd}}
	for _, c := range commands {
		if len(args) > 0 && args[0] == c.name {
			return []*cobra.Command{c.make(e)}
		}
	}
	out := make([]*cobra.Command, len(commands))
	for i, c := range commands {
		out[i] = c.make(e)
	}
	return out
}

func usageError(format string, a ...any) error { return cliflag.Usagef(format, a...) }

// firstErr returns the first non-nil error.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func groupBys() []string {
	out := make([]string, len(accounting.GroupBys))
	for i, g := range accounting.GroupBys {
		out[i] = string(g)
	}
	return out
}

// completePolicy completes a --policy spec, or the last of a
// comma-separated list (list): policies.Complete.
func completePolicy(list bool) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		return policies.Complete(toComplete, list), cobra.ShellCompDirectiveNoSpace | cobra.ShellCompDirectiveNoFileComp
	}
}

// completeVary offers the parameters of the policies --policy names:
// policies.CompleteParams.
func completeVary(c *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
	specs, _ := c.Flags().GetStringSlice("policy") // a flag of sweep's: no error
	return policies.CompleteParams(specs), cobra.ShellCompDirectiveNoSpace | cobra.ShellCompDirectiveNoFileComp
}

// wrapUsage makes err a usage error; nil stays nil.
func wrapUsage(err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: exitUsage, err: err}
}
