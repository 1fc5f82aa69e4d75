package simulate

import (
	"net/url"
	"strings"
	"time"

	"github.com/ctxlab/ctxlab/accounting/sizing"
	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/replay"
)

// TraceCall is one recorded main-thread API call and what was appended to
// the context since the previous one.
type TraceCall struct {
	Index int // index in Thread.Calls
	Line  int
	// Time is the call's Clock (replay.Call.Clock): its timestamp, moved
	// forward by Ahead ms where tool run times prove more time passed.
	Time    int64
	Ahead   int64
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
	// OutputLowerBound marks placeholder output counts. OutputEst is
	// Claude Code's estimate of the response, a stand-in for the final
	// output its own threshold check knew where the transcript records a
	// placeholder.
	OutputLowerBound bool
	OutputEst        int64
	// Side are the side requests sent on the conversation since the
	// previous call (replay.SideRequest).
	Side []replay.SideRequest
	// Thinking is the thinking budget the keywords of the turn's prompt
	// ask for (claudecode.ThinkingBudget), which applies before
	// Config.ThinkingKeywordsUntil (claudecode.ThinkingKeywords).
	Thinking int64
	// NewTurn is set when a prompt the user typed precedes the call: it
	// starts a turn.
	NewTurn bool
	// CwdChanged is set on a turn's first call when the working directory
	// recorded on its prompt differs from the previous turn's
	// (replay.Call.CwdChanged). Claude Code names the working directory in
	// its system prompt, which it builds at the start of each turn, so the
	// cached prefix breaks there.
	CwdChanged bool
	// DateChanged is set on a turn's first call when its prompt was
	// written on another UTC date than the previous turn's (the call's
	// timestamp where the prompt has none): before 1.0.110 the system
	// prompt Claude Code builds when a turn begins names the UTC date, past
	// the base prefix (claudecode.DateUTC).
	DateChanged bool
	// SkillsChanged is set when the call was sent with a skill list that a
	// skill written in the session changed (replay.Call.SkillListChanged, on
	// this call or a call between it and the previous one): the list comes
	// after the base prefix, so the cached prefix breaks there.
	SkillsChanged bool
	// Restarted is set on the first call sent by a new Claude Code process
	// after a resumed conversation's copied lines (replay.Call.Restart, on
	// this call or a call between it and the previous one).
	Restarted bool
	// BaseRead is set when the call's recorded read is shorter than the
	// system prompt prefix and than every earlier read on its model: a
	// shorter prefix of the system prompt was cached (the base prefix).
	// SysRead is set when it is shorter than the context before the first
	// message and differs from where the model has the system prompt end
	// on its model (the system prompt prefix, or the last such read),
	// came within the cache lifetime after the previous call on its model
	// and not in a new working directory: the session's own system prompt
	// ends there (markPrefixReads).
	BaseRead, SysRead bool
	// ToolsGrowth is, on a call whose recorded read fell back into the
	// tools and system prompt (markPrefixReads' test), how much more its
	// items carry than their estimate at the session's ratio: the tools
	// and system prompt grew there (an MCP server connected), and the
	// usage deltas gave that growth to the call's messages (markPrefixReads).
	ToolsGrowth int64
	// Thought is set when the call's response has a thinking block.
	Thought bool
	// promptTime is the timestamp of the typed prompt that starts the
	// call's turn (NewTurn), 0 when none or it has none.
	promptTime int64
	// AfterAsk is set on a turn's first call when the turn before it used
	// a tool Claude Code asks permission for (claudecode.Asks), as the
	// session had not used it before (askKey): the user may have allowed
	// it for good, which the transcript does not record, and from 1.0.66
	// until 2.1.0 that changes the system prompt at this turn
	// (claudecode.AllowedTools).
	AfterAsk bool
	// AllowedChanged is set on an AfterAsk call, on a version whose system
	// prompt lists the allowed tools, whose recorded read (above 0) fell
	// back into the tools and system prompt (below the context before the
	// first message) where no cause the transcript shows (a new working
	// directory or UTC date, a skill written) broke it: the system prompt
	// changed there, as a tool allowed for good changes it
	// (markPrefixReads). The recorded usage shows the event, which the
	// transcript does not record; every run breaks at the recorded read
	// (engine.turnRewrites): the user's answer is an event of the session,
	// and the tools and system prompt before it are every run's.
	AllowedChanged bool
}

