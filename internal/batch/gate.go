package batch

import (
	"fmt"

	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/budget"
)

// Gate reads the sessions and measures each for the budget: its recorded
// figures and its runs under the policies the budget's limits name, each
// compiled once. The samples come in input order; a session that cannot
// be measured fails the batch.
func Gate(in *Inputs, o Options, f *budget.File) ([]budget.Sample, *Outcome, error) {
	compiled := map[string]policies.Compiled{policies.Observed().Name(): policies.Observed()}
	for _, spec := range f.Policies() {
		c, err := policies.Compile(spec)
		if err != nil {
			return nil, nil, err
		}
		compiled[spec] = c
	}
	run := func(tr *simulate.Trace, spec string) (simulate.Metrics, error) {
		c, ok := compiled[spec]
		if !ok {
			return simulate.Metrics{}, fmt.Errorf("the budget's policy %q was not compiled", spec)
		}
		return c.Run(tr, o.Simulation).Metrics, nil
	}
	type measured struct {
		smp budget.Sample
		err error
	}
	ms, out, err := Collect(in, o, func(s *Session) measured {
		smp, err := budget.NewSample(s.Session, s.Report(), f, run)
		return measured{smp, err}
	})
	if err != nil {
		return nil, out, err
	}
	samples := make([]budget.Sample, len(ms))
	for i, m := range ms {
		if m.err != nil {
			return nil, out, m.err
		}
		samples[i] = m.smp
	}
	return samples, out, nil
}
