package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxlab/ctxlab/internal/batch"
)

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
	root.AddCommand(newReplayCmd(e), newCompareCmd(e), newGateCmd(e), newSweepCmd(e), newPlotCmd(e), newPoliciesCmd(e), newExportCmd(e))
	completeFlagValues(root)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &exitError{code: exitUsage, err: flagError(c, err)}
	})
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
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

func usageError(format string, a ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, a...)}
}

// firstErr returns the first non-nil error.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
