package batch

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/ctxlab/ctxlab/internal/numtext"
	"io"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate"
)

// Inputs are the sessions a command's paths stand for, found before any
// is read, so that a command can name its output files first.
type Inputs struct {
	Sources []replay.Source
	Errs    []error // paths that could not be searched
}

// Find expands paths into the sessions they stand for (replay.Discover)
// and picks those of sel's projects and sessions, a session named by an id
// or by the one id a prefix begins, then the last newest (0: all).
func Find(paths []string, sel *replay.Selection, last int) (*Inputs, error) {
	srcs, errs := replay.Discover(paths)
	if err := sel.ResolvePrefixes(srcs); err != nil {
		return nil, err
	}
	return &Inputs{Sources: replay.Newest(sel.Sources(srcs), last), Errs: errs}, nil
}

// Options say how a batch reads its sessions and how it accounts and
// replays each.
type Options struct {
	Jobs  int       // sessions read at once (0: one per CPU)
	Stdin io.Reader // read for the source "-"
	// Selection is the window a session read must overlap to be kept;
	// its projects and sessions have picked Inputs already. Zero: every
	// session.
	Selection   replay.Selection
	Log         io.Writer // warnings and read errors, as they come; nil discards them
	MaxWarnings int       // malformed lines shown per file (0: all)
	Progress    bool      // Log is a terminal: show "n/total sessions" on it
	HugeHeap    bool      // grow the heap in huge pages before a large run (growHeap)
	Accounting  accounting.Config
	Simulation  simulate.Config
	// Shard keeps the sessions of one shard of the input (zero: all).
	// With Part, each session's value is written to the part instead of
	// being handed back, and the call returns ErrPartWritten.
	Shard Shard
	Part  *Part
	// Merge hands back the values of the parts of every shard, in input
	// order, instead of reading sessions (ctxlab merge).
	Merge *Merged
}

// ErrNoSession and ErrNoMatch are the failures of a batch that read no
// session: none could be read, or none matched the selection.
var (
	ErrNoSession = errors.New("no session could be read")
	ErrNoMatch   = errors.New("no session matches the selection")
)

// Outcome is what a batch found in its input beside the sessions: the
// errors a report lists (paths that could not be searched, files that
// could not be read), and whether some line was malformed.
type Outcome struct {
	Errors []string
	Warned bool
}

// Clean reports whether the input had neither errors nor malformed lines.
func (o *Outcome) Clean() bool { return !o.Warned && len(o.Errors) == 0 }

// A Session is one session read, as a batch's work sees it on the worker
// that read it. It prepares its trace once (Trace), however many runs
// need it, and runs each policy once (Run), however many reports need the
// run.
type Session struct {
	*replay.Session
	Index  int // in Inputs.Sources
	Source replay.Source

	opt    *Options
	report *accounting.Report
	trace  *simulate.Trace
	runs   map[string]*simulate.Result
}

// Report is the session's accounting report.
func (s *Session) Report() *accounting.Report {
	if s.report == nil {
		s.report = accounting.Analyze(s.Session, s.opt.Accounting)
	}
	return s.report
}

// Trace is the session prepared for replay.
func (s *Session) Trace() *simulate.Trace {
	if s.trace == nil {
		s.trace = simulate.Prepare(s.Session)
	}
	return s.trace
}

// Run is the session's run under c, run the first time it is asked for.
func (s *Session) Run(c policies.Compiled) *simulate.Result {
	if r, ok := s.runs[c.Name()]; ok {
		return r
	}
	if s.runs == nil {
		s.runs = map[string]*simulate.Result{}
	}
	r := c.Run(s.Trace(), s.opt.Simulation)
	s.runs[c.Name()] = r
	return r
}

// Runs are the session's runs under each of cs, in order.
func (s *Session) Runs(cs []policies.Compiled) []*simulate.Result {
	out := make([]*simulate.Result, len(cs))
	for i, c := range cs {
		out[i] = s.Run(c)
	}
	return out
}

// result is one source's outcome: what work made of it, or why there is
// nothing.
type result[T any] struct {
	index    int // in Inputs.Sources
	value    T
	ok       bool
	skipped  bool // read, but outside the selection's window
	warnings []*replay.SyntaxError
	err      error
}

