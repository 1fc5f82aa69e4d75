package main

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/simulate"
)

// inputOptions are the flags of every command that reads sessions (replay,
// compare): which sessions, how to read them, how to print them.
type inputOptions struct {
	paths      []string
	format     string
	strict     bool
	sessions   bool
	pricesFile string
	jobs       int
	maxWarn    int
	formats    []string // --format's values; report.Formats unless set before addFlags
	projects   []string
	sessionIDs []string
	since      string
	until      string
	sel        replay.Selection // from the four above, by validate
}

func (o *inputOptions) addFlags(f *pflag.FlagSet) {
	if o.formats == nil {
		o.formats = report.Formats
	}
	addFormatFlag(f, &o.format, o.formats)
	f.BoolVar(&o.strict, "strict", false, "exit 1 on any malformed line or unreadable file")
	f.StringVar(&o.pricesFile, "prices", "", "JSON price table laid over the built-in one (see docs/reports.md)")
	f.IntVar(&o.jobs, "jobs", 0, "sessions read in parallel (default: number of CPUs)")
	f.IntVar(&o.maxWarn, "max-warnings", 10, "warnings printed per file (0: all)")
	f.StringSliceVar(&o.projects, "project", nil, "only sessions of these projects (the folder under projects/; shell patterns, repeatable)")
	f.StringSliceVar(&o.sessionIDs, "session", nil, "only these sessions (ids; shell patterns, repeatable)")
	f.StringVar(&o.since, "since", "", "only sessions active at or after this: a date (2026-11-01), a time (RFC 3339) or an age (7d, 36h)")
	f.StringVar(&o.until, "until", "", "only sessions active before this (same forms as --since)")
}

func (o *inputOptions) validate(e env) error {
	if err := checkFormat(o.format, o.formats); err != nil {
		return err
	}
	o.sel = replay.Selection{Projects: o.projects, Sessions: o.sessionIDs}
	for _, b := range []struct {
		flag, v string
		to      *int64
	}{{"--since", o.since, &o.sel.Since}, {"--until", o.until, &o.sel.Until}} {
		if b.v == "" {
			continue
		}
		t, err := replay.ParseTime(b.v, e.clock())
		if err != nil {
			return usageError("%s %v", b.flag, err)
		}
		*b.to = t
	}
	if err := o.sel.Check(); err != nil {
		return usageError("selection: %v", err)
	}
	return nil
}

// addFormatFlag defines --format, the same for every command: one of
// formats, the first by default.
func addFormatFlag(f *pflag.FlagSet, p *string, formats []string) {
	f.StringVar(p, "format", formats[0], "output format: "+strings.Join(formats, ", "))
}

// checkFormat rejects a --format that the command cannot write.
func checkFormat(format string, formats []string) error {
	if !slices.Contains(formats, format) {
		return usageError("--format %q: want one of %s", format, strings.Join(formats, ", "))
	}
	return nil
}

// addSessionsFlag defines --sessions, for the commands that print each
// session.
func addSessionsFlag(f *pflag.FlagSet, p *bool) {
	f.BoolVar(p, "sessions", true, "print each session before the total (with several sessions)")
}

// config returns the accounting configuration, with --prices laid over the
// built-in price table.
func (o *inputOptions) config() (accounting.Config, error) {
	cfg := accounting.DefaultConfig()
	if o.pricesFile == "" {
		return cfg, nil
	}
	f, err := os.Open(o.pricesFile)
	if err != nil {
		return cfg, usageError("--prices: %v", err)
	}
	defer f.Close()
	p, err := prices.Read(f, cfg.Prices)
	if err != nil {
		return cfg, usageError("--prices %s: %v", o.pricesFile, err)
	}
	cfg.Prices = p
	return cfg, nil
}

// loaded is what a command got from its inputs: one value per session read,
// in input order, and the errors to put in the report.
type loaded[T any] struct {
	values []T
	errs   []string
	warned bool // some line was malformed
}

// setup is what replay and compare hold before reading any session: the
// accounting and simulation configurations, the sessions found, and the
// name of each session's plot files.
type setup struct {
	cfg    accounting.Config
	simCfg simulate.Config
	in     *inputs
	names  []string
}

// prepare checks the shared flags, finds the sessions and, under --plot,
// creates the plot directory.
func prepare(o *inputOptions, sim *simOptions, plot *plotOptions, e env) (*setup, error) {
	cfg, err := o.config()
	if err != nil {
		return nil, err
	}
	if err := sim.validate(); err != nil {
		return nil, err
	}
	in, err := discover(o, e)
	if err != nil {
		return nil, err
	}
	names, err := plot.start(in)
	if err != nil {
		return nil, err
	}
	return &setup{cfg: cfg, simCfg: sim.config(cfg.Prices), in: in, names: names}, nil
}

// inputs are the sessions a command's paths stand for, found before any
// is read (so that a command can name its output files first).
type inputs struct {
	srcs []replay.Source
	errs []error // paths that could not be searched
}

// discover expands the command's paths (or the default folders) into
// sessions.
func discover(o *inputOptions, e env) (*inputs, error) {
	paths := o.paths
	if len(paths) == 0 {
		var err error
		if paths, err = replay.DefaultDirs(e.getenv, e.home); err != nil {
			return nil, &exitError{code: exitInput, err: err}
		}
	}
	srcs, errs := replay.Discover(paths)
	return &inputs{srcs: o.sel.Sources(srcs), errs: errs}, nil
}

