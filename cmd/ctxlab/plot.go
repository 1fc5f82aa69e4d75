package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ctxlab/ctxlab/internal/batch"
	"github.com/ctxlab/ctxlab/internal/cliflag"
	"github.com/ctxlab/ctxlab/report/plots"
	"github.com/ctxlab/ctxlab/report/plots/plotdata"
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
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError("plot: name one report to draw (the output of replay or compare --format json, or - for standard input); got %d", len(args))
			}
			if o.dir == "" {
				// Never into the current directory unless asked (-o .).
				return usageError("--out: want the directory to write the plots into (-o DIR; -o . for the current one)")
			}
			if err := o.validate(cmd.Flags().Changed); err != nil {
				return err
			}
			defer o.tidy()
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

// The context plot's x axes, as --x takes them.
var plotAxes = []string{"call", "time"}

// plotOptions are the flags that choose how plots are drawn, shared by
// replay --plot, compare --plot, sweep --plot and plot.
type plotOptions struct {
	dir     string
	dirFlag string // the flag that gave dir: "plot" or "out"
	format  string
	x       string
	top     int
	made    *batch.Plots // by plots, once the flags are parsed
}

// addFlags adds --plot-format, --x and --plot-top; dirFlag names the flag
// that gives the output directory ("plot" for replay and compare, "out"
// for plot), "" to leave it to the caller.
func (o *plotOptions) addFlags(f *pflag.FlagSet, dirFlag, dirUsage string) {
	o.dirFlag = "out"
	if dirFlag != "" {
		f.StringVar(&o.dir, dirFlag, "", dirUsage)
		o.dirFlag = dirFlag
	}
	last := len(plots.Formats) - 1
	f.StringVar(&o.format, "plot-format", plots.Formats[0], "image format of the plots: "+strings.Join(plots.Formats[:last], ", ")+" or "+plots.Formats[last])
	cliflag.Takes(f, "plot-format", plots.Formats)
	f.StringVar(&o.x, "x", plotAxes[0], "x axis of the context plot: call (the call's number) or time (hours since the first call)")
	f.IntVar(&o.top, "plot-top", plotdata.DefaultTop, "bars kept in the tokens and duplicates plots")
}

// validate checks the flags; set tells whether a flag was given, since
// the plot flags mean nothing without a directory.
func (o *plotOptions) validate(set func(string) bool) error {
	if o.dir == "" {
		for _, name := range []string{"plot-format", "x", "plot-top"} {
			if set(name) {
				return usageError("--%s needs --%s DIR", name, o.dirFlag)
			}
		}
		return nil
	}
	if !slices.Contains(plots.Formats, o.format) {
		return usageError("--plot-format %q: want one of %s", o.format, strings.Join(plots.Formats, ", "))
	}
	if !slices.Contains(plotAxes, o.x) {
		return usageError("--x %q: want one of %s", o.x, strings.Join(plotAxes, ", "))
	}
	if o.top < 1 {
		return usageError("--plot-top %d: must be 1 or more", o.top)
	}
	return nil
}

// plots is where and how to write the plots; nil when none were asked
// for.
func (o *plotOptions) plots() *batch.Plots {
	if o == nil || o.dir == "" {
		return nil
	}
	if o.made == nil {
		o.made = &batch.Plots{Dir: o.dir, Format: o.format, Options: plots.Options{XTime: o.x == plotAxes[1], Top: o.top}}
	}
	return o.made
}

// tidy removes the folder mkdir made when nothing was written into it.
func (o *plotOptions) tidy() { o.made.Tidy() }

// mkdir creates the output directory, when there is one, before any
// work.
func (o *plotOptions) mkdir() error {
	if p := o.plots(); p != nil {
		return failed(wrap(p.Mkdir(), "--%s %s", o.dirFlag, o.dir))
	}
	return nil
}

// done ends a command that may have written plots beside its report: it
// lists every plot written on standard error, and returns the report's
// outcome, else the plots'.
func (o *plotOptions) done(e env, w batch.Written, outcome error) error {
	return firstErr(outcome, failed(w.List(e.stderr, "wrote ", e.stderr)))
}
