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

	uses    []int // scratch: the tool uses' positions
	results resultIndex
}

func (p *contextEditing) Before(s *simulate.State) {
	if s.Tokens < p.trigger {
		return
	}
	uses := p.uses[:0]
	for j := 1; j < len(s.Items); j++ {
		if s.Items[j].Kind == simulate.KindToolUse {
			uses = append(uses, j)
		}
	}
	p.uses = uses
	if len(uses) <= p.keep {
		return
	}
	p.results.build(s.Items, func(it simulate.Item) bool { return !it.Cleared })
	eligible := func(use simulate.Item) bool {
		return !slices.Contains(p.exclude, use.Tool) && use.ToolID != ""
	}
	var gain int64
	for _, u := range uses[:len(uses)-p.keep] {
		use := s.Items[u]
		if !eligible(use) {
			continue
		}
		p.results.each(use.ToolID, func(r int) { gain += clearGain(s, s.Items[r]) })
		if p.inputs && !use.Cleared {
			gain += clearGain(s, use)
		}
	}
	if gain == 0 || gain < p.clearAtLeast {
		return
	}
	var res, in []int
	for _, u := range uses[:len(uses)-p.keep] {
		use := s.Items[u]
		if !eligible(use) {
			continue
		}
		p.results.each(use.ToolID, func(r int) { res = append(res, r) })
		if p.inputs && !use.Cleared {
			in = append(in, u)
		}
	}
	s.Clear(res, "context editing")
	s.ClearInputs(in, "context editing")
}
