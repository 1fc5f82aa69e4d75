package simulate

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
	t.CacheHitRatio = hitRatio(t.Usage())
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

func (sc SummaryCall) usage(ttl time.Duration) replay.Usage {
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

// hitRatio is u's cache hit ratio (replay.Usage.HitRatio) rounded to four
// places, as Metrics.CacheHitRatio shows it.
func hitRatio(u replay.Usage) float64 { return round(u.HitRatio(), 1e4) }

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

// finish computes the run's metrics from its calls, summaries and
// counters, and rounds the costs.
func (e *engine) finish() {
	m := &e.res.Metrics
	e.sumCalls(m)
	for _, i := range CacheBreaks(e.res.Calls, e.cfg.Breaks) {
		m.CacheBreaks++
		if c := &e.res.Calls[i]; c.Compacted || c.Cleared {
			m.PolicyBreaks++
		}
	}
	e.sumSide(m)
	m.CacheHitRatio = hitRatio(m.Usage())
	m.Compactions = e.compactions
	m.Clearings = e.micro
	m.TokensFreed = e.freed
	m.SummaryTokens = e.summaryTok
	m.LikelyRereads = e.rereads
	e.roundCosts(m)
	m.UsersVerbatim, m.UsersSummarised = e.users()
}

// sumCalls adds up the main-thread calls: their usage, cost, states and
// the first compaction.
func (e *engine) sumCalls(m *Metrics) {
	for i := range e.res.Calls {
		c := &e.res.Calls[i]
		m.Calls++
		m.PeakContext = max(m.PeakContext, c.Prompt)
		if c.State != StateOK {
			m.AboveWarning++
		}
		if c.State == StateOverflow {
			m.Overflows++
		}
		m.Input += c.Input
		m.CacheWrite5m += c.Write5m
		m.CacheWrite1h += c.Write1h
		m.CacheRead += c.Read
		m.Output += c.Output
		m.Cost += c.Cost
		if !c.Priced {
			m.Unpriced++
		}
		if e.tr.Calls[i].OutputLowerBound {
			m.OutputLowerBound = true
		}
		if m.FirstCompaction == 0 && c.Compacted {
			m.FirstCompaction = c.Call
		}
	}
}

// sumSide adds the summarizer's calls to the run's usage and cost, and
// prices the sub-agents' recorded calls, which no policy changes.
func (e *engine) sumSide(m *Metrics) {
	for _, s := range e.res.Summaries {
		m.CacheRead += s.Read
		if e.ttl >= time.Hour {
			m.CacheWrite1h += s.Write
		} else {
			m.CacheWrite5m += s.Write
		}
		m.Output += s.Output
		m.SummarizerCost += s.Cost
	}
	m.Cost += m.SummarizerCost
	// The total adds the sub-agents' calls one by one to the main thread's
	// sum, in the order replay's usage total adds them, so that the
	// observed run's total is replay's to the last bit before rounding.
	e.totalCost = m.Cost
	var agents replay.Usage
	for _, c := range e.tr.AgentCalls {
		if pr, ok := e.cfg.Prices.Lookup(c.Model); ok {
			cost := pr.Cost(c.Usage)
			m.AgentsCost += cost
			e.totalCost += cost
		} else {
			m.AgentsUnpriced++
		}
		m.AgentsOutputLowerBound = m.AgentsOutputLowerBound || c.OutputLowerBound
		agents = agents.Add(c.Usage)
	}
	m.AgentsInput, m.AgentsCacheWrite5m, m.AgentsCacheWrite1h, m.AgentsCacheRead, m.AgentsOutput = agents.Input, agents.CacheWrite5m, agents.CacheWrite1h, agents.CacheRead, agents.Output
	m.sumTotals()
}

// sumTotals sets the session's usage: the main thread and summarizer's
// and the sub-agents'.
func (m *Metrics) sumTotals() {
	m.TotalInput = m.Input + m.AgentsInput
	m.TotalCacheWrite5m = m.CacheWrite5m + m.AgentsCacheWrite5m
	m.TotalCacheWrite1h = m.CacheWrite1h + m.AgentsCacheWrite1h
	m.TotalCacheWrite = m.TotalCacheWrite5m + m.TotalCacheWrite1h
	m.TotalCacheRead = m.CacheRead + m.AgentsCacheRead
	m.TotalOutput = m.Output + m.AgentsOutput
}

// roundCosts rounds every cost to a millionth of a dollar, once. The
// total is rounded from the unrounded parts, as replay's session total is:
// the observed run's total equals replay's.
func (e *engine) roundCosts(m *Metrics) {
	m.TotalCost = prices.RoundUSD(e.totalCost)
	m.Cost = prices.RoundUSD(m.Cost)
	m.SummarizerCost = prices.RoundUSD(m.SummarizerCost)
	m.AgentsCost = prices.RoundUSD(m.AgentsCost)
	for i := range e.res.Calls {
		e.res.Calls[i].Cost = prices.RoundUSD(e.res.Calls[i].Cost)
	}
	for i := range e.res.Summaries {
		e.res.Summaries[i].Cost = prices.RoundUSD(e.res.Summaries[i].Cost)
	}
}

// users counts the user text messages appended during the run: those
// still in the context or quoted by a summary (verbatim), and the rest
// (summarised).
func (e *engine) users() (verbatim, summarised int) {
	inContext := map[int]bool{}
	for _, it := range e.items {
		if it.Kind == KindUser {
			inContext[it.Msg] = true
		}
	}
	quoted := map[int]bool{}
	for _, u := range e.carried {
		quoted[u.Msg()] = true
	}
	for _, m := range e.tr.users() {
		if inContext[m] || quoted[m] {
			verbatim++
		} else {
			summarised++
		}
	}
	return verbatim, summarised
}
