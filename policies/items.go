package policies

import (
	"slices"

	"github.com/ctxlab/ctxlab/simulate"
)

// clearGain is what clearing an item frees: the engine replaces it with a
// placeholder of s.PlaceholderTokens() (items no larger stay as they are).
func clearGain(s *simulate.State, it simulate.Item) int64 {
	return max(0, it.Tokens-s.PlaceholderTokens())
}

// appended returns the items the trace appends for this call, without the
// compaction artifacts a counterfactual run skips. Unlike State.Appended,
// it does not depend on what other policies of a composition did first.
// Callers only read them: where no item is an artifact (most calls) they
// are the trace's own, not a copy made at every call of every run.
func appended(s *simulate.State) []simulate.Item {
	if s.Recorded == nil {
		return nil
	}
	items := s.Recorded.Items
	for i := range items {
		if items[i].Artifact {
			out := slices.Clone(items[:i])
			for j := i + 1; j < len(items); j++ {
				if !items[j].Artifact {
					out = append(out, items[j])
				}
			}
			return out
		}
	}
	return items
}

// firstMsg returns the lowest message index (Item.Msg) of the items the
// trace appends for this call, or -1 when none belongs to a message.
func firstMsg(s *simulate.State) int {
	first := -1
	for _, it := range appended(s) {
		if it.Msg >= 0 && (first < 0 || it.Msg < first) {
			first = it.Msg
		}
	}
	return first
}

// fromMsg returns the index of the first item after the overhead whose
// message index is msg or later (message indexes grow along the thread),
// or len(items) when there is none.
func fromMsg(items []simulate.Item, msg int) int {
	for j := 1; j < len(items); j++ {
		if items[j].Msg >= msg {
			return j
		}
	}
	return len(items)
}

// currentFrom returns the index of the first item appended for this call
// that is still in the context (len(Items) when none is).
func currentFrom(s *simulate.State) int {
	return min(s.Appended(), len(s.Items))
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

// resultIndex finds each tool use's results among a context's items. A
// policy keeps one between calls: update indexes only the items appended
// since, unless the context was rearranged (State.Layout), so that a
// context that stays over a limit costs no pass over its items per call.
type resultIndex struct {
	layout uint64
	seen   int            // Items[:seen] are indexed
	last   map[string]int // each tool id's last result
	prev   []int          // per item: the previous result of its id, -1 none
}

// update indexes the tool results (from 1, after the overhead) that carry
// a tool id, all of them or those appended since the last update. It
// returns the first item it indexed now; 1 means it started over.
func (x *resultIndex) update(s *simulate.State) int {
	items := s.Items
	if x.last == nil || x.layout != s.Layout() || len(items) < x.seen {
		if x.last == nil {
			x.last = map[string]int{}
		}
		clear(x.last)
		x.layout, x.seen, x.prev = s.Layout(), 1, append(x.prev[:0], -1)
	}
	from := x.seen // len(x.prev)
	x.prev = slices.Grow(x.prev, len(items)-from)[:len(items)]
	for j := from; j < len(items); j++ {
		if it := &items[j]; it.Kind == simulate.KindToolResult && it.ToolID != "" {
			prev, ok := x.last[it.ToolID]
			if !ok {
				prev = -1
			}
			x.prev[j], x.last[it.ToolID] = prev, j
		}
	}
	x.seen = len(items)
	return from
}

// each calls f with the position of each indexed result of the tool id,
// in the context's order (an id has more than one only in a malformed
// transcript).
func (x *resultIndex) each(id string, f func(j int)) {
	r, ok := x.last[id]
	if !ok {
		return
	}
	var buf [4]int
	chain := buf[:0]
	for ; r >= 0; r = x.prev[r] {
		chain = append(chain, r)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		f(chain[i])
	}
}
