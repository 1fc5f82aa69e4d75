package policies

import (
	"slices"

	"github.com/ctxlab/ctxlab/internal/param"
	"github.com/ctxlab/ctxlab/simulate"
)

var keepLastNDef = policyDef{
	name: "keep-last-n",
	doc: "Observation masking: keep the last n tool results and replace every older one with the " +
		"placeholder (the tool calls stay). With polling=k the masking boundary moves only every k calls, " +
		"so the cached prefix survives the k−1 calls between.",
	source: "SWE-agent last_n_observations (5 in 0.7, polling); JetBrains \"The Complexity Trap\" (2025), M=10",
	new: func() (policy, []param.Param) {
		p := &keepLastN{}
		return p, []param.Param{
			param.Whole(&p.n, "n", 10, 0, "tool results kept verbatim (the paper's M=10; SWE-agent 0.7 uses 5)"),
			param.Whole(&p.polling, "polling", 1, 1, "move the boundary only on every polling-th call (1: every call)"),
		}
	},
}

type keepLastN struct {
	named
	n       int
	polling int
	mark    string // ToolID of the newest result handled at the last call
}

// Before, on calls 0, k, 2k, … (k = polling), clears every tool result but
// the last n, counting cleared ones: the boundary is the n-th result from
// the end. It walks back from the end and stops at the result it reached
// last time (mark): that one and every earlier one were handled then, so a
// call costs what was appended since, not the whole context. A mark that
// is gone (a compaction summarised it) means a walk to the start.
func (p *keepLastN) Before(s *simulate.State) {
	if s.Call%p.polling != 0 {
		return
	}
	kept := 0
	newest := "" // the newest result past the boundary: the next mark
	var idx []int
	for j := len(s.Items) - 1; j >= 0; j-- {
		it := &s.Items[j]
		if it.Kind != simulate.KindToolResult {
			continue
		}
		if kept < p.n {
			kept++
			continue
		}
		if p.mark != "" && it.ToolID == p.mark {
			break
		}
		if newest == "" {
			newest = it.ToolID
		}
		if !it.Cleared {
			idx = append(idx, j)
		}
	}
	if newest != "" {
		p.mark = newest
	}
	slices.Reverse(idx) // oldest first, as the context holds them
	s.Clear(idx, "keep-last-n")
}
