package policies

import (
	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/internal/param"
	"github.com/ctxlab/ctxlab/simulate"
)

var partialDef = policyDef{
	name: "partial",
	doc: "Partial compaction (Claude Code's \"up_to\" direction): at the auto-compaction threshold, summarise " +
		"everything before a pivot and keep the last keep messages verbatim. The pivot moves back so that no " +
		"kept tool result loses its call. If the context is still at the threshold afterwards, a full " +
		"compaction with restored files follows.",
	source: "Claude Code's bundled cli.js, 2.1.x (partial compaction); thresholds as claude-code",
	new: func() (policy, []param.Param) {
		p := &partial{}
		return p, []param.Param{
			param.Whole(&p.keep, "keep", 10, 0, "messages kept verbatim after the summary (a message: all items with the same Item.Msg)"),
			pctParam(&p.pct),
		}
	},
}

type partial struct {
	named
	keep int
	pct  float64
}

// Before compares Claude Code's own count (State.Trigger) with the
// threshold, as claude-code does.
func (p *partial) Before(s *simulate.State) {
	limits := p.limits(s)
	if s.Trigger < limits.Threshold {
		return
	}
	// With nothing to summarise the pivot is 1: an empty range, which
	// Compact leaves alone.
	s.Compact(simulate.Compaction{From: 1, To: keepMessages(s.Items, p.keep), Label: "partial"})
	if s.Trigger >= limits.Threshold {
		s.Compact(simulate.Compaction{From: 1, To: len(s.Items), Restore: true, Label: "auto"})
	}
}

// limits are Claude Code's limits under the policy's pct. The session's
// inferred window applies; its auto-compaction setting does not: this
// policy compacts by itself.
func (p *partial) limits(s *simulate.State) claudecode.Limits {
	return s.LimitsFor(claudecode.LimitParams{Pct: p.pct}, s.Version)
}

// CompactAt is the auto-compact threshold under pct.
func (p *partial) CompactAt(s *simulate.State) int64 { return p.limits(s).Threshold }

// keepMessages returns the index of the first item of the keep-th last
// message (items with Msg < 0 belong to no message and go with what
// precedes them), aligned so that no kept tool result loses its call; 1
// when the context has no more than keep messages.
func keepMessages(items []simulate.Item, keep int) int {
	seen, last, pivot, more := 0, -1, len(items), false
	for j := len(items) - 1; j >= 1; j-- {
		m := items[j].Msg
		if m < 0 {
			continue
		}
		if m != last {
			if seen == keep {
				more = true
				break
			}
			seen++
			last = m
		}
		pivot = j
	}
	if !more {
		return 1 // no more than keep messages: nothing to summarise
	}
	return alignPivot(items, pivot)
}
