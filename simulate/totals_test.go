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

// The observed run's tokens freed and summary tokens are the main thread's
// compaction timeline's: what the session's own compactions freed (those
// after the last call, which no call follows, are not replayed).
func TestObservedFreedIsTheTimelines(t *testing.T) {
	check := func(t *testing.T, ss []*replay.Session) {
		for _, s := range ss {
			var freed, summary int64
			for _, ev := range accounting.Analyze(s, accounting.DefaultConfig()).Compactions {
				if ev.Thread == "main" && ev.AfterCall < len(s.Main.Calls) {
					freed += ev.Freed
					if ev.Kind != string(replay.CompactMicro) {
						summary += int64(ev.SummaryTokens)
					}
				}
			}
			m := simulate.Run(simulate.Prepare(s), mustParse(t, "observed"), simulate.DefaultConfig()).Metrics
			if m.TokensFreed != freed || m.SummaryTokens != summary {
				t.Errorf("%s: observed freed %d, summary %d; the timeline %d, %d", s.ID, m.TokensFreed, m.SummaryTokens, freed, summary)
			}
		}
	}
	t.Run("fixtures", func(t *testing.T) { check(t, corpusload.Path(t, "../fixtures/testdata/projects")) })
	t.Run("realdata", func(t *testing.T) { check(t, corpusload.Sessions(t, testcorpus.Realdata)) })
}