// load reads the sessions of in on a pool of workers and runs work on
// each (i is the session's index in in.srcs). It prints warnings and read
// errors to stderr as it goes through the results in input order, and
// fails (exit 1) when no session could be read.
func load[T any](o *inputOptions, e env, in *inputs, work func(i int, s *replay.Session) T) (*loaded[T], error) {
	l := &loaded[T]{}
	if err := loadEach(o, e, in, l, work, func(v T) { l.values = append(l.values, v) }); err != nil {
		return nil, err
	}
	return l, nil
}

// loadEach is load handing each session's value to each, in input order,
// as soon as the sessions before it are done, instead of keeping them in
// l.values: memory then holds the sessions in flight, not every session's
// value.
func loadEach[T any](o *inputOptions, e env, in *inputs, l *loaded[T], work func(i int, s *replay.Session) T, each func(T)) error {
	for _, err := range in.errs {
		fmt.Fprintln(e.stderr, "ctxlab:", err)
		l.errs = append(l.errs, err.Error())
	}
	read, skipped := 0, false
	loadAll(in.srcs, o.jobs, e, o.sel.Session, work, func(r result[T]) {
		printWarnings(e, r.warnings, o.maxWarn)
		l.warned = l.warned || len(r.warnings) > 0
		if r.err != nil {
			fmt.Fprintln(e.stderr, "ctxlab:", r.err)
			l.errs = append(l.errs, r.err.Error())
		}
		skipped = skipped || r.skipped
		if r.ok {
			read++
			each(r.value)
		}
	})
	if read == 0 {
		if !o.sel.IsZero() && (len(in.srcs) == 0 || skipped) {
			return &exitError{code: exitInput, err: fmt.Errorf("no session matches the selection (--project, --session, --since, --until)")}
		}
		return &exitError{code: exitInput, err: fmt.Errorf("no session could be read")}
	}
	return nil
}

// finish turns a written report into the command's outcome: a write
// error, or under --strict any input error, is exit 1.
func (l *loaded[T]) finish(o *inputOptions, writeErr error) error {
	if writeErr != nil {
		return &exitError{code: exitInput, err: fmt.Errorf("writing report: %w", writeErr)}
	}
	if o.strict && (l.warned || len(l.errs) > 0) {
		return &exitError{code: exitInput, err: fmt.Errorf("--strict: input had errors or malformed lines")}
	}
	return nil
}

// result is one session's outcome, kept in input order.
type result[T any] struct {
	value    T
	ok       bool
	skipped  bool // read, but outside the selection's window
	warnings []*replay.SyntaxError
	err      error
}

// loadAll loads sessions on a pool of workers, hands each that keep
// accepts to work, and gives the results to emit in input order, whatever
// order the workers finish in, each as soon as those before it are out.
// Workers run at most a few sessions ahead of the oldest one not yet out,
// so memory holds about one session per worker and what work returns for
// the sessions waiting.
func loadAll[T any](srcs []replay.Source, jobs int, e env, keep func(*replay.Session) bool, work func(int, *replay.Session) T, emit func(result[T])) {
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	results := make([]result[T], len(srcs))
	next := make(chan int)
	done := make(chan int, len(srcs))
	window := make(chan struct{}, 4*jobs) // a slot per session handed out and not yet emitted
	var wg sync.WaitGroup
	prog := newProgress(e, len(srcs))
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				s, err := replay.Load(srcs[i], replay.Options{Stdin: e.stdin})
				r := result[T]{err: err}
				switch {
				case s != nil && !keep(s):
					r.skipped = true
				case s != nil:
					r.value, r.ok = work(i, s), true
					r.warnings = s.Warnings
				}
				results[i] = r
				prog.done()
				done <- i
			}
		}()
	}
	go func() {
		for i := range srcs {
			window <- struct{}{}
			next <- i
		}
		close(next)
	}()
	finished := make([]bool, len(srcs))
	for out := 0; out < len(srcs); {
		finished[<-done] = true
		for ; out < len(srcs) && finished[out]; out++ {
			if len(results[out].warnings) > 0 || results[out].err != nil {
				prog.clear()
			}
			emit(results[out])
			results[out] = result[T]{}
			<-window
		}
	}
	wg.Wait()
	prog.finish()
}

func printWarnings(e env, ws []*replay.SyntaxError, max int) {
	total, shown := map[string]int{}, map[string]int{}
	for _, w := range ws {
		total[w.File]++
	}
	for _, w := range ws {
		shown[w.File]++
		switch n := shown[w.File]; {
		case max <= 0 || n <= max:
			kind := "warning"
			if !w.Warning {
				kind = "skipped"
			}
			fmt.Fprintf(e.stderr, "%s: %s\n", kind, w)
		case n == max+1:
			fmt.Fprintf(e.stderr, "warning: %s: %d more malformed lines not shown (--max-warnings)\n", w.File, total[w.File]-max)
		}
	}
}

// simOptions are the simulation's knobs shared by replay --policy and
// compare.
type simOptions struct {
	ttl        time.Duration
	cacheEdits bool
}

func (o *simOptions) addFlags(f *pflag.FlagSet) {
	f.DurationVar(&o.ttl, "ttl", 0, "prompt-cache lifetime for the simulation, e.g. 5m or 1h (default: as the session's own cache writes show)")
	f.BoolVar(&o.cacheEdits, "cache-edits", false, "model server-side cache edits: clearing tool results keeps the cached prefix")
}

func (o *simOptions) validate() error {
	if o.ttl < 0 {
		return usageError("--ttl %v: must be positive", o.ttl)
	}
	return nil
}

// config returns the simulation's configuration with the given prices.
func (o *simOptions) config(prices *prices.Table) simulate.Config {
	c := simulate.DefaultConfig()
	c.Prices, c.TTL, c.CacheEdits = prices, o.ttl, o.cacheEdits
	return c
}
