package replay

import (
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/replay/transcript"
)

// Session is one Claude Code conversation: a main transcript file and the
// sub-agent transcripts attached to it, reconstructed into threads.
type Session struct {
	// ID is the transcript's file name without ".jsonl" (the sessionId for
	// files Claude Code wrote), or "-" for standard input.
	ID   string
	Path string
	// Project is the directory name under projects/ (the encoded cwd).
	Project string
	// SessionIDs lists the sessionId values in order of first appearance;
	// more than one means the file was resumed or continued.
	SessionIDs []string
	// ContinuedIn is the session whose file continues this one after an
	// auto-compaction past its last call (Source.ContinuedIn), or "".
	ContinuedIn string
	Versions    []string // CLI versions, in version order ("2.1.9" before "2.1.41")
	Models      []string // models of the calls, sorted

	Main   *Thread
	Agents []*Thread // in file order: inline sidechains, then agent files sorted by path
	// Auxiliary is set when the session is an auxiliary agent file read
	// without its parent session (a compaction summariser's fork, a /btw
	// aside question, a prompt suggestion): one side request of a session
	// that is not in the input, not a conversation of its own.
	Auxiliary ThreadKind

	Resumes []Resume
	// Warnings are the lines that could not be read, in file order.
	Warnings []*SyntaxError
	Stats    Stats // summed over every file of the session
	// ReplayedLines counts lines skipped because their uuid was already
	// read in this session (resume copies, /btw aside files).
	ReplayedLines int
}

// Threads returns the main thread followed by the agents.
func (s *Session) Threads() []*Thread {
	return append([]*Thread{s.Main}, s.Agents...)
}

// Start and End give the first and last timestamp seen, Unix ms (0 when none).
func (s *Session) Start() int64 {
	var t int64
	for _, th := range s.Threads() {
		if th.Start > 0 && (t == 0 || th.Start < t) {
			t = th.Start
		}
	}
	return t
}

func (s *Session) End() int64 {
	var t int64
	for _, th := range s.Threads() {
		if th.End > t {
			t = th.End
		}
	}
	return t
}

// ThreadKind says what a thread is.
type ThreadKind string

const (
	KindMain      ThreadKind = "main"
	KindAgent     ThreadKind = "agent"      // a Task/Agent sub-agent file
	KindSidechain ThreadKind = "sidechain"  // 1.0.x inline sub-agent
	KindAside     ThreadKind = "aside"      // /btw aside question (agent-aside_question-*)
	KindCompact   ThreadKind = "compact"    // the compaction summariser's fork (agent-acompact-*)
	KindSuggest   ThreadKind = "suggestion" // prompt suggestion fork (agent-aprompt_suggestion-*)
)

// IsAuxiliary reports whether a thread kind is a side request of its parent
// session rather than a conversation (a Task sub-agent or a sidechain).
func (k ThreadKind) IsAuxiliary() bool {
	return k == KindAside || k == KindCompact || k == KindSuggest
}

func agentKind(agentID string) ThreadKind {
	switch {
	case strings.HasPrefix(agentID, "aside_question"):
		return KindAside
	case strings.HasPrefix(agentID, "acompact"):
		return KindCompact
	case strings.HasPrefix(agentID, "aprompt_suggestion"):
		return KindSuggest
	}
	return KindAgent
}

// Thread is one sequence of API calls: the main conversation or one agent.
// Its slices are in the order the lines appear.
type Thread struct {
	Kind    ThreadKind
	AgentID string // "" for the main thread; "sidechain-N" for inline sidechains
	Path    string

	Messages    []Message
	Calls       []Call
	Tools       []ToolCall
	Compactions []Compaction
	// SideRequests are requests Claude Code sent on the thread's
	// conversation without adding to it, as far as the transcript shows
	// them.
	SideRequests []SideRequest

	// ParentTool is the id of the Task/Agent tool_use in the main thread that
	// started this agent, when the link is known.
	ParentTool string

	Start, End int64

	// OrphanResults counts tool_result blocks with no tool_use in the thread.
	OrphanResults int

	toolIndex map[string]int
	// msgIndex finds an assistant message by its call key. A call is opened
	// by the first line of its message, so the message also gives the call.
	msgIndex map[callID]int
}

// Role of a message.
type Role uint8

const (
	RoleUser Role = iota
	RoleAssistant
	RoleAttachment
)

// Message is a user line, an API response (all its sibling lines merged),
// or an attachment.
type Message struct {
	Role      Role
	Line      int // first line
	Time      int64
	SessionID string
	// Call is the index in Thread.Calls of an assistant message's API call,
	// -1 otherwise.
	Call           int
	Meta           bool
	CompactSummary bool
	StringContent  bool
	Blocks         []Block
	AttachmentType string
	// AttachmentChars is the JavaScript length of the attachment's JSON,
	// and AttachmentEst Claude Code's estimate of what it sends the model:
	// nothing for the kinds only its interface shows, claudecode.ImageTokens per
	// image.
	AttachmentChars, AttachmentEst int
	// Cwd is the working directory recorded on a user message's line.
	Cwd string
}

