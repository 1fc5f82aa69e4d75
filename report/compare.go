package report

import (
	"math"
	"slices"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/accounting/sizing"
	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/fidelity"
	"github.com/ctxlab/ctxlab/simulate/metric"
	"github.com/ctxlab/ctxlab/simulate/paired"
)

// CompareDocument is everything `ctxlab compare` reports: for each session
// and for the whole input, one run per policy, each with its metrics and its
// difference from the first policy's run.
type CompareDocument struct {
	Schema   string      `json:"schema"`
	Version  int         `json:"version"`
	Prices   PriceInfo   `json:"prices"`
	Policies []string    `json:"policies"`
	Sessions []*Compared `json:"sessions"`
	Total    *Compared   `json:"total"`
	// SessionsWithoutCalls counts the sessions whose main thread made no
	// call: nothing to replay, every policy's run the same and empty.
	// They stay in the sessions and the total, and are left out of the
	// comparisons and the plots.
	SessionsWithoutCalls int `json:"sessions_without_calls"`
	// ComparisonSettings and Comparisons: each policy against the
	// baseline, metric by metric, with its uncertainty over sessions
	// (Compare); nil and empty until Compare is called.
	ComparisonSettings *ComparisonSettings `json:"comparison_settings,omitempty"`
	Comparisons        []Comparison        `json:"comparisons"`
	Fidelity           []Fidelity          `json:"fidelity,omitempty"`
	// FidelitySummary sums the fidelity rows (with --fidelity).
	FidelitySummary *fidelity.Summary `json:"fidelity_summary,omitempty"`
	// FidelityBy and FidelityGroups: the summary of each Claude Code
	// version's or project's rows (GroupFidelity).
	FidelityBy     string           `json:"fidelity_by,omitempty"`
	FidelityGroups []fidelity.Group `json:"fidelity_groups,omitempty"`
	// CostPartial and UnpricedModels: as in the replay document, with
	// each session's calls counted (a call repeated in a resumed session
	// counts twice).
	CostPartial    bool               `json:"cost_partial"`
	UnpricedModels []accounting.Count `json:"unpriced_models"`
	Errors         []string           `json:"errors"`
}

// Compared is one session (or, as the document's Total, every session) run
// under each policy, in the order the policies were given.
type Compared struct {
	Sessions int           `json:"sessions"`
	ID       string        `json:"id,omitempty"`
	Path     string        `json:"path,omitempty"`
	Project  string        `json:"project,omitempty"`
	Method   sizing.Method `json:"method,omitempty"`
	Runs     []Run         `json:"runs"`
}

// Run is one policy's run: simulate's metrics and the delta against the
// first policy and, with per-call results (compare --calls), the run's
// limits, compaction threshold, simulated calls and summarizer calls, as in replay's
// "simulation" object. Limits is set exactly when the calls are included.
type Run struct {
	Policy  string           `json:"policy"`
	Metrics simulate.Metrics `json:"metrics"`
	Delta   simulate.Delta   `json:"delta"`

	Limits    *claudecode.Limits     `json:"limits,omitempty"`
	CompactAt int64                  `json:"compact_at,omitempty"`
	Calls     []simulate.CallResult  `json:"calls,omitempty"`
	Summaries []simulate.SummaryCall `json:"summaries,omitempty"`
}

// Result returns the run as a simulate.Result of the session c, for the
// per-call tables and the plots; nil when the run has no per-call results.
func (r *Run) Result(c *Compared) *simulate.Result {
	if r.Limits == nil {
		return nil
	}
	return &simulate.Result{
		Policy: r.Policy, Session: c.ID, Method: c.Method, Limits: *r.Limits, CompactAt: r.CompactAt,
		Calls: r.Calls, Summaries: r.Summaries, Metrics: r.Metrics,
	}
}

// HasCalls says whether the session's main thread made a call: the runs
// (all alike in their calls, the replay being trace-driven) replayed one.
// A session without one is left out of the statistics and the plots.
func (c *Compared) HasCalls() bool {
	for _, r := range c.Runs {
		if r.Metrics.Calls > 0 {
			return true
		}
	}
	return false
}

// NewCompared gathers one session's runs, one per policy in order; the
// first run is the baseline of the deltas. With calls, each run keeps its
// limits, simulated calls and summarizer calls.
func NewCompared(s *replay.Session, runs []*simulate.Result, calls bool) *Compared {
	c := &Compared{Sessions: 1, ID: s.ID, Path: s.Path, Project: s.Project, Runs: make([]Run, len(runs))}
	for i, r := range runs {
		c.Method = r.Method
		c.Runs[i] = Run{Policy: r.Policy, Metrics: r.Metrics}
		if calls {
			lim := r.Limits
			c.Runs[i].Limits, c.Runs[i].Calls, c.Runs[i].Summaries = &lim, r.Calls, r.Summaries
			c.Runs[i].CompactAt = r.CompactAt
		}
	}
	setDeltas(c.Runs)
	return c
}

