package simulate

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/accounting/sizing"
	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate/item"
	"github.com/ctxlab/ctxlab/simulate/promptcache"
	"github.com/ctxlab/ctxlab/simulate/restore"
	"github.com/ctxlab/ctxlab/simulate/summary"
)

// Which runs replay the session's manual compactions (Config.ManualCompactions).
const (
	ManualClaudeCode = "claude-code" // the policies that model Claude Code (ManualReplayer)
	ManualAll        = "all"
	ManualNone       = "none"
)

// Config holds the simulation's parameters; the zero value of a field
// means its default.
type Config struct {
	Limits claudecode.LimitParams
	// TTL overrides the cache lifetime the session's writes show.
	TTL time.Duration
	// CacheEdits models server-side cache edits (context management):
	// clearing tool results does not break the cached prefix.
	CacheEdits bool
	// EstimateFrom is the first Claude Code version whose threshold count
	// adds an estimate of what followed the last response
	// (claudecode.Estimate).
	EstimateFrom string
	// ManualCompactions says which runs compact where the user ran
	// /compact (ManualClaudeCode, ManualAll, ManualNone).
	ManualCompactions string
	// EstimateResponseFrom is the first version whose count also
	// estimates the last response's blocks after its first
	// (claudecode.EstimateResponse).
	EstimateResponseFrom string
	// FinalOutputUntil and FinalOutputFrom bound the versions whose count
	// has a response's placeholder output rather than its final output
	// (claudecode.FinalOutputHeld, claudecode.FinalOutput); where the
	// count has the final output and the transcript may record a
	// placeholder, the model estimates it.
	FinalOutputUntil, FinalOutputFrom string
	// CountCutoffs are the versions from which Claude Code's estimate
	// weighs images, attachments and other blocks as it does
	// (claudecode.CountRulesFor).
	claudecode.CountCutoffs
	// TurnRules are the versions from or until which Claude Code, or the
	// API, rewrites the cached conversation when a user turn begins
	// (claudecode.TurnRules: a changed keyword thinking budget, the
	// session's second turn, thinking dropped, the first turn after a
	// compaction).
	claudecode.TurnRules
	// SharedPrefixTTL is how long the prefix up to the end of the system
	// prompt stays readable after the session's own last use when the
	// session's first call read from the cache (DefaultSharedPrefixTTL;
	// see keptWarm).
	SharedPrefixTTL time.Duration
	// SharedPrefixFrom is the first Claude Code version whose calls on a
	// new version still read the system prompt prefix
	// (claudecode.SharedPrefix).
	SharedPrefixFrom string
	// ColdStart starts every run with an empty cache and no prefix kept
	// warm by other requests. By default a run starts with the prefix the
	// session's first call read from the cache (WarmStart), and that read
	// keeps the system prompt prefix readable for SharedPrefixTTL.
	ColdStart bool
	// ClockSlack is how much later than its lifetime, by the transcript's
	// timestamps, a cache entry can still be read (DefaultClockSlack);
	// negative for none.
	ClockSlack time.Duration
	// GatewayTTL is the cache lifetime of models reached through an
	// Anthropic-compatible endpoint (DefaultGatewayTTL), and
	// GatewayCacheUnit the unit in which they cache a prompt
	// (DefaultGatewayCacheUnit).
	GatewayTTL       time.Duration
	GatewayCacheUnit int64
	// CacheEntries bounds the cache entries the model keeps
	// (promptcache.MaxEntries).
	CacheEntries int
	// MinCacheable is the minimum cacheable prefix by model
	// (claudecode.DefaultMinCacheable).
	MinCacheable []claudecode.MinPrefix
	// Breaks is the cache-break rule of Metrics.CacheBreaks (Claude Code's,
	// claudecode.DefaultBreakRule); the zero value means the default.
	Breaks     claudecode.BreakRule
	Summarizer summary.Summarizer
	Prices     *prices.Table
	// Restoration after a full compaction: up to RestoreFiles recent
	// files, RestoreFileTokens each (RestoreFileTokensOld before
	// RestoreReferenceFrom), RestoreTotalTokens in all
	// (claudecode.RestoreFiles, …); a negative value restores none.
	RestoreFiles         int
	RestoreFileTokens    int64
	RestoreFileTokensOld int64
	RestoreTotalTokens   int64
	// The versions from or until which restoration follows a rule:
	// RestoreWrittenFrom, files a tool wrote first
	// (claudecode.RestoreWritten); RestoreReferenceFrom, a file over the
	// limit as a note (claudecode.RestoreReference); RestoreSeedFrom, a
	// restarted process's files from history (claudecode.RestoreSeed);
	// SharedFilesUntil, sub-agents' files the session's
	// (claudecode.SharedFiles); PlanFileFrom, the plan file apart
	// (claudecode.PlanFile); RestoreEstimateFrom, the per-file limit on
	// Claude Code's estimate rather than the API's count (the model
	// assumes the count succeeds before it, and gives what a failed one
	// gives from it: claudecode.ReadCountFallback).
	RestoreWrittenFrom   string
	RestoreReferenceFrom string
	RestoreSeedFrom      string
	SharedFilesUntil     string
	PlanFileFrom         string
	RestoreEstimateFrom  string
	// PersistResultsFrom is the first Claude Code version that sends a
	// preview in place of a tool result over its tool's limit
	// (claudecode.PersistResults, claudecode.ResultLimitFor), and
	// PersistedChars the characters of the message it sends
	// (claudecode.PersistPreview and PersistedWrapper): the count weighs
	// such a result as that message (Config.sentEst).
	PersistResultsFrom string
	PersistedChars     int
	// ToolsGrowthMin is the least growth of the tools and system prompt
	// at a call (TraceCall.ToolsGrowth) that a full compaction keeps
	// (claudecode.MCPToolsLive): smaller ones can be the date or the
	// allowed tools, which the model follows otherwise; negative keeps none.
	ToolsGrowthMin int64
}

// DefaultConfig returns the defaults, every field set.
func DefaultConfig() Config { return Config{}.withDefaults() }

// layouts numbers the arrangements of every run (State.Layout).
var layouts atomic.Uint64

