package simulate

import (
	"time"

	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate/outcome"
)

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
	m.CacheHitRatio = outcome.HitRatio(m.Usage())
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
	m.SumTotals()
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
