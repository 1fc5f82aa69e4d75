package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/ctxlab/ctxlab/internal/batch"
	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/report"
)

func newPlotCmd(e env) *cobra.Command {
	o := &plotOptions{}
	cmd := &cobra.Command{
		Use:   "plot REPORT.json",
		Short: "Draw the plots of a saved JSON report (replay or compare) without reading transcripts",
		Long: `Reads a report written by ctxlab replay --format json or ctxlab compare
--format json (a file, or - for standard input) and writes the plots that
--plot would have written for it into the output directory, listing each
file on standard output. A replay report gives each session's token
accounting and duplicate reads, and, when it has a simulation (replay
--policy, or --plot), the session's context, cost and cache; a compare
report gives the context, cost and cache of each run when it has the calls
(compare --calls). With several sessions it adds the whole input's plots.
See docs/plots.md.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.dir == "" {
				// Never into the current directory unless asked (-o .).
				return usageError("--out: want the directory to write the plots into (-o DIR; -o . for the current one)")
			}
			if err := o.validate(cmd.Flags().Changed, "out"); err != nil {
				return err
			}
			return runPlot(args[0], o, e)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.dir, "out", "o", "", "directory to write the plots into (created if missing; required)")
	o.addFlags(f, "", "")
	return cmd
}

func runPlot(path string, o *plotOptions, e env) error {
	var in io.Reader = e.stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return &exitError{code: exitInput, err: err}
		}
		defer f.Close()
		if info, err := f.Stat(); err == nil && info.IsDir() {
			return &exitError{code: exitInput, err: fmt.Errorf("%s: a directory, not a JSON report", path)}
		}
		in = bufio.NewReaderSize(f, 1<<20)
	}
	if err := o.mkdir(); err != nil {
		return err
	}
	p, err := batch.Redraw(in, o.plots(), runtime.GOMAXPROCS(0))
	if err != nil {
		var de *report.DecodeError
		if errors.As(err, &de) {
			err = fmt.Errorf("%s: %w", de.Position(path), de.Err)
		} else {
			err = fmt.Errorf("%s: %w", path, err)
		}
		// What was drawn before the error is kept and listed.
		return firstErr(&exitError{code: exitInput, err: err}, plotsFailed(p.List(e.stdout, "", e.stderr)))
	}
	if p.NoRuns > 0 {
		fmt.Fprintf(e.stderr, "ctxlab: %s: %s without a simulation: no context, cost or cache plots (write the report with replay --policy or --plot)\n", path, numtext.Count(p.NoRuns, "session", "sessions"))
	}
	if p.NoCalls > 0 {
		fmt.Fprintf(e.stderr, "ctxlab: %s: %s without per-call results: no context, cost or cache plots (write the report with compare --calls)\n", path, numtext.Count(p.NoCalls, "session", "sessions"))
	}
	if len(p.Paths) == 0 && len(p.Errs) == 0 {
		return &exitError{code: exitInput, err: fmt.Errorf("%s: nothing to plot", path)}
	}
	return plotsFailed(p.List(e.stdout, "", e.stderr))
}

// plotsFailed is the outcome of listing the plots: exit 1 when some could not
// be written.
func plotsFailed(err error) error {
	if err != nil {
		return &exitError{code: exitInput, err: err}
	}
	return nil
}