// relayout records that the items were removed, replaced or moved.
func (e *engine) relayout() { e.layout = layouts.Add(1) }

// Result is one policy's run over one session.
type Result struct {
	Policy  string            `json:"policy"`
	Session string            `json:"session"`
	Method  sizing.Method     `json:"method"`
	Limits  claudecode.Limits `json:"limits"`
	// CompactAt is the context at which the run's policy compacts, as of
	// the first call (Thresholder); 0 when it compacts at no threshold (it
	// has none, or its auto-compaction is off).
	CompactAt int64        `json:"compact_at,omitempty"`
	Calls     []CallResult `json:"calls"`
	// Summaries are the summarizer's calls (simulated compactions).
	Summaries []SummaryCall `json:"summaries"`
	Metrics   Metrics       `json:"metrics"`

	// LimitParams are the run's limit parameters (LimitsAt).
	LimitParams claudecode.LimitParams `json:"-"`
	// Compacted says where the run's compactions fell, for the fidelity
	// report.
	Compacted RunCompactions `json:"-"`

	keptWarm bool // the engine's keptWarm, for KeptWarm
}

// LimitsAt returns the limits the run applied at trace call i (each call's
// model and version set them).
func (r *Result) LimitsAt(tr *Trace, i int) claudecode.Limits {
	return claudecode.LimitsFor(tr.Inferred.With(r.LimitParams), tr.Calls[i].Model, tr.Calls[i].Version)
}

// KeptWarm reports whether the run kept the system prompt prefix warm
// past the session's own entries (Config.SharedPrefixTTL) at any call: the
// session's first call read it from a cache the user's other requests keep
// warm, and the call was on a model whose cache Anthropic bills (a
// compatible endpoint's lifetime is its own, Config.GatewayTTL).
func (r *Result) KeptWarm() bool { return r.keptWarm }

type engine struct {
	tr *Trace
	// keptWarm is set when the session's first call read from the cache
	// (WarmStart, unless ColdStart) and the transcript does not continue a
	// conversation from its summary (Trace.Continued): the user's other
	// requests keep the system prompt prefix warm, so it outlives the
	// session's own entries (Config.SharedPrefixTTL). Without that
	// evidence it lives as long as they do.
	keptWarm     bool
	cfg          Config
	rules        []versionRules // rulesOf's memo
	limitsMemo   []limitsEntry  // limitsFor's memo
	modelMemo    modelFacts     // modelOf's memo
	items        []Item
	layout       uint64 // State.Layout
	tokens       int64
	appendedFrom int
	edit         int64 // lowest position edited since the last call; -1 none
	actions      []string
	cache        *promptcache.Cache
	ttl          time.Duration
	placeholder  int64
	carried      []summary.UserMessage // user messages quoted by the latest summary
	res          *Result
	cleared      map[string]bool // paths whose content was removed (removed)
	rereads      int
	compactions  int
	micro        int
	freed        int64
	summaryTok   int64
	totalCost    float64 // the run's cost and the sub-agents', unrounded (sumSide)
	callsSince   int
	call         int
	trigger      int64
	now          int64
	prevTime     int64  // the previous call's time
	prevModel    string // and model
	prevMsg      int    // and its message; -1 before the first call
	lastPrompt   int64  // the previous call's prompt
	lastOutput   int64  // and output
	model        string
	compacted    bool // a compaction happened before this call
	// grown is the tools and system prompt's growth the calls appended
	// since the last full compaction carried (TraceCall.ToolsGrowth).
	grown int64
	// key is the cache key of this call's requests (cacheKey), prevKey
	// the previous call's; turnPos is where the latest turn's first
	// response begins (that turn's first prompt).
	key, prevKey string
	turnPos      int64
	// turns follows the trace's turns for the turn rules.
	turns      claudecode.Turns
	clearedNow bool  // content cleared or dropped before this call
	st         State // the policy's view of the current call (step)
	// sys is where the system prompt's cache breakpoint falls
	// (Trace.SystemPrefix). No entry lies between it and the end of the
	// overhead, so a rewrite of the conversation reads only up to it.
	sys int64
	// sysOf is where a recorded read showed the system prompt ends, per
	// model (TraceCall.SysRead); sys where none did.
	sysOf map[string]int64
	// files are the files Claude Code keeps, for the restoration after a
	// compaction (package restore).
	files restore.Files

	// shownRead is a prefix the recorded usage shows cached before the
	// next request (TraceCall.AllowedChanged), put under its cache key
	// when the request reads; 0 none.
	shownRead int64
}

// withDefaults returns the config with every zero field set to its
// default: the zero Config is DefaultConfig.
func (cfg Config) withDefaults() Config {
	if cfg.Prices == nil {
		cfg.Prices = prices.Default()
	}
	if cfg.Summarizer == (summary.Summarizer{}) {
		cfg.Summarizer = summary.DefaultSummarizer()
	}
	if cfg.Breaks == (claudecode.BreakRule{}) {
		cfg.Breaks = claudecode.DefaultBreakRule()
	}
	if cfg.MinCacheable == nil {
		cfg.MinCacheable = claudecode.DefaultMinCacheable()
	}
	for _, k := range cfg.cutoffs() {
		if *k.dst == "" {
			*k.dst = k.fromFact()
		}
	}
	if cfg.ManualCompactions == "" {
		cfg.ManualCompactions = ManualClaudeCode
	}
	if cfg.CacheEntries <= 0 {
		cfg.CacheEntries = promptcache.MaxEntries
	}
	if cfg.SharedPrefixTTL <= 0 {
		cfg.SharedPrefixTTL = DefaultSharedPrefixTTL
	}
	if cfg.ClockSlack == 0 {
		cfg.ClockSlack = DefaultClockSlack
	}
	if cfg.GatewayTTL <= 0 {
		cfg.GatewayTTL = DefaultGatewayTTL
	}
	if cfg.GatewayCacheUnit <= 0 {
		cfg.GatewayCacheUnit = DefaultGatewayCacheUnit
	}
	if cfg.RestoreFiles == 0 {
		cfg.RestoreFiles = claudecode.RestoreFiles.Value
	}
	if cfg.RestoreFileTokens == 0 {
		cfg.RestoreFileTokens = claudecode.RestoreFileTokens.Value
	}
	if cfg.RestoreFileTokensOld == 0 {
		cfg.RestoreFileTokensOld = claudecode.RestoreFileTokensOld.Value
	}
	if cfg.RestoreTotalTokens == 0 {
		cfg.RestoreTotalTokens = claudecode.RestoreTotalTokens.Value
	}
	if cfg.ToolsGrowthMin == 0 {
		cfg.ToolsGrowthMin = DefaultToolsGrowthMin
	}
	if cfg.PersistedChars <= 0 {
		cfg.PersistedChars = claudecode.PersistPreview.Value + claudecode.PersistedWrapper.Value
	}
	return cfg
}