// Trace is a session's main thread prepared for simulation: segment sizes
// are computed once and shared by every policy run.
type Trace struct {
	Session  string
	Thread   *replay.Thread
	Overhead int64
	// SystemPrefix is the prefix Claude Code caches with a breakpoint at
	// the end of its system prompt: the tool definitions and the system
	// prompt (SystemPrefixOf). Overhead is larger by the context Claude
	// Code puts in the first user message (CLAUDE.md files, reminders),
	// which the transcript does not show and which comes after that
	// breakpoint, so a rewrite of the conversation falls back to
	// SystemPrefix, not to Overhead.
	SystemPrefix int64
	// SystemPrefixSource says how SystemPrefix was found.
	SystemPrefixSource string
	// Continued is set when the transcript begins with a compaction
	// summary: its conversation began in an earlier session, so it is past
	// its second turn, and what its first call read from the cache its own
	// compaction had just written (replay.Thread.Continues).
	Continued bool
	// MissOnlyInput is set when a call to a model reached through a
	// compatible endpoint recorded less input than cache read: that
	// endpoint reports as input only what it did not read (MissOnly).
	MissOnlyInput bool
	// Ratio is tokens per unit of Claude Code's estimate, calibrated on the
	// session's clean segments (sizing.Sizes).
	Ratio float64
	Calls []TraceCall
	// Method is sizing.MethodUsage when sizes come from usage deltas,
	// MethodEstimate when the session has no usage and Claude Code's
	// length/4 estimate is used.
	Method sizing.Method
	// TTL is the cache lifetime the session's writes show
	// (claudecode.CacheTTL1h when any call wrote 1-hour entries, else
	// CacheTTL5m): a run starts with it, and each call's own writes
	// choose its entries' lifetime (engine.callTTL). Config.TTL overrides
	// both.
	TTL time.Duration
	// Auxiliary is the kind of a side request read without its session
	// (replay.Session.Auxiliary): the trace then has no calls to replay.
	Auxiliary replay.ThreadKind
	// Inferred is what the recorded calls prove about the limits Claude
	// Code applied (a larger window, auto-compaction off), and Micro what
	// they show of its micro-compaction.
	Inferred Inferred
	Micro    MicroEvidence
	// AgentCalls are the calls of the session's other threads, which the
	// simulation does not change: their observed cost is added to every run.
	AgentCalls []replay.Call
	// AgentFiles are the files the session's sub-agents read or wrote, in
	// time order: before claudecode.SharedFiles ends, Claude Code keeps
	// them with the session's own (agentFiles).
	AgentFiles []FileTouch
	// userMsgs are the messages of the user's texts the calls append, each
	// once, in order (users): every run counts them.
	userMsgs []int
}

// users returns the message indexes of the user's texts the calls
// append (items of KindUser with text), each once, in order.
func (tr *Trace) users() []int {
	if tr.userMsgs != nil {
		return tr.userMsgs
	}
	return typedUsers(tr.Calls)
}

func typedUsers(calls []TraceCall) []int {
	out := []int{}
	seen := map[int]bool{}
	for _, tc := range calls {
		for _, it := range tc.Items {
			if it.Kind == KindUser && it.Text != "" && !seen[it.Msg] {
				seen[it.Msg] = true
				out = append(out, it.Msg)
			}
		}
	}
	return out
}

