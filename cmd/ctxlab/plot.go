package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/plots"
	"github.com/ctxlab/ctxlab/simulate"
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
	var (
		namer           plots.Namer
		sessions        int
		noRuns, noCalls int
		withoutCalls    int // sessions whose main thread made no call
	)
	pool := o.pool(runtime.GOMAXPROCS(0))
	h, err := report.ReadJSON(in, func(s report.ReadSession) error {
		sessions++
		var files []plots.File
		switch {
		case s.Replay != nil:
			rep := s.Replay.Report
			if rep == nil {
				return errors.New(`a session without "summary"`)
			}
			var runs []*simulate.Result
			if s.Replay.Simulation != nil {
				runs = []*simulate.Result{s.Replay.Simulation}
			} else {
				noRuns++
			}
			name := namer.Name(rep.Summary.ID, rep.Summary.Project)
			files = plots.SessionFiles(name, runs, rep, o.format, o.plotOpts())
			if !plots.HasCalls(runs, rep) {
				withoutCalls++
			}
		case s.Compare != nil && !s.Compare.HasCalls():
			namer.Name(s.Compare.ID, s.Compare.Project) // the later sessions' names are compare --plot's
			withoutCalls++                              // nothing to draw, with or without --calls
		case s.Compare != nil:
			c := s.Compare
			var runs []*simulate.Result
			for i := range c.Runs {
				r := c.Runs[i].Result(c)
				if r == nil {
					runs = nil
					noCalls++
					break
				}
				runs = append(runs, r)
			}
			name := namer.Name(c.ID, c.Project)
			files = plots.SessionFiles(name, runs, nil, o.format, o.plotOpts())
		}
		pool.submit(files)
		return nil
	})
	p := pool.wait()
	p.withoutCalls = withoutCalls
	if err != nil {
		var de *report.DecodeError
		if errors.As(err, &de) {
			err = fmt.Errorf("%s: %w", de.Position(path), de.Err)
		} else {
			err = fmt.Errorf("%s: %w", path, err)
		}
		// What was drawn before the error is kept and listed.
		return firstErr(&exitError{code: exitInput, err: err}, p.finish(e.stdout, "", e))
	}
	// The whole input's plots, as the commands draw them.
	switch {
	case h.ReplayTotal != nil && sessions > 1:
		p.add(o.write(plots.TotalFiles(h.ReplayTotal, o.format, o.plotOpts())))
	case h.CompareTotal != nil:
		p.add(o.write(compareTotalFiles(h.Policies, h.CompareTotal, h.SessionsWithoutCalls, h.ComparisonSettings, h.Comparisons, o)))
	}
	if noRuns > 0 {
		fmt.Fprintf(e.stderr, "ctxlab: %s: %s without a simulation: no context, cost or cache plots (write the report with replay --policy or --plot)\n", path, numtext.Count(noRuns, "session", "sessions"))
	}
	if noCalls > 0 {
		fmt.Fprintf(e.stderr, "ctxlab: %s: %s without per-call results: no context, cost or cache plots (write the report with compare --calls)\n", path, numtext.Count(noCalls, "session", "sessions"))
	}
	if len(p.paths) == 0 && len(p.errs) == 0 {
		return &exitError{code: exitInput, err: fmt.Errorf("%s: nothing to plot", path)}
	}
	return p.finish(e.stdout, "", e)
}