// Run replays the trace under a policy. A zero field of cfg means its
// default.
func Run(tr *Trace, p Policy, cfg Config) *Result {
	e := newEngine(tr, p, cfg.withDefaults())
	obs := false
	if o, ok := p.(Observer); ok {
		obs = o.Observed()
	}
	for i := range tr.Calls {
		e.step(i, p, obs)
	}
	e.finish()
	e.res.Compacted.EndCount = e.lastPrompt + e.lastOutput
	if len(tr.Calls) > 0 {
		e.res.Limits = e.res.LimitsAt(tr, 0)
	}
	buf := e.items // nothing of the run refers to its context
	itemBuffers.Put(&buf)
	return e.res
}

// itemBuffers holds the context slices of finished runs for the next run:
// compare runs every policy over the same session, each with room for all
// of the session's items, and allocating (and zeroing) that room for each
// was a quarter of the bytes compare allocates. A reused slice's items
// past its length are stale and never read.
var itemBuffers = sync.Pool{New: func() any { return new([]Item) }}

func newEngine(tr *Trace, p Policy, cfg Config) *engine {
	ttl := tr.TTL
	if cfg.TTL > 0 {
		ttl = cfg.TTL
	}
	e := &engine{
		tr: tr, cfg: cfg, ttl: ttl, cache: promptcache.New(ttl, cfg.CacheEntries, cfg.ClockSlack),
		cleared: map[string]bool{}, edit: -1, prevMsg: -1,
		turns: claudecode.NewTurns(cfg.TurnRules, tr.Continued), // a continued conversation is past its second turn
		res:   &Result{Policy: p.Name(), Session: tr.Session, Method: tr.Method, Calls: make([]CallResult, 0, len(tr.Calls)), Summaries: []SummaryCall{}, LimitParams: cfg.Limits},
	}
	e.placeholder = tr.Estimate(replay.Estimate(len(claudecode.Placeholder.Value)))
	// Room for every item the trace appends, so the context is not
	// regrown call after call (a compaction replaces it with a smaller one).
	n := 1
	for i := range tr.Calls {
		n += len(tr.Calls[i].Items)
	}
	buf := *itemBuffers.Get().(*[]Item)
	if cap(buf) < n {
		buf = make([]Item, 0, n)
	}
	e.files = restore.New(cfg.restore(), tr.Thread, tr.AgentFiles, tr.Ratio)
	e.items = append(buf[:0], Item{Kind: KindOverhead, Tokens: tr.Overhead, Msg: -1, Exact: true})
	e.relayout()
	e.tokens = tr.Overhead
	e.sys = tr.systemEnd()
	if !cfg.ColdStart {
		if c := WarmStart(tr.Calls); c != nil {
			e.keptWarm = !tr.Continued
			e.cache.Warm(c.Model, c.Usage.CacheRead, c.Time)
			if tr.SystemPrefixSource == PrefixFromFirstRead {
				e.cache.Base = e.sys // the shortest prefix read so far
			}
		}
	}
	return e
}

// WarmStart returns the session's first measured call when it read from
// the cache (usage.cache_read_input_tokens above 0), else nil. What it read
// was cached before the session began, by the user's other sessions or by
// the session this one resumes, and every run starts with it: a policy
// cannot change the first prompt, so each run's first call finds that
// prefix too, and only later calls are the model's to predict.
func WarmStart(calls []TraceCall) *TraceCall {
	for i := range calls {
		if c := &calls[i]; c.Usage.Prompt() > 0 { // the first measured call
			if c.Usage.CacheRead > 0 {
				return c
			}
			return nil
		}
	}
	return nil
}

// step replays call i: the real compaction under observed, the call's new
// items, the policy's turn, the fit to the recorded prompt, the request.
func (e *engine) step(i int, p Policy, obs bool) {
	tc := &e.tr.Calls[i]
	rules := e.advance(i, tc, obs)
	st := e.newState(i, tc)
	e.callRewrites(i, tc, obs)
	e.policyTurn(i, tc, p, st, obs)
	e.request(tc, st.Limits, obs)
	if e.compacted {
		e.turns.Compacted()
	}
	e.settle(i, tc, rules)
}

// advance starts call i: the real compaction under observed, the items
// the call appends, what a new process or a lost prefix undoes, and the
// count Claude Code's auto-compact check reads (trigger). It returns the
// call's version rules.
func (e *engine) advance(i int, tc *TraceCall, obs bool) versionRules {
	tr := e.tr
	e.call, e.now, e.model = i, tc.Time, tc.Model
	e.ttl = e.callTTL(tc)
	e.actions = nil
	e.compacted, e.clearedNow = false, false
	if obs {
		e.applyReal(tc)
	}
	rules := e.rulesOf(tc.Version)
	made := "" // the version that ran the tools whose results follow
	if i > 0 {
		made = tr.Calls[i-1].Version
	}
	estAfter, estResponse := e.appendItems(tc, obs, rules, made)
	if e.restarted(i, tc) {
		// What this call appended came before the new process: the files
		// it keeps start over.
		e.files.AgentsUntil(tc.Time, tc.Version)
		e.files.Restart(tc.Version)
	}
	if tc.Shrink > 0 && !obs {
		// Whether the loss rewrote the conversation is known once the
		// call's cache key is (callRewrites).
		e.shrink(tc.Shrink, e.appendedFrom, false, e.restarted(i, tc))
	}
	e.trigger = e.lastPrompt + e.lastOutput
	if e.restarted(i, tc) {
		// A restarted Claude Code read the conversation back from its
		// transcript: its count has the output the transcript recorded.
		e.trigger = e.lastPrompt + tr.Calls[i-1].Usage.Output
	}
	if rules.estimateAfter {
		e.trigger += estAfter
	}
	if rules.estimateResponse {
		e.trigger += estResponse
	}
	if i == 0 {
		e.trigger = e.tokens
	}
	return rules
}