// Prepare builds the trace of a session's main thread, with the exact
// sizes sizing.SizeThread measures.
func Prepare(s *replay.Session) *Trace {
	th := s.Main
	sz := sizing.SizeThread(th)
	tr := &Trace{
		Session: s.ID, Thread: th, Method: sz.Method, TTL: claudecode.CacheTTL5m.Value,
		Overhead: sz.Overhead, Ratio: sz.Ratio,
	}
	threads := s.Agents
	if s.Auxiliary != "" {
		// A side request whose session is absent is not replayed: its
		// calls are costed as observed, like a sub-agent's.
		threads = append([]*replay.Thread{th}, threads...)
		tr.Auxiliary = s.Auxiliary
	}
	tr.AgentFiles = agentFiles(s)
	for _, a := range threads {
		for _, c := range a.Calls {
			if c.Counted() {
				tr.AgentCalls = append(tr.AgentCalls, c)
			}
		}
	}
	for i := range th.Calls {
		if c := &th.Calls[i]; c.Sent() && c.Usage.CacheWrite1h > 0 {
			tr.TTL = claudecode.CacheTTL1h.Value
		}
	}
	if tr.Auxiliary == "" {
		tr.Calls = traceCalls(th, sz)
	}
	attachSide(tr.Calls, th.SideRequests)
	tr.Inferred = inferLimits(tr.Calls)
	tr.Micro = inferMicro(tr.Calls)
	tr.userMsgs = typedUsers(tr.Calls)
	markDateChanges(tr.Calls)
	tr.SystemPrefix, tr.SystemPrefixSource = SystemPrefixOf(tr.Overhead, tr.Calls)
	tr.Continued = th.Continues()
	tr.MissOnlyInput = MissOnly(tr.Calls)
	tr.markPrefixReads()
	return tr
}

// traceCalls turns the thread's measured segments into trace calls: each
// call's facts and the items appended since the previous one, sized.
func traceCalls(th *replay.Thread, sz *sizing.Sizes) []TraceCall {
	tools := make(map[string]replay.ToolCall, len(th.Tools))
	for _, t := range th.Tools {
		tools[t.ID] = t
	}
	out := make([]TraceCall, 0, len(sz.Segments))
	var thinking int64 // the current turn's budget
	files := fileSizes{}
	asked := map[string]bool{} // the tools used that ask (askKey)
	askedInTurn := false
	prevCall := -1 // the previous trace call's index in th.Calls
	for _, seg := range sz.Segments {
		c := &th.Calls[seg.Call]
		tc := TraceCall{
			Index: seg.Call, Line: c.Line, Time: c.Clock, Ahead: c.Clock - c.Time, Model: c.Model, Version: c.Version,
			Usage: c.Usage, OutputLowerBound: c.OutputLowerBound, Clean: seg.Clean, Shrink: seg.Shrink,
			Restarted:     th.Between(prevCall, seg.Call, func(c *replay.Call) bool { return c.Restart }),
			CwdChanged:    th.Between(prevCall, seg.Call, func(c *replay.Call) bool { return c.CwdChanged }),
			SkillsChanged: th.Between(prevCall, seg.Call, (*replay.Call).SkillListChanged),
		}
		prevCall = seg.Call
		if c.Msg >= 0 {
			for _, b := range th.Messages[c.Msg].Blocks {
				tc.OutputEst += int64(b.Est)
			}
		}
		if c.Msg >= 0 {
			tc.Thought = th.Messages[c.Msg].HasThinking()
		}
		for ci := seg.CompFrom; ci < seg.CompTo; ci++ {
			if comp := &th.Compactions[ci]; comp.Kind == replay.CompactMicro {
				tc.RealMicro = comp
			} else {
				tc.RealCompact = comp
			}
		}
		if b, ok := tc.appendSegment(th, sz, seg, tools, files); ok {
			thinking = b
		}
		// The segment's tool calls are the previous response's: the
		// previous turn's when this call starts one.
		for _, it := range tc.Items {
			if t, ok := tools[it.ToolID]; ok && it.Kind == KindToolUse && claudecode.Asks(t.Name) {
				if k := askKey(&t); !asked[k] {
					asked[k], askedInTurn = true, true
				}
			}
		}
		if tc.NewTurn {
			tc.AfterAsk, askedInTurn = askedInTurn, false
		}
		tc.Thinking = thinking
		out = append(out, tc)
	}
	return out
}

