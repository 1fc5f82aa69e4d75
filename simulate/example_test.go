package simulate_test

import (
	"fmt"

	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate"
)

// Replay a session under Claude Code's own policy and under observation
// masking, and compare what each would have cost.
func Example() {
	srcs, _ := replay.Discover([]string{"../fixtures/testdata/projects/-home-dev-queue"})
	s, err := replay.Load(srcs[0], replay.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	tr := simulate.Prepare(s) // once per session, shared by every run
	var base simulate.Metrics
	for i, spec := range []string{"observed", "claude-code", "keep-last-n:n=3"} {
		p, err := policies.Parse(spec)
		if err != nil {
			fmt.Println(err)
			return
		}
		m := simulate.Run(tr, p, simulate.Config{}).Metrics
		if i == 0 {
			base = m
		}
		d := simulate.NewDelta(base, m)
		fmt.Printf("%-16s peak %6d  cost $%.4f  Δ $%+.4f\n", spec, m.PeakContext, m.TotalCost, d.TotalCost)
	}
	// Output:
	// observed         peak  21158  cost $0.2181  Δ $+0.0000
	// claude-code      peak  21430  cost $0.2791  Δ $+0.0610
	// keep-last-n:n=3  peak  20581  cost $0.3185  Δ $+0.1005
}
