package metric

import "github.com/ctxlab/ctxlab/simulate"

// measureList is every metric of a run and the measures no field of
// Metrics holds: a sum of two metrics, and what the transcript's own
// report gives.
var measureList = append(List(),
	Metric{Name: "cache_write", Unit: Tokens, Doc: "cache_write_5m + cache_write_1h", Summed: true, index: -1,
		value: func(_ *Recorded, m *simulate.Metrics) float64 { return float64(m.CacheWrite5m + m.CacheWrite1h) }},
	Metric{Name: "cache_break_cost_usd", Unit: USD, Cost: true, RecordedOnly: true, Summed: true, index: -1,
		Doc:   "what the recorded cache breaks of every thread cost in writes (replay's cache-break report)",
		value: func(r *Recorded, _ *simulate.Metrics) float64 { return r.BreakCost }},
	Metric{Name: "duplicate_read_waste_tokens", Unit: Tokens, RecordedOnly: true, Summed: true, index: -1,
		Doc:   "tokens of files read again unchanged (replay's duplicate-read report, waste_tokens)",
		value: func(r *Recorded, _ *simulate.Metrics) float64 { return float64(r.DuplicateWaste) }},
)

// Unpriced counts the calls without a price a cost measure's value leaves
// out: the run's for a run's cost, the recorded breaks' for theirs (rec
// nil: none); 0 for a measure that is not a cost.
func (mt Metric) Unpriced(rec *Recorded, run *simulate.Metrics) int {
	switch {
	case mt.unpriced != nil:
		return mt.unpriced(run)
	case mt.Cost && rec != nil:
		return rec.BreakUnpriced
	}
	return 0
}

// RunValue is the measure of a run, as compare's statistics read it; ok
// is false for a measure of the transcript alone (RecordedOnly) and for a
// cost some of whose calls have no price (the cost is not known).
func (mt Metric) RunValue(run *simulate.Metrics) (v float64, ok bool) {
	if mt.RecordedOnly || mt.Unpriced(nil, run) > 0 {
		return 0, false
	}
	return mt.ValueOf(nil, run), true
}