// Call is one API request and response, deduplicated over the lines that
// carry it.
type Call struct {
	MessageID string
	RequestID string
	Model     string
	Version   string
	SessionID string
	Line      int   // first line
	Time      int64 // first line's timestamp
	// Clock is Time moved forward where the tools' recorded run times
	// prove that more time passed (Thread.setClocks); the cache's idle
	// gaps are measured on it.
	Clock int64
	Msg   int // index in Thread.Messages
	// Usage is the record with the most tokens among the call's lines.
	Usage Usage
	// UsageTime is the timestamp of the line Usage comes from, which
	// ccusage dates a call by: a 1.0.x response split over lines that
	// straddle an hour starts its billing block at the later hour.
	UsageTime int64
	// HasUsage is false for responses written without usage.
	HasUsage bool
	// OutputLowerBound marks output counts that Claude Code 2.1.9–2.1.41
	// wrote as message_start placeholders (the usage of a response's first
	// line, repeated on its later lines).
	OutputLowerBound bool
	Synthetic        bool // model "<synthetic>": written locally, never sent
	APIError         bool
	// Duplicate marks a call whose (message.id, requestId) was already
	// counted in an earlier thread of the session; it adds no usage.
	Duplicate bool
	// Restart marks the first call of a new Claude Code process after a
	// resumed conversation's copied lines (Thread.markRestarts).
	Restart bool
	// CwdChanged marks the first call of a turn begun in another working
	// directory than the last sent call's (Thread.markCwdChanges).
	CwdChanged bool
	// SkillsChanged marks the second call sent after a response whose
	// tool wrote a skill's SKILL.md (Thread.markSkillChanges).
	SkillsChanged bool
}

// Sent reports whether a call went to the API: a <synthetic> or API-error
// line was written locally, and a duplicate was counted elsewhere.
func (c *Call) Sent() bool { return !c.Synthetic && !c.Duplicate && !c.APIError }

// Counted reports whether the call adds usage to the session: it has usage
// and is neither a duplicate of another thread's call nor a line written
// locally (<synthetic>).
func (c *Call) Counted() bool { return c.HasUsage && !c.Duplicate && !c.Synthetic }

// SkillListChanged reports whether the call was sent with a skill list
// that a skill written in the session changed: SkillsChanged marks it, on
// a version that reloads the skills while a session runs
// (claudecode.SkillsReload).
func (c *Call) SkillListChanged() bool {
	return c.SkillsChanged && claudecode.SkillsReload.In(c.Version)
}

// Key is the deduplication key: message.id and requestId, or message.id
// alone when the line has no requestId, as ccusage keys them.
func (c *Call) Key() string { return CallKey(c.MessageID, c.RequestID) }

// CallKey builds a Call.Key.
func CallKey(messageID, requestID string) string {
	if requestID == "" {
		return messageID
	}
	return messageID + "\x00" + requestID
}

// callID is a call's key (CallKey) as the loader's maps hold it: the two
// ids side by side, so that looking a line up builds no string. Two
// callIDs are equal when their CallKeys are, unless an id holds a NUL
// character, which Anthropic's message and request ids never do.
type callID struct{ msg, req string }

// ToolCall pairs a tool_use with its tool_result.
type ToolCall struct {
	ID    string
	Name  string
	Input ToolInput
	// InputChars/InputEst size the tool_use block.
	InputChars, InputEst int
	UseMsg               int // index of the assistant message holding the tool_use
	Call                 int // index of the call that issued it
	HasResult            bool
	ResultMsg            int // index of the user message holding the result
	ResultChars          int
	ResultEst            int
	ResultHash           uint64
	IsError              bool
	// AgentID is toolUseResult.agentId on the result: the agent it ran.
	AgentID string
	// Duration is how long the tool ran, in ms, as its result records it
	// (transcript.Entry.ResultDurationMs); 0 when not recorded.
	Duration int64
	// File is what the result records of a file tool's file
	// (transcript.Entry.ResultFile).
	File FileFacts
}

// CompactionKind says which mechanism left a compaction in the transcript.
type CompactionKind string

const (
	// CompactFull is a 2.0.60+ compact_boundary line.
	CompactFull CompactionKind = "compact"
	// CompactSummaryOnly is a 1.0.x compaction: only the summary user line
	// (isCompactSummary, parentUuid null) marks it.
	CompactSummaryOnly CompactionKind = "summary"
	// CompactMicro is a microcompact_boundary line.
	CompactMicro CompactionKind = "microcompact"
)

