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
