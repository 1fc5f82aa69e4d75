package budget

import (
	"slices"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/metric"
)

// Policies returns the canonical specs of the policies the budget's limits
// replay under, sorted, without the recorded run.
func (f *File) Policies() []string {
	var out []string
	for _, l := range f.Limits {
		if l.policy != "" && !slices.Contains(out, l.policy) {
			out = append(out, l.policy)
		}
	}
	slices.Sort(out)
	return out
}

// NewSample measures one session for the budget: its report gives the
// recorded figures no run has; run replays it under a policy spec (the
// caller's policies.Parse and simulate.Run), for the recorded run
// ("observed": its metrics are what was billed) and each policy f names.
func NewSample(s *replay.Session, rep *accounting.Report, f *File, run func(tr *simulate.Trace, spec string) (simulate.Metrics, error)) (Sample, error) {
	smp := Sample{Session: s.ID, Project: s.Project, Start: s.Start(), End: s.End(), Runs: map[string]simulate.Metrics{}, Recorded: recorded(rep)}
	tr := simulate.Prepare(s)
	for _, spec := range append([]string{"observed"}, f.Policies()...) {
		m, err := run(tr, spec)
		if err != nil {
			return Sample{}, err
		}
		key := spec
		if spec == "observed" {
			key = ""
		}
		smp.Runs[key] = m
	}
	return smp, nil
}

// fromReport lists the measures a replay report gives for the recorded
// run; the rest need the replay (SampleFromReport).
var fromReport = []string{
	"calls", "input", "cache_write_5m", "cache_write_1h", "cache_write", "cache_read", "output", "output_lower_bound", "agents_output_lower_bound",
	"cache_hit_ratio", "cost_usd", "agents_cost_usd", "total_cost_usd", "unpriced_calls", "agents_unpriced_calls",
	"cache_break_cost_usd", "duplicate_read_waste_tokens",
}

// SampleFromReport rebuilds a session's recorded run from a replay report
// (ctxlab replay --format json), for a baseline written by replay rather
// than by gate: the usage and cost figures of the main thread and of the
// whole session, the cache-break cost and duplicate-read waste. The other
// measures (peak context, compactions, …) and every policy's run are not
// in a replay report: a limit on them finds no baseline value.
func SampleFromReport(rep *accounting.Report) Sample {
	s := Sample{Session: rep.Summary.ID, Project: rep.Summary.Project, Runs: map[string]simulate.Metrics{}, known: map[string]bool{}}
	// At the whole seconds the report shows.
	s.Start, s.End = int64(rep.Summary.Start.Second()), int64(rep.Summary.End.Second())
	var m simulate.Metrics
	var main replay.Usage
	for _, r := range rep.Usage.ByThread {
		if r.Kind != string(replay.KindMain) {
			m.AgentsOutputLowerBound = m.AgentsOutputLowerBound || r.OutputLowerBound
			continue
		}
		m.Calls += r.Calls
		main = main.Add(r.Usage())
		m.OutputLowerBound = m.OutputLowerBound || r.OutputLowerBound
		m.Cost += r.Cost
		m.Unpriced += r.Unpriced
	}
	m.SetUsage(main)
	m.CacheHitRatio = simulate.SumMetrics([]simulate.Metrics{m}).CacheHitRatio
	m.TotalCost = rep.Usage.Total.Cost
	m.AgentsCost = prices.RoundUSD(m.TotalCost - m.Cost)
	m.AgentsUnpriced = rep.Usage.Total.Unpriced - m.Unpriced
	s.Runs[""] = m
	s.Recorded = recorded(rep)
	for _, n := range fromReport {
		s.known[n] = true
	}
	return s
}

// knows reports whether the sample has the measure: every one, unless it
// was rebuilt from a report.
func (s *Sample) knows(measure string) bool { return s.known == nil || s.known[measure] }

// recorded is the figures of a session's report no run has: the cost of
// its cache breaks and the waste of its duplicate reads.
func recorded(rep *accounting.Report) metric.Recorded {
	var r metric.Recorded
	for _, b := range rep.CacheBreaks {
		if b.Priced {
			r.BreakCost += b.Cost
		} else {
			r.BreakUnpriced++
		}
	}
	for _, d := range rep.Duplicates {
		r.DuplicateWaste += int64(d.WasteTokens)
	}
	return r
}
