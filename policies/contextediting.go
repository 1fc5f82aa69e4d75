package policies

import "github.com/ctxlab/ctxlab/simulate"

func init() {
	register(Entry{
		Name: "context-editing",
		Doc: "Anthropic's tool-result clearing: when the context reaches trigger tokens, clear the results of " +
			"every tool use but the last keep (tools in exclude_tools are never cleared, but count among the kept), " +
			"provided that frees at least clear_at_least tokens; with clear_tool_inputs the calls' inputs too. " +
			"Clearing breaks the cached prefix unless the run models server-side cache edits. The edits persist, " +
			"so the trigger is checked against the edited context.",
		Source: "Anthropic API context management, clear_tool_uses_20250919 (defaults from its documentation)",
		Params: []Param{
			{Name: "trigger", Default: "100000", Doc: "context size in tokens that activates clearing"},
			{Name: "keep", Default: "3", Doc: "most recent tool uses whose results stay"},
			{Name: "clear_at_least", Default: "0", Doc: "skip the clearing when it would free fewer tokens (0: no minimum)"},
			{Name: "exclude_tools", Default: "", Doc: "tools never cleared, separated by | (e.g. Read|Bash)"},
			{Name: "clear_tool_inputs", Default: "false", Doc: "also replace the cleared tool calls' inputs with the placeholder"},
		},
		New: newContextEditing,
	})
}

type contextEditing struct {
	named
	trigger      int64
	keep         int
	clearAtLeast int64
	exclude      map[string]bool
	inputs       bool
}

func newContextEditing(a Args) (simulate.Policy, error) {
	p := &contextEditing{named: named{a}, exclude: map[string]bool{}}
	var keep int64
	err := a.ints([]intParam{{"trigger", &p.trigger, 0}, {"keep", &keep, 0}, {"clear_at_least", &p.clearAtLeast, 0}})
	if err != nil {
		return nil, err
	}
	p.keep = int(keep)
	for _, t := range a.List("exclude_tools") {
		if t == "" {
			return nil, a.errorf("exclude_tools=%q: empty tool name", a.String("exclude_tools"))
		}
		p.exclude[t] = true
	}
	if p.inputs, err = a.Bool("clear_tool_inputs"); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *contextEditing) Before(s *simulate.State) {
	if s.Tokens < p.trigger {
		return
	}
	var uses []int
	results := map[string][]int{}
	for j := 1; j < len(s.Items); j++ {
		switch it := s.Items[j]; it.Kind {
		case simulate.KindToolUse:
			uses = append(uses, j)
		case simulate.KindToolResult:
			if !it.Cleared && it.ToolID != "" {
				results[it.ToolID] = append(results[it.ToolID], j)
			}
		}
	}
	if len(uses) <= p.keep {
		return
	}
	var res, in []int
	var gain int64
	for _, u := range uses[:len(uses)-p.keep] {
		use := s.Items[u]
		if p.exclude[use.Tool] || use.ToolID == "" {
			continue
		}
		for _, r := range results[use.ToolID] {
			res = append(res, r)
			gain += clearGain(s, s.Items[r])
		}
		if p.inputs && !use.Cleared {
			in = append(in, u)
			gain += clearGain(s, use)
		}
	}
	if gain == 0 || gain < p.clearAtLeast {
		return
	}
	if len(res) > 0 {
		s.Clear(res, "context editing")
	}
	if len(in) > 0 {
		s.ClearInputs(in, "context editing")
	}
}
