package policies_test

import (
	"testing"

	"github.com/ctxlab/ctxlab/internal/testcorpus"
	"github.com/ctxlab/ctxlab/internal/testcorpus/corpusload"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/simulate"
)

// BenchmarkPolicies runs every built-in policy over the real transcripts'
// traces (skipped when absent) and reports each one's nanoseconds a call:
// what each adds to `compare`, which runs them all.
//
//	go test -run XXX -bench Policies ./policies
func BenchmarkPolicies(b *testing.B) {
	var traces []*simulate.Trace
	calls := 0
	for _, s := range corpusload.Sessions(b, testcorpus.Realdata) {
		tr := simulate.Prepare(s)
		traces = append(traces, tr)
		calls += len(tr.Calls)
	}
	for _, name := range policies.Names() {
		c, err := policies.Compile(name)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				for _, tr := range traces {
					c.Run(tr, simulate.DefaultConfig())
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(calls), "ns/call")
		})
	}
}
