package metric

import (
	"math"

	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/paired"
)

// PairValue is a run's value of the measure as paired comparisons take
// it: RunValue, or NaN where that is unknown, which leaves the session
// out of the pair.
func (mt Metric) PairValue(run *simulate.Metrics) float64 {
	v, ok := mt.RunValue(run)
	if !ok {
		return math.NaN()
	}
	return v
}

// CompareAll is simulate/paired's CompareAll of pairs whose i-th compares
// measure of[i], with the totals of a dollar measure rounded as costs are:
// sums of rounded costs carry no float noise. compare's comparisons and
// sweep's both come from it.
func CompareAll(pairs []paired.Pair, of []Metric, opt paired.Options) []paired.Stats {
	out := paired.CompareAll(pairs, opt)
	for i := range out {
		if of[i].Unit == USD {
			out[i].BaselineTotal, out[i].Total = prices.RoundUSD(out[i].BaselineTotal), prices.RoundUSD(out[i].Total)
		}
	}
	return out
}