// newState refills the run's one State for call i: policies use it only
// during Before.
func (e *engine) newState(i int, tc *TraceCall) *State {
	tr := e.tr
	st := &e.st
	*st = State{
		Call: i, Time: tc.Time, Model: tc.Model, Version: tc.Version,
		Limits: e.limitsFor(tr.Inferred.With(e.res.LimitParams), tc.Model, tc.Version), Recorded: tc, TTL: e.ttl, Inferred: tr.Inferred, Micro: tr.Micro,
		CallsSinceCompact: e.callsSince, e: e,
	}
	if i > 0 && e.prevTime > 0 && tc.Time > 0 {
		st.GapMs = tc.Time - e.prevTime
	}
	return st
}

// callRewrites applies what call tc's requests rewrite in the cache: its
// side requests, the turn's rewrites, and a lost prefix under the call's
// cache key.
func (e *engine) callRewrites(i int, tc *TraceCall, obs bool) {
	e.sideRequests(tc)
	e.turnRewrites(i, tc)
	e.key = e.cacheKey(tc)
	if tc.Shrink > 0 && !obs && !e.thinkingSwitched() {
		e.markEdit(1)
	}
}

// policyTurn is the policy's turn at call i (after a replayed /compact,
// and the threshold it reports at the first call), then the fit to the
// recorded prompt under observed.
func (e *engine) policyTurn(i int, tc *TraceCall, p Policy, st *State, obs bool) {
	tr := e.tr
	e.sync(st)
	if c := tc.RealCompact; !obs && e.replaysManual(p) && c != nil && c.Trigger == "manual" && !c.Continued {
		st.Compact(Compaction{From: 1, To: len(st.Items), Restore: true, Label: "manual"})
	}
	if i == 0 {
		if t, ok := p.(Thresholder); ok {
			e.res.CompactAt = t.CompactAt(st)
		}
	}
	p.Before(st)
	if obs && tr.Method == sizing.MethodUsage && tc.Usage.Prompt() > 0 {
		e.fit(tc.Usage.Prompt(), tc.RealMicro == nil && !e.thinkingSwitched(), e.restarted(i, tc)) // a call without usage has nothing to fit
	}
}

// settle records what the next call reads of call i: the prompt and
// output Claude Code counts, the previous call's time, model, message and
// key, the turn's start, and the cached prefixes the call showed.
func (e *engine) settle(i int, tc *TraceCall, rules versionRules) {
	tr := e.tr
	e.lastPrompt, e.lastOutput = e.tokens, tc.Usage.Output
	switch {
	case rules.finalOutput && rules.unmarked:
		// The transcript may record a placeholder it does not mark,
		// where Claude Code counted the final output: Claude Code's own
		// estimate of the response stands in, one token a unit
		// (docs/simulation.md, "Windows and thresholds").
		e.lastOutput = max(e.lastOutput, tc.OutputEst)
	case rules.finalOutput && tc.OutputLowerBound:
		// Claude Code counted the final output, which the transcript's
		// placeholder does not show: its estimate stands in.
		e.lastOutput = max(e.lastOutput, tr.Estimate(int(tc.OutputEst)))
	}
	e.prevTime, e.prevModel, e.prevMsg, e.prevKey = tc.Time, tc.Model, tr.Thread.Calls[tc.Index].Msg, e.key
	if tc.NewTurn || i == 0 {
		e.turnPos = e.tokens
	}
	if tc.BaseRead {
		e.cache.ReadBase(tc.Usage.CacheRead, tc.Time)
	}
	if tc.SysRead {
		if e.sysOf == nil {
			e.sysOf = map[string]int64{}
		}
		e.sysOf[tc.Model] = tc.Usage.CacheRead
		e.cache.ReadSys(tc.Usage.CacheRead, tc.Time)
	}
	e.callsSince++
}

// restarted reports whether call i is the first of a new Claude Code
// process: a new version, or a resumed conversation's (TraceCall.Restarted).
func (e *engine) restarted(i int, tc *TraceCall) bool {
	return i > 0 && (tc.Restarted || e.newVersion(i, tc))
}

// newVersion reports whether call i is on another Claude Code version
// than the call before.
func (e *engine) newVersion(i int, tc *TraceCall) bool {
	return i > 0 && tc.Version != "" && e.tr.Calls[i-1].Version != "" && tc.Version != e.tr.Calls[i-1].Version
}

// replaysManual reports whether the run compacts where the user ran
// /compact (Config.ManualCompactions).
func (e *engine) replaysManual(p Policy) bool {
	switch e.cfg.ManualCompactions {
	case ManualAll:
		return true
	case ManualNone:
		return false
	}
	r, ok := p.(ManualReplayer)
	return ok && r.ReplaysManual()
}

