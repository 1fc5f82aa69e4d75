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
		ClearedTools: len(c.CompactedToolIDs),
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
