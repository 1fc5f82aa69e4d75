package accounting

import (
	"github.com/ctxlab/ctxlab/replay"
)

// CompactionEvent is one observed compaction on the timeline.
type CompactionEvent struct {
	Session string `json:"session,omitempty"` // corpus reports only
	Thread  string `json:"thread"`
	Kind    string `json:"kind"`    // compact, summary (1.0.x), microcompact
	Trigger string `json:"trigger"` // auto, manual, or "" when the transcript does not say
	// Continued marks the summary the thread goes on from, a compaction
	// made before its first call or copied in by a resume
	// (replay.Compaction.Continued).
	Continued bool        `json:"continued,omitempty"`
	Line      int         `json:"line"`
	Time      replay.Time `json:"time,omitempty"`
	AfterCall int         `json:"after_call"` // calls of the thread before it: it came after call number AfterCall
	// LastPrompt is the prompt (input + cache write + cache read) of the
	// last call before the compaction: what the model last saw.
	LastPrompt int64 `json:"last_prompt"`
	// Before is compactMetadata.preTokens, or LastPrompt when absent.
	Before       int64  `json:"before"`
	BeforeSource string `json:"before_source"` // pre_tokens | last_prompt | none
	// After is postTokens (2.1.114+), before − tokensSaved for a
	// micro-compaction, or else the prompt of the first call after it.
	After         int64  `json:"after"`
	AfterSource   string `json:"after_source"` // post_tokens | tokens_saved | next_prompt | none
	Freed         int64  `json:"freed"`
	SummaryTokens int    `json:"summary_tokens"` // estimate of the summary message
	DurationMs    int64  `json:"duration_ms,omitempty"`
	ClearedTools  int    `json:"cleared_tools,omitempty"`
	Spiral        bool   `json:"spiral"`
	// DedupKey is the uuid of the line that records the compaction
	// (replay.Compaction.UUID), by which Merge counts a compaction that
	// several files show once; "" when the line has none.
	DedupKey string `json:"-"`
}

// Spiral is a run of full compactions each within Config.SpiralCalls calls
// of the one before: the session kept refilling its context.
type Spiral struct {
	Session string `json:"session,omitempty"` // corpus reports only
	Thread  string `json:"thread"`
	First   int    `json:"first"` // index in Report.Compactions
	Count   int    `json:"count"`
	Calls   int    `json:"calls"` // calls from the first to the last compaction
	Freed   int64  `json:"freed"` // tokens freed by the run in total
}

func compactions(s *replay.Session, cfg Config) ([]CompactionEvent, []Spiral) {
	events := []CompactionEvent{}
	spirals := []Spiral{}
	for _, th := range s.Threads() {
		name := ThreadName(th)
		lastFull := -1 // index in events of the thread's previous full compaction
		spiral := -1   // index in spirals of the run lastFull belongs to
		for i := range th.Compactions {
			c := &th.Compactions[i]
			ev := EventOf(th, c)
			ev.Thread = name
			events = append(events, ev)
			if c.Kind == replay.CompactMicro {
				continue
			}
			cur := len(events) - 1
			if lastFull >= 0 && c.CallsBefore-events[lastFull].AfterCall <= cfg.SpiralCalls {
				if spiral < 0 {
					spirals = append(spirals, Spiral{Thread: name, First: lastFull, Count: 1, Freed: events[lastFull].Freed})
					spiral = len(spirals) - 1
					events[lastFull].Spiral = true
				}
				sp := &spirals[spiral]
				sp.Count++
				sp.Calls = c.CallsBefore - events[sp.First].AfterCall
				sp.Freed += ev.Freed
				events[cur].Spiral = true
			} else {
				spiral = -1
			}
			lastFull = cur
		}
	}
	return events, spirals
}

