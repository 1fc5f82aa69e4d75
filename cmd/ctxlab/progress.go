package main

import (
	"fmt"
	"sync"
)

// progress shows "n/total sessions" on stderr while sessions load, only
// when stderr is a terminal, so logs and pipes stay clean.
type progress struct {
	mu    sync.Mutex
	e     env
	total int
	n     int
	on    bool
}

func newProgress(e env, total int) *progress {
	return &progress{e: e, total: total, on: e.isTerminal && total > 1}
}

func (p *progress) done() {
	if !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	fmt.Fprintf(p.e.stderr, "\rctxlab: %d/%d sessions", p.n, p.total)
}

// clear erases the progress line, for a message printed while sessions
// load; the next session done redraws it.
func (p *progress) clear() {
	if !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprint(p.e.stderr, "\r\033[K")
}

func (p *progress) finish() {
	if p.on {
		fmt.Fprint(p.e.stderr, "\r\033[K")
	}
}
