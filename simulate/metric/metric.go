// Package metric describes each figure of a simulated run (simulate.Metrics)
// as every command names it: its JSON name, unit, meaning and which way is
// better. gate's measures, sweep's objectives and columns, and the reports'
// headers all come from List.
package metric

import (
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/simulate"
)

// Metric describes one figure of simulate.Metrics: the JSON name compare
// and replay write, its unit, what it means, and which way is better.
type Metric struct {
	Name string // Metrics' JSON name
	Unit Unit
	Doc  string
	// HigherIsBetter is set for the figures a study maximises (the cache
	// hit ratio, user messages kept); the rest are costs.
	HigherIsBetter bool
	// Summed: a total over sessions (simulate.SumMetrics) is the sum of
	// the sessions' values. The others are the largest (peak_context),
	// recomputed from the sums (cache_hit_ratio), any session's
	// (output_lower_bound) or 0 (first_compaction_call).
	Summed bool
	index  int // Metrics' field
}

// Unit is what a metric counts.
type Unit string

// The units.
const (
	Calls        Unit = "calls"
	Tokens       Unit = "tokens"
	USD          Unit = "USD"
	Ratio        Unit = "ratio"    // 0–1
	Count        Unit = "count"    // events: compactions, breaks, messages
	CallNo       Unit = "call"     // a 1-based call number
	Boolean      Unit = "boolean"  // 0 or 1
	unitUnlisted Unit = "unlisted" // the table below has no row: a test fails
)

// Whole reports whether the unit counts whole things (calls, tokens,
// events, a call number, a boolean): a value of it that is not whole (a
// mean over sessions, a bound a percentage gives) is still read as a
// whole number.
func (u Unit) Whole() bool {
	switch u {
	case Calls, Tokens, Count, CallNo, Boolean:
		return true
	}
	return false
}

// Text writes a value in its unit as people read it (internal/numtext's
// style): "$12.34", "87.5%", "24,663", "2.50". A count is a whole number,
// rounded when it is not one: "2,409,045", never "2,409,045.10".
func (u Unit) Text(v float64) string {
	switch {
	case u == USD:
		return numtext.USD(v)
	case u == Ratio:
		return numtext.Pct(100 * v)
	case u.Whole() && math.Abs(v) < 1e15:
		return numtext.Int(int64(math.Round(v)))
	case v == math.Trunc(v) && math.Abs(v) < 1e15:
		return numtext.Int(int64(v))
	}
	return numtext.Float(v, 2)
}

