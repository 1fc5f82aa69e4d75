package simulate

import (
	"slices"
	"strconv"
)

// Clear replaces the content of the tool results at the given item indexes
// with claudecode.Placeholder (the tool_use stays). It returns the tokens freed.
// Clearing breaks the cached prefix from the first cleared result on,
// unless Config.CacheEdits is set.
func (s *State) Clear(idx []int, reason string) int64 {
	return s.clear(idx, KindToolResult, reason, "results")
}

// ClearInputs replaces the input of the tool calls at the given indexes
// with a placeholder (context editing's clear_tool_inputs).
func (s *State) ClearInputs(idx []int, reason string) int64 {
	return s.clear(idx, KindToolUse, reason, "inputs")
}

func (s *State) clear(idx []int, kind ItemKind, reason, what string) int64 {
	e := s.e
	freed, n := e.clear(idx, kind)
	if n > 0 {
		e.micro++
		e.freed += freed
		e.clearedNow = true
		e.actions = append(e.actions, reason+": cleared "+strconv.Itoa(n)+" "+what+", freed "+strconv.FormatInt(freed, 10))
	}
	e.sync(s)
	return freed
}

// Drop removes the items at the given indexes from the context entirely.
func (s *State) Drop(idx []int, reason string) int64 {
	e := s.e
	if len(idx) == 0 {
		return 0
	}
	drop := make(map[int]bool, len(idx))
	lowest := len(e.items)
	for _, j := range idx {
		if j >= 1 && j < len(e.items) { // the overhead stays
			drop[j] = true
			lowest = min(lowest, j)
		}
	}
	if len(drop) == 0 {
		return 0
	}
	e.markEdit(lowest)
	var freed int64
	kept := e.items[:lowest]
	before := 0 // dropped items before this call's appended ones
	for j := lowest; j < len(e.items); j++ {
		if drop[j] {
			if j < e.appendedFrom {
				before++
			}
			freed += e.items[j].Tokens
			e.removed(&e.items[j])
			continue
		}
		kept = append(kept, e.items[j])
	}
	e.items = kept
	e.relayout()
	e.appendedFrom -= before
	e.tokens -= freed
	e.trigger -= freed
	e.freed += freed
	e.micro++
	e.clearedNow = true
	e.actions = append(e.actions, reason+": dropped "+strconv.Itoa(len(drop))+" items, freed "+strconv.FormatInt(freed, 10))
	e.sync(s)
	return freed
}

// Compaction asks for items[From:To] to be replaced by a summary.
type Compaction struct {
	From, To int
	// Restore re-attaches recent files and the todo list after the summary,
	// as Claude Code does after a full compaction; Version is the Claude
	// Code version whose rules pick them ("": the call's).
	Restore bool
	Version string
	// Label names the compaction in the call's actions ("auto", "manual",
	// "session-memory", …).
	Label string
	// Free marks a summary that costs no summarizer call (session memory
	// is written in the background); Tokens then sizes it.
	Free   bool
	Tokens int64
}