// Compaction is a compaction observed in a thread.
type Compaction struct {
	Kind CompactionKind
	// Trigger is "auto", "manual", or "" when the transcript does not say;
	// TriggerFrom says what in the transcript says it (docs/session-model.md,
	// "Which compactions were automatic").
	Trigger     string
	TriggerFrom TriggerSource
	// Continued marks the summary a thread goes on from rather than a
	// compaction made in it: one before the thread's first call (a file
	// that starts from a summary) or one stamped earlier than a line before
	// it (copied in from another conversation by a resume).
	Continued bool
	Line      int
	Time      int64
	// UUID is the uuid of the line that records it (the boundary, or the
	// 1.0.x summary message): another file that shows the same compaction
	// (the file Claude Code 1.0.x went on in, a resumed copy) has it too.
	UUID string
	// Msg is the index of the first message after the compaction: messages
	// before it had been summarised or (micro) partly cleared.
	Msg int
	// CallsBefore is the number of calls in the thread before the compaction.
	CallsBefore int
	PreTokens   int64 // compactMetadata.preTokens (0 when absent)
	PostTokens  int64 // compactMetadata.postTokens (2.1.114+)
	DurationMs  int64
	// SummaryChars/SummaryEst size the summary message (full compactions).
	SummaryChars, SummaryEst int
	SummaryLine              int
	// Micro-compaction.
	TokensSaved      int64
	CompactedToolIDs []string

	command bool   // a /compact typed in the compaction's stretch (builder.linkCompact)
	said    string // the trigger the summary's text shows (summaryTrigger)
	early   bool   // stamped earlier than a line before it
}

// TriggerSource says what in the transcript gives a compaction's trigger.
type TriggerSource string

const (
	// TriggerRecorded is compactMetadata.trigger (compact_boundary and
	// microcompact_boundary lines, Claude Code 1.0.106+).
	TriggerRecorded TriggerSource = "metadata"
	// TriggerCommand is a /compact command line in the compaction's
	// stretch: "manual".
	TriggerCommand TriggerSource = "command"
	// TriggerSummaryText is the summary's text (transcript.SummaryText), read for the
	// versions that write no boundary.
	TriggerSummaryText TriggerSource = "summary"
)

// settle decides what the builder gathered: whether the compaction is the
// summary the thread goes on from, and its trigger where no
// compactMetadata records it, from the /compact typed in its stretch, else
// from the summary's text.
func (c *Compaction) settle() {
	defer func() { c.command, c.said, c.early = false, "", false }()
	if c.Kind == CompactMicro {
		if c.Trigger != "" {
			c.TriggerFrom = TriggerRecorded
		}
		return
	}
	c.Continued = c.CallsBefore == 0 || c.early
	switch {
	case c.Trigger != "":
		c.TriggerFrom = TriggerRecorded
	case c.command:
		c.Trigger, c.TriggerFrom = "manual", TriggerCommand
	case c.said != "":
		c.Trigger, c.TriggerFrom = c.said, TriggerSummaryText
	}
}

// summaryTrigger is the trigger a summary's text shows where Claude Code
// writes no compact_boundary (claudecode.SummarySaysAuto): "auto" for a
// summary that ends with the instruction to go on, "manual" for one
// without it. From 1.0.106 the boundary records the trigger, and later
// 2.1.x leave the sentence out of automatic summaries too, so the text
// says nothing there.
func summaryTrigger(t transcript.SummaryText, version string) string {
	if !claudecode.SummarySaysAuto.In(version) {
		return ""
	}
	switch t {
	case transcript.SummaryGoOn:
		return "auto"
	case transcript.SummaryPlain:
		return "manual"
	}
	return ""
}

// SideRequest is a request Claude Code sent on a thread's conversation
// whose response did not join it: the away summary (a system line of
// subtype away_summary, Claude Code 2.1.x's recap shown when the user comes
// back, "disable recaps in /config") sends the conversation so far and a
// request for a recap. Its usage is not recorded.
type SideRequest struct {
	Kind string // the system subtype: "away_summary"
	Line int
	Time int64
	// CallsBefore is the number of calls in the thread before it.
	CallsBefore int
}

// Resume marks where a new sessionId starts in the main file.
type Resume struct {
	SessionID string
	Line      int
	Time      int64
	Msg       int
	Calls     int // calls before it
}

