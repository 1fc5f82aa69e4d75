// Package paired compares two runs of the same sessions, session by
// session: the change of a metric's total with a bootstrap interval over
// sessions, the median and geometric-mean change, and the Wilcoxon
// signed-rank test of the per-session differences. Every replay is
// deterministic, so the only uncertainty is which sessions were sampled;
// the statistics say how much the change depends on it
// (docs/compare.md, "Is the difference real?").
//
// One rule decides significance: the interval of the change printed
// beside it. The signed-rank test asks another question (do the sessions
// shift one way, each counting once?) and is reported apart, with whether
// it agrees, so that no mark contradicts the interval it stands beside.
package paired

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"

	"github.com/ctxlab/ctxlab/internal/numstat"
)

// Options are the statistics' settings; each zero field means its default.
type Options struct {
	// Resamples is the number of bootstrap resamples (default 10,000);
	// negative: no interval.
	Resamples int
	// Confidence is the interval's coverage, in (0, 1) (default 0.95).
	Confidence float64
	// Alpha is the significance level of the Wilcoxon test, in (0, 1)
	// (default 0.05): it sets Stats.WilcoxonSignificant only; the
	// interval, at Confidence, decides Stats.Significant.
	Alpha float64
}

// The defaults of Options.
const (
	DefaultResamples  = 10000
	DefaultConfidence = 0.95
	DefaultAlpha      = 0.05
	// MaxResamples bounds Resamples so that a typo cannot run for hours.
	MaxResamples = 1_000_000
	// MinIntervalSessions is the fewest sessions a comparison needs for an
	// interval, and so for a verdict.
	MinIntervalSessions = 2
)

// withDefaults fills the zero fields.
func (o Options) withDefaults() Options {
	if o.Resamples == 0 {
		o.Resamples = DefaultResamples
	}
	if o.Confidence == 0 {
		o.Confidence = DefaultConfidence
	}
	if o.Alpha == 0 {
		o.Alpha = DefaultAlpha
	}
	return o
}

// Resolved returns the options with their defaults filled in, as a
// document reports them.
func (o Options) Resolved() Options { return o.withDefaults() }

// Validate checks the options; the errors name the field.
func (o Options) Validate() error {
	o = o.withDefaults()
	var errs []error
	if o.Resamples > MaxResamples {
		errs = append(errs, fmt.Errorf("resamples %d: at most %d", o.Resamples, MaxResamples))
	}
	if !(o.Confidence > 0 && o.Confidence < 1) {
		errs = append(errs, fmt.Errorf("confidence %v: want a number between 0 and 1, such as 0.95", o.Confidence))
	}
	if !(o.Alpha > 0 && o.Alpha < 1) {
		errs = append(errs, fmt.Errorf("alpha %v: want a number between 0 and 1, such as 0.05", o.Alpha))
	}
	return errors.Join(errs...)
}

// Stats compares a run (values) with a baseline over the sessions that
// have both values. A figure that is undefined (no sessions, a baseline
// total of 0, no session with a positive baseline, no difference to
// test) is nil, null in JSON.
type Stats struct {
	Sessions      int     `json:"sessions"`
	BaselineTotal float64 `json:"baseline_total"`
	Total         float64 `json:"total"`
	// TotalChangePct is 100 × (Total / BaselineTotal − 1); the interval
	// is its percentile bootstrap over sessions.
	TotalChangePct *float64 `json:"total_change_pct"`
	CILowPct       *float64 `json:"total_change_ci_low_pct"`
	CIHighPct      *float64 `json:"total_change_ci_high_pct"`
	// MedianChangePct is the median over sessions whose baseline is above
	// 0 of 100 × (value / baseline − 1).
	MedianChangePct *float64 `json:"median_change_pct"`
	// GeomeanRatio is the geometric mean of value / baseline over the
	// sessions where both are above 0.
	GeomeanRatio *float64 `json:"geomean_ratio"`
	// WilcoxonP is the two-sided p-value of the signed-rank test of the
	// differences (Wilcoxon).
	WilcoxonP *float64 `json:"wilcoxon_p"`
	// Significant: the interval excludes 0 (the change of the total at
	// level 1 − Options.Confidence); false without an interval.
	Significant bool `json:"significant"`
	// WilcoxonSignificant: WilcoxonP < Options.Alpha. Where it differs
	// from Significant the two tests disagree (Disagree).
	WilcoxonSignificant bool `json:"wilcoxon_significant"`
}

// Decided says whether the statistics decide significance at all: the
// change has an interval.
func (s *Stats) Decided() bool { return s.CILowPct != nil && s.CIHighPct != nil }

// Disagree says whether the signed-rank test, at its level, disagrees
// with the interval that decides significance: p below α with an
// interval that holds 0, or p at or above it (or no p: no difference to
// test) with an interval that excludes 0.
func (s *Stats) Disagree() bool { return s.Decided() && s.WilcoxonSignificant != s.Significant }

// excludesZero says whether the interval [lo, hi] leaves 0 out.
func excludesZero(lo, hi float64) bool { return lo > 0 || hi < 0 }

// TotalInterval is the total's interval in its unit: the baseline's
// total times 1 + the change's interval, the total as its change against
// the baseline leaves it uncertain; ok is false without an interval.
func (s *Stats) TotalInterval() (low, high float64, ok bool) {
	if s.CILowPct == nil || s.CIHighPct == nil {
		return 0, 0, false
	}
	return s.BaselineTotal * (1 + *s.CILowPct/100), s.BaselineTotal * (1 + *s.CIHighPct/100), true
}

