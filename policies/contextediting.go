package policies

import (
	"slices"

	"github.com/ctxlab/ctxlab/internal/param"
	"github.com/ctxlab/ctxlab/simulate"
)

var contextEditingDef = policyDef{
	name: "context-editing",
	doc: "Anthropic's tool-result clearing: when the context reaches trigger tokens, clear the results of " +
		"every tool use but the last keep (tools in exclude_tools are never cleared, but count among the kept), " +
		"provided that frees at least clear_at_least tokens; with clear_tool_inputs the calls' inputs too. " +
		"Clearing breaks the cached prefix unless the run models server-side cache edits. The edits persist, " +
		"so the trigger is checked against the edited context.",
	source: "Anthropic API context management, clear_tool_uses_20250919 (defaults from its documentation)",
	new: func() (policy, []param.Param) {
		p := &contextEditing{}
		return p, []param.Param{
			param.Whole(&p.trigger, "trigger", 100_000, 0, "context size in tokens that activates clearing"),
			param.Whole(&p.keep, "keep", 3, 0, "most recent tool uses whose results stay"),
			param.Whole(&p.clearAtLeast, "clear_at_least", 0, 0, "skip the clearing when it would free fewer tokens (0: no minimum)"),
			param.List(&p.exclude, "exclude_tools", "tool names", "tools never cleared, separated by | (e.g. Read|Bash)"),
			param.Bool(&p.inputs, "clear_tool_inputs", false, "also replace the cleared tool calls' inputs with the placeholder"),
		}
	},
}

type contextEditing struct {
	named
	trigger      int64
	keep         int
	clearAtLeast int64
	exclude      []string // tools never cleared
	inputs       bool

	// Kept between calls, as results is: the tool uses' positions, each
	// tool id's first use among them, and how many of the first uses
	// free nothing, now or later (spent).
	uses    []int
	firstOf map[string]int
	done    int
	results resultIndex
}

func (p *contextEditing) Before(s *simulate.State) {
	if s.Tokens < p.trigger {
		return
	}
	p.index(s)
	if len(p.uses) <= p.keep {
		return
	}
	old := p.uses[:len(p.uses)-p.keep]
	for p.done < len(old) && p.spent(s, s.Items[old[p.done]]) {
		p.done++
	}
	old = old[p.done:]
	var gain int64
	for _, u := range old {
		use := s.Items[u]
		if !p.eligible(use) {
			continue
		}
		p.results.each(use.ToolID, func(r int) {
			if !s.Items[r].Cleared {
				gain += clearGain(s, s.Items[r])
			}
		})
		if p.inputs && !use.Cleared {
			gain += clearGain(s, use)
		}
	}
	if gain == 0 || gain < p.clearAtLeast {
		return
	}
	var res, in []int
	for _, u := range old {
		use := s.Items[u]
		if !p.eligible(use) {
			continue
		}
		p.results.each(use.ToolID, func(r int) {
			if !s.Items[r].Cleared {
				res = append(res, r)
			}
		})
		if p.inputs && !use.Cleared {
			in = append(in, u)
		}
	}
	s.Clear(res, "context editing")
	s.ClearInputs(in, "context editing")
}

// index brings the tool uses and results up to the context: the items
// appended since the last call, or all of them when it was rearranged. A
// result of a use already counted spent (its result came later, or its id
// is reused) makes that use count again.
func (p *contextEditing) index(s *simulate.State) {
	from := p.results.update(s)
	if from == 1 {
		p.uses, p.done = p.uses[:0], 0
		if p.firstOf == nil {
			p.firstOf = map[string]int{}
		}
		clear(p.firstOf)
	}
	for j := from; j < len(s.Items); j++ {
		switch it := &s.Items[j]; it.Kind {
		case simulate.KindToolUse:
			if _, ok := p.firstOf[it.ToolID]; !ok && it.ToolID != "" {
				p.firstOf[it.ToolID] = len(p.uses)
			}
			p.uses = append(p.uses, j)
		case simulate.KindToolResult:
			if u, ok := p.firstOf[it.ToolID]; ok {
				p.done = min(p.done, u)
			}
		}
	}
}

func (p *contextEditing) eligible(use simulate.Item) bool {
	return !slices.Contains(p.exclude, use.Tool) && use.ToolID != ""
}

// spent reports whether clearing a tool use frees nothing: it is not
// eligible, or its results (and, with clear_tool_inputs, its input) are
// cleared or no larger than the placeholder. Clearing only shrinks items,
// so that stays true until a result of its id is appended (index).
func (p *contextEditing) spent(s *simulate.State, use simulate.Item) bool {
	if !p.eligible(use) {
		return true
	}
	if p.inputs && !use.Cleared && clearGain(s, use) > 0 {
		return false
	}
	spent := true
	p.results.each(use.ToolID, func(r int) {
		if it := s.Items[r]; !it.Cleared && clearGain(s, it) > 0 {
			spent = false
		}
	})
	return spent
}
