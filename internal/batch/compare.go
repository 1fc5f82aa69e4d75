package batch

import (
	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/plots"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/fidelity"
	"github.com/ctxlab/ctxlab/simulate/metric"
	"github.com/ctxlab/ctxlab/simulate/paired"
)

// ComparePlan is what `ctxlab compare` asks of each session: its runs
// under every policy, with their statistics over the sessions, and the
// fidelity row.
type ComparePlan struct {
	Policies []policies.Compiled
	// Calls keeps every run's calls and summaries (compare --calls, and
	// the HTML page, which draws them).
	Calls bool
	// Fidelity adds each session's fidelity row: the observed and
	// claude-code runs (policies.Observed, policies.ClaudeCode) against
	// the transcript, whether Policies lists them or not; FidelityBy sums
	// the rows by version or project ("": not).
	Fidelity   bool
	FidelityBy string
	// The statistics: every policy against Policies[Baseline], on each
	// measure.
	Baseline int
	Measures []metric.Metric
	Stats    paired.Options
	// Plots draws each session's runs on the worker that read it, and
	// the cost of each policy over the whole input (nil: none).
	Plots *Plots
}

// compared is one session's runs, its fidelity row, and its plots.
type compared struct {
	runs     *report.Compared
	unpriced map[string]int // calls by model without a price
	fid      report.Fidelity
	plots    Written
}

func (p *ComparePlan) session(s *Session, names []string, cfg *simulate.Config) compared {
	results := s.Runs(p.Policies)
	out := compared{runs: report.NewCompared(s.Session, results, p.Calls), unpriced: accounting.Unpriced(s.Session, cfg.Prices)}
	if p.Plots != nil {
		out.plots = p.Plots.WriteSession(plots.SessionFiles(names[s.Index], results, nil, p.Plots.Format, p.Plots.Options), out.runs.HasCalls())
	}
	if p.Fidelity {
		out.fid = fidelity.New(s.Session, s.Trace(), s.Run(policies.Observed()), s.Run(policies.ClaudeCode()), fidelity.DefaultTolerances())
	}
	return out
}

// Compare reads the sessions, replays each under every policy, and
// returns compare's document with its statistics and, under Fidelity, its
// fidelity rows; and under Plots the plots written, each session's in
// input order, then the cost by policy.
func Compare(in *Inputs, o Options, p ComparePlan) (*report.CompareDocument, Written, *Outcome, error) {
	var names []string
	if p.Plots != nil {
		names = sessionNames(in.Sources)
	}
	if p.Fidelity {
		replay.MarkContinued(in.Sources) // a compaction after a file's last call
	}
	cs, out, err := Collect(in, o, func(s *Session) compared { return p.session(s, names, &o.Simulation) })
	if err != nil {
		return nil, Written{}, out, err
	}
	sessions := make([]*report.Compared, len(cs))
	var fid []report.Fidelity
	unpriced := map[string]int{}
	var written Written
	for i, c := range cs {
		sessions[i] = c.runs
		for m, n := range c.unpriced {
			unpriced[m] += n
		}
		if p.Fidelity {
			fid = append(fid, c.fid)
		}
		written.Add(c.plots)
	}
	doc := report.NewCompareDocument(policies.CompiledNames(p.Policies), sessions, fid, o.Accounting.Prices, out.Errors)
	doc.Compare(p.Baseline, p.Measures, p.Stats)
	doc.GroupFidelity(p.FidelityBy)
	doc.UnpricedModels = accounting.SortedCounts(unpriced)
	doc.CostPartial = len(unpriced) > 0
	warnUnpriced(o.Log, doc.UnpricedModels)
	if p.Plots != nil {
		// Unlike replay's totals, which would repeat a lone session's
		// plots, the cost by policy is drawn for one session too: no other
		// plot puts the policies' totals side by side.
		written.Add(p.Plots.Write(CompareTotalFiles(doc.Policies, doc.Total, doc.SessionsWithoutCalls, doc.ComparisonSettings, doc.Comparisons, p.Plots)))
	}
	return doc, written, out, nil
}

// CompareTotalFiles is the plot of the whole input's cost under each
// policy, from a compare document's total, with the intervals of the
// totals against the baseline when the statistics have resamples (the
// sessions without a call, left out of them, add their fixed cost).
func CompareTotalFiles(policies []string, total *report.Compared, withoutCalls int, set *report.ComparisonSettings, comps []report.Comparison, p *Plots) []plots.File {
	ms := make([]simulate.Metrics, len(total.Runs))
	for i, r := range total.Runs {
		ms[i] = r.Metrics
	}
	var ivs plots.CostIntervals
	if set != nil && set.Resamples > 0 {
		ivs.Low, ivs.High = report.TotalCostIntervals(policies, total, withoutCalls, comps)
		ivs.Interval = plots.Interval{Confidence: set.Confidence, Baseline: set.Baseline}
	}
	return plots.CompareTotalFiles(policies, ms, total.Sessions, ivs, p.Format, p.Options)
}