// askKey is what a permission rule allowing the tool call t would name:
// Claude Code allows a Bash command by its prefix (here its first word,
// and the second when it is a subcommand: "git push", "npm run"), a
// WebFetch by its domain, and file edits for the session (Anthropic's
// "Identity and Access Management": "Yes, don't ask again" lasts for the
// project and command, or until the session ends for file edits); any
// other tool by its name.
func askKey(t *replay.ToolCall) string {
	switch t.Name {
	case "Bash":
		w := strings.Fields(t.Input.Command)
		switch {
		case len(w) == 0:
			return t.Name
		case len(w) > 1 && isSubcommand(w[1]):
			return t.Name + " " + w[0] + " " + w[1]
		}
		return t.Name + " " + w[0]
	case "WebFetch":
		if u, err := url.Parse(t.Input.URL); err == nil && u.Host != "" {
			return t.Name + " " + u.Host
		}
	case "Edit", "MultiEdit", "Write", "NotebookEdit":
		return "edits"
	}
	return t.Name
}

// isSubcommand reports whether w reads as a command's subcommand: a
// lower-case word of letters, digits and hyphens that begins with a
// letter (not an option, a path or a file name).
func isSubcommand(w string) bool {
	for i, r := range w {
		if !('a' <= r && r <= 'z' || i > 0 && ('0' <= r && r <= '9' || r == '-')) {
			return false
		}
	}
	return w != ""
}

// appendSegment appends the items of a segment's messages, sized, and
// returns the thinking budget the last prompt among them asked for (ok:
// one did).
func (tc *TraceCall) appendSegment(th *replay.Thread, sz *sizing.Sizes, seg sizing.Segment, tools map[string]replay.ToolCall, files fileSizes) (thinking int64, ok bool) {
	n := 0 // at most a message's blocks and its attachments' item
	for m := seg.From; m < seg.To; m++ {
		n += len(th.Messages[m].Blocks) + 1
	}
	tc.Items = make([]Item, 0, n)
	afterBoundary := false
	for m := seg.From; m < seg.To; m++ {
		if sz.Unsent[m] {
			continue
		}
		if tc.RealCompact != nil && m == tc.RealCompact.Msg {
			afterBoundary = true
		}
		if b, isPrompt := th.Messages[m].PromptBudget(); isPrompt {
			thinking, ok, tc.NewTurn = b, true, true
			tc.promptTime = th.Messages[m].Time
		}
		n := len(tc.Items)
		tc.Items = appendItems(tc.Items, &th.Messages[m], m, tools, files, afterBoundary)
		for b := range tc.Items[n:] {
			tc.Items[n+b].Tokens = sz.Blocks[m][b]
			tc.Items[n+b].Exact = sz.Exact[m]
		}
	}
	if c := tc.RealCompact; c != nil && c.CallsBefore == 0 {
		// A file that starts with a summary (a continued conversation)
		// starts every run from it: no policy could have done otherwise.
		for j := range tc.Items {
			tc.Items[j].Artifact = false
		}
	}
	if seg.Hidden > 0 {
		tc.Items = append(tc.Items, Item{Kind: KindHidden, Tokens: seg.Hidden, Msg: -1, Exact: true})
	}
	return thinking, ok
}

// markDateChanges sets DateChanged on the calls that begin a turn on
// another UTC date than the turn before: the date of the turn's prompt
// line, or of the call's recorded timestamp where the prompt has none. The
// first call's date is the first system prompt's, whether or not a prompt
// precedes it.
func markDateChanges(calls []TraceCall) {
	date := func(ms int64) string { return time.UnixMilli(ms).UTC().Format(time.DateOnly) }
	prev := ""
	for i := range calls {
		c := &calls[i]
		if i > 0 && !c.NewTurn {
			continue
		}
		at := c.promptTime
		if at == 0 {
			at = c.Time - c.Ahead
		}
		if at == 0 {
			continue // no clock: the date is unknown, and so is the next turn's change
		}
		d := date(at)
		c.DateChanged = i > 0 && prev != "" && d != prev
		prev = d
	}
}

// systemEnd is where the model puts the system prompt's cache breakpoint:
// at SystemPrefix when that is known, else at the end of the overhead.
func (tr *Trace) systemEnd() int64 {
	if p := tr.SystemPrefix; p > 0 && p < tr.Overhead {
		return p
	}
	return tr.Overhead
}