// builder turns the entries of one session's files into a Session.
type builder struct {
	s         *Session
	seenUUID  map[string]struct{}
	callOwner map[callID]*Thread // call key → thread holding the counted copy
	versions  map[string]struct{}
	models    map[string]struct{}
	sids      map[string]struct{}
	// inline sidechains: uuid → thread
	chainOf  map[string]*Thread
	lastSide *Thread
	// lastSID is the sessionId of the previous main-thread line (Resumes).
	lastSID string
	// compactOf links the uuid of each line of a compaction's stretch to
	// the compaction (linkCompact), and typed holds, per thread, the time
	// of a /compact with no response or prompt after it yet.
	compactOf map[string]compactRef
	typed     map[*Thread]int64
}

// compactRef is a compaction of a thread, by index.
type compactRef struct {
	th *Thread
	i  int
}

func newBuilder(path string) *builder {
	s := &Session{Path: path}
	s.Main = newThread(KindMain, "", path)
	s.Stats = Stats{Types: map[string]int{}, Unknown: map[string]int{}}
	return &builder{
		s:         s,
		seenUUID:  map[string]struct{}{},
		callOwner: map[callID]*Thread{},
		versions:  map[string]struct{}{},
		models:    map[string]struct{}{},
		sids:      map[string]struct{}{},
		chainOf:   map[string]*Thread{},
		compactOf: map[string]compactRef{},
		typed:     map[*Thread]int64{},
	}
}

// reserve sizes the lists and indexes a file of size bytes fills (th nil:
// the main thread), so they are not regrown and rehashed line after line.
// The guesses are about what transcripts hold per byte (a line every 2-3
// KB, a call and a tool call every 6-17 KB); a guess too high costs a few
// percent of the file's size in memory, one too low only growth.
func (b *builder) reserve(th *Thread, size int64) {
	if th == nil {
		th = b.s.Main
	}
	lines := int(min(size/2048, 1<<20))
	calls := lines / 4
	if len(b.seenUUID) == 0 {
		b.seenUUID = make(map[string]struct{}, lines)
	}
	if len(th.Messages) == 0 {
		th.Messages = make([]Message, 0, lines)
		th.msgIndex = make(map[callID]int, calls)
	}
	if len(th.Calls) == 0 {
		th.Calls = make([]Call, 0, calls)
	}
	if len(th.Tools) == 0 {
		th.Tools = make([]ToolCall, 0, calls)
		th.toolIndex = make(map[string]int, calls)
	}
}

func newThread(kind ThreadKind, agentID, path string) *Thread {
	return &Thread{
		Kind: kind, AgentID: agentID, Path: path,
		toolIndex: map[string]int{}, msgIndex: map[callID]int{},
	}
}

// add routes one entry of the main file (th == nil) or of an agent file.
func (b *builder) add(e *transcript.Entry, th *Thread) {
	if e.UUID != "" {
		if _, dup := b.seenUUID[e.UUID]; dup {
			b.s.ReplayedLines++
			return
		}
		b.seenUUID[e.UUID] = struct{}{}
	}
	if th == nil {
		th = b.s.Main
		if e.Sidechain {
			th = b.sidechain(e)
		}
	}
	if e.Version != "" {
		b.versions[e.Version] = struct{}{}
	}
	if e.SessionID != "" && th == b.s.Main {
		b.noteSession(e, th)
	}
	early := e.Time > 0 && e.Time < th.End
	n := len(th.Compactions)
	if e.Time > 0 {
		if th.Start == 0 || e.Time < th.Start {
			th.Start = e.Time
		}
		if e.Time > th.End {
			th.End = e.Time
		}
	}
	switch e.Type {
	case "assistant":
		b.assistant(e, th)
	case "user":
		b.user(e, th)
	case "attachment":
		th.Messages = append(th.Messages, Message{
			Role: RoleAttachment, Line: e.Line, Time: e.Time, SessionID: e.SessionID, Call: -1,
			AttachmentType: e.AttachmentType, AttachmentChars: e.AttachmentChars, AttachmentEst: e.AttachmentEst,
		})
	case "system":
		switch e.Subtype {
		case "compact_boundary", "microcompact_boundary":
			c := Compaction{Kind: CompactFull, Line: e.Line, Time: e.Time, UUID: e.UUID, Msg: len(th.Messages), CallsBefore: len(th.Calls)}
			if e.Subtype == "microcompact_boundary" {
				c.Kind = CompactMicro
			}
			if m := e.Compact; m != nil {
				c.Trigger, c.PreTokens, c.PostTokens, c.DurationMs = m.Trigger, m.PreTokens, m.PostTokens, m.DurationMs
				c.TokensSaved, c.CompactedToolIDs = m.TokensSaved, m.CompactedToolIDs
			}
			th.Compactions = append(th.Compactions, c)
		case "away_summary":
			th.SideRequests = append(th.SideRequests, SideRequest{Kind: e.Subtype, Line: e.Line, Time: e.Time, CallsBefore: len(th.Calls)})
		}
	}
	if len(th.Compactions) > n {
		th.Compactions[n].early = early
	}
	b.linkCompact(e, th, n)
}

