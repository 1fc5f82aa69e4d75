package view

import (
	"testing"

	"github.com/ctxlab/ctxlab/simulate"
)

// TestHitTextRoundsOnce: a run's hit ratio in percent is rounded once,
// from its usage, as replay rounds the same ratio. Session f5a50440 of
// the genuine transcripts reads 15,353,917 of 16,554,148 prompt tokens
// from the cache: 92.7497%, which replay prints as 92.7%. The metric
// keeps four decimals (0.9275), and printing that again gave 92.8%
// under compare's observed for the very same calls.
func TestHitTextRoundsOnce(t *testing.T) {
	var m simulate.Metrics
	m.Input, m.CacheWrite5m, m.CacheRead = 1022, 1199209, 15353917
	m.CacheHitRatio = 0.9275 // as the run's metrics hold it
	if got := HitText(&m); got != "92.7%" {
		t.Errorf("HitText = %q, want 92.7%% (15,353,917 / 16,554,148 = 92.7497%%)", got)
	}
	if got := HitRaw(&m); got != "0.9275" {
		t.Errorf("HitRaw = %q, want 0.9275", got)
	}
}
