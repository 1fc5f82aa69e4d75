package policies

import (
	"sort"

	"github.com/ctxlab/ctxlab/internal/param"
	"github.com/ctxlab/ctxlab/simulate"
)

var summaryNMDef = policyDef{
	name: "summary-nm",
	doc: "LLM summary by turns (a turn: what one API call appended, the previous response and its tool " +
		"results): when more than n+m turns are unsummarised, the oldest n of them and the previous summary " +
		"become one new summary, and the rest stay verbatim (m+1 turns right after, as the check runs every call).",
	source: "JetBrains \"The Complexity Trap\" (2025), OpenHands-style LLM summary, N=21, M=10",
	new: func() (policy, []param.Param) {
		p := &summaryNM{}
		return p, []param.Param{
			param.Whole(&p.n, "n", 21, 1, "turns summarised at a time (≥ 1)"),
			param.Whole(&p.m, "m", 10, 0, "most recent turns always kept verbatim"),
		}
	},
}

type summaryNM struct {
	named
	n, m int
	// starts holds, oldest first, the message index (Item.Msg) where each
	// unsummarised turn starts; message indexes grow along the thread and
	// do not move when items are dropped or summarised.
	starts  []int
	present []int // prune's scratch
}

func (p *summaryNM) Before(s *simulate.State) {
	first := firstMsg(s)
	if first >= 0 && (len(p.starts) == 0 || first > p.starts[len(p.starts)-1]) {
		p.starts = append(p.starts, first)
	}
	p.prune(s.Items)
	if len(p.starts) <= p.n+p.m {
		return
	}
	to := fromMsg(s.Items, p.starts[p.n]) // the first turn kept
	s.Compact(simulate.Compaction{From: 1, To: to, Label: "summary-nm"})
	p.starts = p.starts[p.n:]
}

// prune forgets the turns no item of which is left in the context (another
// policy of a composition summarised or dropped them).
func (p *summaryNM) prune(items []simulate.Item) {
	present := p.present[:0] // message indexes in the context, ascending
	for _, it := range items {
		if it.Msg >= 0 {
			present = append(present, it.Msg)
		}
	}
	sort.Ints(present)
	p.present = present
	kept := p.starts[:0]
	for k, st := range p.starts {
		end := -1 // exclusive; -1: open
		if k+1 < len(p.starts) {
			end = p.starts[k+1]
		}
		i := sort.SearchInts(present, st)
		if i < len(present) && (end < 0 || present[i] < end) {
			kept = append(kept, st)
		}
	}
	p.starts = kept
}
