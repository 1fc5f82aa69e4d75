package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/internal/batch"
	"github.com/ctxlab/ctxlab/internal/cliflag"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/render"
	"github.com/ctxlab/ctxlab/simulate"
)

// inputOptions are the flags of every command that reads sessions: which
// sessions, how to read them, how to print them.
type inputOptions struct {
	outputOptions
	paths                []string
	pricesFile           string
	strict, sessions     bool
	jobs, maxWarn        int
	projects, sessionIDs []string
	since, until         string
	last                 int
	sel                  replay.Selection // from the selection's flags, by validate
	sim                  simOptions
	shard                string
	part                 batch.Shard    // --shard's, by validate
	flags                *pflag.FlagSet // the command's, named after it: a part records them
}

func (o *inputOptions) addFlags(f *pflag.FlagSet) {
	o.outputOptions.addFlags(f)
	o.sim.set = f.Changed
	f.BoolVar(&o.strict, "strict", false, "exit 1 on any malformed line or unreadable file")
	f.StringVar(&o.pricesFile, "prices", "", "JSON price table laid over the built-in one (see docs/reports.md)")
	f.IntVar(&o.jobs, "jobs", 0, "sessions read in parallel (default: number of CPUs)")
	f.IntVar(&o.maxWarn, "max-warnings", 10, "warnings printed per file (0: all)")
	f.StringSliceVar(&o.projects, "project", nil, "only sessions of these projects (the folder under projects/; shell patterns, repeatable)")
	f.StringSliceVar(&o.sessionIDs, "session", nil, "only these sessions (ids, a unique prefix of one, or shell patterns; repeatable)")
	f.StringVar(&o.since, "since", "", "only sessions active at or after this: a date (2026-11-01), a time (RFC 3339) or an age (7d, 36h)")
	f.StringVar(&o.until, "until", "", "only sessions active before this (same forms as --since)")
	f.IntVar(&o.last, "last", 0, "only the N newest sessions (their transcript written last), after the other filters")
	f.StringVar(&o.shard, "shard", "", "read shard K of N (K/N, K from 1) of the sessions and write its part for ctxlab merge (docs/scale.md)")
	o.sim.addFlags(f)
	o.flags = f
}

func (o *inputOptions) validate(e env) error {
	if err := o.outputOptions.validate(); err != nil {
		return err
	}
	o.sel = replay.Selection{Projects: o.projects, Sessions: o.sessionIDs}
	var err error
	if o.sel.Since, err = parseTime("--since", o.since, replay.ParseSince, e); err != nil {
		return err
	}
	if o.sel.Until, err = parseTime("--until", o.until, replay.ParseUntil, e); err != nil {
		return err
	}
	if err := o.sel.Check(); err != nil {
		return usageError("--%v", err) // Check names the field: --project "[x": …
	}
	// --jobs and --last default to "all"; a value given must be one.
	for _, c := range []struct {
		name string
		v    int
	}{{"jobs", o.jobs}, {"last", o.last}} {
		if c.v < 1 && o.flags.Changed(c.name) {
			return usageError("--%s %d: must be 1 or more", c.name, c.v)
		}
	}
	if o.maxWarn < 0 {
		return usageError("--max-warnings %d: must be 0 (all) or more", o.maxWarn)
	}
	if o.shard != "" {
		if o.part, err = batch.ParseShard(o.shard); err != nil {
			return usageError("--shard %q: %v", o.shard, err)
		}
	}
	return nil
}

// outputOptions are the flags of every command that writes a document:
// its format and, for text tables, their width.
type outputOptions struct {
	format  string
	kind    report.Kind // the document the command writes: its formats
	formats []string    // --format's values when they are not a document's (export's)
	spec    render.Spec // --format's, by validate
	width   cliflag.Width
	json    bool // --json: --format json, as ccusage spells it
	jsonSet func(string) bool
}

