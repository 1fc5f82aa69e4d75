package policies

import (
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate"
)

// placeholderTokens is the size of simulate.Placeholder at one token per
// unit of Claude Code's estimate (round(33/4) = 8). The engine scales it by
// the session's calibrated ratio, which a policy cannot see, so policies use
// this only to project what a clearing would free before asking for it; the
// freed tokens Clear returns are the engine's own.
var placeholderTokens = int64(replay.Estimate(len(simulate.Placeholder)))

// clearGain projects what clearing an item frees.
func clearGain(it simulate.Item) int64 { return max(0, it.Tokens-placeholderTokens) }

// liveResults returns the indexes of the tool results in items[1:end] not
// yet cleared, oldest first.
func liveResults(items []simulate.Item, end int) []int {
	var out []int
	for j := 1; j < min(end, len(items)); j++ {
		if it := items[j]; it.Kind == simulate.KindToolResult && !it.Cleared {
			out = append(out, j)
		}
	}
	return out
}

// appended returns the items the trace appends for this call, without the
// compaction artifacts a counterfactual run skips. Unlike State.Appended,
// it does not depend on what other policies of a composition did first.
func appended(s *simulate.State) []simulate.Item {
	if s.Recorded == nil {
		return nil
	}
	out := make([]simulate.Item, 0, len(s.Recorded.Items))
	for _, it := range s.Recorded.Items {
		if !it.Artifact {
			out = append(out, it)
		}
	}
	return out
}

// currentFrom returns the index of the first item appended for this call,
// found by message index (Item.Msg grows along the thread), so that it
// stays right after another policy dropped or summarised items before it.
func currentFrom(s *simulate.State) int {
	first := -1
	for _, it := range appended(s) {
		if it.Msg >= 0 && (first < 0 || it.Msg < first) {
			first = it.Msg
		}
	}
	if first < 0 {
		return min(s.Appended(), len(s.Items))
	}
	for j := 1; j < len(s.Items); j++ {
		if s.Items[j].Msg >= first {
			return j
		}
	}
	return len(s.Items)
}

// alignPivot moves a pivot back until no tool result at or after it has its
// tool_use before it, and onto the first item of its message: a request
// cannot carry a tool result without its call.
func alignPivot(items []simulate.Item, pivot int) int {
	for {
		moved := false
		use := map[string]int{}
		for j := 1; j < pivot; j++ {
			if items[j].Kind == simulate.KindToolUse && items[j].ToolID != "" {
				use[items[j].ToolID] = j
			}
		}
		for j := pivot; j < len(items); j++ {
			if items[j].Kind != simulate.KindToolResult {
				continue
			}
			if u, ok := use[items[j].ToolID]; ok && u < pivot {
				pivot = u
				moved = true
			}
		}
		for pivot > 1 && pivot < len(items) && items[pivot].Msg >= 0 && items[pivot-1].Msg == items[pivot].Msg {
			pivot--
			moved = true
		}
		if !moved {
			return pivot
		}
	}
}
