package policies

import (
	"github.com/ctxlab/ctxlab/internal/param"
	"github.com/ctxlab/ctxlab/simulate"
)

var budgetDef = policyDef{
	name: "budget",
	doc: "A hard token budget: when the exact context exceeds tokens, clear the oldest tool results until " +
		"it fits (mode=mask), then, or at once with mode=drop, drop the oldest items after the system prompt " +
		"until it fits. A tool call and its result are dropped together; what this call appended is never " +
		"touched, so a single turn larger than the budget stays over it.",
	source: "common baseline (truncation to a fixed budget)",
	new: func() (policy, []param.Param) {
		p := &budget{}
		return p, []param.Param{
			param.Whole(&p.tokens, "tokens", 100_000, 1, "the budget in tokens (> 0)"),
			param.OneOf(&p.mode, "mode", budgetMask, "mask: clear tool results first, then drop; drop: drop only", budgetMask, budgetDrop),
		}
	},
}

// budgetMode is budget's mode parameter: what it does first.
type budgetMode string

const (
	budgetMask budgetMode = "mask" // clear tool results, then drop
	budgetDrop budgetMode = "drop" // drop only
)

type budget struct {
	named
	tokens int64
	mode   budgetMode

	results resultIndex
	// Items[1:cleared] hold no tool result left to clear, in the context's
	// layout clearedIn: clearing only adds to them, and items are appended
	// after them, so each call starts there.
	cleared   int
	clearedIn uint64
}

// Before clears, then drops, what takes the context over the budget; each
// stops as soon as it fits, so a context within the budget is left alone.
func (p *budget) Before(s *simulate.State) {
	if p.mode == budgetMask {
		p.clear(s)
	}
	if s.Tokens > p.tokens {
		p.drop(s)
	}
}

// clear masks the oldest tool results before this call's until the
// context fits, or none is left.
func (p *budget) clear(s *simulate.State) {
	var idx []int
	over := s.Tokens - p.tokens
	if p.clearedIn != s.Layout() {
		p.cleared, p.clearedIn = 1, s.Layout()
	}
	// The tool results not yet cleared, oldest first, visited only until
	// enough is freed: the context holds every result of the session.
	j, end := p.cleared, currentFrom(s)
	for ; j < end && over > 0; j++ {
		if it := &s.Items[j]; it.Kind == simulate.KindToolResult && !it.Cleared {
			idx = append(idx, j)
			over -= clearGain(s, *it)
		}
	}
	s.Clear(idx, "budget (mask)")
	// Every result before j is cleared now, or no larger than the
	// placeholder (left as it is, and never larger later).
	p.cleared, p.clearedIn = j, s.Layout()
}

// drop removes the oldest items after the overhead and before this call's,
// each tool call with its results, until the context fits.
func (p *budget) drop(s *simulate.State) {
	end := currentFrom(s)
	p.results.update(s)
	picked := map[int]bool{}
	var idx []int
	over := s.Tokens - p.tokens
	take := func(j int) {
		if !picked[j] {
			picked[j] = true
			idx = append(idx, j)
			over -= s.Items[j].Tokens
		}
	}
	for j := 1; j < end && over > 0; j++ {
		take(j)
		if it := s.Items[j]; it.Kind == simulate.KindToolUse && it.ToolID != "" {
			p.results.each(it.ToolID, take)
		}
	}
	s.Drop(idx, "budget (drop)")
}
