package policies

import (
	"sort"

	"github.com/ctxlab/ctxlab/simulate"
)

func init() {
	register(Entry{
		Name: "summary-nm",
		Doc: "LLM summary by turns (a turn: what one API call appended, the previous response and its tool " +
			"results): when more than n+m turns are unsummarised, the oldest n of them and the previous summary " +
			"become one new summary, and the rest stay verbatim (m+1 turns right after, as the check runs every call).",
		Source: "JetBrains \"The Complexity Trap\" (2025), OpenHands-style LLM summary, N=21, M=10",
		Params: []Param{
			{Name: "n", Default: "21", Doc: "turns summarised at a time (≥ 1)"},
			{Name: "m", Default: "10", Doc: "most recent turns always kept verbatim"},
		},
		New: newSummaryNM,
	})
}

type summaryNM struct {
	named
	n, m int
	// starts holds, oldest first, the message index (Item.Msg) where each
	// unsummarised turn starts; message indexes grow along the thread and
	// do not move when items are dropped or summarised.
	starts []int
}

func newSummaryNM(a Args) (simulate.Policy, error) {
	n, err := a.Positive("n")
	if err != nil {
		return nil, err
	}
	m, err := a.Int("m")
	if err != nil {
		return nil, err
	}
	return &summaryNM{named: named{a}, n: int(n), m: int(m)}, nil
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
	var present []int // message indexes in the context, ascending
	for _, it := range items {
		if it.Msg >= 0 {
			present = append(present, it.Msg)
		}
	}
	sort.Ints(present)
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
