package accounting

import (
	"iter"
	"sort"

	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/replay"
)

// UsageReport is the observed API usage: what the server billed.
type UsageReport struct {
	Total    UsageRow   `json:"total"`
	ByModel  []UsageRow `json:"by_model"`
	ByThread []UsageRow `json:"by_thread"`
	// HitRatio is the token-weighted cache hit ratio
	// cache_read / (input + cache_write + cache_read).
	HitRatio float64 `json:"cache_hit_ratio"`
	// PriceDate names the price table used.
	PriceDate string `json:"price_date"`
}

// UsageRow sums the calls of one model, thread or the whole input.
type UsageRow struct {
	Name         string `json:"name,omitempty"`
	Kind         string `json:"kind,omitempty"` // thread kind on by_thread rows
	Calls        int    `json:"calls"`
	Input        int64  `json:"input"`
	CacheWrite5m int64  `json:"cache_write_5m"`
	CacheWrite1h int64  `json:"cache_write_1h"`
	CacheRead    int64  `json:"cache_read"`
	Output       int64  `json:"output"`
	// OutputLowerBound: some calls' output counts are placeholders
	// (Claude Code 2.1.9–2.1.41), so Output is a lower bound.
	OutputLowerBound bool    `json:"output_lower_bound"`
	Cost             float64 `json:"cost_usd"`
	// Unpriced counts calls whose model has no price; Cost leaves them out.
	Unpriced       int      `json:"unpriced_calls"`
	UnpricedModels []string `json:"unpriced_models,omitempty"`
}

// Usage returns the row's token counts as a replay.Usage.
func (r UsageRow) Usage() replay.Usage {
	return replay.Usage{Input: r.Input, CacheWrite5m: r.CacheWrite5m, CacheWrite1h: r.CacheWrite1h, CacheRead: r.CacheRead, Output: r.Output}
}

// setUsage sets the row's token counts to u.
func (r *UsageRow) setUsage(u replay.Usage) {
	r.Input, r.CacheWrite5m, r.CacheWrite1h, r.CacheRead, r.Output = u.Input, u.CacheWrite5m, u.CacheWrite1h, u.CacheRead, u.Output
}

// usage is the session's observed usage and the log of its counted calls.
func usage(s *replay.Session, table *prices.Table) (UsageReport, *callLog) {
	return usageOf(sessionCalls(s), table), newCallLog(s)
}

// usageOf totals call records by model and thread. Each model is looked
// up in the price table once and each call priced once.
func usageOf(calls iter.Seq[call], table *prices.Table) UsageReport {
	type model struct {
		row    UsageRow
		price  prices.Price
		priced bool
	}
	rep := UsageReport{PriceDate: table.Date}
	byModel := map[string]*model{}
	byThread := map[string]*UsageRow{}
	var modelOrder, threadOrder []string
	for c := range calls {
		m := byModel[c.model]
		if m == nil {
			m = &model{row: UsageRow{Name: c.model}}
			m.price, m.priced = table.Lookup(c.model)
			byModel[c.model] = m
			modelOrder = append(modelOrder, c.model)
		}
		t := byThread[c.thread]
		if t == nil {
			t = &UsageRow{Name: c.thread, Kind: c.kind}
			byThread[c.thread] = t
			threadOrder = append(threadOrder, c.thread)
		}
		var cost float64
		if m.priced {
			cost = m.price.Cost(c.usage)
		}
		for _, row := range []*UsageRow{&rep.Total, &m.row, t} {
			row.add(c, cost, m.priced)
		}
	}
	for _, name := range modelOrder {
		rep.ByModel = append(rep.ByModel, byModel[name].row)
	}
	sortRows(rep.ByModel)
	for _, name := range threadOrder {
		rep.ByThread = append(rep.ByThread, *byThread[name])
	}
	sortRows(rep.ByThread)
	rep.Total.Cost = prices.RoundUSD(rep.Total.Cost)
	for _, rows := range [][]UsageRow{rep.ByModel, rep.ByThread} {
		for i := range rows {
			rows[i].Cost = prices.RoundUSD(rows[i].Cost)
		}
	}
	rep.HitRatio = rep.Total.Usage().HitRatio()
	if rep.ByModel == nil {
		rep.ByModel = []UsageRow{}
	}
	if rep.ByThread == nil {
		rep.ByThread = []UsageRow{}
	}
	return rep
}

// add counts call c, which cost cost when priced.
func (r *UsageRow) add(c call, cost float64, priced bool) {
	r.Calls++
	r.setUsage(r.Usage().Add(c.usage))
	r.OutputLowerBound = r.OutputLowerBound || c.lower
	if priced {
		r.Cost += cost
		return
	}
	r.Unpriced++
	i := sort.SearchStrings(r.UnpricedModels, c.model)
	if i == len(r.UnpricedModels) || r.UnpricedModels[i] != c.model {
		r.UnpricedModels = append(r.UnpricedModels, "")
		copy(r.UnpricedModels[i+1:], r.UnpricedModels[i:])
		r.UnpricedModels[i] = c.model
	}
}

// sortRows orders rows most expensive first, then by tokens and name.
func sortRows(rows []UsageRow) {
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.Cost != b.Cost {
			return a.Cost > b.Cost
		}
		if ta, tb := a.Usage().Total(), b.Usage().Total(); ta != tb {
			return ta > tb
		}
		return a.Name < b.Name
	})
}

// Unpriced counts a session's counted calls by model, for the models the
// table has no price for; nil when every call is priced.
func Unpriced(s *replay.Session, table *prices.Table) map[string]int {
	var out map[string]int
	for _, th := range s.Threads() {
		for i := range th.Calls {
			c := &th.Calls[i]
			if !c.Counted() {
				continue
			}
			if _, ok := table.Lookup(c.Model); !ok {
				if out == nil {
					out = map[string]int{}
				}
				out[c.Model]++
			}
		}
	}
	return out
}