// NewCompareDocument assembles a comparison. Total sums the sessions' runs
// policy by policy (peak context is the largest of the sessions'). fidelity
// may be nil; its rows leave out the calls another of them recorded first
// (fidelity.LeaveOutCopies).
func NewCompareDocument(policies []string, sessions []*Compared, rows []Fidelity, prices *prices.Table, errs []string) *CompareDocument {
	if errs == nil {
		errs = []string{}
	}
	if sessions == nil {
		sessions = []*Compared{}
	}
	total := &Compared{Sessions: len(sessions), Runs: make([]Run, len(policies))}
	for i, p := range policies {
		ms := make([]simulate.Metrics, 0, len(sessions))
		for _, s := range sessions {
			ms = append(ms, s.Runs[i].Metrics)
		}
		total.Runs[i] = Run{Policy: p, Metrics: simulate.SumMetrics(ms)}
	}
	setDeltas(total.Runs)
	doc := &CompareDocument{
		Schema: SchemaCompare, Version: CompareVersion,
		Prices:   PriceInfo{Date: prices.Date, Source: prices.Source},
		Policies: policies, Sessions: sessions, Total: total, Fidelity: rows, Errors: errs,
		UnpricedModels: []accounting.Count{}, Comparisons: []Comparison{},
	}
	for _, s := range sessions {
		if !s.HasCalls() {
			doc.SessionsWithoutCalls++
		}
	}
	if rows != nil {
		// A call another session of the input recorded first is measured
		// there alone.
		fidelity.LeaveOutCopies(rows, fidelity.DefaultTolerances())
		sum := fidelity.Summarize(rows, fidelity.DefaultTolerances())
		doc.FidelitySummary = &sum
	}
	return doc
}

// GroupFidelity sums the fidelity rows by (fidelity.ByVersion or
// fidelity.ByProject) into FidelityGroups; nothing without fidelity rows.
func (doc *CompareDocument) GroupFidelity(by string) {
	if doc.FidelitySummary == nil || by == "" {
		return
	}
	doc.FidelityBy = by
	doc.FidelityGroups = fidelity.SummarizeBy(doc.Fidelity, fidelity.DefaultTolerances(), by)
}

func setDeltas(runs []Run) {
	if len(runs) == 0 {
		return
	}
	for i := range runs {
		runs[i].Delta = simulate.NewDelta(runs[0].Metrics, runs[i].Metrics)
	}
}

// Fidelity is one session's fidelity row (fidelity.New computes it).
type Fidelity = fidelity.Row

// members are the document's JSON members in field order (writeObject),
// the sessions and fidelity rows written one at a time.
func (doc *CompareDocument) members() []member {
	ms := []member{
		{name: "schema", value: doc.Schema},
		{name: "version", value: doc.Version},
		{name: "prices", value: doc.Prices},
		{name: "policies", value: doc.Policies},
		list("sessions", doc.Sessions, len(doc.Sessions), func(i int) any { return doc.Sessions[i] }),
		{name: "total", value: doc.Total},
		{name: "sessions_without_calls", value: doc.SessionsWithoutCalls},
	}
	if doc.ComparisonSettings != nil {
		ms = append(ms, member{name: "comparison_settings", value: doc.ComparisonSettings})
	}
	ms = append(ms, list("comparisons", doc.Comparisons, len(doc.Comparisons), func(i int) any { return doc.Comparisons[i] }))
	if len(doc.Fidelity) > 0 {
		ms = append(ms, list("fidelity", doc.Fidelity, len(doc.Fidelity), func(i int) any { return doc.Fidelity[i] }))
	}
	if doc.FidelitySummary != nil {
		ms = append(ms, member{name: "fidelity_summary", value: doc.FidelitySummary})
	}
	if doc.FidelityBy != "" {
		ms = append(ms, member{name: "fidelity_by", value: doc.FidelityBy},
			list("fidelity_groups", doc.FidelityGroups, len(doc.FidelityGroups), func(i int) any { return doc.FidelityGroups[i] }))
	}
	return append(ms,
		member{name: "cost_partial", value: doc.CostPartial},
		member{name: "unpriced_models", value: doc.UnpricedModels},
		member{name: "errors", value: doc.Errors})
}

// Comparison is one policy's run against the baseline's on one metric,
// session by session (simulate/paired): the change of the total with its
// bootstrap interval, the median and geometric-mean change, and the
// Wilcoxon signed-rank test. sweep's comparisons have the same shape.
type Comparison = paired.Comparison

// DefaultComparisonMetrics are the metrics compared by default (compare
// --stats): cost, cache and context.
var DefaultComparisonMetrics = []string{"total_cost_usd", "cost_usd", "cache_write", "cache_read", "peak_context", "compactions"}

// ComparisonSettings says how the comparisons were made.
type ComparisonSettings struct {
	Baseline string   `json:"baseline"`
	Metrics  []string `json:"metrics"`
	// Resamples is the bootstrap's; 0: no intervals.
	Resamples  int     `json:"resamples"`
	Confidence float64 `json:"confidence"`
	// Alpha is the signed-rank test's level (wilcoxon_significant).
	Alpha float64 `json:"alpha"`
	// Significance names the rule that decides each comparison's
	// `significant`: SignificanceInterval.
	Significance string `json:"significance"`
}

