package batch

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/ctxlab/ctxlab/internal/atomicfile"
	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/report/plots"
)

// Plots is where and how plots are written: into Dir, in Format (one of
// plots.Formats), drawn with Options. Each file is written whole or not
// at all (atomicfile). A nil *Plots writes nothing.
type Plots struct {
	Dir     string
	Format  string
	Options plots.Options
	created []string // the folders Mkdir made, for Tidy
}

// Mkdir creates the directory (and its parents) and checks that a file
// can be written there, before any work: a directory that cannot be
// written is one error, not one per plot.
func (p *Plots) Mkdir() error {
	var err error
	p.created, err = atomicfile.MkdirAll(p.Dir)
	if err == nil {
		var f *os.File
		if f, err = os.CreateTemp(p.Dir, ".ctxlab-check-*"); err == nil {
			f.Close()
			err = os.Remove(f.Name())
		}
	}
	if err != nil {
		if cause := errors.Unwrap(err); cause != nil {
			err = cause // the caller names the directory
		}
		return fmt.Errorf("cannot write plots there: %w", err)
	}
	return nil
}

// Tidy removes the folders Mkdir made when no plot was written into them:
// a run that draws nothing leaves no empty folder.
func (p *Plots) Tidy() {
	if p != nil {
		atomicfile.RemoveEmpty(p.created)
	}
}

// Write writes each figure into the directory.
func (p *Plots) Write(files []plots.File) Written {
	var w Written
	if p == nil {
		return w
	}
	for _, f := range files {
		path := filepath.Join(p.Dir, f.Name)
		err := atomicfile.Write(path, func(w io.Writer) error { return f.Figure.Write(w, p.Format) })
		if err != nil {
			w.Errs = append(w.Errs, err)
			continue
		}
		w.Paths = append(w.Paths, path)
	}
	return w
}

// WriteSession writes a session's plots (plots.SessionFiles); a session
// without a call has none, and is counted.
func (p *Plots) WriteSession(files []plots.File, hasCalls bool) Written {
	w := p.Write(files)
	if p != nil && !hasCalls {
		w.WithoutCalls = 1
	}
	return w
}

// Written is what writing some plots did: the paths written, in order,
// and the failures.
type Written struct {
	Paths []string
	Errs  []error
	// WithoutCalls counts the sessions that got no plots: their main
	// thread made no call, so there was nothing to draw.
	WithoutCalls int
}

// Add appends what x wrote.
func (w *Written) Add(x Written) {
	w.Paths = append(w.Paths, x.Paths...)
	w.Errs = append(w.Errs, x.Errs...)
	w.WithoutCalls += x.WithoutCalls
}

// List writes each path written, one a line after prefix, to list, and
// the failures, those of one cause folded into one line, to log; it
// returns an error when some plot could not be written.
func (w *Written) List(list io.Writer, prefix string, log io.Writer) error {
	for _, path := range w.Paths {
		fmt.Fprintln(list, prefix+path)
	}
	if w.WithoutCalls > 0 {
		fmt.Fprintf(log, "ctxlab: no plots for %s without a call: nothing to draw\n", numtext.Count(w.WithoutCalls, "session", "sessions"))
	}
	for _, g := range groupErrors(w.Errs) {
		fmt.Fprintln(log, "ctxlab:", g)
	}
	if len(w.Errs) > 0 {
		return fmt.Errorf("%d of %d plots could not be written", len(w.Errs), len(w.Errs)+len(w.Paths))
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

// plotPool writes plot files on a pool of workers while the caller goes on
// reading the next session: drawing and encoding are most of plot's time.
// At most one batch per worker waits, so memory holds a few sessions'
// figures; results are listed in the order the batches were submitted.
type plotPool struct {
	p       *Plots
	next    chan plotJob
	wg      sync.WaitGroup
	results []*Written
}

type plotJob struct {
	files []plots.File
	out   *Written
}

func (p *Plots) pool(workers int) *plotPool {
	pp := &plotPool{p: p, next: make(chan plotJob, workers)}
	for range workers {
		pp.wg.Add(1)
		go func() {
			defer pp.wg.Done()
			for j := range pp.next {
				*j.out = pp.p.Write(j.files)
			}
		}()
	}
	return pp
}

func (pp *plotPool) submit(files []plots.File) {
	out := &Written{}
	pp.results = append(pp.results, out)
	pp.next <- plotJob{files, out}
}

// wait waits for every batch and returns what was written, in order.
func (pp *plotPool) wait() Written {
	close(pp.next)
	pp.wg.Wait()
	var w Written
	for _, r := range pp.results {
		w.Add(*r)
	}
	return w
}
