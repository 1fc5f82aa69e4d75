package policies

import (
	"github.com/ctxlab/ctxlab/internal/param"
	"github.com/ctxlab/ctxlab/simulate"
)

var observedDef = policyDef{
	name:   "observed",
	doc:    "What really happened: the session's own compactions, and prompts fitted to the recorded ones. The baseline of compare.",
	source: "the transcript",
	new:    func() (policy, []param.Param) { return &observed{}, nil },
}

var noneDef = policyDef{
	name:   "none",
	doc:    "No context management: the context only grows, and calls above the window count as overflows.",
	source: "baseline",
	new:    func() (policy, []param.Param) { return &none{}, nil },
}

type observed struct{ named }

func (observed) Before(*simulate.State) {}
func (observed) Observed() bool         { return true }

var _ simulate.Observer = observed{}

type none struct{ named }

func (none) Before(*simulate.State) {}
