package simulate

import (
	"sort"
	"time"

	"github.com/ctxlab/ctxlab/replay"
)

// ItemKind says what a context item is.
type ItemKind uint8

const (
	KindOverhead   ItemKind = iota // system prompt + tool definitions
	KindUser                       // user text (typed prompt or harness text)
	KindAssistant                  // assistant text and thinking
	KindToolUse                    // a tool call
	KindToolResult                 // a tool result
	KindAttachment                 // an attachment line
	KindImage                      // an image or document block
	KindSummary                    // a compaction summary (real or simulated)
	KindRestored                   // context re-attached after a simulated compaction
	KindHidden                     // tokens the server saw that the transcript does not show
)

var kindNames = [...]string{"overhead", "user", "assistant", "tool_use", "tool_result", "attachment", "image", "summary", "restored", "hidden"}

func (k ItemKind) String() string { return kindNames[k] }

// Item is one block of the context, with its size in tokens.
type Item struct {
	Kind   ItemKind
	Tokens int64
	// Est is Claude Code's estimate of the block (round(length/4)), the
	// measure Claude Code's own thresholds use.
	Est  int
	Msg  int // index of the source message in the thread; -1 for simulated items
	Tool string
	// ToolID pairs a tool_use with its result.
	ToolID string
	Path   string // file the tool touched, when it names one
	// Text is a user message's text (kept for the fake summarizer).
	Text string
	// Cleared marks a tool result replaced by a placeholder.
	Cleared bool
	IsError bool // a failed tool result
	// Artifact marks an item Claude Code wrote because it compacted (the
	// summary, re-attached files). Counterfactual runs drop them.
	Artifact bool
	// Exact is set when Tokens came from usage deltas rather than an estimate.
	Exact bool
}

// TraceCall is one recorded main-thread API call and what was appended to
// the context since the previous one.
type TraceCall struct {
	Index   int // index in Thread.Calls
	Line    int
	Time    int64
	Model   string
	Version string
	// Usage is what the transcript recorded.
	Usage replay.Usage
	// Items were appended since the previous call: the previous response,
	// then tool results, user text and attachments.
	Items []Item
	// Clean is set when Items' sizes are exact: the recorded prompt grew by
	// exactly their sum, or shrank by Shrink with the items costing nothing.
	Clean  bool
	Shrink int64
	// RealCompact and RealMicro are the compactions Claude Code did just
	// before this call, if any.
	RealCompact *replay.Compaction
	RealMicro   *replay.Compaction
	// OutputLowerBound marks placeholder output counts; OutputEst is then
	// Claude Code's estimate of the response, which its own threshold
	// check would have known the real size of.
	OutputLowerBound bool
	OutputEst        int64
}

// Trace is a session's main thread prepared for simulation: segment sizes
// are computed once and shared by every policy run.
type Trace struct {
	Session  string
	Project  string
	Thread   *replay.Thread
	Overhead int64
	// Ratio is tokens per unit of Claude Code's estimate, calibrated on the
	// session's clean segments (architecture decision 3).
	Ratio float64
	Calls []TraceCall
	// Method is "usage" when sizes come from usage deltas, "estimate" when
	// the session has no usage and Claude Code's length/4 estimate is used.
	Method string
	// TTL is the cache lifetime the session's writes show (1 h when any
	// call wrote 1 h entries).
	TTL time.Duration
	// Agents holds the observed usage of the session's other threads, which
	// the simulation does not change.
	Agents replay.Usage
	// AgentCalls are those threads' calls, for pricing.
	AgentCalls []replay.Call
}

// Prepare builds the trace of a session's main thread.
func Prepare(s *replay.Session) *Trace {
	th := s.Main
	tr := &Trace{Session: s.ID, Project: s.Project, Thread: th, Method: "usage", TTL: 5 * time.Minute}
	for _, a := range s.Agents {
		for _, c := range a.Calls {
			if c.HasUsage && !c.Duplicate && !c.Synthetic {
				tr.Agents = tr.Agents.Add(c.Usage)
				tr.AgentCalls = append(tr.AgentCalls, c)
			}
		}
	}
	names := map[string]replay.ToolCall{}
	for _, t := range th.Tools {
		names[t.ID] = t
	}
	var calls []int
	for i := range th.Calls {
		c := &th.Calls[i]
		if c.Synthetic || c.Duplicate || c.APIError {
			continue
		}
		calls = append(calls, i)
		if c.Usage.CacheWrite1h > 0 {
			tr.TTL = time.Hour
		}
	}
	if len(calls) == 0 {
		return tr
	}
	synthetic := map[int]bool{} // messages of calls that were never sent
	for i := range th.Calls {
		if c := &th.Calls[i]; c.Synthetic || c.APIError {
			synthetic[c.Msg] = true
		}
	}
	ci := 0
	start := 0
	hasUsage := false
	for n, idx := range calls {
		c := &th.Calls[idx]
		tc := TraceCall{
			Index: idx, Line: c.Line, Time: c.Time, Model: c.Model, Version: c.Version,
			Usage: c.Usage, OutputLowerBound: c.OutputLowerBound,
		}
		hasUsage = hasUsage || c.HasUsage
		if c.OutputLowerBound {
			for _, b := range th.Messages[c.Msg].Blocks {
				tc.OutputEst += int64(b.Est)
			}
		}
		afterBoundary := false
		for ci < len(th.Compactions) && th.Compactions[ci].Msg <= c.Msg {
			comp := &th.Compactions[ci]
			if comp.Kind == replay.CompactMicro {
				tc.RealMicro = comp
			} else {
				tc.RealCompact = comp
			}
			ci++
		}
		for m := start; m < c.Msg; m++ {
			msg := &th.Messages[m]
			if synthetic[m] {
				continue
			}
			if tc.RealCompact != nil && m == tc.RealCompact.Msg {
				afterBoundary = true
			}
			tc.Items = appendItems(tc.Items, msg, m, names, afterBoundary)
		}
		start = c.Msg
		_ = n
		tr.Calls = append(tr.Calls, tc)
	}
	if !hasUsage {
		tr.Method = "estimate"
	}
	tr.calibrate()
	return tr
}

