package simulate_test

import (
	"testing"

	"github.com/ctxlab/ctxlab/simulate"
)

// BenchmarkRun replays every real session under each of a few policies;
// Prepare is timed apart, as compare runs it once per session.
func BenchmarkRun(b *testing.B) {
	sessions := realSessions(b)
	b.Run("prepare", func(b *testing.B) {
		for b.Loop() {
			for _, s := range sessions {
				simulate.Prepare(s)
			}
		}
	})
	var traces []*simulate.Trace
	calls := 0
	for _, s := range sessions {
		tr := simulate.Prepare(s)
		traces = append(traces, tr)
		calls += len(tr.Calls)
	}
	for _, spec := range []string{"observed", "none", "claude-code", "claude-code:micro=size"} {
		b.Run(spec, func(b *testing.B) {
			for b.Loop() {
				for _, tr := range traces {
					// A policy keeps state across the calls of a run: each
					// run gets a fresh one.
					simulate.Run(tr, mustParse(b, spec), simulate.DefaultConfig())
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(calls), "ns/call")
		})
	}
}
