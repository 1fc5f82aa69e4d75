package plots

import (
	"strings"

	"gonum.org/v1/plot"

	"github.com/ctxlab/ctxlab/report/plots/axis"
	"github.com/ctxlab/ctxlab/simulate/metric"
)

// metricTitle is a metric's name as a sentence starts it: its JSON name
// with the unit suffix dropped and spaces for underscores
// ("total_cost_usd" → "Total cost").
func metricTitle(m metric.Metric) string {
	s := strings.TrimSuffix(m.Name, "_usd")
	s = strings.ReplaceAll(s, "_", " ")
	if s == "" {
		return ""
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// unitText is a unit as an axis label ends it, in brackets; empty for a
// count of events, which the metric's name already says.
func unitText(u metric.Unit) string {
	switch u {
	case metric.USD:
		return "USD"
	case metric.Tokens:
		return "tokens"
	case metric.Ratio:
		return "%"
	case metric.Calls:
		return "calls"
	case metric.CallNo:
		return "call number"
	case metric.Boolean:
		return "1 = yes"
	}
	return ""
}

// axisLabel names a metric on an axis: "Total cost per session (USD)"
// with of = "per session".
func axisLabel(m metric.Metric, of string) string {
	s := metricTitle(m)
	if of != "" {
		s += " " + of
	}
	if u := unitText(m.Unit); u != "" && !strings.EqualFold(u, metricTitle(m)) {
		s += " (" + u + ")"
	}
	return s
}

// unitTicks labels an axis in the unit's style: dollars with cents, a
// ratio as a percentage, whole numbers for counts, thousand-separated
// tokens.
func unitTicks(u metric.Unit) plot.Ticker {
	switch u {
	case metric.USD:
		return axis.Ticks{Prefix: "$", MinDecimals: 2}
	case metric.Ratio:
		return axis.Scaled{T: axis.Ticks{Suffix: "%"}, Factor: 100}
	case metric.Calls, metric.Count, metric.CallNo, metric.Boolean:
		return axis.Ticks{Integer: true}
	}
	return axis.Ticks{}
}