// turnRewrites applies the rewrites Claude Code makes at the start of a
// turn. A new working directory changes the system prompt past the base
// prefix (cache.Base), and so does a new UTC date before 1.0.110, a
// skill written in the session at any call, and from 1.0.66 until 2.1.0 a
// tool allowed for good in the turn before, where the turn's recorded
// read shows it, at that read (TraceCall.AllowedChanged). A restarted Claude Code (a new version, or a resumed
// conversation) loses the cached messages; from SharedPrefixFrom, on
// Anthropic's cache, it still reads the system prompt prefix that the
// user's other requests keep warm. The turn rules (claudecode.Turns)
// rewrite the cached messages, except the model named in the system
// prompt: a turn on the model the previous turn fell back to breaks that
// model's entries at the base prefix, or at the system prompt's end while
// no call has shown one. docs/simulation.md ("The prompt cache") gives the
// transcripts behind each rule.
func (e *engine) turnRewrites(i int, tc *TraceCall) {
	if tc.CwdChanged {
		e.editAt(e.cache.Base)
		e.actions = append(e.actions, "working directory changed")
	}
	if tc.DateChanged && claudecode.DateUTC.In(tc.Version) {
		e.editAt(e.cache.Base)
		e.actions = append(e.actions, "the UTC date the system prompt names changed")
	}
	if tc.SkillsChanged {
		e.editAt(e.cache.Base)
		e.actions = append(e.actions, "a skill written in the session changed the skill list")
	}
	if tc.AllowedChanged {
		// The recorded read shows where the system prompt changed and
		// that the prefix before it was cached (kept warm by the
		// session's requests or the user's others): the tools and system
		// prompt, the same in every run.
		pos := tc.Usage.CacheRead
		e.shownRead = pos
		e.editAt(pos)
		e.actions = append(e.actions, "a tool allowed for good changed the system prompt's list of allowed tools")
	}
	rw := e.turns.Next(claudecode.TurnCall{Model: tc.Model, Version: tc.Version, NewTurn: tc.NewTurn, Budget: tc.Thinking, Thought: tc.Thought})
	if rw&claudecode.RewriteModelNamed != 0 {
		pos := e.cache.Base
		if pos == 0 {
			pos = e.sysFor(tc.Model)
		}
		e.cache.Forget(pos)
		e.actions = append(e.actions, "the system prompt names the model the previous turn switched to")
	}
	if e.restarted(i, tc) {
		newVersion := e.newVersion(i, tc)
		// A new process: its system prompt is its own (a new version's, or
		// a resumed conversation's new git status snapshot).
		if e.modelOf(tc.Model).bills && e.rulesOf(tc.Version).sharedPrefix {
			e.markEdit(1) // the messages, not the system prompt prefix
		} else {
			e.markEdit(0)
		}
		if newVersion {
			e.actions = append(e.actions, "Claude Code version changed")
		} else {
			e.actions = append(e.actions, "Claude Code restarted (a resumed conversation)")
		}
	}
	// The other rules rewrite the cached messages, not the system prompt.
	// A changed thinking budget takes the cache key of the new one
	// (cacheKey), whose messages are cached apart; before
	// ThinkingKeywordsUntil only a keyword turn thinks, so the thinking
	// the API drops is in the previous turn's responses, from where that
	// turn began.
	for _, r := range messageRewrites {
		if rw&r.rw == 0 {
			continue
		}
		switch {
		case r.rw == claudecode.RewriteThinkingBudget:
		case r.rw == claudecode.RewriteThinkingDropped && e.turns.Keywords(tc.Version):
			e.editAt(min(e.turnPos, e.tokens))
		default:
			e.markEdit(1)
		}
		e.actions = append(e.actions, r.action)
	}
}

// cacheKey is the cache key of call tc's requests: its model, and before
// ThinkingKeywordsUntil (on this call's version and the one before) the
// keyword thinking budget of its turn.
func (e *engine) cacheKey(tc *TraceCall) string {
	prev := tc.Version
	if e.call > 0 {
		prev = e.tr.Calls[e.call-1].Version
	}
	if e.turns.Keywords(tc.Version) && e.turns.Keywords(prev) {
		return promptcache.ThinkingKey(tc.Model, e.turns.Budget())
	}
	return tc.Model
}

// thinkingSwitched reports whether this call's requests run with another
// thinking budget than the previous call's, on the same model: a prompt
// smaller than the previous one is then no rewrite of the conversation,
// since the previous request carried what thinking adds to it.
func (e *engine) thinkingSwitched() bool {
	return e.prevKey != "" && e.key != e.prevKey && promptcache.ModelOf(e.key) == promptcache.ModelOf(e.prevKey)
}

// messageRewrites are the turn rules that rewrite the cached messages,
// with the action each writes in a call's row.
var messageRewrites = []struct {
	rw     claudecode.Rewrite
	action string
}{
	{claudecode.RewriteThinkingBudget, "thinking budget changed"},
	{claudecode.RewriteSecondTurn, "second turn"},
	{claudecode.RewriteThinkingDropped, "thinking of the previous turn dropped"},
	{claudecode.RewritePostCompact, "first turn after a compaction"},
}

// sideRequests replays the side requests sent since the previous call:
// each sends the conversation as it stood after the previous call, so it
// reads and refreshes the live cached prefix (cache.Fork). Its own
// suffix and usage are not recorded, and are not priced.
func (e *engine) sideRequests(tc *TraceCall) {
	for _, sr := range tc.Side {
		if sr.Time > 0 && e.prevModel != "" {
			e.cache.Fork(sr.Time, e.prevModel, e.lastPrompt, 0)
		}
	}
}

// appendItems adds the call's new items to the context and returns Claude
// Code's estimate of them, as the call's version weighs them (rules), in
// two parts: what followed the last response (tool results, as the
// version that ran the tools, made, sent them: sentEst; user text,
// attachments), and the last response's blocks after its first (Claude
// Code's count walks back to a response's first block from
// EstimateResponseFrom, though the usage counts them as output). Under
// observed, items a real compaction summarised away are dropped, and
// compaction artifacts are kept only there.
func (e *engine) appendItems(tc *TraceCall, obs bool, rules versionRules, made string) (after, response int64) {
	e.appendedFrom = len(e.items)
	if m := e.cfg.ToolsGrowthMin; m > 0 && tc.ToolsGrowth >= m {
		e.grown += tc.ToolsGrowth
	}
	firstOfPrev := true
	for k := range tc.Items {
		it := &tc.Items[k] // read in place: an item is some 150 bytes
		if it.Artifact && !obs {
			continue
		}
		if obs && tc.RealCompact != nil && it.Msg < tc.RealCompact.Msg {
			e.removed(it) // summarised away by the real compaction
			continue
		}
		if it.Kind == KindToolUse && it.Path != "" && e.cleared[it.Path] {
			e.rereads++
			delete(e.cleared, it.Path)
		}
		e.items = append(e.items, *it)
		e.files.Note(it, tc.Version)
		e.tokens += it.Tokens
		switch {
		case it.Msg != e.prevMsg:
			after += e.cfg.sentEst(rules, made, it)
		case !firstOfPrev:
			response += rules.countEst(it)
		}
		if it.Msg == e.prevMsg {
			firstOfPrev = false
		}
	}
	return after, response
}

