package budget

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/metric"
)

// Measure is a figure a limit can bound: every simulate metric, by its JSON
// name, and a few the recorded run alone has.
type Measure struct {
	Name           string
	Unit           metric.Unit
	Doc            string
	HigherIsBetter bool
	// RecordedOnly measures come from the transcript's own report, not
	// from a run: a limit on them takes no policy.
	RecordedOnly bool
	// Cost measures cannot be computed when a call's model is unpriced.
	Cost  bool
	value func(s *Sample, m *simulate.Metrics) float64
	// unpriced counts the unpriced calls a cost measure depends on.
	unpriced func(m *simulate.Metrics) int
	// lower reports whether the measure's value in a run rests on
	// placeholder output counts (metric.Metric.LowerBound); nil: never.
	lower func(m *simulate.Metrics) bool
}

// Sample is one session as a gate sees it: the metrics of its recorded run
// and of each policy the budget names, and the recorded figures no run has.
type Sample struct {
	Session, Project string
	Start, End       int64 // Unix ms
	// Runs holds the metrics by canonical policy spec; "" is the recorded
	// run (the observed policy's metrics, which are what was billed).
	Runs map[string]simulate.Metrics
	// BreakCost is the recorded cache breaks' cost, every thread.
	BreakCost float64
	// DuplicateWaste is the tokens of duplicate reads the file had not
	// changed between.
	DuplicateWaste int64
	// BreakUnpriced counts recorded cache breaks whose model has no price.
	BreakUnpriced int
	// known lists the measures a sample rebuilt from a report has; nil:
	// every one.
	known map[string]bool
}

var measures = func() []Measure {
	var out []Measure
	for _, mt := range metric.List() {
		mt := mt
		m := Measure{
			Name: mt.Name, Unit: mt.Unit, Doc: mt.Doc, HigherIsBetter: mt.HigherIsBetter, Cost: mt.Unit == metric.USD,
			value: func(_ *Sample, m *simulate.Metrics) float64 { return mt.Value(m) },
			lower: mt.LowerBound,
		}
		switch mt.Name {
		case "cost_usd", "summarizer_cost_usd":
			m.unpriced = func(m *simulate.Metrics) int { return m.Unpriced }
		case "agents_cost_usd":
			m.unpriced = func(m *simulate.Metrics) int { return m.AgentsUnpriced }
		case "total_cost_usd":
			m.unpriced = func(m *simulate.Metrics) int { return m.Unpriced + m.AgentsUnpriced }
		}
		out = append(out, m)
	}
	return append(out,
		Measure{Name: "cache_write", Unit: metric.Tokens, Doc: "cache_write_5m + cache_write_1h",
			value: func(_ *Sample, m *simulate.Metrics) float64 { return float64(m.CacheWrite5m + m.CacheWrite1h) }},
		Measure{Name: "cache_break_cost_usd", Unit: metric.USD, Cost: true, RecordedOnly: true,
			Doc:   "what the recorded cache breaks of every thread cost in writes (replay's cache-break report)",
			value: func(s *Sample, _ *simulate.Metrics) float64 { return s.BreakCost }},
		Measure{Name: "duplicate_read_waste_tokens", Unit: metric.Tokens, RecordedOnly: true,
			Doc:   "tokens of files read again unchanged (replay's duplicate-read report, waste_tokens)",
			value: func(s *Sample, _ *simulate.Metrics) float64 { return float64(s.DuplicateWaste) }},
	)
}()

// RunValue is the measure of a run, as compare's statistics read it; ok
// is false for a measure of the transcript alone (RecordedOnly) and for a
// cost some of whose calls have no price (the cost is not known).
func (m Measure) RunValue(run *simulate.Metrics) (v float64, ok bool) {
	if m.RecordedOnly || m.unpriced != nil && m.unpriced(run) > 0 {
		return 0, false
	}
	return m.value(nil, run), true
}

// Measures lists every measure, the run's metrics first.
func Measures() []Measure { return slices.Clone(measures) }

// LookupMeasure finds a measure by name; the error lists them.
func LookupMeasure(name string) (Measure, error) {
	for _, m := range measures {
		if m.Name == name {
			return m, nil
		}
	}
	names := make([]string, len(measures))
	for i, m := range measures {
		names[i] = m.Name
	}
	return Measure{}, fmt.Errorf("unknown measure %q (want one of %s)", name, strings.Join(names, ", "))
}

// Aggregation folds the sessions' values of a measure into one.
type Aggregation string

// The aggregations.
const (
	// Total is the measure over all selected sessions together: sums for
	// counts, tokens and costs, the largest peak, the hit ratio of the
	// summed usage.
	Total       Aggregation = "total"
	SessionMax  Aggregation = "session_max"
	SessionMean Aggregation = "session_mean"
	Median      Aggregation = "median"
	P90         Aggregation = "p90"
	P99         Aggregation = "p99"
)

var aggregations = []Aggregation{Total, SessionMax, SessionMean, Median, P90, P99}

func (a Aggregation) valid() bool { return slices.Contains(aggregations, a) }

func aggregationNames() []string {
	out := make([]string, len(aggregations))
	for i, a := range aggregations {
		out[i] = string(a)
	}
	return out
}

// fold aggregates per-session values (not Total, which sums the metrics
// first), as simulate.Quantile and simulate.Median define them.
func fold(a Aggregation, vs []float64) float64 {
	if len(vs) == 0 {
		return 0
	}
	s := slices.Clone(vs)
	sort.Float64s(s)
	switch a {
	case SessionMax:
		return s[len(s)-1]
	case SessionMean:
		sum := 0.0
		for _, v := range s {
			sum += v
		}
		return sum / float64(len(s))
	case Median:
		return simulate.Median(s)
	case P90:
		return simulate.Quantile(s, 90)
	case P99:
		return simulate.Quantile(s, 99)
	}
	panic("budget: fold of " + string(a))
}
