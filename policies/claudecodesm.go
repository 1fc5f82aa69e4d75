package policies

import (
	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/internal/param"
	"github.com/ctxlab/ctxlab/simulate"
)

var claudeCodeSMDef = policyDef{
	name: "claude-code-sm",
	doc: "Claude Code with session-memory compaction: a background fork keeps notes of the session " +
		"(written, once Claude Code's count has reached init, after every update tokens of growth with " +
		"tools tool calls since the last update, or a turn without tool calls); at the " +
		"auto-compaction threshold the notes replace everything up to the last message they cover and the " +
		"messages after it stay verbatim, unless that would still be at the threshold (or there are no notes " +
		"yet): then a full compaction as claude-code's. Micro-compaction as claude-code's.",
	source: "Claude Code's bundled cli.js, 2.1.x (session memory compaction; DEFAULT_SESSION_MEMORY_CONFIG and the template limits); thresholds as claude-code",
	new: func() (policy, []param.Param) {
		// claude-code's micro-compaction with its defaults; the warning
		// level that starts it is the one with auto-compaction on.
		p := &sessionMemory{lastMsg: -1, micro: microCompaction{minSavings: microMinSavings, target: microTarget}}
		return p, []param.Param{
			param.Whole(&p.init, "init", 10_000, 0, "Claude Code's token count the notes wait for before their first write (minimumMessageTokensToInit)"),
			param.Whole(&p.update, "update", 5_000, 0, "growth in tokens since the last update before the next (minimumTokensBetweenUpdate)"),
			param.Whole(&p.tools, "tools", 3, 0, "tool calls since the last update that allow the next (toolCallsBetweenUpdates)"),
			param.Whole(&p.max, "max", 12_000, 1, "cap on the notes' size in tokens"),
			param.Whole(&p.section, "section", 2_000, 1, "cap on one section's size in tokens"),
			param.Whole(&p.sections, "sections", 6, 1, "sections the notes' growth spreads over (of the template's ten, those that grow)"),
			param.Whole(&p.rate, "rate", 50, 1, "notes' size per 1000 tokens of conversation they cover (size model; no measurement behind it)"),
			param.Whole(&p.prompt, "prompt", 1_000, 0, "update instructions in tokens; each update's prompt adds the current notes to them"),
			pctParam(&p.limits.Pct),
			reserveParam(&p.limits.Reserved),
			microParam(&p.micro.mode, "micro-compaction as claude-code's: size, time, off; empty: by version"),
		}
	},
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
	// The parameters.
	limits                       claudecode.LimitParams
	init, update, tools          int64
	max, section, sections, rate int64
	prompt                       int64
	micro                        microCompaction

	// The state of a run.
	covered          int64 // conversation tokens appended so far
	lastMsg          int   // newest message appended so far
	started, written bool
	base             int64 // Claude Code's count at the last update
	toolsSince       int64
	point            int   // last message the notes cover, once written
	size             int64 // the notes' size
}

// notes returns the notes' size once they cover covered tokens.
func (p *sessionMemory) notes(covered int64) int64 {
	return max(1, min(p.max, p.sections*p.section, covered*p.rate/1000))
}

// ReplaysManual: claude-code-sm models Claude Code too.
func (p *sessionMemory) ReplaysManual() bool { return true }

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
	limits := s.LimitsFor(p.limits, s.Version)
	p.micro.run(s, s.Version, limits)
	p.base = min(p.base, s.Trigger)
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

// CompactAt is the auto-compact threshold, at which the notes (or a full
// compaction) replace the conversation; none when the session's prompts
// show auto-compaction off.
func (p *sessionMemory) CompactAt(s *simulate.State) int64 {
	limits := s.LimitsFor(p.limits, s.Version)
	if limits.AutoCompactOff {
		return 0
	}
	return limits.Threshold
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
