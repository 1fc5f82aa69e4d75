// Package outcome holds what a simulated run gives: each call's usage,
// cost and threshold state (CallResult), the summarizer's calls, where
// the compactions fell, and the run's figures (Metrics), which compare,
// gate and sweep sum over sessions (SumMetrics) and set against a
// baseline (NewDelta). Package simulate makes them; they are its too.
package outcome

import (
	"math"
	"time"

	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/internal/numstat"
	"github.com/ctxlab/ctxlab/replay"
)

// Metrics summarise a run.
type Metrics struct {
	Calls        int   `json:"calls"`
	PeakContext  int64 `json:"peak_context"`
	AboveWarning int   `json:"calls_above_warning"`
	// Overflows are calls whose prompt exceeded the window: the real API
	// would have refused them.
	Overflows int `json:"overflows"`
	// Compactions counts summaries (full, partial, session memory);
	// Clearings counts clearing and dropping actions (micro-compaction,
	// masking, context editing).
	Compactions int   `json:"compactions"`
	Clearings   int   `json:"clearings"`
	TokensFreed int64 `json:"tokens_freed"`
	// SummaryTokens sums the summaries' sizes.
	SummaryTokens int64 `json:"summary_tokens"`
	// FirstCompaction is the 1-based number of the first call that came
	// after a compaction (real or simulated); 0 when none.
	FirstCompaction int `json:"first_compaction_call"`
	// Usage of the main thread's calls and of the summarizer's calls.
	Input        int64 `json:"input"`
	CacheWrite5m int64 `json:"cache_write_5m"`
	CacheWrite1h int64 `json:"cache_write_1h"`
	CacheRead    int64 `json:"cache_read"`
	Output       int64 `json:"output"`
	// OutputLowerBound: recorded outputs include placeholders.
	OutputLowerBound bool    `json:"output_lower_bound"`
	CacheHitRatio    float64 `json:"cache_hit_ratio"`
	// CacheBreaks are the calls Claude Code's rule flags (CacheBreaks,
	// Config.Breaks: a cache read >5% and >2,000 tokens below the previous
	// call's); PolicyBreaks those right after the run edited the context
	// (CallResult.Compacted or Cleared: a policy's action, or under
	// observed the session's own compaction or micro-compaction).
	CacheBreaks  int `json:"cache_breaks"`
	PolicyBreaks int `json:"policy_breaks"`
	// Cost is the main thread's cost plus the summarizer's; AgentsCost is
	// the observed cost of the session's sub-agents, which the replay does
	// not change; TotalCost is both.
	Cost           float64 `json:"cost_usd"`
	SummarizerCost float64 `json:"summarizer_cost_usd"`
	AgentsCost     float64 `json:"agents_cost_usd"`
	TotalCost      float64 `json:"total_cost_usd"`
	Unpriced       int     `json:"unpriced_calls"`
	// AgentsUnpriced counts sub-agent calls whose model has no price;
	// AgentsCost leaves them out.
	AgentsUnpriced int `json:"agents_unpriced_calls"`
	// The sub-agents' recorded usage, which no policy changes, and the
	// usage of the whole session: the main thread's and the summarizer's
	// (Input, CacheWrite5m, …) and the sub-agents'. The observed run's
	// totals are what was billed, replay's usage total.
	AgentsInput        int64 `json:"agents_input"`
	AgentsCacheWrite5m int64 `json:"agents_cache_write_5m"`
	AgentsCacheWrite1h int64 `json:"agents_cache_write_1h"`
	AgentsCacheRead    int64 `json:"agents_cache_read"`
	AgentsOutput       int64 `json:"agents_output"`
	// AgentsOutputLowerBound: some sub-agent outputs are placeholders, so
	// AgentsOutput and AgentsCost are lower bounds (and with them the
	// totals).
	AgentsOutputLowerBound bool  `json:"agents_output_lower_bound,omitempty"`
	TotalInput             int64 `json:"total_input"`
	TotalCacheWrite        int64 `json:"total_cache_write"`
	TotalCacheWrite5m      int64 `json:"total_cache_write_5m"`
	TotalCacheWrite1h      int64 `json:"total_cache_write_1h"`
	TotalCacheRead         int64 `json:"total_cache_read"`
	TotalOutput            int64 `json:"total_output"`
	// Loss proxies: user messages still in the context or quoted in full by
	// the latest summary, against those only summarised; and later tool
	// calls on a file whose content the policy had removed (likely
	// re-reads).
	UsersVerbatim   int `json:"users_verbatim"`
	UsersSummarised int `json:"users_summarised"`
	LikelyRereads   int `json:"likely_rereads"`
}