// Compact replaces items[From:To] by a summary from the fake summarizer
// (plus, with Restore, re-attached files and todos). It returns the tokens
// freed. The summarizer's own call is priced as a fork that reads the
// conversation's cached prefix.
func (s *State) Compact(c Compaction) int64 {
	e := s.e
	c.From = max(1, c.From)
	c.To = min(c.To, len(e.items))
	if c.From >= c.To {
		return 0
	}
	replaced := e.items[c.From:c.To]
	var rTok int64
	for _, it := range replaced {
		rTok += it.Tokens
	}
	rTok -= e.keepGrowth(c, rTok)
	sum, carried := e.cfg.Summarizer.Summarize(replaced, e.carried, rTok)
	if c.Tokens > 0 {
		sum.Tokens = c.Tokens
	}
	if !c.Free {
		e.flushEdit()
		read, write := e.cache.Fork(e.now, e.model, e.tokens, e.cfg.Summarizer.PromptTokens)
		sc := SummaryCall{Label: "summary", BeforeCall: e.tr.Calls[e.call].Index + 1, Replaced: rTok, Read: read, Write: write, Output: sum.Tokens}
		if mf := e.modelOf(e.model); mf.priced {
			sc.Cost = mf.price.Cost(sc.Usage(e.ttl))
		}
		e.res.Summaries = append(e.res.Summaries, sc)
	}
	e.carried = carried
	for k := range replaced {
		e.removed(&replaced[k])
	}
	var restored []Item
	if c.Restore {
		version := c.Version
		if version == "" {
			version = e.tr.Calls[e.call].Version
		}
		// The items left on either side of the range stay in the context:
		// a file a Read among them shows is not re-attached.
		left := append(slices.Clip(e.items[:c.From]), e.items[c.To:]...)
		restored = e.files.Restore(replaced, left, version, e.now)
		for _, r := range restored {
			delete(e.cleared, r.Path)
		}
	}
	e.markEdit(c.From)
	// The context becomes items[:From], the summary, the restored items,
	// items[To:]: rebuilt in place when the summary and restored items fit
	// where the replaced ones were (the kept tail moves down), so the
	// context keeps its room for the calls to come.
	at, tail := c.From+1+len(restored), len(e.items)-c.To
	var out []Item
	if at <= c.To {
		out = e.items[:at+tail]
		copy(out[at:], e.items[c.To:])
	} else {
		out = make([]Item, at+tail, at+tail+cap(e.items)-len(e.items))
		copy(out, e.items[:c.From])
		copy(out[at:], e.items[c.To:])
	}
	out[c.From] = Item{Kind: KindSummary, Tokens: sum.Tokens, Msg: -1, Exact: true}
	copy(out[c.From+1:], restored)
	var added int64 = sum.Tokens
	for _, r := range restored {
		added += r.Tokens
	}
	e.items = out
	e.relayout()
	// The first item appended for this call that is left: before the
	// summary, it stays; summarised, the first after the summary and
	// restored items is; after them, it moves with them.
	switch a := e.appendedFrom; {
	case a >= c.To:
		e.appendedFrom = a - (c.To - c.From) + 1 + len(restored)
	case a >= c.From:
		e.appendedFrom = c.From + 1 + len(restored)
	}
	freed := rTok - added
	e.tokens -= freed
	e.trigger -= freed
	e.freed += freed
	e.summaryTok += sum.Tokens
	e.compactions++
	e.callsSince = 0
	e.compacted = true
	switch {
	case c.Label == "manual":
		e.res.Compacted.Manual++
	case e.res.Compacted.FirstAuto == 0:
		rc := &e.res.Compacted
		rc.FirstAuto = e.tr.Calls[e.call].Index + 1
		rc.Summary, rc.Restored = sum.Tokens, added-sum.Tokens
	}
	e.actions = append(e.actions, "compact ("+c.Label+"): "+strconv.FormatInt(rTok, 10)+" → "+strconv.FormatInt(added, 10))
	e.sync(s)
	return freed
}

// keepGrowth moves to the tools and system prompt, at a full compaction,
// what they grew at the calls since the last one (TraceCall.ToolsGrowth),
// which the usage deltas had given to those calls' items: the compaction
// rewrites the messages, not the tools (claudecode.MCPToolsLive). It
// returns the tokens moved, at most the replaced items' rTok.
func (e *engine) keepGrowth(c Compaction, rTok int64) int64 {
	if c.From != 1 || c.To != len(e.items) || e.grown <= 0 {
		return 0
	}
	g := min(e.grown, rTok)
	e.items[0].Tokens += g
	e.grown = 0
	return g
}

// Fork prices a side request that shares the conversation's prefix and
// adds prompt tokens of its own, producing output tokens, without changing
// the context: a background summary update, for instance. It is listed with
// the run's summarizer calls under label.
//
// The fork runs right after the previous response (a background task
// started when the turn ended), so it runs on the previous call's model and
// is priced at its time, while that call's cache entries are warm (before
// the first call: on this call's model, at its time). It sees the context
// as the policy left it, an edit earlier in the same Before included.
func (s *State) Fork(prompt, output int64, label string) {
	e := s.e
	at, model := e.now, e.model
	if e.call > 0 {
		at, model = e.prevTime, e.prevModel
	}
	if at == 0 {
		at = e.now
	}
	e.flushEdit()
	read, write := e.cache.Fork(at, model, e.tokens, prompt)
	sc := SummaryCall{Label: label, BeforeCall: e.tr.Calls[e.call].Index + 1, Read: read, Write: write, Output: output}
	if mf := e.modelOf(model); mf.priced {
		sc.Cost = mf.price.Cost(sc.Usage(e.ttl))
	}
	e.res.Summaries = append(e.res.Summaries, sc)
	e.actions = append(e.actions, label+": fork of "+strconv.FormatInt(e.tokens, 10)+" + "+strconv.FormatInt(prompt, 10)+" tokens, "+strconv.FormatInt(output, 10)+" out")
}