// markPrefixReads marks the calls whose recorded cache read is above zero
// and ends inside the tools and system prompt (shorter than the overhead,
// or from a resumed conversation's restart on, than the new process's).
// The shortest on a model below the system prompt's end, the first
// call's read included, is the base prefix (BaseRead), which requests in
// other working directories keep warm. A read within the lifetime of the session's own entries after the
// previous call on its model, in the same directory, shows where its own
// system prompt ends (SysRead). On the previous call's model, items that
// carry at least twice their estimate at the session's ratio, more than
// the spread between messages explains, show the tools grew (ToolsGrowth).
// Only models with Anthropic's cache count: a compatible endpoint caches
// any prefix. docs/simulation.md has the evidence.
func (tr *Trace) markPrefixReads() {
	upper := tr.systemEnd()
	base, sys := map[string]int64{}, map[string]int64{}
	if c := WarmStart(tr.Calls); c != nil && tr.SystemPrefixSource == PrefixFromFirstRead {
		base[c.Model] = c.Usage.CacheRead
	}
	last := map[string]int64{} // each model's previous call's time
	overhead := tr.Overhead
	for i := range tr.Calls {
		c := &tr.Calls[i]
		prev := last[c.Model]
		last[c.Model] = c.Time
		if c.Restarted {
			// A new process builds its own tools and system prompt.
			g, _ := tr.growth(c)
			overhead = max(overhead, tr.Overhead+g)
		}
		r, b := c.Usage.CacheRead, base[c.Model]
		if r <= 0 || r >= overhead || !claudecode.BillsCacheWrites(c.Model) {
			continue
		}
		if g, est := tr.growth(c); i > 0 && tr.Calls[i-1].Model == c.Model && g >= est {
			c.ToolsGrowth = g
		}
		if r < upper && (b == 0 || r < b) {
			base[c.Model], c.BaseRead = r, true
		}
		// Within the lifetime of the session's own entries (with the
		// clock's slack the cache model reads them with by default,
		// DefaultClockSlack: a trace is prepared before any run's
		// Config) a fallback reads
		// the session's own breakpoint; after it, only what other requests
		// keep warm. A new directory reads about the base.
		within := prev > 0 && c.Time > prev && c.Time-prev <= (tr.TTL+DefaultClockSlack).Milliseconds()
		cur, ok := sys[c.Model]
		if !ok {
			cur = upper // the prefix the model takes until a read shows another
		}
		if within && !c.CwdChanged && !(c.DateChanged && claudecode.DateUTC.In(c.Version)) && r != cur {
			sys[c.Model], c.SysRead = r, true
		}
		c.AllowedChanged = c.allowedChanged()
	}
}

// allowedChanged reports whether call c, whose recorded read fell back
// into the tools and system prompt (0 < read < Overhead, markPrefixReads
// checks), shows a tool allowed for good in the turn before
// (TraceCall.AllowedChanged). Where the read stops is not checked against
// the base prefix the model knows: a warm first call's read can be a
// shorter prefix that other requests keep warm, and a resumed
// conversation's new process can bring other tools (MCP servers
// connected) and so another base; the read shows where the prompt
// changed.
func (c *TraceCall) allowedChanged() bool {
	return c.AfterAsk && claudecode.AllowedTools.In(c.Version) && !c.CwdChanged && !c.SkillsChanged &&
		!(c.DateChanged && claudecode.DateUTC.In(c.Version))
}

// growth is how much more than Claude Code's estimate of its items (est,
// at the session's ratio) call c added to the prompt. At the first call of
// a new process (a resumed conversation's, TraceCall.Restarted) that is
// the process's own tools and system prompt (the MCP servers it connects,
// its git status), which the first prompt's overhead does not measure;
// elsewhere, tools an MCP server brought (TraceCall.ToolsGrowth).
func (tr *Trace) growth(c *TraceCall) (g, est int64) {
	var got int64
	for _, it := range c.Items {
		got += it.Tokens
		est += tr.Estimate(it.Est)
	}
	return max(got-est, 0), est
}

