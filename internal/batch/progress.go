package batch

import (
	"fmt"
	"github.com/ctxlab/ctxlab/internal/numtext"
	"io"
	"sync"
)

// progress shows "n/total sessions" on the log while sessions load, only
// when the log is a terminal (Options.Progress), so logs and pipes stay
// clean.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	total int
	n     int
	on    bool
}

func newProgress(w io.Writer, on bool, total int) *progress {
	return &progress{w: w, total: total, on: on && total > 1}
}

func (p *progress) done() {
	if !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	fmt.Fprintf(p.w, "\rctxlab: %s/%s sessions", numtext.Int(p.n), numtext.Int(p.total))
}

// clear erases the progress line, for a message printed while sessions
// load; the next session done redraws it.
func (p *progress) clear() {
	if !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprint(p.w, "\r\033[K")
}

func (p *progress) finish() {
	if p.on {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