// linkCompact finds the /compact that made a compaction, in either order
// Claude Code writes them. A compaction's stretch is its lines and those
// that follow them by parentUuid up to a response or a prompt: Claude
// Code 1.0.x and 2.x write the summary (after its compact_boundary) and
// then, linked to it, the /compact's own lines (the caveat, the
// <command-name>/compact line stamped when it was typed, the "Compacted"
// output). A /compact line with no response or typed prompt between it
// and the compaction that follows is that compaction's too. Either way
// the command was typed, by its timestamp, no later than the compaction.
// n is the thread's count of compactions before e.
func (b *builder) linkCompact(e *transcript.Entry, th *Thread, n int) {
	ref, linked := b.compactOf[e.ParentUUID]
	linked = linked && e.ParentUUID != "" && ref.th == th
	switch {
	case len(th.Compactions) > n && th.Compactions[n].Kind != CompactMicro:
		ref, linked = compactRef{th, n}, true
		if t, ok := b.typed[th]; ok {
			b.noteCommand(ref, t)
			delete(b.typed, th)
		}
	case e.CompactSummary && n > 0 && th.Compactions[n-1].SummaryLine == e.Line:
		ref, linked = compactRef{th, n - 1}, true // the summary after a boundary
	case e.Type == "assistant" || startsTurn(e):
		delete(b.typed, th)
		return
	case compactCommand(e):
		if linked {
			b.noteCommand(ref, e.Time)
		} else {
			b.typed[th] = e.Time
		}
	}
	if linked && e.UUID != "" {
		b.compactOf[e.UUID] = ref
	}
}

// noteCommand records a /compact typed at time t (Unix ms, 0 when
// unknown) as the cause of the compaction ref, unless it was typed after
// the compaction.
func (b *builder) noteCommand(ref compactRef, t int64) {
	c := &ref.th.Compactions[ref.i]
	if t == 0 || c.Time == 0 || t <= c.Time {
		c.command = true
	}
}

// compactCommand reports whether e is the line of a /compact command:
// "<command-name>/compact</command-name>" with its message and arguments.
func compactCommand(e *transcript.Entry) bool {
	t := userText(e)
	return strings.HasPrefix(t, "<command-") && strings.Contains(t, "<command-name>/compact</command-name>")
}

// startsTurn reports whether e is a prompt the user typed (Message.Typed)
// that is not the line of a local command or its output, which Claude
// Code runs without a request: the prompt begins a turn.
func startsTurn(e *transcript.Entry) bool {
	if e.Type != "user" {
		return false
	}
	m := Message{Role: RoleUser, Meta: e.Meta, CompactSummary: e.CompactSummary, Blocks: e.Blocks}
	if !m.Typed() {
		return false
	}
	t := userText(e)
	for _, p := range []string{"<command-", "<local-command-", "<bash-"} {
		if strings.HasPrefix(t, p) {
			return false
		}
	}
	return true
}

// userText is the kept text of a user line's first text block, without
// leading white space.
func userText(e *transcript.Entry) string {
	if e.Type != "user" {
		return ""
	}
	for i := range e.Blocks {
		if e.Blocks[i].Kind == BlockText {
			return strings.TrimLeft(e.Blocks[i].Text, " \t\r\n")
		}
	}
	return ""
}

func (b *builder) noteSession(e *transcript.Entry, th *Thread) {
	if _, ok := b.sids[e.SessionID]; !ok {
		b.sids[e.SessionID] = struct{}{}
		b.s.SessionIDs = append(b.s.SessionIDs, e.SessionID)
	}
	if b.lastSID != "" && e.SessionID != b.lastSID {
		b.s.Resumes = append(b.s.Resumes, Resume{
			SessionID: e.SessionID, Line: e.Line, Time: e.Time, Msg: len(th.Messages), Calls: len(th.Calls),
		})
	}
	b.lastSID = e.SessionID
}

// sidechain finds the inline (1.0.x) sub-agent thread of a sidechain line by
// following parentUuid; a root line starts a new one. Parallel Task agents
// interleave their lines, so order alone would mix them.
func (b *builder) sidechain(e *transcript.Entry) *Thread {
	th := b.chainOf[e.ParentUUID]
	if th == nil && e.ParentUUID != "" {
		th = b.lastSide // parent line not in the file: keep with the latest chain
	}
	if th == nil || e.ParentNull {
		n := 0
		for _, a := range b.s.Agents {
			if a.Kind == KindSidechain {
				n++
			}
		}
		th = newThread(KindSidechain, "sidechain-"+strconv.Itoa(n+1), b.s.Path)
		b.s.Agents = append(b.s.Agents, th)
	}
	if e.UUID != "" {
		b.chainOf[e.UUID] = th
	}
	b.lastSide = th
	return th
}

