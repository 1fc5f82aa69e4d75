package policies

import "github.com/ctxlab/ctxlab/simulate"

func init() {
	register(Entry{
		Name: "claude-code-sm",
		Doc: "Claude Code with session-memory compaction: a background fork keeps notes of the session " +
			"(written, once Claude Code's count has reached init, after every update tokens of growth with " +
			"tools tool calls since the last update, or a turn without tool calls); at the " +
			"auto-compaction threshold the notes replace everything up to the last message they cover and the " +
			"messages after it stay verbatim, unless that would still be at the threshold (or there are no notes " +
			"yet): then a full compaction as claude-code's. Micro-compaction as claude-code's.",
		Source: "Claude Code's bundled cli.js, 2.1.x (session memory compaction; DEFAULT_SESSION_MEMORY_CONFIG and the template limits); thresholds as claude-code",
		Params: []Param{
			{Name: "init", Default: "10000", Doc: "Claude Code's token count the notes wait for before their first write (minimumMessageTokensToInit)"},
			{Name: "update", Default: "5000", Doc: "growth in tokens since the last update before the next (minimumTokensBetweenUpdate)"},
			{Name: "tools", Default: "3", Doc: "tool calls since the last update that allow the next (toolCallsBetweenUpdates)"},
			{Name: "max", Default: "12000", Doc: "cap on the notes' size in tokens"},
			{Name: "section", Default: "2000", Doc: "cap on one section's size in tokens"},
			{Name: "sections", Default: "6", Doc: "sections the notes' growth spreads over (of the template's ten, those that grow)"},
			{Name: "rate", Default: "50", Doc: "notes' size per 1000 tokens of conversation they cover (size model; no measurement behind it)"},
			{Name: "prompt", Default: "1000", Doc: "update instructions in tokens; each update's prompt adds the current notes to them"},
			{Name: "pct", Default: "0", Doc: "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE (can only lower the threshold); 0: unset"},
			{Name: "reserve", Default: "0", Doc: "reserved output tokens; 0: 32000 before 2.1.22, 20000 from 2.1.22"},
			{Name: "micro", Default: "", Doc: "micro-compaction as claude-code's: size, time, off; empty: by version"},
		},
		New: newClaudeCodeSM,
	})
}

// sessionMemory models the session-memory notes and their compaction.
//
// Size model: the notes cover the whole conversation so far (every token
// the trace appended, which compactions do not undo); a section holds at
// most section tokens, growth spreads over the sections that grow, and
// the whole is capped at max, so
//
//	size = min(max, sections × section, ⌊covered × rate / 1000⌋), at least 1.
//
// With the defaults the notes reach the 12,000 cap after 240,000 tokens of
// conversation; at a first compaction around 160K they are 7K–8K, about
// three times a full compaction's summary.
type sessionMemory struct {
	named
	limits                       simulate.LimitParams
	init, update, tools          int64
	max, section, sections, rate int64
	prompt                       int64
	micro                        *claudeCode
	covered                      int64 // conversation tokens appended so far
	lastMsg                      int   // newest message appended so far
	started, written             bool
	base                         int64 // Claude Code's count at the last update
	toolsSince                   int64
	point                        int   // last message the notes cover
	size                         int64 // the notes' size
}

func newClaudeCodeSM(a Args) (simulate.Policy, error) {
	p := &sessionMemory{named: named{a}, lastMsg: -1, point: -1}
	err := a.ints([]intParam{{"init", &p.init, 0}, {"update", &p.update, 0}, {"tools", &p.tools, 0},
		{"max", &p.max, 1}, {"section", &p.section, 1}, {"sections", &p.sections, 1}, {"rate", &p.rate, 1},
		{"prompt", &p.prompt, 0}, {"reserve", &p.limits.Reserved, 0}})
	if err != nil {
		return nil, err
	}
	if p.limits.Pct, err = a.Pct("pct"); err != nil {
		return nil, err
	}
	micro, err := parseMicro(a)
	if err != nil {
		return nil, err
	}
	// claude-code's micro-compaction with its defaults; its auto-compaction
	// is off (this policy compacts), but not its warning level.
	p.micro = &claudeCode{limits: p.limits, micro: micro, minSavings: microMinSavings, target: microTarget, restore: true}
	return p, nil
}

// notes returns the notes' size once they cover covered tokens.
func (p *sessionMemory) notes(covered int64) int64 {
	return max(1, min(p.max, p.sections*p.section, covered*p.rate/1000))
}

func (p *sessionMemory) Before(s *simulate.State) {
	noTools := true
	for _, it := range appended(s) {
		p.covered += it.Tokens
		p.lastMsg = max(p.lastMsg, it.Msg)
		if it.Kind == simulate.KindToolUse {
			p.toolsSince++
			noTools = false
		}
	}
	p.maybeUpdate(s, noTools)
	p.micro.Before(s)
	p.base = min(p.base, s.Trigger)
	limits := s.LimitsFor(p.limits, s.Version)
	if limits.AutoCompactOff || s.Trigger < limits.Threshold {
		return
	}
	if to := p.covers(s.Items); p.written && to > 1 {
		var replaced int64
		for _, it := range s.Items[1:to] {
			replaced += it.Tokens
		}
		// Claude Code checks the result before using it.
		if s.Trigger-replaced+p.size < limits.Threshold {
			s.Compact(simulate.Compaction{From: 1, To: to, Free: true, Tokens: p.size, Label: "session-memory"})
			p.base = min(p.base, s.Trigger)
			return
		}
	}
	s.Compact(simulate.Compaction{From: 1, To: len(s.Items), Restore: true, Label: "auto"})
	p.base = min(p.base, s.Trigger)
}

// maybeUpdate runs the notes' background update when shouldExtractMemory
// would in Claude Code's bundled cli.js (2.1.x): the count has reached init once, has grown by update
// since the last update (or since it last shrank: a compaction or a
// clearing resets the baseline), and the turn had no tool calls or there
// were tools tool calls since the last update.
func (p *sessionMemory) maybeUpdate(s *simulate.State, noTools bool) {
	count := s.Trigger
	if !p.started {
		if count < p.init {
			return
		}
		p.started = true
	}
	p.base = min(p.base, count)
	if count-p.base < p.update || (p.toolsSince < p.tools && !noTools) {
		return
	}
	old := p.size
	p.size = p.notes(p.covered)
	s.Fork(p.prompt+old, p.size, "session-memory update")
	p.base, p.toolsSince, p.point, p.written = count, 0, p.lastMsg, true
}

// covers returns the index after the last item of the last message the
// notes cover, or 0 when that message is no longer in the context (a
// compaction summarised it): Claude Code then cannot find the last
// summarised message and falls back to a full compaction.
func (p *sessionMemory) covers(items []simulate.Item) int {
	for j := len(items) - 1; j >= 1; j-- {
		if items[j].Msg == p.point {
			return j + 1
		}
	}
	return 0
}
