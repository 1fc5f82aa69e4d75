package view

import (
	"strconv"

	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/simulate"
)

func raw[T ~int | ~int64](n T) string { return strconv.FormatInt(int64(n), 10) }

func rawUSD(x float64) string { return strconv.FormatFloat(x, 'f', 6, 64) }

// atLeast is a count as people read it, marked ≥ when it is a lower bound
// (it rests on placeholder output counts).
func atLeast[T ~int | ~int64](n T, lower bool) string {
	if lower {
		return "≥" + numtext.Int(n)
	}
	return numtext.Int(n)
}

// HitText is a run's cache hit ratio in percent, and HitRaw as CSV writes
// it; both blank when the run sent no prompt (a session whose main thread
// made no call): read over nothing is no ratio, not a hit ratio of 0%.
// Both round the ratio of the run's usage once, as replay does:
// m.CacheHitRatio already holds it to four decimals, and rounding that
// again to a tenth of a percent could print 92.8% for replay's 92.7%.
func HitText(m *simulate.Metrics) string {
	if !hasPrompt(m) {
		return ""
	}
	return numtext.Pct(m.Usage().HitRatio() * 100)
}

// HitRaw is HitText for CSV and sorting: four decimals, blank without a
// prompt.
func HitRaw(m *simulate.Metrics) string {
	if !hasPrompt(m) {
		return ""
	}
	return strconv.FormatFloat(m.Usage().HitRatio(), 'f', 4, 64)
}

func hasPrompt(m *simulate.Metrics) bool {
	return m.Input+m.CacheWrite5m+m.CacheWrite1h+m.CacheRead > 0
}

// orBlank is s where ok, else blank: a session without a call has no hit
// ratio, not one of 0%.
func orBlank(ok bool, s string) string {
	if !ok {
		return ""
	}
	return s
}
