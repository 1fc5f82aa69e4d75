package policies

import "github.com/ctxlab/ctxlab/simulate"

var keepLastNDef = policyDef{
	name: "keep-last-n",
	doc: "Observation masking: keep the last n tool results and replace every older one with the " +
		"placeholder (the tool calls stay). With polling=k the masking boundary moves only every k calls, " +
		"so the cached prefix survives the k−1 calls between.",
	source: "SWE-agent last_n_observations (5 in 0.7, polling); JetBrains \"The Complexity Trap\" (2025), M=10",
	new: func() (policy, []param) {
		p := &keepLastN{}
		return p, []param{
			whole(&p.n, "n", 10, 0, "tool results kept verbatim (the paper's M=10; SWE-agent 0.7 uses 5)"),
			whole(&p.polling, "polling", 1, 1, "move the boundary only on every polling-th call (1: every call)"),
		}
	},
}

type keepLastN struct {
	named
	n       int
	polling int
}

// Before, on calls 0, k, 2k, … (k = polling), clears every tool result but
// the last n, counting cleared ones: the boundary is the n-th result from
// the end.
func (p *keepLastN) Before(s *simulate.State) {
	if s.Call%p.polling != 0 {
		return
	}
	var all []int
	for j, it := range s.Items {
		if it.Kind == simulate.KindToolResult {
			all = append(all, j)
		}
	}
	if len(all) <= p.n {
		return
	}
	var idx []int
	for _, j := range all[:len(all)-p.n] {
		if !s.Items[j].Cleared {
			idx = append(idx, j)
		}
	}
	if len(idx) > 0 {
		s.Clear(idx, "keep-last-n")
	}
}