// EventOf is a compaction of a thread as the timeline shows it (Thread
// left empty): the context before and after it, from compactMetadata where
// Claude Code wrote it, else from the prompts of the calls around it, and
// what it freed.
func EventOf(th *replay.Thread, c *replay.Compaction) CompactionEvent {
	ev := CompactionEvent{
		Kind: string(c.Kind), Trigger: c.Trigger, Continued: c.Continued, Line: c.Line, Time: replay.Time(c.Time),
		AfterCall: c.CallsBefore, SummaryTokens: c.SummaryEst, DurationMs: c.DurationMs,
		ClearedTools: len(c.CompactedToolIDs), DedupKey: c.UUID,
	}
	ev.LastPrompt = promptAround(th, c.CallsBefore-1, -1)
	ev.Before, ev.BeforeSource = c.PreTokens, "pre_tokens"
	if c.PreTokens == 0 {
		ev.Before, ev.BeforeSource = ev.LastPrompt, "last_prompt"
		if ev.LastPrompt == 0 {
			// No call before it: a session continued from a summary
			// (1.0.x files start with one).
			ev.BeforeSource = "none"
		}
	}
	switch {
	case c.Kind == replay.CompactMicro && ev.BeforeSource == "none":
		ev.AfterSource = "none"
	case c.Kind == replay.CompactMicro:
		// Before, not PreTokens: without preTokens, Before is the last
		// prompt and After must not go negative.
		ev.After, ev.AfterSource = ev.Before-c.TokensSaved, "tokens_saved"
	case c.PostTokens > 0:
		ev.After, ev.AfterSource = c.PostTokens, "post_tokens"
	default:
		ev.After, ev.AfterSource = promptAround(th, c.CallsBefore, 1), "next_prompt"
		if ev.After == 0 {
			ev.AfterSource = "none"
		}
	}
	if ev.BeforeSource != "none" && ev.AfterSource != "none" {
		ev.Freed = ev.Before - ev.After
	}
	return ev
}

// promptAround returns the prompt of the nearest counted call with usage at
// index i, stepping by dir (−1 backwards, +1 forwards); 0 when none.
func promptAround(th *replay.Thread, i, dir int) int64 {
	for ; i >= 0 && i < len(th.Calls); i += dir {
		if c := &th.Calls[i]; c.Counted() {
			return c.Usage.Prompt()
		}
	}
	return 0
}

// dedupeCompactions finds the copies among events (several sessions'
// compactions in input order): compactions that more than one file shows,
// by their DedupKey. Claude Code 1.0.x wrote a compaction's summary at the
// end of the file it compacted and again as the first line of the file it
// went on in, and a resumed session's file copies the lines before it.
// As calls keep the record with the most tokens, the copy kept is the one
// that knows most of the context around it (the context before it and
// after it found, BeforeSource and AfterSource not "none"), the first in
// input order on a tie. keep[i] is the index of events[i] among the events
// kept, or -1 for a copy dropped.
func dedupeCompactions(events []CompactionEvent) (keep []int) {
	known := func(e *CompactionEvent) int {
		n := 0
		if e.BeforeSource != "none" {
			n++
		}
		if e.AfterSource != "none" {
			n++
		}
		return n
	}
	best := map[string]int{} // key → index in events of the copy kept
	for i := range events {
		k := events[i].DedupKey
		if k == "" {
			continue
		}
		if j, ok := best[k]; !ok || known(&events[i]) > known(&events[j]) {
			best[k] = i
		}
	}
	keep = make([]int, len(events))
	n := 0
	for i := range events {
		if j, ok := best[events[i].DedupKey]; ok && j != i {
			keep[i] = -1
			continue
		}
		keep[i] = n
		n++
	}
	return keep
}

// dropCompactionCopies removes the copies dedupeCompactions finds from a
// merged report's compactions and moves its spirals with them: a spiral
// that loses members keeps the rest (its count, calls and freed tokens
// theirs), and is no spiral when fewer than two remain.
func dropCompactionCopies(events []CompactionEvent, spirals []Spiral) ([]CompactionEvent, []Spiral) {
	keep := dedupeCompactions(events)
	kept := make([]CompactionEvent, 0, len(events))
	for i, e := range events {
		if keep[i] >= 0 {
			kept = append(kept, e)
		}
	}
	if len(kept) == len(events) {
		return events, spirals
	}
	out := make([]Spiral, 0, len(spirals))
	for _, sp := range spirals {
		// The spiral's members: its thread's full compactions from First.
		var members []int
		n := 0
		for i := sp.First; i < len(events) && n < sp.Count; i++ {
			e := &events[i]
			if e.Session != sp.Session || e.Thread != sp.Thread || e.Kind == string(replay.CompactMicro) {
				continue
			}
			n++
			if keep[i] >= 0 {
				members = append(members, keep[i])
			}
		}
		if len(members) < 2 {
			for _, m := range members {
				kept[m].Spiral = false
			}
			continue
		}
		first, last := &kept[members[0]], &kept[members[len(members)-1]]
		sp.First, sp.Count, sp.Calls, sp.Freed = members[0], len(members), last.AfterCall-first.AfterCall, 0
		for _, m := range members {
			sp.Freed += kept[m].Freed
		}
		out = append(out, sp)
	}
	return kept, out
}