// sync copies the engine's context into the policy's view.
func (e *engine) sync(s *State) {
	s.Items, s.Tokens, s.Trigger, s.CallsSinceCompact = e.items, e.tokens, e.trigger, e.callsSince
}

// applyReal applies the compactions Claude Code really did before this call
// (observed runs only).
func (e *engine) applyReal(tc *TraceCall) {
	if m := tc.RealMicro; m != nil {
		ids := map[string]bool{}
		for _, id := range m.CompactedToolIDs {
			ids[id] = true
		}
		var idx []int
		for j, it := range e.items {
			if it.Kind == KindToolResult && ids[it.ToolID] && !it.Cleared {
				idx = append(idx, j)
			}
		}
		freed := e.freed
		_, n := e.clear(idx, KindToolResult)
		if e.tr.Thread != nil {
			// What it freed is what the compaction timeline shows
			// (accounting.EventOf), as for a full compaction below.
			e.freed = freed + accounting.EventOf(e.tr.Thread, m).Freed
		}
		images := 0
		if len(m.CompactedToolIDs) == 0 {
			// Claude Code 2.1.41 writes boundaries without tool ids whose
			// tokensSaved is a multiple of its 2,000-token image estimate:
			// it cleared images, the newest first. The prompt fit sizes
			// the saving; the cache breaks at the oldest image cleared.
			k := int(m.TokensSaved / int64(claudecode.ImageTokens.Value))
			for j := len(e.items) - 1; j >= 1 && images < k; j-- {
				if e.items[j].Kind == KindImage && !e.items[j].Cleared {
					e.markEdit(j)
					e.items[j].Cleared = true
					images++
				}
			}
		}
		e.clearedNow = e.clearedNow || n > 0 || images > 0
		action := fmt.Sprintf("real microcompact: %d results", n)
		if images > 0 {
			action += fmt.Sprintf(", %d images", images)
		}
		e.actions = append(e.actions, action)
	}
	if c := tc.RealCompact; c != nil {
		e.markEdit(1)
		for k := range e.items[1:] {
			e.removed(&e.items[1+k])
		}
		e.items = e.items[:1]
		e.relayout()
		e.tokens = e.items[0].Tokens
		if e.tr.Thread != nil {
			ev := accounting.EventOf(e.tr.Thread, c)
			e.freed += ev.Freed
			e.summaryTok += int64(ev.SummaryTokens)
		}
		e.compactions++
		e.callsSince = 0
		e.compacted = true
		e.actions = append(e.actions, "real "+string(c.Kind)+" ("+c.Trigger+")")
	}
}

// fit makes the context match the recorded prompt (observed runs): the
// difference goes to this call's estimated items, or, when the context
// shrank without a known cause, is taken from its end.
func (e *engine) fit(target int64, unexplained, restart bool) {
	diff := target - e.tokens
	if diff == 0 {
		return
	}
	if diff > 0 {
		var est []int
		for j := e.appendedFrom; j < len(e.items); j++ {
			if !e.items[j].Exact {
				est = append(est, j)
			}
		}
		if len(est) == 0 {
			e.items = append(e.items, Item{Kind: KindHidden, Tokens: diff, Msg: -1})
		} else {
			e.items[est[len(est)-1]].Tokens += diff
		}
		e.tokens = target
		return
	}
	e.shrink(-diff, len(e.items), unexplained, restart)
}

// shrink takes n tokens from the items before index end, newest first: the
// context lost them somewhere the transcript does not show (Claude Code
// rewrote or dropped part of an earlier message). The recorded cache read
// of such a call almost always falls back to the system prompt
// (docs/simulation.md, "The prompt cache"), so the cache model is told of
// an edit at the first message, unless the loss is explained (a real
// micro-compaction before the call, which marks its own edits).
//
// The context before the first message gives too (first at a restart,
// else when the messages have nothing left), then the system prompt, whose
// breakpoint moves down with it, so that the fit always reaches the
// recorded prompt (docs/simulation.md, "Sizes: exact where the transcript
// allows", says why each may give).
func (e *engine) shrink(n int64, end int, unexplained, restart bool) {
	if n > 0 && unexplained {
		e.markEdit(1)
	}
	sys := e.sysFor(e.model)
	if restart {
		n = e.shrinkOverhead(n, sys)
	}
	for j := end - 1; j >= 1 && n > 0; j-- {
		take := min(e.items[j].Tokens, n)
		if take == 0 {
			continue
		}
		e.items[j].Tokens -= take
		e.tokens -= take
		n -= take
	}
	n = e.shrinkOverhead(n, sys)
	e.shrinkOverhead(n, 0)
}

// shrinkOverhead takes up to n tokens from the overhead, down to floor,
// and returns what it could not take. Past the system prompt's breakpoint
// (sysFor) the cached prefix breaks there; below it, the breakpoint moves
// to the overhead's new end, on every model.
func (e *engine) shrinkOverhead(n, floor int64) int64 {
	sys := e.sysFor(e.model)
	take := min(n, e.items[0].Tokens-floor)
	if take <= 0 {
		return n
	}
	e.items[0].Tokens -= take
	e.tokens -= take
	end := e.items[0].Tokens
	e.editAt(min(sys, end))
	if end < sys {
		e.sys = min(e.sys, end)
		for m, s := range e.sysOf {
			e.sysOf[m] = min(s, end)
		}
	}
	return n - take
}

// position returns the tokens before item j.
func (e *engine) position(j int) int64 {
	if j <= len(e.items)/2 {
		var n int64
		for _, it := range e.items[:j] {
			n += it.Tokens
		}
		return n
	}
	n := e.tokens
	for _, it := range e.items[j:] {
		n -= it.Tokens
	}
	return n
}

// editAt records an edit of the context at position pos (see markEdit).
func (e *engine) editAt(pos int64) {
	if e.edit < 0 || pos < e.edit {
		e.edit = pos
	}
}