// SignificanceInterval is the one rule that decides significance: the
// change's bootstrap interval, at Confidence, excludes 0.
const SignificanceInterval = "bootstrap_interval"

// newSettings are the settings of comparisons made with opt.
func newSettings(baseline string, metrics []string, opt paired.Options) *ComparisonSettings {
	opt = opt.Resolved()
	return &ComparisonSettings{Baseline: baseline, Metrics: metrics, Resamples: max(opt.Resamples, 0),
		Confidence: opt.Confidence, Alpha: opt.Alpha, Significance: SignificanceInterval}
}

// Compare sets the document's comparisons: every policy but the baseline
// (doc.Policies[baseline]) against it, on each measure (run measures of
// budget: gate's names), over the sessions that have both values (a cost
// with unpriced calls has none) and a call (a session without one has
// nothing a policy could change: it would only add a zero difference, and
// a session to n). They come metric by metric in the order
// given, then policy by policy in the document's order.
func (doc *CompareDocument) Compare(baseline int, measures []metric.Metric, opt paired.Options) {
	opt = opt.Resolved()
	set := newSettings(doc.Policies[baseline], make([]string, len(measures)), opt)
	// The sessions without a call are not resampled at all: left out, not
	// drawn as empty sessions.
	var sessions []*Compared
	for _, s := range doc.Sessions {
		if s.HasCalls() {
			sessions = append(sessions, s)
		}
	}
	values := func(m metric.Metric, policy int) []float64 {
		vs := make([]float64, len(sessions))
		for i, s := range sessions {
			vs[i] = m.PairValue(&s.Runs[policy].Metrics)
		}
		return vs
	}
	var pairs []paired.Pair
	var of []metric.Metric
	comps := []Comparison{}
	for k, m := range measures {
		set.Metrics[k] = m.Name
		base := values(m, baseline)
		for p, name := range doc.Policies {
			if p == baseline {
				continue
			}
			pairs = append(pairs, paired.Pair{Baseline: base, Values: values(m, p)})
			of = append(of, m)
			comps = append(comps, Comparison{Policy: name, Baseline: set.Baseline, Metric: m.Name})
		}
	}
	for i, st := range metric.CompareAll(pairs, of, opt) {
		comps[i].Stats = st
		comps[i].LowerBound = doc.lowerBound(comps[i])
	}
	doc.ComparisonSettings, doc.Comparisons = set, comps
}

// lowerBound says whether a comparison's totals rest on placeholder
// output counts: the metric's value in some session's run of the policy
// or the baseline does (Claude Code 2.1.9–2.1.41 wrote placeholders). The
// change is not marked: the sessions' placeholders are in both totals.
func (doc *CompareDocument) lowerBound(c Comparison) bool {
	mt, err := metric.Lookup(c.Metric)
	if err != nil {
		return false
	}
	for _, s := range doc.Sessions {
		for i := range s.Runs {
			if r := &s.Runs[i]; (r.Policy == c.Policy || r.Policy == c.Baseline) && mt.LowerBound(&r.Metrics) {
				return true
			}
		}
	}
	return false
}

// TotalCostIntervals are each policy's total cost interval against the
// baseline in dollars, in the order of Policies, from the comparisons of
// total_cost_usd: the baseline's total times 1 + the change's interval,
// plus what the sessions without a call cost (their sub-agents, the same
// under every policy). NaN for the baseline, without an interval, and
// when some session's cost is unknown (the comparison then covers fewer
// sessions than the total).
func (doc *CompareDocument) TotalCostIntervals() (low, high []float64) {
	return TotalCostIntervals(doc.Policies, doc.Total, doc.SessionsWithoutCalls, doc.Comparisons)
}

// TotalCostIntervals is CompareDocument.TotalCostIntervals from a
// document's parts (as ReadJSON's Header has them): its policies, its
// total, its sessions without a call and its comparisons.
func TotalCostIntervals(policies []string, total *Compared, withoutCalls int, comps []Comparison) (low, high []float64) {
	low, high = make([]float64, len(policies)), make([]float64, len(policies))
	for i := range low {
		low[i], high[i] = math.NaN(), math.NaN()
	}
	if total == nil {
		return low, high
	}
	for _, c := range comps {
		i := slices.Index(policies, c.Policy)
		if c.Metric != "total_cost_usd" || i < 0 || i >= len(total.Runs) || c.Sessions+withoutCalls != total.Sessions {
			continue
		}
		lo, hi, ok := c.TotalInterval()
		if !ok {
			continue
		}
		fixed := 0.0 // the sessions without a call: the policy's total less the compared sessions'
		if withoutCalls > 0 {
			fixed = total.Runs[i].Metrics.TotalCost - c.Total
		}
		low[i], high[i] = lo+fixed, hi+fixed
	}
	return low, high
}
