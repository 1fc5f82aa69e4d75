package batch

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/simulate/metric"
	"github.com/ctxlab/ctxlab/simulate/paired"
)

// Stats are compare's and sweep's paired statistics as their flags give
// them: which policy is the baseline (--baseline), which metrics
// (--stats), and the bootstrap's and the test's settings (--bootstrap,
// --confidence, --alpha). Their errors name the flag.
type Stats struct {
	Baseline, Metrics string
	Bootstrap         int
	Confidence, Alpha float64
}

// DefaultStats is --stats's default.
var DefaultStats = strings.Join(report.DefaultComparisonMetrics, ",")

// Options checks --bootstrap, --confidence and --alpha and returns them
// as the statistics take them.
func (o Stats) Options() (paired.Options, error) {
	switch {
	case o.Bootstrap < 0 || o.Bootstrap > paired.MaxResamples:
		return paired.Options{}, fmt.Errorf("--bootstrap %d: want 0 (no intervals) to %d", o.Bootstrap, paired.MaxResamples)
	case !(o.Confidence > 0 && o.Confidence < 1):
		return paired.Options{}, fmt.Errorf("--confidence %v: want a number between 0 and 1, such as 0.95", o.Confidence)
	case !(o.Alpha > 0 && o.Alpha < 1):
		return paired.Options{}, fmt.Errorf("--alpha %v: want a number between 0 and 1, such as 0.05", o.Alpha)
	}
	opt := paired.Options{Resamples: o.Bootstrap, Confidence: o.Confidence, Alpha: o.Alpha}
	if o.Bootstrap == 0 {
		opt.Resamples = -1
	}
	return opt, nil
}

// Resolve checks the flags against the policies' canonical names and
// returns the baseline's index, the measures and the options.
func (o Stats) Resolve(names []string) (int, []metric.Metric, paired.Options, error) {
	var opt paired.Options
	base := 0
	if o.Baseline != "" {
		name, err := policies.Canon(o.Baseline)
		if err != nil {
			return 0, nil, opt, fmt.Errorf("--baseline: %v", err)
		}
		if base = slices.Index(names, name); base < 0 {
			return 0, nil, opt, fmt.Errorf("--baseline %s: not one of --policy (%s)", name, strings.Join(names, ", "))
		}
	}
	var ms []metric.Metric
	for _, name := range strings.Split(o.Metrics, ",") {
		name = strings.TrimSpace(name)
		m, err := metric.LookupMeasure(name)
		switch {
		case name == "":
			return 0, nil, opt, fmt.Errorf("--stats %q: want comma-separated metric names, such as %s", o.Metrics, DefaultStats)
		case err != nil:
			return 0, nil, opt, fmt.Errorf("--stats: %v", err)
		case m.RecordedOnly:
			return 0, nil, opt, fmt.Errorf("--stats %s: a figure of the transcript alone, which no policy changes", name)
		case slices.ContainsFunc(ms, func(x metric.Metric) bool { return x.Name == name }):
			return 0, nil, opt, fmt.Errorf("--stats %s: listed twice", name)
		}
		ms = append(ms, m)
	}
	opt, err := o.Options()
	if err != nil {
		return 0, nil, opt, err
	}
	return base, ms, opt, nil
}
