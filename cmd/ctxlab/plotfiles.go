package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/ctxlab/ctxlab/internal/batch"
	"github.com/ctxlab/ctxlab/report/plots"
)

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
	f.StringVar(&o.format, "plot-format", plots.Formats[0], "image format of the plots: "+orList(plots.Formats))
	takes(f, "plot-format", plots.Formats)
	f.StringVar(&o.x, "x", plotAxes[0], "x axis of the context plot: call (the call's number) or time (hours since the first call)")
	f.IntVar(&o.top, "plot-top", plots.DefaultTop, "bars kept in the tokens and duplicates plots")
}

// orList is "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// validate checks the flags; set tells whether a flag was given, since
// the plot flags mean nothing without a directory.
func (o *plotOptions) validate(set func(string) bool, dirFlag string) error {
	if o.dir == "" {
		for _, name := range []string{"plot-format", "x", "plot-top"} {
			if set(name) {
				return usageError("--%s needs --%s DIR", name, dirFlag)
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
	return &batch.Plots{Dir: o.dir, Format: o.format, Options: plots.Options{XTime: o.x == plotAxes[1], Top: o.top}}
}

// mkdir creates the output directory, when there is one, before any
// work.
func (o *plotOptions) mkdir() error {
	p := o.plots()
	if p == nil {
		return nil
	}
	if err := p.Mkdir(); err != nil {
		return failed(fmt.Errorf("--%s %s: %w", o.dirFlag, o.dir, err))
	}
	return nil
}

// done ends a command that wrote plots beside its report: it lists every
// plot written on standard error, and returns the report's outcome, else
// the plots'.
func (o *plotOptions) done(e env, w batch.Written, outcome error) error {
	if o.plots() == nil {
		return outcome
	}
	return firstErr(outcome, failed(w.List(e.stderr, "wrote ", e.stderr)))
}