// SumMetrics adds runs of several sessions: counts, tokens and costs are
// summed, the peak is the largest, the hit ratio is recomputed, and the
// first compaction, a per-session call number, is 0.
func SumMetrics(ms []Metrics) Metrics {
	var t Metrics
	for _, m := range ms {
		t.Calls += m.Calls
		t.PeakContext = max(t.PeakContext, m.PeakContext)
		t.AboveWarning += m.AboveWarning
		t.Overflows += m.Overflows
		t.Compactions += m.Compactions
		t.Clearings += m.Clearings
		t.TokensFreed += m.TokensFreed
		t.SummaryTokens += m.SummaryTokens
		t.Input += m.Input
		t.CacheWrite5m += m.CacheWrite5m
		t.CacheWrite1h += m.CacheWrite1h
		t.CacheRead += m.CacheRead
		t.Output += m.Output
		t.OutputLowerBound = t.OutputLowerBound || m.OutputLowerBound
		t.AgentsOutputLowerBound = t.AgentsOutputLowerBound || m.AgentsOutputLowerBound
		t.CacheBreaks += m.CacheBreaks
		t.PolicyBreaks += m.PolicyBreaks
		t.Cost += m.Cost
		t.SummarizerCost += m.SummarizerCost
		t.AgentsCost += m.AgentsCost
		t.TotalCost += m.TotalCost
		t.Unpriced += m.Unpriced
		t.AgentsUnpriced += m.AgentsUnpriced
		t.AgentsInput += m.AgentsInput
		t.AgentsCacheWrite5m += m.AgentsCacheWrite5m
		t.AgentsCacheWrite1h += m.AgentsCacheWrite1h
		t.AgentsCacheRead += m.AgentsCacheRead
		t.AgentsOutput += m.AgentsOutput
		t.TotalInput += m.TotalInput
		t.TotalCacheWrite += m.TotalCacheWrite
		t.TotalCacheWrite5m += m.TotalCacheWrite5m
		t.TotalCacheWrite1h += m.TotalCacheWrite1h
		t.TotalCacheRead += m.TotalCacheRead
		t.TotalOutput += m.TotalOutput
		t.UsersVerbatim += m.UsersVerbatim
		t.UsersSummarised += m.UsersSummarised
		t.LikelyRereads += m.LikelyRereads
	}
	t.CacheHitRatio = HitRatio(t.Usage())
	t.Cost = prices.RoundUSD(t.Cost)
	t.SummarizerCost = prices.RoundUSD(t.SummarizerCost)
	t.AgentsCost = prices.RoundUSD(t.AgentsCost)
	t.TotalCost = prices.RoundUSD(t.TotalCost)
	return t
}

// Delta compares a run with a baseline run of the same scope.
type Delta struct {
	TotalCost float64 `json:"total_cost_usd"`
	// TotalCostPct is TotalCost as a percentage of the baseline's total
	// cost, to two places; nil when that is 0.
	TotalCostPct *float64 `json:"total_cost_pct,omitempty"`
	PeakContext  int64    `json:"peak_context"`
}

// NewDelta returns m's difference from base.
func NewDelta(base, m Metrics) Delta {
	d := Delta{TotalCost: prices.RoundUSD(m.TotalCost - base.TotalCost), PeakContext: m.PeakContext - base.PeakContext}
	d.TotalCostPct = numstat.PctPtr(m.TotalCost-base.TotalCost, base.TotalCost)
	return d
}

func round(x, unit float64) float64 { return math.Round(x*unit) / unit }

// Usage is the call's usage, its writes at the lifetime ttl.
func (sc SummaryCall) Usage(ttl time.Duration) replay.Usage {
	u := replay.Usage{CacheRead: sc.Read, Output: sc.Output}
	if ttl >= time.Hour {
		u.CacheWrite1h = sc.Write
	} else {
		u.CacheWrite5m = sc.Write
	}
	return u
}

// CacheBreaks returns the indexes in calls of the cache breaks under rule
// r: calls whose cache read fell below the previous call's as r says, the
// calls of models Claude Code's detector skips (claudecode.BreakExcluded)
// left out on both sides. Metrics.CacheBreaks counts them, under the run's
// Config.Breaks.
func CacheBreaks(calls []CallResult, r claudecode.BreakRule) []int {
	var out []int
	var prevRead int64 = -1
	for i := range calls {
		c := &calls[i]
		if claudecode.BreakExcluded(c.Model) {
			continue
		}
		if prevRead >= 0 && r.IsBreak(prevRead, c.Read) {
			out = append(out, i)
		}
		prevRead = c.Read
	}
	return out
}

// HitRatio is u's cache hit ratio (replay.Usage.HitRatio) rounded to four
// places, as Metrics.CacheHitRatio shows it.
func HitRatio(u replay.Usage) float64 { return round(u.HitRatio(), 1e4) }

// TotalLowerBound reports whether the session's totals (total_output,
// total_cost_usd) rest on placeholder output counts, the main thread's or
// the sub-agents'.
func (m *Metrics) TotalLowerBound() bool { return m.OutputLowerBound || m.AgentsOutputLowerBound }

