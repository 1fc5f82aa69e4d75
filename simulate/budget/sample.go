package budget

import (
	"slices"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate"
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

// NewSample measures one session for the budget: its report (for the
// recorded figures no run has), the recorded run (the observed policy's
// metrics: what was billed) and a run under each policy f names.
func NewSample(s *replay.Session, rep *accounting.Report, f *File, cfg simulate.Config) (Sample, error) {
	smp := Sample{Session: s.ID, Project: s.Project, Start: s.Start(), End: s.End(), Runs: map[string]simulate.Metrics{}}
	for _, b := range rep.CacheBreaks {
		if b.Priced {
			smp.BreakCost += b.Cost
		} else {
			smp.BreakUnpriced++
		}
	}
	for _, d := range rep.Duplicates {
		smp.DuplicateWaste += int64(d.WasteTokens)
	}
	tr := simulate.Prepare(s)
	for _, spec := range append([]string{"observed"}, f.Policies()...) {
		p, err := policies.Parse(spec)
		if err != nil {
			return Sample{}, err
		}
		key := spec
		if spec == "observed" {
			key = ""
		}
		smp.Runs[key] = simulate.Run(tr, p, cfg).Metrics
	}
	return smp, nil
}