// markEdit records an edit of the context at item j, which invalidates
// every cache entry past its position when the next request, fork or
// compaction reads the cache (flushEdit).
func (e *engine) markEdit(j int) {
	e.editAt(e.position(j))
}

// clear replaces the content of the items at idx that are of the given
// kind (tool results, or tool calls' inputs) by the placeholder. Items no
// larger than the placeholder are left alone. It returns the tokens freed
// and how many items it cleared.
func (e *engine) clear(idx []int, kind ItemKind) (int64, int) {
	var freed int64
	n, lowest := 0, -1
	for _, j := range idx {
		it := &e.items[j]
		if it.Cleared || it.Kind != kind || it.Tokens <= e.placeholder {
			continue
		}
		n++
		f := it.Tokens - e.placeholder
		if e.cfg.CacheEdits {
			e.cache.Shift(e.position(j), f)
		} else if lowest < 0 || j < lowest {
			lowest = j // only the first edit counts (editAt)
		}
		e.removed(it)
		it.Tokens -= f
		it.Cleared = true
		// e.tokens follows each item, so that position stays exact for
		// the next one.
		e.tokens -= f
		freed += f
	}
	if lowest >= 0 { // the items before it are unchanged
		e.markEdit(lowest)
	}
	e.trigger -= freed
	return freed, n
}

// removed records that an item's content left the context: a tool result
// on a file, not yet cleared, was cleared, dropped or summarised (by a
// policy, or by the session's own compaction or micro-compaction under
// observed). A later tool call on that file counts as a likely re-read
// (Metrics.LikelyRereads), once.
func (e *engine) removed(it *Item) {
	if it.Kind == KindToolResult && it.Path != "" && !it.Cleared {
		e.cleared[it.Path] = true
	}
}

// sysFor is where the system prompt's cache breakpoint falls on model: a
// recorded read's showing (sysOf), or the session's.
func (e *engine) sysFor(model string) int64 {
	if s, ok := e.sysOf[model]; ok {
		return s
	}
	return e.sys
}

// flushEdit applies the pending edit to the cache before anything reads
// it: a request, a fork, a compaction's summarizer.
func (e *engine) flushEdit() {
	if e.edit >= 0 {
		e.cache.Edit(e.edit)
		e.edit = -1
	}
}

// callTTL is the lifetime of the entries call tc writes: Config.TTL when
// set, else the one its recorded writes show (only 1-hour or only 5-minute
// entries), else the lifetime before it. Claude Code can switch within a
// session, and an entry keeps the lifetime it was written with (cache).
func (e *engine) callTTL(tc *TraceCall) time.Duration {
	switch u := tc.Usage; {
	case e.cfg.TTL > 0:
		return e.cfg.TTL
	case u.CacheWrite1h > 0 && u.CacheWrite5m == 0:
		return claudecode.CacheTTL1h.Value
	case u.CacheWrite5m > 0 && u.CacheWrite1h == 0:
		return claudecode.CacheTTL5m.Value
	}
	return e.ttl
}

// lifetimes returns the cache lifetime of a call's entries and of its
// system prompt's entry, in ms. A call whose system prompt entry outlives
// its own entries marks the run as having kept it warm (Result.KeptWarm).
func (e *engine) lifetimes(tc *TraceCall) (ttl, sys int64) {
	ttl = e.ttl.Milliseconds()
	switch {
	case !e.modelOf(tc.Model).bills:
		if e.cfg.TTL <= 0 {
			ttl = max(ttl, e.cfg.GatewayTTL.Milliseconds())
		}
		return ttl, ttl
	case e.keptWarm:
		e.res.keptWarm = true
		return ttl, max(ttl, e.cfg.SharedPrefixTTL.Milliseconds())
	}
	return ttl, ttl
}

// versionRules are the rules of Config that the engine checks by a
// call's Claude Code version at every call ("" counts as the newest,
// except for the shared prefix, which needs a version that has it).
// unmarked is set before FinalOutputUntil, whose transcripts record
// placeholder outputs that replay does not mark (Call.OutputLowerBound).
type versionRules struct {
	version                                                    string
	estimateAfter, estimateResponse, finalOutput, sharedPrefix bool
	unmarked                                                   bool
	count                                                      claudecode.CountRules
}

// countEst is an item's weight in Claude Code's own estimate under the
// version's rules (countEst).
func (r versionRules) countEst(it *Item) int64 { return item.CountEst(r.count, it) }

// sentEst is an item's weight in Claude Code's count as the version that
// ran its tool (made) sent it: from PersistResultsFrom a tool result
// longer than its tool's limit, holding no image, was saved to a file and
// a preview of PersistedChars sent, and counted, in its place. The
// transcript records the preview (claudecode.ResultAsSent), so a result
// that long is whole there only where the version sent it whole, or where
// the transcript holds more than Claude Code sent; a version the
// transcript does not name is not guessed at. A result's length is its
// text's, which for a list of blocks falls short of the JSON Claude Code
// measures, so a result near its limit counts whole.
func (cfg *Config) sentEst(r versionRules, made string, it *Item) int64 {
	if it.Kind == KindToolResult && it.Images == 0 && made != "" {
		if limit := claudecode.ResultLimitFor(made, it.Tool, cfg.PersistResultsFrom); limit > 0 && it.Chars > limit {
			return int64(replay.Estimate(cfg.PersistedChars))
		}
	}
	return r.countEst(it)
}

// Followed returns what claude-code's count adds before call i for what
// followed the previous call's response (the tool results, user text and
// attachments after it, weighed as the engine weighs them under cfg: the
// call's version's rules, sentEst), and the item of those that weighs
// most, with its weight; zero before the first call, and from a version
// whose count adds no estimate (Config.EstimateFrom). The fidelity report
// names it where claude-code compacts and the session did not.
func (tr *Trace) Followed(i int, cfg Config) (est int64, most Item, mostEst int64) {
	if i <= 0 || i >= len(tr.Calls) || tr.Thread == nil || tr.Calls[i-1].Index >= len(tr.Thread.Calls) {
		return 0, Item{}, 0
	}
	cfg = cfg.withDefaults()
	e := &engine{cfg: cfg}
	tc, prev := &tr.Calls[i], &tr.Calls[i-1]
	r := e.rulesOf(tc.Version)
	if !r.estimateAfter {
		return 0, Item{}, 0
	}
	prevMsg := tr.Thread.Calls[prev.Index].Msg
	for k := range tc.Items {
		it := &tc.Items[k]
		if it.Artifact || it.Msg == prevMsg {
			continue
		}
		w := cfg.sentEst(r, prev.Version, it)
		est += w
		if w > mostEst {
			most, mostEst = *it, w
		}
	}
	return est, most, mostEst
}

