package budget

import (
	"slices"
	"sort"

	"github.com/ctxlab/ctxlab/internal/numstat"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/metric"
)

// Sample is one session as a gate sees it: the metrics of its recorded run
// and of each policy the budget names, and the recorded figures no run has.
type Sample struct {
	Session, Project string
	Start, End       int64 // Unix ms
	// Runs holds the metrics by canonical policy spec; "" is the recorded
	// run (the observed policy's metrics, which are what was billed).
	Runs map[string]simulate.Metrics
	// Recorded is what the session's own report gives.
	metric.Recorded
	// known lists the measures a sample rebuilt from a report has; nil:
	// every one.
	known map[string]bool
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
// first), as internal/numstat defines quantiles and the median.
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
		return numstat.Median(s)
	case P90:
		return numstat.Quantile(s, 0.9)
	case P99:
		return numstat.Quantile(s, 0.99)
	}
	panic("budget: fold of " + string(a))
}
