package policies

import (
	"fmt"
	"testing"
)

// Each policy's trigger holds at its exact value and not one token past
// it: over a session whose context peaks at peak tokens (without any
// policy), a trigger at the peak acts and one just past it never does.
func TestTriggersAtTheirValue(t *testing.T) {
	results := []int64{1000, 1000, 1000, 2000}
	peak := run(t, "none", reads(results...)).Metrics.PeakContext
	acts := func(spec string) bool {
		for _, c := range run(t, spec, reads(results...)).Calls {
			if len(c.Actions) > 0 {
				return true
			}
		}
		return false
	}
	for _, c := range []struct{ at, past string }{
		// The budget acts when the context is over it.
		{fmt.Sprintf("budget:tokens=%d", peak-1), fmt.Sprintf("budget:tokens=%d", peak)},
		// Context editing when the context reaches its trigger.
		{fmt.Sprintf("context-editing:trigger=%d,keep=1", peak), fmt.Sprintf("context-editing:trigger=%d,keep=1", peak+1)},
		// threshold at ⌊window × pct / 100⌋.
		{fmt.Sprintf("threshold:window=%d,pct=100", peak), fmt.Sprintf("threshold:window=%d,pct=100", peak+1)},
	} {
		if !acts(c.at) || acts(c.past) {
			t.Errorf("peak %d: %s acts %v, %s acts %v; want true, false", peak, c.at, acts(c.at), c.past, acts(c.past))
		}
	}
}

// Session memory's first update waits for its init count, and the next
// for the count to grow by update since the last: each at its exact value
// and not one token past it. In this session the count at each call is
// its context (2,500, 3,550, 4,600, 5,650, 7,700).
func TestSessionMemoryAtItsValues(t *testing.T) {
	updates := func(spec string) int {
		n := 0
		for _, s := range run(t, spec, reads(1000, 1000, 1000, 2000)).Summaries {
			if s.Label == "session-memory update" {
				n++
			}
		}
		return n
	}
	for _, c := range []struct {
		spec string
		want int
	}{
		{"claude-code-sm:init=7700,update=0,tools=0", 1},
		{"claude-code-sm:init=7701,update=0,tools=0", 0},
		// The growth counts from 0 until the first update: 7,700 at the
		// last call.
		{"claude-code-sm:init=0,update=7700,tools=0", 1},
		{"claude-code-sm:init=0,update=7701,tools=0", 0},
		// The first call's turn has no tool call, which allows an update;
		// each later call brings one: tools=1 lets each update, tools=2
		// every other (calls 1, 3 and 5).
		// After an update the growth counts from its count: with 2,100,
		// updates at 2,500, 4,600 (+2,100) and 7,700 (+3,100); with 2,101,
		// at 2,500 and 5,650 (+3,150; +2,100 at 4,600 is one short).
		{"claude-code-sm:init=0,update=2100,tools=0", 3},
		{"claude-code-sm:init=0,update=2101,tools=0", 2},
		{"claude-code-sm:init=0,update=1,tools=1", 5},
		{"claude-code-sm:init=0,update=1,tools=2", 3},
	} {
		if got := updates(c.spec); got != c.want {
			t.Errorf("%s: %d updates, want %d", c.spec, got, c.want)
		}
	}
}

// Claude Code's threshold, and the policies that take it, act when its
// count reaches the threshold and not one token before: pct=3 of the
// 180,000 available is 5,400, and reads(1000, 1000, 750) ends at 5,400
// (2,000 + 500 + 3 × 50 + 2,750), reads(1000, 1000, 749) at 5,399.
// claude-code-sm's notes wait for 10,000 here: a full compaction.
func TestClaudeCodeThresholdsAtTheirValue(t *testing.T) {
	acts := func(spec string, last int64) bool {
		for _, c := range run(t, spec, reads(1000, 1000, last)).Calls {
			if len(c.Actions) > 0 {
				return true
			}
		}
		return false
	}
	for _, spec := range []string{"claude-code:pct=3", "claude-code-sm:pct=3", "partial:pct=3"} {
		if at, below := acts(spec, 750), acts(spec, 749); !at || below {
			t.Errorf("%s acts at 5,400: %v, at 5,399: %v; want true, false", spec, at, below)
		}
	}
}