func (b *builder) assistant(e *transcript.Entry, th *Thread) {
	// Sibling lines share message.id and requestId; the same message.id
	// under another requestId is another request. Lines
	// without a message.id are each a message of their own.
	key := callID{e.MessageID, e.RequestID}
	mi := -1
	if e.MessageID != "" {
		if i, ok := th.msgIndex[key]; ok {
			mi = i
		}
	}
	if mi < 0 {
		mi = len(th.Messages)
		th.Messages = append(th.Messages, Message{Role: RoleAssistant, Line: e.Line, Time: e.Time, SessionID: e.SessionID, Call: -1})
		if e.MessageID != "" {
			th.msgIndex[key] = mi
		}
	}
	m := &th.Messages[mi]
	if e.Usage != nil || e.MessageID != "" {
		m.Call = b.call(e, th, key, mi, m.Call)
	}
	if m.Blocks == nil && len(e.Blocks) > 0 {
		// Claude Code writes each block of a response as a line of its
		// own, two or three lines a response in the transcripts here:
		// room for four spares growing the slice line after line.
		m.Blocks = make([]Block, 0, max(len(e.Blocks), 4))
	}
	for _, bl := range e.Blocks {
		if bl.Kind == BlockToolUse {
			in := ToolInput{}
			if bl.Input != nil {
				in = *bl.Input
			}
			th.toolIndex[bl.ToolID] = len(th.Tools)
			th.Tools = append(th.Tools, ToolCall{
				ID: bl.ToolID, Name: bl.Name, Input: in, InputChars: bl.Chars, InputEst: bl.Est,
				UseMsg: mi, Call: m.Call, ResultMsg: -1,
			})
			bl.Input = nil // kept once, in Tools
		}
		m.Blocks = append(m.Blocks, bl)
	}
}

// call records the usage of one assistant line of message mi. The first line
// of a message opens its call (ci < 0); its sibling lines found the message
// by key, and with it the call ci, and keep the record with the most tokens.
// key is the line's call key; it has no message.id when the line has none.
func (b *builder) call(e *transcript.Entry, th *Thread, key callID, mi, ci int) int {
	if ci < 0 {
		ci = len(th.Calls)
		c := Call{
			MessageID: e.MessageID, RequestID: e.RequestID, Model: e.Model, Version: e.Version,
			SessionID: e.SessionID, Line: e.Line, Time: e.Time, Msg: mi,
			Synthetic: e.Model == claudecode.SyntheticModel.Value, APIError: e.APIError,
			OutputLowerBound: claudecode.PlaceholderOutput.In(e.Version),
		}
		if key.msg != "" {
			if owner, ok := b.callOwner[key]; ok && owner != th {
				c.Duplicate = true
			} else {
				b.callOwner[key] = th
			}
		}
		th.Calls = append(th.Calls, c)
		if e.Model != "" && !c.Synthetic {
			b.models[e.Model] = struct{}{}
		}
	}
	c := &th.Calls[ci]
	if e.Usage != nil && (!c.HasUsage || e.Usage.Total() > c.Usage.Total()) {
		c.Usage, c.HasUsage, c.UsageTime = *e.Usage, true, e.Time
	}
	return ci
}

func (b *builder) user(e *transcript.Entry, th *Thread) {
	mi := len(th.Messages)
	m := Message{
		Role: RoleUser, Line: e.Line, Time: e.Time, SessionID: e.SessionID, Call: -1,
		Meta: e.Meta, CompactSummary: e.CompactSummary, StringContent: e.StringContent, Blocks: e.Blocks,
		Cwd: e.Cwd,
	}
	th.Messages = append(th.Messages, m)
	for _, bl := range e.Blocks {
		if bl.Kind != BlockToolResult {
			continue
		}
		i, ok := th.toolIndex[bl.ToolID]
		if !ok {
			th.OrphanResults++
			continue
		}
		t := &th.Tools[i]
		t.HasResult, t.ResultMsg = true, mi
		t.ResultChars, t.ResultEst, t.ResultHash, t.IsError = bl.Chars, bl.Est, bl.Hash, bl.IsError
		if e.ResultAgentID != "" {
			t.AgentID = e.ResultAgentID
		}
		t.Duration = e.ResultDurationMs
		t.File = e.ResultFile
	}
	if e.CompactSummary {
		size := 0
		for _, bl := range e.Blocks {
			size += bl.Chars
		}
		n := len(th.Compactions)
		if n > 0 && th.Compactions[n-1].Kind == CompactFull && th.Compactions[n-1].SummaryLine == 0 && th.Compactions[n-1].Msg == mi {
			c := &th.Compactions[n-1]
			c.SummaryChars, c.SummaryEst, c.SummaryLine = size, Estimate(size), e.Line
			return
		}
		th.Compactions = append(th.Compactions, Compaction{
			Kind: CompactSummaryOnly, Line: e.Line, Time: e.Time, UUID: e.UUID, Msg: mi, CallsBefore: len(th.Calls),
			SummaryChars: size, SummaryEst: Estimate(size), SummaryLine: e.Line,
			said: summaryTrigger(e.Summary, e.Version),
		})
	}
}