// rulesOf returns the rules for version, worked out the first time: a run
// meets one version or a few.
func (e *engine) rulesOf(version string) versionRules {
	for _, r := range e.rules {
		if r.version == version {
			return r
		}
	}
	from := func(cut string) bool { return version == "" || claudecode.AtLeast(version, cut) }
	r := versionRules{version: version, estimateAfter: from(e.cfg.EstimateFrom),
		estimateResponse: from(e.cfg.EstimateResponseFrom),
		finalOutput:      claudecode.CountsFinalOutput(version, e.cfg.FinalOutputUntil, e.cfg.FinalOutputFrom),
		unmarked:         claudecode.Before(version, e.cfg.FinalOutputUntil),
		count:            claudecode.CountRulesFor(version, e.cfg.CountCutoffs),
		sharedPrefix:     claudecode.CompareVersions(version, e.cfg.SharedPrefixFrom) >= 0}
	e.rules = append(e.rules, r)
	return r
}

// modelFacts is what a call's model decides of its pricing and caching,
// which the engine asks at every call of a run that seldom changes model.
type modelFacts struct {
	model        string
	known        bool // the memo holds model's facts
	bills        bool // claudecode.BillsCacheWrites
	minCacheable int64
	price        prices.Price
	priced       bool
}

// modelOf returns model's facts, looked up again only when the model
// differs from the last call's.
func (e *engine) modelOf(model string) *modelFacts {
	m := &e.modelMemo
	if !m.known || m.model != model {
		*m = modelFacts{model: model, known: true, bills: claudecode.BillsCacheWrites(model),
			minCacheable: claudecode.MinCacheableTokens(e.cfg.MinCacheable, model)}
		if e.cfg.Prices != nil { // set by withDefaults; a bare engine prices nothing
			m.price, m.priced = e.cfg.Prices.Lookup(model)
		}
	}
	return m
}

// limitsEntry is one of limitsFor's answers.
type limitsEntry struct {
	p              claudecode.LimitParams
	model, version string
	limits         claudecode.Limits
}

// limitsFor is claudecode.LimitsFor, which the engine and the policies ask
// at every call with the same few arguments: the last answers are kept.
func (e *engine) limitsFor(p claudecode.LimitParams, model, version string) claudecode.Limits {
	for i := len(e.limitsMemo) - 1; i >= 0; i-- { // the newest first
		if m := &e.limitsMemo[i]; m.model == model && m.version == version && m.p == p {
			return m.limits
		}
	}
	l := claudecode.LimitsFor(p, model, version)
	if len(e.limitsMemo) == 8 { // a run that keeps changing: forget the oldest
		e.limitsMemo = e.limitsMemo[1:]
	}
	e.limitsMemo = append(e.limitsMemo, limitsEntry{p, model, version, l})
	return l
}

// request prices the call through the cache model and records it.
func (e *engine) request(tc *TraceCall, l claudecode.Limits, observed bool) {
	e.flushEdit()
	prompt := e.tokens
	e.cache.TTL, e.cache.SysTTL = e.lifetimes(tc)
	tail := tc.Usage.Input // after Claude Code's last breakpoint
	sys := e.sysFor(tc.Model)
	mf := e.modelOf(tc.Model)
	if !mf.bills {
		tail = prompt % e.cfg.GatewayCacheUnit // the whole prompt, in units
		if !e.tr.MissOnlyInput {
			tail = tc.Usage.CacheRead + tc.Usage.Input%e.cfg.GatewayCacheUnit
		}
		sys = 0 // no breakpoint: only whole prompts are cached
	}
	if e.shownRead > 0 {
		e.cache.Show(e.key, e.shownRead, tc.Time)
		e.shownRead = 0
	}
	read, write, uncached := e.cache.Request(tc.Time, e.key, prompt, tail, sys, mf.minCacheable)
	stamp := replay.Time(tc.Time - tc.Ahead) // the recorded timestamp
	if stamp == 0 {
		stamp = replay.Time(tc.Time)
	}
	r := CallResult{
		Call: tc.Index + 1, Line: tc.Line, Time: stamp, Model: tc.Model,
		Prompt: prompt, Input: uncached, Read: read, Output: tc.Usage.Output, OutputLowerBound: tc.OutputLowerBound,
		Recorded: tc.Usage.Prompt(), Actions: e.actions, Estimated: !tc.Clean, Compacted: e.compacted, Cleared: e.clearedNow,
	}
	if !mf.bills {
		// A compatible endpoint's cache is automatic: what is not read
		// is billed as input, and nothing is billed as a write.
		r.Input, write = r.Input+write, 0
	}
	if e.ttl >= time.Hour {
		r.Write1h = write
	} else {
		r.Write5m = write
	}
	switch {
	case prompt > l.Window:
		r.State = StateOverflow
	case prompt >= l.Blocking:
		r.State = StateBlocking
	case prompt >= l.Threshold:
		r.State = StateCompact
	case prompt >= l.Warning:
		r.State = StateWarning
	default:
		r.State = StateOK
	}
	if observed {
		// The observed run shows what was billed, every call: one whose
		// usage records no prompt (all zero: a failed or cut-off response)
		// was billed nothing. The model's prediction stays beside it.
		r.Predicted = &Predicted{Input: r.Input, Write: r.Write5m + r.Write1h, Read: r.Read}
		u := tc.Usage
		r.Input, r.Write5m, r.Write1h, r.Read = u.Input, u.CacheWrite5m, u.CacheWrite1h, u.CacheRead
	}
	if mf.priced {
		r.Cost, r.Priced = mf.price.Cost(r.Usage()), true
	}
	e.res.Calls = append(e.res.Calls, r)
}
