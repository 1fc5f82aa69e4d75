package simulate

import (
	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate/filestate"
	"github.com/ctxlab/ctxlab/simulate/item"
	"github.com/ctxlab/ctxlab/simulate/outcome"
	"github.com/ctxlab/ctxlab/simulate/promptcache"
)

// The context's items (package item), the files Claude Code keeps
// (filestate) and what a run gives (outcome) are what a Trace, a State and
// a Result hold; simulate names them too, so that a policy and a report
// read a run through one package.
type (
	Item           = item.Item
	ItemKind       = item.Kind
	FileSize       = filestate.Size
	FileTouch      = filestate.Touch
	fileSizes      = filestate.Sizes
	CallResult     = outcome.CallResult
	Predicted      = outcome.Predicted
	CallState      = outcome.CallState
	SummaryCall    = outcome.SummaryCall
	RunCompactions = outcome.RunCompactions
	Metrics        = outcome.Metrics
	Delta          = outcome.Delta
)

// The kinds of Item.
const (
	KindOverhead   = item.Overhead
	KindUser       = item.User
	KindAssistant  = item.Assistant
	KindToolUse    = item.ToolUse
	KindToolResult = item.ToolResult
	KindAttachment = item.Attachment
	KindImage      = item.Image
	KindSummary    = item.Summary
	KindRestored   = item.Restored
	KindHidden     = item.Hidden
)

// The threshold states of a call, lowest first.
const (
	StateOK       = outcome.StateOK
	StateWarning  = outcome.StateWarning
	StateCompact  = outcome.StateCompact
	StateBlocking = outcome.StateBlocking
	StateOverflow = outcome.StateOverflow
)

// The cache model's defaults (package promptcache), which Config's
// zero fields mean.
const (
	DefaultSharedPrefixTTL  = promptcache.DefaultSharedPrefixTTL
	DefaultClockSlack       = promptcache.DefaultClockSlack
	DefaultGatewayTTL       = promptcache.DefaultGatewayTTL
	DefaultGatewayCacheUnit = promptcache.DefaultGatewayCacheUnit
)

// DefaultToolsGrowthMin is Config.ToolsGrowthMin's default, in tokens:
// above what a new date or a tool allowed for good adds to the system
// prompt (a line or two), below what an MCP server's tools add (22,193
// and 25,748 tokens in the two sessions of the transcripts here that show
// one connecting, docs/simulation.md).
const DefaultToolsGrowthMin = 1000

// SumMetrics adds runs of several sessions (outcome.SumMetrics).
func SumMetrics(ms []Metrics) Metrics { return outcome.SumMetrics(ms) }

// NewDelta returns m's difference from base (outcome.NewDelta).
func NewDelta(base, m Metrics) Delta { return outcome.NewDelta(base, m) }

// CacheBreaks returns the indexes in calls of the cache breaks under rule
// r (outcome.CacheBreaks).
func CacheBreaks(calls []CallResult, r claudecode.BreakRule) []int {
	return outcome.CacheBreaks(calls, r)
}

// wholeText reports whether a tool's result holds the whole file
// (filestate.Whole).
func wholeText(t *replay.ToolCall) bool { return filestate.Whole(t) }

// agentFiles returns the files the session's sub-agents touched
// (filestate.AgentTouches).
func agentFiles(s *replay.Session) []FileTouch { return filestate.AgentTouches(s) }