// finish links agents to their Task calls and fills the session summary.
func (b *builder) finish() *Session {
	s := b.s
	byAgent := map[string]string{}
	for _, t := range s.Main.Tools {
		if t.AgentID != "" {
			byAgent[t.AgentID] = t.ID
		}
	}
	for _, a := range s.Agents {
		if id, ok := byAgent[a.AgentID]; ok {
			a.ParentTool = id
		}
	}
	for _, th := range s.Threads() {
		th.toolIndex, th.msgIndex = nil, nil
		for i := range th.Compactions {
			th.Compactions[i].settle()
		}
		th.setClocks()
		th.markRestarts()
		th.markCwdChanges()
		th.markSkillChanges()
	}
	s.Versions = sortedKeys(b.versions)
	sort.SliceStable(s.Versions, func(i, j int) bool { return claudecode.CompareVersions(s.Versions[i], s.Versions[j]) < 0 })
	s.Models = sortedKeys(b.models)
	return s
}

func sortedKeys(m map[string]struct{}) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// HasThinking reports whether m, a response, has a thinking block.
func (m *Message) HasThinking() bool {
	return slices.ContainsFunc(m.Blocks, func(b Block) bool { return b.Kind == BlockThinking })
}

// PromptBudget returns the thinking budget a user message sets by its
// keywords (claudecode.ThinkingBudget, the strongest phrase of its text
// blocks), and false when it sets none: it is not a prompt the user typed
// (Typed), so it starts no turn.
func (m *Message) PromptBudget() (int64, bool) {
	if !m.Typed() {
		return 0, false
	}
	var budget int64
	for _, b := range m.Blocks {
		if b.Kind == BlockText {
			budget = max(budget, claudecode.ThinkingBudget(b.Text))
		}
	}
	return budget, true
}

// Typed reports whether m is a prompt the user typed, which begins a turn:
// a user message with text that is not a tool result, a meta line, a
// compaction summary or the marker of an interruption.
func (m *Message) Typed() bool {
	if m.Role != RoleUser || m.Meta || m.CompactSummary {
		return false
	}
	text := false
	for _, b := range m.Blocks {
		switch b.Kind {
		case BlockToolResult:
			return false
		case BlockText:
			if !text && strings.HasPrefix(b.Text, "[Request interrupted") {
				return false
			}
			text = true
		}
	}
	return text
}

// markCwdChanges marks the first call of each turn whose prompt was typed
// in another working directory (the cwd of its line) than the turn of the
// last call sent. Claude Code names the working directory in the system
// prompt it builds when a turn begins, so the cached prefix breaks there.
// A directory changed within a turn (by a tool) does not count.
func (th *Thread) markCwdChanges() {
	cwd, sent := "", "" // the latest typed prompt's, and the last sent call's
	m := 0
	for i := range th.Calls {
		c := &th.Calls[i]
		typed := false
		for ; m < c.Msg; m++ {
			if msg := &th.Messages[m]; msg.Typed() {
				typed = true
				if msg.Cwd != "" {
					cwd = msg.Cwd
				}
			}
		}
		c.CwdChanged = typed && sent != "" && cwd != sent
		if c.Sent() && cwd != "" {
			sent = cwd
		}
	}
}

// markSkillChanges marks the second call sent after each call whose
// response wrote a skill's SKILL.md without error. Claude Code lists the
// skills in the prompt ahead of the conversation and reloads them when
// one changes; the call right after the write was sent with the old list
// (docs/simulation.md gives the transcript).
func (th *Thread) markSkillChanges() {
	for i := range th.Tools {
		t := &th.Tools[i]
		if !t.HasResult || t.IsError || t.Call < 0 || !writesSkill(t) {
			continue
		}
		sent := 0
		for k := t.Call + 1; k < len(th.Calls); k++ {
			if th.Calls[k].Sent() {
				if sent++; sent == 2 {
					th.Calls[k].SkillsChanged = true
					break
				}
			}
		}
	}
}