func (o *outputOptions) addFlags(f *pflag.FlagSet) {
	if o.kind == "" {
		o.kind = report.ReplayKind
	}
	files := o.formats != nil // export's: files, not a document, so no text tables
	if !files {
		o.formats = render.For(o.kind)
	}
	f.StringVar(&o.format, "format", o.formats[0], "output format: "+strings.Join(o.formats, ", "))
	cliflag.Takes(f, "format", o.formats)
	if slices.Contains(o.formats, string(report.JSON)) {
		f.BoolVar(&o.json, string(report.JSON), false, "short for --format "+string(report.JSON))
		o.jsonSet = f.Changed
	}
	if !files {
		o.width.AddFlags(f)
	}
}

// validate checks --format, one of the command's formats, and the width.
func (o *outputOptions) validate() error {
	if o.json {
		if o.jsonSet("format") && o.format != string(report.JSON) {
			return usageError("--%s and --format %s: give one", report.JSON, o.format)
		}
		o.format = string(report.JSON)
	}
	if !slices.Contains(o.formats, o.format) {
		return usageError("--format %q: want one of %s", o.format, strings.Join(o.formats, ", "))
	}
	o.spec, _ = render.Lookup(report.Format(o.format))
	return o.width.Validate()
}

// parseTime parses --since or --until ("": none).
func parseTime(flag, v string, parse func(string, time.Time) (int64, error), e env) (int64, error) {
	if v == "" {
		return 0, nil
	}
	t, err := parse(v, e.clock())
	if err != nil {
		return 0, usageError("%s %v", flag, err)
	}
	return t, nil
}

// start checks the shared flags, finds the sessions and, under --plot,
// creates the plot directory: what a command holds before reading any
// session.
func (o *inputOptions) start(plot *plotOptions, e env) (*batch.Inputs, batch.Options, error) {
	cfg, err := batch.Config(o.pricesFile)
	if err != nil {
		return nil, batch.Options{}, wrapUsage(err)
	}
	if err := o.sim.validate(); err != nil {
		return nil, batch.Options{}, err
	}
	simCfg := o.sim.config(cfg.Prices)
	cfg.TurnRules = simCfg.TurnRules // the break report names the rules the simulation applies
	bo := batch.Options{
		Jobs: o.jobs, Stdin: e.stdin, Selection: o.sel, Log: e.stderr, MaxWarnings: o.maxWarn,
		Progress: e.isTerminal, HugeHeap: e.hugeHeap, Accounting: cfg, Simulation: simCfg, Shard: o.part,
	}
	if bo.Merge = e.parts; e.parts != nil { // ctxlab merge: the parts' sessions
		if batch.PriceDigest(cfg.Prices) != e.parts.Header.Prices {
			return nil, bo, usageError("the parts were priced with another price table than --prices gives here (%s)", e.parts.Header.PricesDate)
		}
		return e.parts.Inputs(), bo, plot.mkdir()
	}
	in, err := discover(o, e)
	if err != nil {
		return nil, batch.Options{}, err
	}
	if !o.part.IsZero() {
		bo.Part = batch.NewPart(e.stdout, o.flags, []string{"shard", "jobs", "max-warnings"}, o.paths, o.part, cfg.Prices, o.sel)
	}
	return in, bo, plot.mkdir()
}

// discover expands the command's paths (or the default folders) into
// sessions.
func discover(o *inputOptions, e env) (*batch.Inputs, error) {
	paths := o.paths
	if len(paths) == 0 {
		var err error
		if paths, err = replay.DefaultDirs(e.getenv, e.home); err != nil {
			return nil, failed(err)
		}
	}
	in, err := batch.Find(paths, &o.sel, o.last)
	if err != nil {
		return nil, usageError("--session: %v", err)
	}
	return in, nil
}

// write renders a command's document to standard output, in --format
// and fitted to the width, and returns the command's outcome (finish).
func (o *inputOptions) write(e env, doc report.Doc, opt report.Options, out *batch.Outcome) error {
	return o.finish(out, o.outputOptions.write(e, doc, opt))
}

