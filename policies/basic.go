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

// CompactAt is the threshold Claude Code auto-compacted the session at,
// as its limits say (Limits, with what the recorded prompts prove); none
// when they show auto-compaction off.
func (observed) CompactAt(s *simulate.State) int64 {
	if s.Limits.AutoCompactOff {
		return 0
	}
	return s.Limits.Threshold
}

var _ simulate.Observer = observed{}

type none struct{ named }

func (none) Before(*simulate.State) {}
