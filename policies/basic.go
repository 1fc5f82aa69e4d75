package policies

import "github.com/ctxlab/ctxlab/simulate"

func init() {
	register(Entry{
		Name:   "observed",
		Doc:    "What really happened: the session's own compactions, and prompts fitted to the recorded ones. The baseline of compare.",
		Source: "the transcript",
		New:    func(Args) (simulate.Policy, error) { return observed{}, nil },
	})
	register(Entry{
		Name:   "none",
		Doc:    "No context management: the context only grows, and calls above the window count as overflows.",
		Source: "baseline",
		New:    func(Args) (simulate.Policy, error) { return none{}, nil },
	})
}

type observed struct{}

func (observed) Name() string           { return "observed" }
func (observed) Before(*simulate.State) {}
func (observed) Observed() bool         { return true }

var _ simulate.Observer = observed{}

type none struct{}

func (none) Name() string           { return "none" }
func (none) Before(*simulate.State) {}
