package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/ctxlab/ctxlab/internal/batch"
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
			return failed(err)
		}
		defer f.Close()
		if info, err := f.Stat(); err == nil && info.IsDir() {
			return failed(fmt.Errorf("%s: a directory, not a JSON report", path))
		}
		in = bufio.NewReaderSize(f, 1<<20)
	}
	if err := o.mkdir(); err != nil {
		return err
	}
	p, err := batch.Redraw(in, path, o.plots(), runtime.GOMAXPROCS(0), e.stderr)
	if err != nil {
		// What was drawn before the error is kept and listed.
		return firstErr(failed(err), failed(p.List(e.stdout, "", e.stderr)))
	}
	if len(p.Paths) == 0 && len(p.Errs) == 0 {
		return failed(fmt.Errorf("%s: nothing to plot", path))
	}
	return failed(p.List(e.stdout, "", e.stderr))
}