// write renders a document to standard output, in --format and fitted to
// the width.
func (o *outputOptions) write(e env, doc report.Doc, opt report.Options) error {
	opt.Format, opt.Width = o.spec.Format, o.width.Columns(e.getenv, e.termWidth)
	return writing(render.Write(e.stdout, doc, opt))
}

// finish turns a batch's outcome into the command's: a batch that read
// nothing or could not write its output is exit 1, and so, under
// --strict, is any input error.
func (o *inputOptions) finish(out *batch.Outcome, err error) error {
	if err != nil {
		return failed(err)
	}
	if o.strict && !out.Clean() {
		return failed(errors.New("--strict: input had errors or malformed lines"))
	}
	return nil
}

// failed is an error of reading or writing, exit 1; nil for none.
func failed(err error) error {
	if err == nil || errors.Is(err, batch.ErrPartWritten) {
		return nil // a shard's part: the merge makes the document
	}
	if errors.Is(err, batch.ErrNoMatch) {
		err = fmt.Errorf("%w (--project, --session, --since, --until, --last)", err)
	}
	return &exitError{code: exitInput, err: err}
}

// checkTable checks a --section that picks the one table of a format that
// holds one (CSV): one of tables, or "" for the default.
func (o *inputOptions) checkTable(section string, tables []string) error {
	switch {
	case section == "":
		return nil
	case !o.spec.OneTable:
		return usageError("--section %s: only with --format csv (the other formats print every table)", section)
	case !slices.Contains(tables, section):
		return usageError("--section %q: want one of %s", section, strings.Join(tables, ", "))
	}
	return nil
}

// parseEach parses each value of a repeated flag.
func parseEach[T any](flag string, values []string, parse func(string) (T, error)) ([]T, error) {
	var out []T
	for _, v := range values {
		x, err := parse(v)
		if err != nil {
			return nil, usageError("%s %v", flag, err)
		}
		out = append(out, x)
	}
	return out, nil
}

// writing names a report's write error.
func writing(err error) error { return wrap(err, "writing report") }

// wrap prefixes an error with what was being done; nil stays nil.
func wrap(err error, format string, a ...any) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf(format+": %w", append(a, err)...)
}

// simOptions are the simulation's knobs shared by replay --policy and
// compare.
type simOptions struct {
	ttl        time.Duration
	cacheEdits bool
	coldStart  bool
	params     []string // --sim-param lists
	cfg        simulate.Config
	set        func(string) bool // whether a flag was given
}

func (o *simOptions) addFlags(f *pflag.FlagSet) {
	f.DurationVar(&o.ttl, "ttl", 0, "prompt-cache lifetime for the simulation, e.g. 5m or 1h (default: as the session's own cache writes show)")
	f.BoolVar(&o.cacheEdits, "cache-edits", false, "model server-side cache edits: clearing tool results keeps the cached prefix")
	f.BoolVar(&o.coldStart, "cold-start", false, "start every simulated run with an empty prompt cache and no prefix kept warm by other requests (default: with what the session's first call read from it)")
	f.StringArrayVar(&o.params, "sim-param", nil, "override simulation parameters, name=value[,name=value…] (repeatable; docs/simulation.md lists them, e.g. drop-thinking-until=0)")
}

func (o *simOptions) validate() error {
	if o.ttl < 0 || (o.ttl == 0 && o.set != nil && o.set("ttl")) {
		return usageError("--ttl %v: must be positive", o.ttl)
	}
	o.cfg = simulate.DefaultConfig()
	for _, list := range o.params {
		if err := o.cfg.Set(list); err != nil {
			return usageError("--sim-param: %v", err)
		}
	}
	return nil
}

// config returns the simulation's configuration with the given prices:
// the defaults, with --sim-param's values (validate has parsed them).
func (o *simOptions) config(prices *prices.Table) simulate.Config {
	c := o.cfg // zero fields are defaults
	c.Prices, c.TTL, c.CacheEdits, c.ColdStart = prices, o.ttl, o.cacheEdits, o.coldStart
	return c
}
