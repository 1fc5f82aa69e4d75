package main

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ctxlab/ctxlab/report/table"

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
	last       int
	sel        replay.Selection // from the four above, by validate
	textWidth
}

func (o *inputOptions) addFlags(f *pflag.FlagSet) {
	if o.formats == nil {
		o.formats = formatNames(report.Formats)
	}
	addFormatFlag(f, &o.format, o.formats)
	f.BoolVar(&o.strict, "strict", false, "exit 1 on any malformed line or unreadable file")
	f.StringVar(&o.pricesFile, "prices", "", "JSON price table laid over the built-in one (see docs/reports.md)")
	f.IntVar(&o.jobs, "jobs", 0, "sessions read in parallel (default: number of CPUs)")
	f.IntVar(&o.maxWarn, "max-warnings", 10, "warnings printed per file (0: all)")
	f.StringSliceVar(&o.projects, "project", nil, "only sessions of these projects (the folder under projects/; shell patterns, repeatable)")
	f.StringSliceVar(&o.sessionIDs, "session", nil, "only these sessions (ids, a unique prefix of one, or shell patterns; repeatable)")
	f.StringVar(&o.since, "since", "", "only sessions active at or after this: a date (2026-11-01), a time (RFC 3339) or an age (7d, 36h)")
	f.StringVar(&o.until, "until", "", "only sessions active before this (same forms as --since)")
	f.IntVar(&o.last, "last", 0, "only the N newest sessions (their transcript written last), after the other filters")
	o.textWidth.addFlags(f)
}

func (o *inputOptions) validate(e env) error {
	if err := checkFormat(o.format, o.formats); err != nil {
		return err
	}
	if err := o.textWidth.validate(); err != nil {
		return err
	}
	o.sel = replay.Selection{Projects: o.projects, Sessions: o.sessionIDs}
	for _, b := range []struct {
		flag, v string
		to      *int64
		parse   func(string, time.Time) (int64, error)
	}{{"--since", o.since, &o.sel.Since, replay.ParseSince}, {"--until", o.until, &o.sel.Until, replay.ParseUntil}} {
		if b.v == "" {
			continue
		}
		t, err := b.parse(b.v, e.clock())
		if err != nil {
			return usageError("%s %v", b.flag, err)
		}
		*b.to = t
	}
	if err := o.sel.Check(); err != nil {
		return usageError("selection: %v", err)
	}
	if o.last < 0 {
		return usageError("--last %d: must be 1 or more", o.last)
	}
	return nil
}

// textWidth is the width text tables are fitted to: --width, else all of
// it under --wide, else COLUMNS, else the terminal's width when standard
// output is one, else table.DefaultWidth.
type textWidth struct {
	width int
	wide  bool
}

func (o *textWidth) addFlags(f *pflag.FlagSet) {
	f.IntVar(&o.width, "width", 0, "fit text tables to this many columns (default: COLUMNS, the terminal's width, else 100)")
	f.BoolVar(&o.wide, "wide", false, "print every column of text tables, however wide")
}

func (o *textWidth) validate() error {
	if o.width < 0 || (o.width > 0 && o.width < minWidth) {
		return usageError("--width %d: want %d or more", o.width, minWidth)
	}
	if o.width > 0 && o.wide {
		return usageError("--width and --wide: give one")
	}
	return nil
}

// minWidth is the narrowest --width: below it no table is readable.
const minWidth = 40

// columns returns the width to fit text tables to; 0 is no limit.
func (o *textWidth) columns(e env) int {
	switch {
	case o.width > 0:
		return o.width
	case o.wide:
		return 0
	}
	if e.getenv != nil {
		if n, err := strconv.Atoi(e.getenv("COLUMNS")); err == nil && n > 0 {
			return max(n, minWidth)
		}
	}
	if e.termWidth > 0 {
		return max(e.termWidth, minWidth)
	}
	return table.DefaultWidth
}

// formatNames are the names of report formats, as --format takes them.
func formatNames(fs []report.Format) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = string(f)
	}
	return out
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
	simCfg := sim.config(cfg.Prices)
	cfg.TurnRules = simCfg.TurnRules // the break report names the rules the simulation applies
	return &setup{cfg: cfg, simCfg: simCfg, in: in, names: names}, nil
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
	if err := o.sel.ResolvePrefixes(srcs); err != nil {
		return nil, usageError("--session: %v", err)
	}
	return &inputs{srcs: replay.Newest(o.sel.Sources(srcs), o.last), errs: errs}, nil
}

// load reads the sessions of in on a pool of workers and runs work on
// each (i is the session's index in in.srcs), keeping what work returns in
// input order. It prints warnings and read errors to stderr as it goes
// through the results in input order, and fails (exit 1) when no session
// could be read.
func load[T any](o *inputOptions, e env, in *inputs, work func(i int, s *replay.Session) T) (*loaded[T], error) {
	l := &loaded[T]{}
	if err := l.each(o, e, in, work, func(v T) { l.values = append(l.values, v) }); err != nil {
		return nil, err
	}
	return l, nil
}

