package axis

import (
	"math"

	"gonum.org/v1/plot"
)

// Log2Scale is a logarithmic axis (base 2, though the base does not change
// where a value falls): a geometric grid (2, 4, 8, 16, 32) is evenly
// spaced on it. Unlike gonum's LogScale it never panics: a value, or an
// axis end, at or below zero falls at the axis' start.
type Log2Scale struct{}

// Normalize implements plot.Normalizer.
func (Log2Scale) Normalize(lo, hi, x float64) float64 {
	if !(lo > 0) || !(hi > lo) || !(x > 0) {
		return 0
	}
	return (math.Log2(x) - math.Log2(lo)) / (math.Log2(hi) - math.Log2(lo))
}

// maxGridLabels is the most grid values labelled on an axis; with more,
// every second (third, …) is labelled and the rest are minor ticks.
const maxGridLabels = 12

// GridTicks are ticks at a grid's values, labelled by labels[i]:
// a geometric grid on a log axis reads as the values swept.
func GridTicks(values []float64, labels []string) plot.ConstantTicks {
	every := (len(values) + maxGridLabels - 1) / maxGridLabels
	var out plot.ConstantTicks
	for i, v := range values {
		t := plot.Tick{Value: v}
		if i%max(every, 1) == 0 {
			t.Label = labels[i]
		}
		out = append(out, t)
	}
	return out
}

// PadRange widens [lo, hi] by frac of its span on each side (of its
// logarithm's on a log axis), so that no marker sits on an axis or is cut
// by the frame; a range of one value gets a span of its own, an empty one
// (infinite ends) is 0 to 1.
func PadRange(lo, hi, frac float64, log bool) (float64, float64) {
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.IsNaN(lo) || math.IsNaN(hi) {
		return 0, 1
	}
	if log && lo > 0 {
		f := math.Pow(hi/lo, frac)
		if hi == lo {
			f = 2
		}
		return lo / f, hi * f
	}
	span := hi - lo
	if span == 0 {
		span = math.Max(math.Abs(lo), 1)
	}
	return lo - span*frac, hi + span*frac
}

// Scaled places and labels ticks in units Factor times the data's (a
// ratio's ticks as percentages).
type Scaled struct {
	T      Ticks
	Factor float64
}

// Ticks implements plot.Ticker.
func (s Scaled) Ticks(lo, hi float64) []plot.Tick {
	ts := s.T.Ticks(lo*s.Factor, hi*s.Factor)
	for i := range ts {
		ts[i].Value /= s.Factor
	}
	return ts
}
