// Package metric describes each figure of a simulated run (simulate.Metrics)
// as every command names it: its JSON name, unit, meaning and which way is
// better. gate's measures, sweep's objectives and columns, and the reports'
// headers all come from List.
package metric

import (
	"fmt"
	"math"
	"reflect"
	"slices"
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
	// RecordedOnly measures come from the transcript's own report
	// (Recorded), not from a run: a gate limit on them takes no policy,
	// and compare's statistics leave them out.
	RecordedOnly bool
	// Cost is set for the dollar figures: unknown where a call's model
	// has no price.
	Cost bool
	// index is Metrics' field; -1 for a measure no field holds, which
	// value computes.
	index int
	value func(rec *Recorded, m *simulate.Metrics) float64
	// unpriced counts the unpriced calls a cost of a run depends on.
	unpriced func(m *simulate.Metrics) int
}

// Recorded holds the figures of a session's own report that no run has:
// what the recorded-only measures read.
type Recorded struct {
	// BreakCost is the recorded cache breaks' cost, every thread.
	BreakCost float64
	// DuplicateWaste is the tokens of duplicate reads the file had not
	// changed between.
	DuplicateWaste int64
	// BreakUnpriced counts recorded cache breaks whose model has no price.
	BreakUnpriced int
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

// unpricedOf is the unpriced calls each cost of a run depends on.
var unpricedOf = map[string]func(m *simulate.Metrics) int{
	"cost_usd":            func(m *simulate.Metrics) int { return m.Unpriced },
	"summarizer_cost_usd": func(m *simulate.Metrics) int { return m.Unpriced },
	"agents_cost_usd":     func(m *simulate.Metrics) int { return m.AgentsUnpriced },
	"total_cost_usd":      func(m *simulate.Metrics) int { return m.Unpriced + m.AgentsUnpriced },
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
		out = append(out, Metric{Name: name, Unit: info.unit, Doc: info.doc, HigherIsBetter: info.higher, Summed: !notSummed[name],
			Cost: info.unit == USD, index: i, unpriced: unpricedOf[name]})
	}
	return out
}()

// List returns every metric of a run in Metrics' order (its JSON order):
// what sweep ranks and compare's runs carry.
func List() []Metric { return slices.Clone(metricList) }

// Lookup finds a metric of a run by its JSON name; the error lists them
// all.
func Lookup(name string) (Metric, error) { return find(metricList, "metric", name) }

// Measures lists every measure a gate limit can bound and compare's
// statistics can compare: the run's metrics first, then the few the
// recorded run alone has or that add two metrics.
func Measures() []Metric { return slices.Clone(measureList) }

// LookupMeasure finds a measure by name; the error lists them.
func LookupMeasure(name string) (Metric, error) { return find(measureList, "measure", name) }

func find(list []Metric, what, name string) (Metric, error) {
	for _, m := range list {
		if m.Name == name {
			return m, nil
		}
	}
	names := make([]string, len(list))
	for i, m := range list {
		names[i] = m.Name
	}
	return Metric{}, fmt.Errorf("unknown %s %q (want one of %s)", what, name, strings.Join(names, ", "))
}

// Value reads the metric from m, as a number (a boolean is 0 or 1); a
// recorded-only measure reads 0.
func (mt Metric) Value(m *simulate.Metrics) float64 { return mt.ValueOf(nil, m) }

// ValueOf reads the measure from a run's metrics and, for a
// recorded-only one, the session's recorded figures (nil: none).
func (mt Metric) ValueOf(rec *Recorded, m *simulate.Metrics) float64 {
	if mt.value != nil {
		if rec == nil {
			rec = &Recorded{}
		}
		return mt.value(rec, m)
	}
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
