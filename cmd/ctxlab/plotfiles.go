package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/pflag"

	"github.com/ctxlab/ctxlab/internal/atomicfile"
	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/report/plots"
)

// The context plot's x axes, as --x takes them.
var plotAxes = []string{"call", "time"}

// plotOptions are the flags that choose how plots are drawn, shared by
// replay --plot, compare --plot and plot.
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
	f.StringVar(&o.format, "plot-format", "png", "image format of the plots: png, svg or pdf")
	f.StringVar(&o.x, "x", "call", "x axis of the context plot: call (the call's number) or time (hours since the first call)")
	f.IntVar(&o.top, "plot-top", plots.DefaultTop, "bars kept in the tokens and duplicates plots")
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

// on reports whether plots were asked for.
func (o *plotOptions) on() bool { return o.dir != "" }

// mkdir creates the output directory (and its parents) and checks that a
// file can be written there, before any work: a directory that cannot be
// written is one error, not one per plot.
func (o *plotOptions) mkdir() error {
	err := os.MkdirAll(o.dir, 0o755)
	if err == nil {
		var f *os.File
		if f, err = os.CreateTemp(o.dir, ".ctxlab-check-*"); err == nil {
			f.Close()
			err = os.Remove(f.Name())
		}
	}
	if err != nil {
		if cause := errors.Unwrap(err); cause != nil {
			err = cause // the path is said already
		}
		return &exitError{code: exitInput, err: fmt.Errorf("--%s %s: cannot write plots there: %w", o.dirFlag, o.dir, err)}
	}
	return nil
}

// start prepares --plot before any session is read: it creates the
// directory and names each session's files (plots.Namer, in input order).
// Without --plot it only names.
func (o *plotOptions) start(in *inputs) ([]string, error) {
	if o.on() {
		if err := o.mkdir(); err != nil {
			return nil, err
		}
	}
	return sessionNames(in.srcs), nil
}

// done ends replay --plot and compare --plot: it writes the whole input's
// plots, lists every plot written (the sessions' in input order, then the
// totals) on standard error, and returns the report's outcome, else the
// plots'.
func (o *plotOptions) done(e env, sessions []plotted, totals []plots.File, outcome error) error {
	var p plotted
	for _, s := range sessions {
		p.add(s)
	}
	p.add(o.write(totals))
	return firstErr(outcome, p.finish(e.stderr, "wrote ", e))
}

// plotOpts are the renderers' options; each plot names its session (or
// the whole input) itself.
func (o *plotOptions) plotOpts() plots.Options {
	return plots.Options{XTime: o.x == "time", Top: o.top}
}

// plotted is what writing some plots did: the paths written, in order, and
// the failures.
type plotted struct {
	paths []string
	errs  []error
	// withoutCalls counts the sessions that got no plots: their main
	// thread made no call, so there was nothing to draw.
	withoutCalls int
}

func (p *plotted) add(q plotted) {
	p.paths = append(p.paths, q.paths...)
	p.errs = append(p.errs, q.errs...)
	p.withoutCalls += q.withoutCalls
}

// writeSession writes a session's plots (plots.SessionFiles); a session
// without a call has none, and is counted.
func (o *plotOptions) writeSession(files []plots.File, hasCalls bool) plotted {
	p := o.write(files)
	if !hasCalls {
		p.withoutCalls = 1
	}
	return p
}

// write writes each figure into the output directory, atomically.
func (o *plotOptions) write(files []plots.File) plotted {
	var p plotted
	for _, f := range files {
		path := filepath.Join(o.dir, f.Name)
		err := atomicfile.Write(path, func(w io.Writer) error { return f.Figure.Write(w, o.format) })
		if err != nil {
			p.errs = append(p.errs, err)
			continue
		}
		p.paths = append(p.paths, path)
	}
	return p
}

// plotPool writes plot files on a pool of workers while the caller goes on
// reading the next session: drawing and encoding are most of plot's time.
// At most one batch per worker waits, so memory holds a few sessions'
// figures; results are listed in the order the batches were submitted.
type plotPool struct {
	o       *plotOptions
	next    chan plotJob
	wg      sync.WaitGroup
	results []*plotted
}

type plotJob struct {
	files []plots.File
	out   *plotted
}

func (o *plotOptions) pool(workers int) *plotPool {
	pp := &plotPool{o: o, next: make(chan plotJob, workers)}
	for range workers {
		pp.wg.Add(1)
		go func() {
			defer pp.wg.Done()
			for j := range pp.next {
				*j.out = pp.o.write(j.files)
			}
		}()
	}
	return pp
}

func (pp *plotPool) submit(files []plots.File) {
	out := &plotted{}
	pp.results = append(pp.results, out)
	pp.next <- plotJob{files, out}
}

// wait waits for every batch and returns what was written, in order.
func (pp *plotPool) wait() plotted {
	close(pp.next)
	pp.wg.Wait()
	var p plotted
	for _, r := range pp.results {
		p.add(*r)
	}
	return p
}

// finish lists the plots written, one path a line after prefix (to w:
// stderr for replay and compare, whose stdout is the report; stdout for
// plot), and the failures, which make the command exit 1.
func (p *plotted) finish(w io.Writer, prefix string, e env) error {
	for _, path := range p.paths {
		fmt.Fprintln(w, prefix+path)
	}
	if p.withoutCalls > 0 {
		fmt.Fprintf(e.stderr, "ctxlab: no plots for %s without a call: nothing to draw\n", numtext.Count(p.withoutCalls, "session", "sessions"))
	}
	for _, g := range groupErrors(p.errs) {
		fmt.Fprintln(e.stderr, "ctxlab:", g)
	}
	if len(p.errs) > 0 {
		return &exitError{code: exitInput, err: fmt.Errorf("%d of %d plots could not be written", len(p.errs), len(p.errs)+len(p.paths))}
	}
	return nil
}

// groupErrors folds the failures that share a cause (the same error of the
// file system, on files of one directory: a full disk, say) into one line
// naming the first file and the count; others are kept as they are, in
// order.
func groupErrors(errs []error) []string {
	type group struct {
		first string
		n     int
	}
	var keys []string
	groups := map[string]*group{}
	for _, err := range errs {
		key, first := err.Error(), err.Error()
		var pe *fs.PathError
		if errors.As(err, &pe) {
			key = filepath.Dir(pe.Path) + "\x00" + pe.Err.Error()
		}
		if g, ok := groups[key]; ok {
			g.n++
			continue
		}
		groups[key] = &group{first: first, n: 1}
		keys = append(keys, key)
	}
	out := make([]string, len(keys))
	for i, k := range keys {
		g := groups[k]
		out[i] = g.first
		if g.n > 1 {
			out[i] += fmt.Sprintf(" (and %d more plots, for the same reason)", g.n-1)
		}
	}
	return out
}

// sessionNames names each source's plot files (plots.SessionNames).
func sessionNames(srcs []replay.Source) []string {
	ids := make([]string, len(srcs))
	projects := make([]string, len(srcs))
	for i, s := range srcs {
		ids[i], projects[i] = s.ID(), s.Project()
	}
	return plots.SessionNames(ids, projects)
}