// metricInfo is each metric's unit, meaning and direction, by JSON name.
var metricInfo = map[string]struct {
	unit   Unit
	higher bool
	doc    string
}{
	"calls":                     {Calls, false, "main-thread calls replayed"},
	"peak_context":              {Tokens, false, "largest prompt of the run"},
	"calls_above_warning":       {Calls, false, "calls at or above Claude Code's warning level (threshold − 20,000)"},
	"overflows":                 {Calls, false, "calls whose prompt exceeded the context window: the API would have refused them"},
	"compactions":               {Count, false, "summaries written: full, partial and session-memory compactions"},
	"clearings":                 {Count, false, "clearing and dropping actions: micro-compaction, masking, context editing"},
	"tokens_freed":              {Tokens, false, "tokens the compactions and clearings removed"},
	"summary_tokens":            {Tokens, false, "tokens of the summaries written"},
	"first_compaction_call":     {CallNo, false, "the first call after a compaction; 0 when none (0 in a total)"},
	"input":                     {Tokens, false, "uncached input tokens, main thread and summarizer"},
	"cache_write_5m":            {Tokens, false, "5-minute cache writes"},
	"cache_write_1h":            {Tokens, false, "1-hour cache writes"},
	"cache_read":                {Tokens, false, "cache reads"},
	"output":                    {Tokens, false, "output tokens (a lower bound when output_lower_bound)"},
	"output_lower_bound":        {Boolean, false, "recorded outputs include Claude Code 2.1.9–2.1.41 placeholders"},
	"cache_hit_ratio":           {Ratio, true, "cache read / (input + cache writes + cache read)"},
	"cache_breaks":              {Count, false, "calls whose cache read fell by more than 5% and 2,000 tokens"},
	"policy_breaks":             {Count, false, "cache breaks right after the run edited the context"},
	"cost_usd":                  {USD, false, "main thread and summarizer"},
	"summarizer_cost_usd":       {USD, false, "the summarizer's calls"},
	"agents_cost_usd":           {USD, false, "sub-agents, as observed"},
	"total_cost_usd":            {USD, false, "cost_usd + agents_cost_usd"},
	"unpriced_calls":            {Calls, false, "main-thread and summarizer calls whose model has no price"},
	"agents_unpriced_calls":     {Calls, false, "sub-agent calls whose model has no price"},
	"agents_input":              {Tokens, false, "sub-agents' uncached input tokens, as observed"},
	"agents_cache_write_5m":     {Tokens, false, "sub-agents' 5-minute cache writes, as observed"},
	"agents_cache_write_1h":     {Tokens, false, "sub-agents' 1-hour cache writes, as observed"},
	"agents_cache_read":         {Tokens, false, "sub-agents' cache reads, as observed"},
	"agents_output":             {Tokens, false, "sub-agents' output tokens, as observed (a lower bound when agents_output_lower_bound)"},
	"agents_output_lower_bound": {Boolean, false, "recorded sub-agent outputs include Claude Code 2.1.9–2.1.41 placeholders"},
	"total_input":               {Tokens, false, "input + agents_input: the session's"},
	"total_cache_write":         {Tokens, false, "total_cache_write_5m + total_cache_write_1h"},
	"total_cache_write_5m":      {Tokens, false, "cache_write_5m + agents_cache_write_5m"},
	"total_cache_write_1h":      {Tokens, false, "cache_write_1h + agents_cache_write_1h"},
	"total_cache_read":          {Tokens, false, "cache_read + agents_cache_read"},
	"total_output":              {Tokens, false, "output + agents_output"},
	"users_verbatim":            {Count, true, "user messages still in the context or quoted whole by the latest summary"},
	"users_summarised":          {Count, false, "user messages only summarised"},
	"likely_rereads":            {Count, false, "tool calls on a file whose content the run had removed"},
}

// notSummed are the metrics a total does not sum (Metric.Summed).
var notSummed = map[string]bool{"peak_context": true, "cache_hit_ratio": true, "output_lower_bound": true, "agents_output_lower_bound": true, "first_compaction_call": true}

// LowerBound reports whether the metric's value in m rests on placeholder
// output counts (Claude Code 2.1.9–2.1.41 wrote them): the outputs and the
// costs, of the main thread, the sub-agents or both, when their flag is
// set. Such a value is a lower bound.
func (mt Metric) LowerBound(m *simulate.Metrics) bool {
	switch mt.Name {
	case "output", "cost_usd":
		return m.OutputLowerBound
	case "agents_output", "agents_cost_usd":
		return m.AgentsOutputLowerBound
	case "total_output", "total_cost_usd":
		return m.TotalLowerBound()
	}
	return false
}

var metricList = func() []Metric {
	t := reflect.TypeFor[simulate.Metrics]()
	out := make([]Metric, 0, t.NumField())
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		info, ok := metricInfo[name]
		if !ok {
			info.unit = unitUnlisted
		}
		out = append(out, Metric{Name: name, Unit: info.unit, Doc: info.doc, HigherIsBetter: info.higher, Summed: !notSummed[name], index: i})
	}
	return out
}()

// List returns every metric in Metrics' order (its JSON order).
func List() []Metric { return append([]Metric(nil), metricList...) }

// Lookup finds a metric by its JSON name; the error lists them all.
func Lookup(name string) (Metric, error) {
	for _, m := range metricList {
		if m.Name == name {
			return m, nil
		}
	}
	names := make([]string, len(metricList))
	for i, m := range metricList {
		names[i] = m.Name
	}
	return Metric{}, fmt.Errorf("unknown metric %q (want one of %s)", name, strings.Join(names, ", "))
}

// Value reads the metric from m, as a number (a boolean is 0 or 1).
func (mt Metric) Value(m *simulate.Metrics) float64 {
	f := reflect.ValueOf(m).Elem().Field(mt.index)
	switch f.Kind() {
	case reflect.Int, reflect.Int64:
		return float64(f.Int())
	case reflect.Float64:
		return f.Float()
	case reflect.Bool:
		if f.Bool() {
			return 1
		}
	}
	return 0
}
