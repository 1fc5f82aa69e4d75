package simulate

import (
	"time"

	"github.com/ctxlab/ctxlab/internal/claudecode"
)

// The policy API: what a context policy implements (Policy and the
// optional interfaces the engine looks for) and what it sees and acts
// through before each call (State; its actions are in actions.go).
// Policies live in package policies; docs/policies.md says how to add one.

// Policy decides, before each API call of a replayed session, what to do
// with the context. It acts through the State's methods (Clear, Drop,
// Compact). Implementations live in package policies. A policy value may
// keep state across the calls of one run, so each run needs its own value
// (policies.Compiled.New makes a fresh one); the State and its Items are valid
// only during Before (the engine refills them for the next call).
type Policy interface {
	// Name returns the policy's canonical spec ("keep-last-n:n=10").
	Name() string
	Before(s *State)
}

// ManualReplayer is implemented by the policies that model Claude Code
// itself. A /compact the user ran is the user's input, not a policy's
// decision: under Config.ManualCompactions "claude-code" (the default)
// the runs of these policies compact where the user did, so that the
// recorded run reproduces.
type ManualReplayer interface {
	ReplaysManual() bool
}

// Thresholder is implemented by the policies that compact when the context
// reaches a threshold: CompactAt returns it for the call s describes, in
// tokens (compared with Claude Code's count, State.Trigger, or the exact
// context, State.Tokens, as the policy does); 0 when the policy would not
// compact by a threshold at that call. The engine records it at the first
// call (Result.CompactAt), so that a plot can draw each run's threshold.
type Thresholder interface {
	CompactAt(s *State) int64
}

// Observer is implemented by the policy that replays what really happened:
// the engine then keeps the session's own compaction artifacts, applies its
// real compactions, and fits each prompt to the recorded one.
type Observer interface {
	Policy
	Observed() bool
}

// State is the context before one API call, as a policy sees it, and the
// means to change it. Items must not be modified directly.
type State struct {
	Call    int   // index of the call in the run, from 0
	Time    int64 // Unix ms
	GapMs   int64 // since the previous call; 0 for the first
	Model   string
	Version string
	Limits  claudecode.Limits
	Items   []Item
	// Tokens is the context's exact size now.
	Tokens int64
	// Trigger is Claude Code's own count (tokenCountWithEstimation): the
	// last call's prompt and output plus the estimate of what was appended
	// since, minus what actions freed.
	Trigger int64
	// Recorded is the real call being replayed.
	Recorded *TraceCall
	TTL      time.Duration
	// CallsSinceCompact counts calls since the last compaction of the run
	// (or since the start).
	CallsSinceCompact int
	// Inferred is what the session's recorded calls prove about its limits
	// (Trace.Inferred); LimitsFor applies it. Micro is what they show of
	// Claude Code's micro-compaction (Trace.Micro).
	Inferred Inferred
	Micro    MicroEvidence

	e *engine
}

// Layout identifies the arrangement of Items: it changes whenever an
// item is removed, replaced or moved (a drop, a compaction, a new run) and
// stays while items are only appended or cleared in place, so that a
// policy can keep an index of Items from one call to the next. No two
// arrangements share a value, even across runs.
func (s *State) Layout() uint64 { return s.e.layout }

// Appended returns the index of the first item appended for this call
// that is still in the context. Clearing keeps it and dropping moves it
// with the items. After a compaction it is the index of that item: before
// the summary it stays, after it it moves with the items, and when the
// compaction summarised it, it is the index right after the summary and
// restored items (len(Items) when nothing follows). Items[Appended():] are
// then this call's items left, plus the summary and restored items of a
// compaction that began among them.
func (s *State) Appended() int { return s.e.appendedFrom }

// LimitsFor returns Claude Code's limits for this call under a policy's
// parameters and a Claude Code version, with what the session's recorded
// calls prove applied (Inferred.With).
func (s *State) LimitsFor(p claudecode.LimitParams, version string) claudecode.Limits {
	if s.e == nil {
		return claudecode.LimitsFor(s.Inferred.With(p), s.Model, version)
	}
	return s.e.limitsFor(s.Inferred.With(p), s.Model, version)
}

// PlaceholderTokens is the size of a cleared tool result or input: Claude
// Code's estimate of claudecode.Placeholder at the session's calibrated ratio.
func (s *State) PlaceholderTokens() int64 { return s.e.placeholder }