// writesSkill reports whether a tool call writes a skill's SKILL.md in a
// Claude Code skills directory (~/.claude/skills/ or a project's
// .claude/skills/). Zed's Claude Code adapter names its file tools
// mcp__acp__Write and mcp__acp__Edit.
func writesSkill(t *ToolCall) bool {
	switch strings.TrimPrefix(t.Name, "mcp__acp__") {
	case "Write", "Edit", "MultiEdit":
	default:
		return false
	}
	p := strings.ReplaceAll(t.Input.FilePath, `\`, "/")
	dir, name := path.Split(p)
	return name == "SKILL.md" && strings.Contains(dir, "/.claude/skills/")
}

// Between reports whether pred holds for a call after call from, up to
// and including call to: for a call that follows from, whether something
// marked on the calls not sent or not counted in between applies to it.
func (th *Thread) Between(from, to int, pred func(*Call) bool) bool {
	for k := max(from+1, 0); k <= to && k < len(th.Calls); k++ {
		if pred(&th.Calls[k]) {
			return true
		}
	}
	return false
}

// Continues reports whether the thread begins with a compaction summary: a
// full compaction comes before its first sent call. Claude Code 1.0.x
// wrote a conversation it compacted on into a new transcript that begins
// with the summary, and a resumed one copies it from there (2.x compacts
// within the transcript). Such a conversation began in the session it
// continues: its second turn is long past, and its first call read a
// prefix its own compaction had just written, not one the user's other
// requests keep warm.
func (th *Thread) Continues() bool {
	first := slices.IndexFunc(th.Calls, func(c Call) bool { return c.Sent() })
	if first < 0 {
		return false
	}
	for _, comp := range th.Compactions {
		if comp.Msg > th.Calls[first].Msg {
			break
		}
		if comp.Kind != CompactMicro {
			return true
		}
	}
	return false
}

// markRestarts marks the calls that begin a new Claude Code process after
// a resumed conversation's copied lines. Claude Code 1.0.x resumed a
// conversation by writing its history into the new transcript at once:
// those responses share one timestamp, the time of the copy (two real
// responses never share a millisecond). The first call stamped later than
// such a stretch, with a timestamp of its own, is the resumed process's,
// and, as a call on a new version, it has lost the cached messages: the
// system prompt it sends is the new process's (its git status, Claude
// Code's "snapshot in time" taken when a conversation starts, is new).
func (th *Thread) markRestarts() {
	stamps := make(map[int64]int, len(th.Calls))
	for i := range th.Calls {
		stamps[th.Calls[i].Time]++
	}
	for i := 1; i < len(th.Calls); i++ {
		c, p := &th.Calls[i], &th.Calls[i-1]
		c.Restart = p.Time > 0 && stamps[p.Time] > 1 && c.Time > p.Time && stamps[c.Time] == 1
	}
}

// setClocks sets each call's Clock. A call cannot have been sent before the
// tools whose results it carries had run: its Clock is at least the issuing
// call's Clock plus the longest recorded run time (ToolCall.Duration) among
// them. Where the timestamps are right, they already say so and Clock is
// Time. Where they stop (a copied or resumed session writes many lines with
// one timestamp), a sub-agent that ran for minutes is the only evidence of
// the idle gap that expired the cache. A Clock moved forward stays ahead of
// the recorded times until they pass it; a call without a timestamp keeps
// none. The next later timestamp is not an upper bound: in a stopped
// stretch the stamps are the times the lines were written, after every
// response they copy (eb58ac6d's stopped stretch is followed 1 ms later by
// a line written then, while its sub-agents ran for minutes).
func (th *Thread) setClocks() {
	type bound struct {
		to, from int // the call that sends the result, and the one that asked
		d        int64
	}
	var bounds []bound
	for i := range th.Tools {
		t := &th.Tools[i]
		if !t.HasResult || t.Duration <= 0 || t.Call < 0 {
			continue
		}
		to := sort.Search(len(th.Calls), func(j int) bool { return th.Calls[j].Msg > t.ResultMsg })
		if to < len(th.Calls) && to > t.Call {
			bounds = append(bounds, bound{to: to, from: t.Call, d: t.Duration})
		}
	}
	sort.SliceStable(bounds, func(i, j int) bool { return bounds[i].to < bounds[j].to })
	k := 0
	for i := range th.Calls {
		c := &th.Calls[i]
		c.Clock = c.Time
		if c.Time == 0 {
			continue
		}
		if i > 0 {
			if p := &th.Calls[i-1]; p.Clock > p.Time && p.Time > 0 {
				c.Clock = max(c.Clock, p.Clock)
			}
		}
		for ; k < len(bounds) && bounds[k].to <= i; k++ {
			if b := bounds[k]; b.to == i {
				if from := th.Calls[b.from].Clock; from > 0 {
					c.Clock = max(c.Clock, from+b.d)
				}
			}
		}
	}
}
