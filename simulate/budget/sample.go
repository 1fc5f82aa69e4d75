package budget

import (
	"slices"

	"github.com/ctxlab/ctxlab/accounting"
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

// NewSample measures one session for the budget: its report gives the
// recorded figures no run has; run replays it under a policy spec (the
// caller's policies.Parse and simulate.Run), for the recorded run
// ("observed": its metrics are what was billed) and each policy f names.
func NewSample(s *replay.Session, rep *accounting.Report, f *File, run func(tr *simulate.Trace, spec string) (simulate.Metrics, error)) (Sample, error) {
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