// each is load for a command that keeps nothing per session: it hands what
// work returns for each session to fn, in input order, as soon as that
// session and every one before it are done, and leaves l.values empty.
// Memory holds the sessions in flight (see streamAll), not the input.
func (l *loaded[T]) each(o *inputOptions, e env, in *inputs, work func(i int, s *replay.Session) T, fn func(T)) error {
	for _, err := range in.errs {
		fmt.Fprintln(e.stderr, "ctxlab:", err)
		l.errs = append(l.errs, err.Error())
	}
	read, skipped := 0, false
	streamAll(in.srcs, o.jobs, e, o.sel.Session, work, func(r result[T]) {
		printWarnings(e, r.warnings, o.maxWarn)
		l.warned = l.warned || len(r.warnings) > 0
		skipped = skipped || r.skipped
		if r.err != nil {
			fmt.Fprintln(e.stderr, "ctxlab:", r.err)
			l.errs = append(l.errs, r.err.Error())
		}
		if r.ok {
			read++
			fn(r.value)
		}
	})
	if read == 0 {
		if !o.sel.IsZero() && (len(in.srcs) == 0 || skipped) {
			return &exitError{code: exitInput, err: fmt.Errorf("no session matches the selection (--project, --session, --since, --until, --last)")}
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

// aheadPerWorker bounds how far the workers run ahead of the session being
// emitted. While one worker reads a large session the others go on with
// the small ones after it; at two per worker they stopped after two or
// three, and a core stood idle for the rest of the large one (50 ms of a
// 0.55 s run on ten copies of the genuine transcripts, in an execution
// trace). At 16 the idle spell is gone: 0.97× the wall there (31 pairs),
// 0.98× on the generated corpus, peak memory unchanged at 2 and 8.6 GB
// (what waits is a session's report, not the session).
const aheadPerWorker = 16

// result is one session's outcome.
type result[T any] struct {
	value    T
	ok       bool
	skipped  bool // read, but outside the selection's window
	warnings []*replay.SyntaxError
	err      error
}

// streamAll loads sessions on a pool of workers, hands each that keep
// accepts to work, and passes every outcome to emit on the calling
// goroutine in input order, whatever order the workers finish in. A worker
// starts a session only while it is fewer than aheadPerWorker per worker
// ahead of the next one emit is waiting for, so memory holds at most that
// many sessions' values, however slow one session is.
func streamAll[T any](srcs []replay.Source, jobs int, e env, keep func(*replay.Session) bool, work func(int, *replay.Session) T, emit func(result[T])) {
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	if e.hugeHeap {
		growHeap(srcs)
	}
	window := aheadPerWorker * jobs
	type finished struct {
		i int
		r result[T]
	}
	next := make(chan int)
	out := make(chan finished)
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
				prog.done()
				out <- finished{i, r}
			}
		}()
	}
	pending := map[int]result[T]{}
	sent, emitted := 0, 0
	for emitted < len(srcs) {
		var send chan int // nil, never ready, while the window is full
		if sent < len(srcs) && sent < emitted+window {
			send = next
		}
		select {
		case send <- sent:
			sent++
		case f := <-out:
			pending[f.i] = f.r
			for r, ok := pending[emitted]; ok; r, ok = pending[emitted] {
				delete(pending, emitted)
				if len(r.warnings) > 0 || r.err != nil {
					prog.clear() // warnings print between progress updates
				}
				emit(r)
				emitted++
			}
		}
	}
	close(next)
	wg.Wait()
	prog.finish()
}

// warnUnpriced says once per model that has no price how many calls its
// cost leaves out.
func warnUnpriced(e env, models []accounting.Count) {
	for _, m := range models {
		calls := "calls"
		if m.Count == 1 {
			calls = "call"
		}
		fmt.Fprintf(e.stderr, "warning: model %s has no price: its %d %s are left out of every cost (give it one with --prices, docs/reports.md)\n", m.Name, m.Count, calls)
	}
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
	coldStart  bool
	params     []string // --sim-param lists
	set        simulate.Config
}

func (o *simOptions) addFlags(f *pflag.FlagSet) {
	f.DurationVar(&o.ttl, "ttl", 0, "prompt-cache lifetime for the simulation, e.g. 5m or 1h (default: as the session's own cache writes show)")
	f.BoolVar(&o.cacheEdits, "cache-edits", false, "model server-side cache edits: clearing tool results keeps the cached prefix")
	f.BoolVar(&o.coldStart, "cold-start", false, "start every simulated run with an empty prompt cache and no prefix kept warm by other requests (default: with what the session's first call read from it)")
	f.StringArrayVar(&o.params, "sim-param", nil, "override simulation parameters, name=value[,name=value…] (repeatable; docs/simulation.md lists them, e.g. drop-thinking-until=0)")
}

func (o *simOptions) validate() error {
	if o.ttl < 0 {
		return usageError("--ttl %v: must be positive", o.ttl)
	}
	o.set = simulate.DefaultConfig()
	for _, list := range o.params {
		if err := o.set.Set(list); err != nil {
			return usageError("--sim-param: %v", err)
		}
	}
	return nil
}

// config returns the simulation's configuration with the given prices:
// the defaults, with --sim-param's values (validate has parsed them).
func (o *simOptions) config(prices *prices.Table) simulate.Config {
	c := o.set // zero fields are defaults
	c.Prices, c.TTL, c.CacheEdits, c.ColdStart = prices, o.ttl, o.cacheEdits, o.coldStart
	return c
}