// Each reads the sessions of in on a pool of workers (Ordered), calls
// work on each session the selection keeps, on the worker that read it,
// and hands what work returns to emit on the calling goroutine in input
// order, as soon as that session and every one before it are done: memory
// holds the sessions in flight, not the input. Warnings and read errors
// go to the log as they come, in input order. It fails (ErrNoSession,
// ErrNoMatch) when no session was read.
func Each[T any](in *Inputs, o Options, work func(*Session) T, emit func(T)) (*Outcome, error) {
	if o.Merge != nil {
		return eachMerged(in, o, emit)
	}
	log, out := start(in, o)
	kept := inShard(in.Sources, o.Shard)
	if o.HugeHeap {
		srcs := make([]replay.Source, len(kept))
		for j, i := range kept {
			srcs[j] = in.Sources[i]
		}
		growHeap(srcs) // by the sessions this run reads
	}
	if o.Part != nil {
		o.Part.begin(in)
	}
	prog := newProgress(log, o.Progress, len(kept))
	read, skipped := 0, false
	Ordered(len(kept), o.Jobs, func(j int) result[T] {
		defer prog.done()
		return load(in.Sources[kept[j]], kept[j], &o, work)
	}, func(_ int, r result[T]) {
		if len(r.warnings) > 0 || r.err != nil {
			prog.clear() // warnings print between progress updates
		}
		printWarnings(log, r.warnings, o.MaxWarnings)
		out.Warned = out.Warned || len(r.warnings) > 0
		skipped = skipped || r.skipped
		if r.err != nil {
			fmt.Fprintln(log, "ctxlab:", r.err)
			out.Errors = append(out.Errors, r.err.Error())
		}
		if o.Part != nil {
			o.Part.add(entryOf(r))
			return
		}
		if r.ok {
			read++
			emit(r.value)
		}
	})
	prog.finish()
	switch {
	case o.Part != nil:
		return out, o.Part.end()
	case read > 0 || !o.Shard.IsZero():
		// A shard may receive no session: the others read the input.
		return out, nil
	case !o.Selection.IsZero() && (len(in.Sources) == 0 || skipped):
		return out, ErrNoMatch
	}
	return out, ErrNoSession
}

// entryOf is a session's entry in a part.
func entryOf[T any](r result[T]) partEntry {
	e := partEntry{Index: r.index, Warned: len(r.warnings) > 0, Skipped: r.skipped}
	if r.err != nil {
		e.Error = r.err.Error()
	}
	if r.ok {
		b, err := marshalValue(r.value)
		if err != nil {
			e.Error = fmt.Sprintf("session %d: %v", r.index, err)
		}
		e.Value = b
	}
	return e
}

// marshalValue is json.Marshal(v). Each command's value (values.go) is a
// json.Marshaler whose MarshalJSON returns json.Marshal's output, compact
// and escaped already: json.Marshal would only compact it again, a pass
// over every byte of a part.
func marshalValue(v any) ([]byte, error) {
	if m, ok := v.(partValue); ok {
		return m.MarshalJSON()
	}
	return json.Marshal(v)
}

// partValue is a command's value of a session, as values.go writes it.
type partValue interface {
	json.Marshaler
	partValue()
}

// Collect is Each keeping what work returns for every session, in input
// order.
func Collect[T any](in *Inputs, o Options, work func(*Session) T) ([]T, *Outcome, error) {
	var vs []T
	out, err := Each(in, o, work, func(v T) { vs = append(vs, v) })
	return vs, out, err
}

// load reads one source and, when the selection keeps it, runs work on it.
func load[T any](src replay.Source, i int, o *Options, work func(*Session) T) result[T] {
	s, err := replay.Load(src, replay.Options{Stdin: o.Stdin})
	r := result[T]{index: i, err: err}
	switch {
	case s != nil && !o.Selection.Session(s):
		r.skipped = true
	case s != nil:
		r.value, r.ok = work(&Session{Session: s, Index: i, Source: src, opt: o}), true
		r.warnings = s.Warnings
	}
	return r
}

// printWarnings prints a session's malformed lines, at most max per file
// (0: all) and then how many more there were.
func printWarnings(w io.Writer, ws []*replay.SyntaxError, max int) {
	total, shown := map[string]int{}, map[string]int{}
	for _, e := range ws {
		total[e.File]++
	}
	for _, e := range ws {
		shown[e.File]++
		switch n := shown[e.File]; {
		case max <= 0 || n <= max:
			kind := "warning"
			if !e.Warning {
				kind = "skipped"
			}
			fmt.Fprintf(w, "%s: %s\n", kind, e)
		case n == max+1:
			fmt.Fprintf(w, "warning: %s: %d more malformed lines not shown (--max-warnings)\n", e.File, total[e.File]-max)
		}
	}
}

// warnUnpriced says once per model that has no price how many calls its
// cost leaves out.
func warnUnpriced(w io.Writer, models []accounting.Count) {
	if w == nil {
		return
	}
	for _, m := range models {
		fmt.Fprintf(w, "warning: model %s has no price: its %s left out of every cost (give it one with --prices, docs/reports.md)\n", m.Name, numtext.Count(m.Count, "call is", "calls are"))
	}
}

// start returns the log a run writes to and its outcome, with the input's
// errors (paths that could not be searched) said on the log and recorded.
func start(in *Inputs, o Options) (io.Writer, *Outcome) {
	log := o.Log
	if log == nil {
		log = io.Discard
	}
	out := &Outcome{}
	for _, err := range in.Errs {
		fmt.Fprintln(log, "ctxlab:", err)
		out.Errors = append(out.Errors, err.Error())
	}
	return log, out
}
