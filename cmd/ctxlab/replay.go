package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/report"
)

type replayOptions struct {
	paths      []string
	format     string
	top        int
	strict     bool
	sessions   bool
	sections   []string
	pricesFile string
	jobs       int
	maxWarn    int
}

func newReplayCmd(e env) *cobra.Command {
	o := &replayOptions{}
	cmd := &cobra.Command{
		Use:   "replay [paths…]",
		Short: "Report what happened in sessions: usage, cost, tokens, duplicate reads, cache breaks, compactions",
		Long: `Reads Claude Code transcripts (files, directories searched recursively,
or - for standard input) and reports, per session and for the whole input,
the observed API usage and cost, Claude Code's own token accounting,
duplicate file reads, prompt-cache breaks and the compaction timeline.

With no path it reads every directory in CLAUDE_CONFIG_DIR (a comma-separated
list; each one's projects/ folder), else ~/.config/claude/projects and
~/.claude/projects.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.paths = args
			return runReplay(o, e)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "table", "output format: table, json, csv, markdown")
	f.IntVar(&o.top, "top", 10, "rows per list report, most expensive first (0: all)")
	f.BoolVar(&o.strict, "strict", false, "exit 1 on any malformed line or unreadable file")
	f.BoolVar(&o.sessions, "sessions", true, "print each session before the total (with several sessions)")
	f.StringSliceVar(&o.sections, "section", nil, "sections to print: "+strings.Join(report.Sections, ", ")+" (default all)")
	f.StringVar(&o.pricesFile, "prices", "", "JSON price table laid over the built-in one (see docs/reports.md)")
	f.IntVar(&o.jobs, "jobs", 0, "sessions read in parallel (default: number of CPUs)")
	f.IntVar(&o.maxWarn, "max-warnings", 10, "warnings printed per file (0: all)")
	return cmd
}

func (o *replayOptions) validate() error {
	if !slices.Contains(report.Formats, o.format) {
		return usageError("--format %q: want one of %s", o.format, strings.Join(report.Formats, ", "))
	}
	if o.top < 0 {
		return usageError("--top %d: must be 0 or more", o.top)
	}
	for _, s := range o.sections {
		if s != "all" && !slices.Contains(report.Sections, s) {
			return usageError("--section %q: want one of %s", s, strings.Join(report.Sections, ", "))
		}
	}
	return nil
}

// result is one session's outcome, kept in input order.
type result struct {
	rep      *accounting.Report
	warnings []*replay.SyntaxError
	err      error
}

func runReplay(o *replayOptions, e env) error {
	if err := o.validate(); err != nil {
		return err
	}
	cfg := accounting.DefaultConfig()
	if o.pricesFile != "" {
		f, err := os.Open(o.pricesFile)
		if err != nil {
			return usageError("--prices: %v", err)
		}
		p, err := accounting.ReadPrices(f, cfg.Prices)
		f.Close()
		if err != nil {
			return usageError("--prices %s: %v", o.pricesFile, err)
		}
		cfg.Prices = p
	}
	paths := o.paths
	if len(paths) == 0 {
		var err error
		if paths, err = defaultPaths(e); err != nil {
			return &exitError{code: exitInput, err: err}
		}
	}
	srcs, discErrs := replay.Discover(paths)
	results := loadAll(srcs, cfg, o.jobs, e)

	var reps []*accounting.Report
	var errs []string
	warned := false
	for _, err := range discErrs {
		fmt.Fprintln(e.stderr, "ctxlab:", err)
		errs = append(errs, err.Error())
	}
	for _, r := range results {
		printWarnings(e, r.warnings, o.maxWarn)
		warned = warned || len(r.warnings) > 0
		if r.err != nil {
			fmt.Fprintln(e.stderr, "ctxlab:", r.err)
			errs = append(errs, r.err.Error())
		}
		if r.rep != nil {
			reps = append(reps, r.rep)
		}
	}
	if len(reps) == 0 {
		return &exitError{code: exitInput, err: fmt.Errorf("no session could be read")}
	}
	doc := report.NewDocument(reps, cfg.Prices, errs)
	err := report.Write(e.stdout, doc, report.Options{
		Format: o.format, Top: o.top, Sections: o.sections, PerSession: o.sessions,
	})
	if err != nil {
		return &exitError{code: exitInput, err: fmt.Errorf("writing report: %w", err)}
	}
	if o.strict && (warned || len(errs) > 0) {
		return &exitError{code: exitInput, err: fmt.Errorf("--strict: input had errors or malformed lines")}
	}
	return nil
}

// loadAll loads and analyses sessions on a pool of workers. Only reports
// are kept, so memory holds one session per worker; results come back in
// input order whatever order the workers finish in.
func loadAll(srcs []replay.Source, cfg accounting.Config, jobs int, e env) []result {
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	results := make([]result, len(srcs))
	next := make(chan int)
	var wg sync.WaitGroup
	prog := newProgress(e, len(srcs))
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				s, err := replay.Load(srcs[i], replay.Options{Stdin: e.stdin})
				r := result{err: err}
				if s != nil {
					r.rep = accounting.Analyze(s, cfg)
					r.warnings = s.Warnings
				}
				results[i] = r
				prog.done()
			}
		}()
	}
	for i := range srcs {
		next <- i
	}
	close(next)
	wg.Wait()
	prog.finish()
	return results
}

func printWarnings(e env, ws []*replay.SyntaxError, max int) {
	perFile := map[string]int{}
	for _, w := range ws {
		perFile[w.File]++
		n := perFile[w.File]
		switch {
		case max <= 0 || n <= max:
			kind := "warning"
			if !w.Warning {
				kind = "skipped"
			}
			fmt.Fprintf(e.stderr, "%s: %s\n", kind, w)
		case n == max+1:
			more := 0
			for _, x := range ws {
				if x.File == w.File {
					more++
				}
			}
			fmt.Fprintf(e.stderr, "warning: %s: %d more malformed lines not shown (--max-warnings)\n", w.File, more-max)
		}
	}
}

// defaultPaths finds the transcript folders as Claude Code and ccusage do.
func defaultPaths(e env) ([]string, error) {
	var cands []string
	if v := e.getenv("CLAUDE_CONFIG_DIR"); v != "" {
		for _, d := range strings.Split(v, ",") {
			if d = strings.TrimSpace(d); d != "" {
				cands = append(cands, filepath.Join(d, "projects"))
			}
		}
	} else {
		home, err := e.home()
		if err != nil {
			return nil, fmt.Errorf("no path given and no home directory: %w", err)
		}
		cands = []string{filepath.Join(home, ".config", "claude", "projects"), filepath.Join(home, ".claude", "projects")}
	}
	var out []string
	for _, c := range cands {
		if info, err := os.Stat(c); err == nil && info.IsDir() {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no path given and no Claude Code transcripts found in %s (set CLAUDE_CONFIG_DIR or pass paths)", strings.Join(cands, ", "))
	}
	return out, nil
}