// Usage returns the run's usage: its main-thread and summarizer calls.
func (m *Metrics) Usage() replay.Usage {
	return replay.Usage{Input: m.Input, CacheWrite5m: m.CacheWrite5m, CacheWrite1h: m.CacheWrite1h, CacheRead: m.CacheRead, Output: m.Output}
}

// SetUsage sets the run's usage (Usage) to u.
func (m *Metrics) SetUsage(u replay.Usage) {
	m.Input, m.CacheWrite5m, m.CacheWrite1h, m.CacheRead, m.Output = u.Input, u.CacheWrite5m, u.CacheWrite1h, u.CacheRead, u.Output
}

// SumTotals sets the session's usage: the main thread and summarizer's
// and the sub-agents'.
func (m *Metrics) SumTotals() {
	m.TotalInput = m.Input + m.AgentsInput
	m.TotalCacheWrite5m = m.CacheWrite5m + m.AgentsCacheWrite5m
	m.TotalCacheWrite1h = m.CacheWrite1h + m.AgentsCacheWrite1h
	m.TotalCacheWrite = m.TotalCacheWrite5m + m.TotalCacheWrite1h
	m.TotalCacheRead = m.CacheRead + m.AgentsCacheRead
	m.TotalOutput = m.Output + m.AgentsOutput
}

// CallResult is one simulated API call.
type CallResult struct {
	Call    int         `json:"call"` // 1-based number in the thread
	Line    int         `json:"line"`
	Time    replay.Time `json:"time,omitempty"`
	Model   string      `json:"model"`
	Prompt  int64       `json:"prompt"`
	Input   int64       `json:"input"`
	Write5m int64       `json:"cache_write_5m"`
	Write1h int64       `json:"cache_write_1h"`
	Read    int64       `json:"cache_read"`
	Output  int64       `json:"output"`
	// OutputLowerBound: the recorded output is a Claude Code 2.1.9–2.1.41
	// placeholder, so Output and Cost are lower bounds.
	OutputLowerBound bool  `json:"output_lower_bound,omitempty"`
	Recorded         int64 `json:"recorded_prompt"`
	// State is the threshold state of the prompt.
	State   CallState `json:"state"`
	Actions []string  `json:"actions,omitempty"`
	// Compacted is set when a compaction happened just before the call.
	Compacted bool `json:"compacted"`
	// Cleared is set when content was cleared or dropped just before the
	// call: a policy's clearing or dropping, or a real micro-compaction.
	Cleared bool    `json:"cleared"`
	Cost    float64 `json:"cost_usd"`
	Priced  bool    `json:"priced"`
	// Estimated is set when sizes appended for this call are estimates.
	Estimated bool `json:"estimated"`
	// Predicted is what the cache model predicts for the call. It is set
	// on the observed run only, whose usage and cost are the recorded
	// ones (what was billed); the fidelity report compares the two.
	Predicted *Predicted `json:"predicted,omitempty"`
}

// Predicted is the cache model's prediction for a recorded call.
type Predicted struct {
	Input int64 `json:"input"`
	Write int64 `json:"cache_write"`
	Read  int64 `json:"cache_read"`
}

// Usage returns the call's simulated usage.
func (c *CallResult) Usage() replay.Usage {
	return replay.Usage{Input: c.Input, CacheWrite5m: c.Write5m, CacheWrite1h: c.Write1h, CacheRead: c.Read, Output: c.Output}
}

// CallState is the threshold state of a call's prompt.
type CallState string

// The threshold states, lowest first.
const (
	StateOK      CallState = "ok"
	StateWarning CallState = "warning" // at or above the warning level
	StateCompact CallState = "compact" // at or above the auto-compact threshold
	// StateBlocking is at or above the blocking limit, where Claude Code
	// refuses to send without a compaction.
	StateBlocking CallState = "blocking"
	// StateOverflow is above the window: the API would have refused it.
	StateOverflow CallState = "overflow"
)

// RunCompactions says where a run's compactions fell.
type RunCompactions struct {
	// FirstAuto is the 1-based number of the first call that came after
	// a compaction the policy decided (not a /compact the run replayed);
	// 0 when none. Summary and Restored are what that compaction left, in
	// tokens: the summary, and the files and todos re-attached.
	FirstAuto         int
	Summary, Restored int64
	// Manual counts the user's /compact runs the run replayed.
	Manual int
	// EndCount is what the context counts after the last call: the last
	// prompt and its output, which Claude Code tests against its threshold
	// before the next call.
	EndCount int64
}

// SummaryCall is a fake summarizer call: a fork that reads the parent's
// cached prefix and pays for its prompt and its output.
type SummaryCall struct {
	// Label says what the call was for: "summary" for a compaction, or
	// the label a policy gave Fork ("session-memory update").
	Label      string  `json:"label"`
	BeforeCall int     `json:"before_call"`
	Replaced   int64   `json:"replaced"`
	Read       int64   `json:"cache_read"`
	Write      int64   `json:"cache_write"`
	Output     int64   `json:"output"`
	Cost       float64 `json:"cost_usd"`
}