// appendItems turns one message into context items.
func appendItems(items []Item, m *replay.Message, mi int, tools map[string]replay.ToolCall, afterBoundary bool) []Item {
	if m.Role == replay.RoleAttachment {
		return append(items, Item{Kind: KindAttachment, Est: replay.Estimate(m.AttachmentChars), Msg: mi, Artifact: afterBoundary})
	}
	for _, b := range m.Blocks {
		it := Item{Est: b.Est, Msg: mi}
		switch b.Kind {
		case replay.BlockText, replay.BlockThinking:
			switch {
			case m.Role == replay.RoleAssistant:
				it.Kind = KindAssistant
			case m.CompactSummary:
				it.Kind, it.Artifact = KindSummary, true
			default:
				it.Kind, it.Text = KindUser, b.Text
			}
		case replay.BlockToolUse:
			it.Kind, it.Tool, it.ToolID = KindToolUse, b.Name, b.ToolID
			if t, ok := tools[b.ToolID]; ok {
				it.Path = t.Input.FilePath
			}
		case replay.BlockToolResult:
			it.Kind, it.ToolID, it.IsError = KindToolResult, b.ToolID, b.IsError
			if t, ok := tools[b.ToolID]; ok {
				it.Tool, it.Path = t.Name, t.Input.FilePath
			}
		default:
			it.Kind = KindImage
		}
		items = append(items, it)
	}
	return items
}

// calibrate sets exact sizes from usage deltas where the trace allows it,
// the tokens-per-estimate ratio from those, estimated sizes elsewhere, and
// the overhead from the first call.
func (tr *Trace) calibrate() {
	var exactTok, exactEst int64
	for i := range tr.Calls {
		tc := &tr.Calls[i]
		if i == 0 || tr.Method != "usage" {
			continue
		}
		prev := &tr.Calls[i-1]
		d := tc.Usage.Prompt() - prev.Usage.Prompt()
		if tc.RealCompact != nil || tc.RealMicro != nil {
			continue
		}
		tc.Clean = true
		if d < 0 {
			// The context shrank with no compaction in the transcript
			// (thinking stripped, a side request on another model): the
			// appended items were free, and every run shrinks by as much.
			tc.Shrink = -d
			continue
		}
		exactTok += d
		exactEst += int64(sumEst(tc.Items))
	}
	tr.Ratio = 1
	if exactEst > 0 && exactTok > 0 {
		tr.Ratio = float64(exactTok) / float64(exactEst)
	}
	for i := range tr.Calls {
		tc := &tr.Calls[i]
		if tc.Clean {
			d := max(0, tc.Usage.Prompt()-tr.Calls[i-1].Usage.Prompt())
			tc.Items = split(tc.Items, d)
			continue
		}
		for j := range tc.Items {
			tc.Items[j].Tokens = tr.estimate(tc.Items[j].Est)
		}
	}
	if tr.Method == "usage" && len(tr.Calls) > 0 {
		first := &tr.Calls[0]
		tr.Overhead = max(0, first.Usage.Prompt()-sumTokens(first.Items))
	}
}

func (tr *Trace) estimate(est int) int64 {
	return int64(float64(est)*tr.Ratio + 0.5)
}

// split distributes total tokens over items in proportion to their
// estimates, by largest remainder so the sizes add up exactly. Content the
// transcript does not show (system reminders) has no block of its own; when
// no item has any weight, a hidden item carries the tokens.
func split(items []Item, total int64) []Item {
	w := int64(sumEst(items))
	if w == 0 {
		if total > 0 {
			items = append(items, Item{Kind: KindHidden, Tokens: total, Msg: -1, Exact: true})
		}
		return items
	}
	var given int64
	type rem struct {
		i int
		r int64
	}
	rems := make([]rem, 0, len(items))
	for i := range items {
		num := total * int64(items[i].Est)
		items[i].Tokens = num / w
		items[i].Exact = true
		given += items[i].Tokens
		rems = append(rems, rem{i, num % w})
	}
	// Hand out the remainder, largest fractional part first (ties: earlier item).
	sort.SliceStable(rems, func(a, b int) bool { return rems[a].r > rems[b].r })
	for j := int64(0); j < total-given; j++ {
		items[rems[j].i].Tokens++
	}
	return items
}

func sumEst(items []Item) int {
	n := 0
	for _, it := range items {
		n += it.Est
	}
	return n
}

func sumTokens(items []Item) int64 {
	var n int64
	for _, it := range items {
		n += it.Tokens
	}
	return n
}