// Comparison is one run's statistics against a baseline run on one
// metric: compare's comparisons, a sweep point against its baseline, a
// Pareto point against its neighbour on the front.
type Comparison struct {
	Policy   string `json:"policy"`
	Baseline string `json:"baseline"`
	Metric   string `json:"metric"`
	Stats
	// LowerBound says that the totals compared are lower bounds: they
	// rest on values the caller knows to be (report sets it where a run
	// of either side counts placeholder output tokens). The statistics
	// are computed on the values as they are.
	LowerBound bool `json:"lower_bound"`
}

// Pair is a run's values and its baseline's, session i being
// Baseline[i] and Values[i]; a NaN or infinite value marks a session the
// pair lacks, and so does an index past the shorter slice.
type Pair struct{ Baseline, Values []float64 }

// CompareAll computes each pair's statistics over the sessions it has
// both values of. The bootstrap draws those sessions alone, as if they
// were all there were: a session a pair lacks (a cost with unpriced
// calls) is left out of its draws, not drawn as an empty one, which
// would make resamples of fewer real sessions than n counts. Pairs that
// have the same sessions (every pair, usually) are resampled together,
// once for all of them, so that comparing many runs costs little more
// than one and the same sessions are drawn for each.
func CompareAll(pairs []Pair, opt Options) []Stats {
	opt = opt.withDefaults()
	out := make([]Stats, len(pairs))
	cols := make([]column, len(pairs))
	var groups []sessionGroup
	for i, p := range pairs {
		m := min(len(p.Baseline), len(p.Values))
		base, val := p.Baseline[:m], p.Values[:m]
		var has []int // the sessions the pair has, when it lacks some
		if !allFinite(base) || !allFinite(val) {
			base, val = make([]float64, m), make([]float64, m)
			for j := range m {
				if finite(p.Baseline[j]) && finite(p.Values[j]) {
					base[j], val[j] = p.Baseline[j], p.Values[j]
					has = append(has, j)
				} else {
					base[j], val[j] = math.NaN(), math.NaN()
				}
			}
			base, val = pick(base, has), pick(val, has)
		} else {
			has = make([]int, m)
			for j := range has {
				has[j] = j
			}
		}
		out[i] = stats(base, val, opt)
		cols[i] = column{base, val}
		groups = addToGroup(groups, has, i)
	}
	for _, g := range groups {
		if opt.Resamples <= 0 || len(g.has) == 0 {
			continue
		}
		gc := make([]column, len(g.pairs))
		for k, i := range g.pairs {
			gc[k] = cols[i]
		}
		for k, iv := range intervals(gc, len(g.has), opt.Resamples, opt.Confidence) {
			// One session has nothing to resample: its interval would be
			// a point, and every change of it "significant".
			if s := &out[g.pairs[k]]; s.TotalChangePct != nil && s.Sessions >= MinIntervalSessions && iv.ok {
				s.CILowPct, s.CIHighPct = ptr(iv.lo), ptr(iv.hi)
				s.Significant = excludesZero(iv.lo, iv.hi)
			}
		}
	}
	return out
}

// sessionGroup is the pairs that have the same sessions (indexes into
// every pair's values), in the order they came.
type sessionGroup struct {
	has   []int
	pairs []int
}

// addToGroup adds pair i, which has the sessions has, to its group.
func addToGroup(groups []sessionGroup, has []int, i int) []sessionGroup {
	for k := range groups {
		if slices.Equal(groups[k].has, has) {
			groups[k].pairs = append(groups[k].pairs, i)
			return groups
		}
	}
	return append(groups, sessionGroup{has: has, pairs: []int{i}})
}

// pick is xs at the indexes idx.
func pick(xs []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for k, j := range idx {
		out[k] = xs[j]
	}
	return out
}

// stats computes everything but the interval over the pairs of finite
// values (NaN marks a missing session).
func stats(baseline, values []float64, opt Options) Stats {
	var base, val []float64
	for i := range baseline {
		if !math.IsNaN(baseline[i]) {
			base, val = append(base, baseline[i]), append(val, values[i])
		}
	}
	s := Stats{Sessions: len(base)}
	for i := range base {
		s.BaselineTotal += base[i]
		s.Total += val[i]
	}
	if s.BaselineTotal != 0 && len(base) > 0 {
		s.TotalChangePct = ptr(numstat.ChangePct(s.Total, s.BaselineTotal))
	}
	var changes, ratios []float64
	for i := range base {
		if base[i] > 0 {
			changes = append(changes, numstat.ChangePct(val[i], base[i]))
			if val[i] > 0 {
				ratios = append(ratios, val[i]/base[i])
			}
		}
	}
	if len(changes) > 0 {
		slices.Sort(changes)
		s.MedianChangePct = ptr(numstat.Median(changes))
	}
	if len(ratios) > 0 {
		s.GeomeanRatio = ptr(stat.GeometricMean(ratios, nil))
	}
	diffs := make([]float64, len(base))
	for i := range base {
		diffs[i] = val[i] - base[i]
	}
	if p, ok := Wilcoxon(diffs); ok {
		s.WilcoxonP = ptr(p)
		s.WilcoxonSignificant = p < opt.Alpha
	}
	return s
}

func allFinite(xs []float64) bool {
	for _, x := range xs {
		if !finite(x) {
			return false
		}
	}
	return true
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func ptr(x float64) *float64 { return &x }
