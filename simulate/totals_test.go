package simulate_test

import (
	"testing"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/internal/testcorpus"
	"github.com/ctxlab/ctxlab/internal/testcorpus/corpusload"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate"
)

// The observed run's total_* usage is what replay reports for the whole
// session, sub-agents included: what was billed.
func TestObservedTotalsAreReplays(t *testing.T) {
	check := func(t *testing.T, ss []*replay.Session) {
		for _, s := range ss {
			u := accounting.Analyze(s, accounting.DefaultConfig()).Usage.Total
			m := simulate.Run(simulate.Prepare(s), mustParse(t, "observed"), simulate.DefaultConfig()).Metrics
			if m.TotalInput != u.Input || m.TotalCacheWrite5m != u.CacheWrite5m || m.TotalCacheWrite1h != u.CacheWrite1h ||
				m.TotalCacheWrite != u.CacheWrite5m+u.CacheWrite1h || m.TotalCacheRead != u.CacheRead || m.TotalOutput != u.Output {
				t.Errorf("%s: observed totals in %d w5 %d w1 %d r %d out %d; replay %d, %d, %d, %d, %d", s.ID,
					m.TotalInput, m.TotalCacheWrite5m, m.TotalCacheWrite1h, m.TotalCacheRead, m.TotalOutput,
					u.Input, u.CacheWrite5m, u.CacheWrite1h, u.CacheRead, u.Output)
			}
		}
	}
	t.Run("fixtures", func(t *testing.T) { check(t, corpusload.Path(t, "../fixtures/testdata/projects")) })
	t.Run("realdata", func(t *testing.T) { check(t, corpusload.Sessions(t, testcorpus.Realdata)) })
}
