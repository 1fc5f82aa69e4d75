package simulate

import (
	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/simulate/outcome"
)

// What a run gives is package outcome's; a Result holds it, and simulate
// names it too, so that its users read a run through one package.
type (
	CallResult     = outcome.CallResult
	Predicted      = outcome.Predicted
	CallState      = outcome.CallState
	SummaryCall    = outcome.SummaryCall
	RunCompactions = outcome.RunCompactions
	Metrics        = outcome.Metrics
	Delta          = outcome.Delta
)

// The threshold states, lowest first (outcome.StateOK, …).
const (
	StateOK       = outcome.StateOK
	StateWarning  = outcome.StateWarning
	StateCompact  = outcome.StateCompact
	StateBlocking = outcome.StateBlocking
	StateOverflow = outcome.StateOverflow
)

// SumMetrics adds runs of several sessions (outcome.SumMetrics).
func SumMetrics(ms []Metrics) Metrics { return outcome.SumMetrics(ms) }

// NewDelta returns m's difference from base (outcome.NewDelta).
func NewDelta(base, m Metrics) Delta { return outcome.NewDelta(base, m) }

// CacheBreaks returns the indexes in calls of the cache breaks under rule
// r (outcome.CacheBreaks).
func CacheBreaks(calls []CallResult, r claudecode.BreakRule) []int {
	return outcome.CacheBreaks(calls, r)
}