// mainModel returns the model most of the trace's calls used, and
// mainVersion the Claude Code version most of them recorded.
// MainModel and MainVersion are the model and Claude Code version of most
// of the trace's calls.
func (tr *Trace) MainModel() string   { return tr.most(func(c *TraceCall) string { return c.Model }) }
func (tr *Trace) MainVersion() string { return tr.most(func(c *TraceCall) string { return c.Version }) }

// most returns the value of key most of the trace's calls have (of those
// with as many, the one that got there first).
func (tr *Trace) most(key func(*TraceCall) string) string {
	n := map[string]int{}
	main := ""
	for i := range tr.Calls {
		k := key(&tr.Calls[i])
		n[k]++
		if n[k] > n[main] {
			main = k
		}
	}
	return main
}

// Where Trace.SystemPrefix came from.
const (
	PrefixFromFirstRead = "first call's cache read"
	PrefixFromOverhead  = "first prompt less its messages"
)

// SystemPrefixOf returns the size of the system prompt prefix and how it
// was found. The only cached prefix another session can share with this
// one ends at the system prompt's breakpoint: past it come the session's
// own messages. So when the session's first call read from the cache
// (usage.cache_read_input_tokens above 0) less than the context before its
// first message, that read is the system prompt prefix, kept warm by the
// user's other sessions. In the 10 sessions of the transcripts the project
// tests against whose first call read so, 64 later calls read more than
// nothing and less than that context: 13 read exactly the first call's
// read, and all 64 are closer to it than to the whole context. Without
// such a read the prefix is the whole context before the first message,
// which overstates it by what Claude Code adds to that message.
func SystemPrefixOf(overhead int64, calls []TraceCall) (int64, string) {
	if c := WarmStart(calls); c != nil && c.Usage.CacheRead < overhead {
		return c.Usage.CacheRead, PrefixFromFirstRead
	}
	return overhead, PrefixFromOverhead
}

// MissOnly reports whether a call to a model reached through a compatible
// endpoint recorded less input than cache read, which proves the
// endpoint reports as input only what it did not read.
func MissOnly(calls []TraceCall) bool {
	for i := range calls {
		if u := calls[i].Usage; !claudecode.BillsCacheWrites(calls[i].Model) && u.Input < u.CacheRead {
			return true
		}
	}
	return false
}

// attachSide gives each side request to the first call after it.
func attachSide(calls []TraceCall, side []replay.SideRequest) {
	i := 0
	for _, sr := range side {
		for i < len(calls) && calls[i].Index < sr.CallsBefore {
			i++
		}
		if i == len(calls) {
			return // after the last call: nothing follows it to read the cache
		}
		calls[i].Side = append(calls[i].Side, sr)
	}
}

// appendItems turns one message into context items.
func appendItems(items []Item, m *replay.Message, mi int, tools map[string]replay.ToolCall, files fileSizes, afterBoundary bool) []Item {
	if m.Role == replay.RoleAttachment {
		return append(items, Item{Kind: KindAttachment, Est: m.AttachmentEst, Raw: replay.Estimate(m.AttachmentChars), Msg: mi, Artifact: afterBoundary})
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
			it.Images, it.Docs, it.Chars = int32(b.Images), int32(b.Documents), b.Chars
			if t, ok := tools[b.ToolID]; ok {
				it.Tool, it.Path = t.Name, t.Input.FilePath
				if it.Path != "" && !b.IsError {
					it.File, it.Wrote = files.After(&t)
					it.Whole = wholeText(&t)
				}
			}
		default:
			it.Kind = KindImage // an image, a document or a newer kind of block
			switch b.Kind {
			case replay.BlockImage:
				it.Images = 1
			case replay.BlockDocument:
				it.Docs = 1
			}
		}
		items = append(items, it)
	}
	return items
}

// Estimate sizes est units of Claude Code's estimate in tokens, at the
// session's calibrated ratio.
func (tr *Trace) Estimate(est int) int64 {
	return sizing.AtRatio(int64(est), tr.Ratio)
}
