package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/simulate/fidelity"

	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/plots"
	"github.com/ctxlab/ctxlab/report/render"
	"github.com/ctxlab/ctxlab/report/view"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/budget"
	"github.com/ctxlab/ctxlab/simulate/paired"
)

// The policies the fidelity table needs, whatever --policy lists.
const (
	observedPolicy   = "observed"
	claudeCodePolicy = "claude-code"
)

type compareOptions struct {
	inputOptions
	sim      simOptions
	policies string
	fidelity bool
	by       string // --by: the fidelity summary by version or project
	calls    bool
	detail   bool
	section  string
	plot     plotOptions
	stats    statsOptions
}

// statsOptions are compare's paired statistics: which policy is the
// baseline, which metrics, and the bootstrap's and the test's settings.
type statsOptions struct {
	baseline   string
	metrics    string
	bootstrap  int
	confidence float64
	alpha      float64
}

var defaultStats = strings.Join(report.DefaultComparisonMetrics, ",")

func (o *statsOptions) addFlags(f *pflag.FlagSet) {
	f.StringVar(&o.baseline, "baseline", "", "the policy the statistics compare the others against (default: the first of --policy)")
	f.StringVar(&o.metrics, "stats", defaultStats, "comma-separated metrics to compare with their uncertainty over sessions (the names gate accepts)")
	o.addTestFlags(f)
}

// addTestFlags adds the bootstrap's and the test's flags, compare's and
// sweep's alike.
func (o *statsOptions) addTestFlags(f *pflag.FlagSet) {
	f.IntVar(&o.bootstrap, "bootstrap", paired.DefaultResamples, "bootstrap resamples of the sessions for each interval (0: no intervals)")
	f.Float64Var(&o.confidence, "confidence", paired.DefaultConfidence, "coverage of the intervals, between 0 and 1")
	f.Float64Var(&o.alpha, "alpha", paired.DefaultAlpha, "significance level of the Wilcoxon signed-rank test, between 0 and 1")
}

// options checks --bootstrap, --confidence and --alpha and returns them
// as the statistics take them.
func (o *statsOptions) options() (paired.Options, error) {
	switch {
	case o.bootstrap < 0 || o.bootstrap > paired.MaxResamples:
		return paired.Options{}, usageError("--bootstrap %d: want 0 (no intervals) to %d", o.bootstrap, paired.MaxResamples)
	case !(o.confidence > 0 && o.confidence < 1):
		return paired.Options{}, usageError("--confidence %v: want a number between 0 and 1, such as 0.95", o.confidence)
	case !(o.alpha > 0 && o.alpha < 1):
		return paired.Options{}, usageError("--alpha %v: want a number between 0 and 1, such as 0.05", o.alpha)
	}
	opt := paired.Options{Resamples: o.bootstrap, Confidence: o.confidence, Alpha: o.alpha}
	if o.bootstrap == 0 {
		opt.Resamples = -1
	}
	return opt, nil
}

// resolve checks the flags against the policies' canonical names and
// returns the baseline's index, the measures and the options.
func (o *statsOptions) resolve(names []string) (int, []budget.Measure, paired.Options, error) {
	var opt paired.Options
	base := 0
	if o.baseline != "" {
		p, err := policies.Parse(o.baseline)
		if err != nil {
			return 0, nil, opt, usageError("--baseline: %v", err)
		}
		if base = slices.Index(names, p.Name()); base < 0 {
			return 0, nil, opt, usageError("--baseline %s: not one of --policy (%s)", p.Name(), strings.Join(names, ", "))
		}
	}
	var ms []budget.Measure
	for _, name := range strings.Split(o.metrics, ",") {
		name = strings.TrimSpace(name)
		m, err := budget.LookupMeasure(name)
		switch {
		case name == "":
			return 0, nil, opt, usageError("--stats %q: want comma-separated metric names, such as %s", o.metrics, defaultStats)
		case err != nil:
			return 0, nil, opt, usageError("--stats: %v", err)
		case m.RecordedOnly:
			return 0, nil, opt, usageError("--stats %s: a figure of the transcript alone, which no policy changes", name)
		case slices.ContainsFunc(ms, func(x budget.Measure) bool { return x.Name == name }):
			return 0, nil, opt, usageError("--stats %s: listed twice", name)
		}
		ms = append(ms, m)
	}
	opt, err := o.options()
	if err != nil {
		return 0, nil, opt, err
	}
	return base, ms, opt, nil
}

func newCompareCmd(e env) *cobra.Command {
	o := &compareOptions{inputOptions: inputOptions{formats: formatNames(report.StudyFormats)}}
	cmd := &cobra.Command{
		Use:   "compare [paths…]",
		Short: "Replay sessions under several context policies and compare context, cache and cost",
		Long: `Replays each session's main thread under every policy of --policy (see
ctxlab policies) and prints, per session and for the whole input, one row per
policy: context size, compactions and clearings, cache behaviour, usage and
cost, the loss proxies, and the difference of cost and peak context against
the first policy. Inputs are read as by ctxlab replay; docs/compare.md says
how to read the output. With --plot DIR it draws each session's context,
cumulative cost and cache per policy, and the cost of each policy over the
whole input, into DIR (see docs/plots.md).`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.paths = args
			if err := o.plot.validate(cmd.Flags().Changed, "plot"); err != nil {
				return err
			}
			return runCompare(o, e)
		},
	}
	f := cmd.Flags()
	o.addFlags(f)
	f.BoolVar(&o.sessions, "sessions", false, "old name of --detail")
	f.BoolVar(&o.detail, "detail", false, "with several sessions, print each session's tables after the overview")
	o.sim.addFlags(f)
	f.StringVar(&o.policies, "policy", observedPolicy+","+claudeCodePolicy, "comma-separated policy specs; the first is the baseline of the deltas")
	f.BoolVar(&o.fidelity, "fidelity", false, "add the fidelity table: observed and claude-code against the transcript")
	f.StringVar(&o.by, "by", "", "with --fidelity, also sum the fidelity rows by "+strings.Join(fidelityBys, " or ")+" (the Claude Code version most of a session's calls recorded)")
	f.StringVar(&o.section, "section", "", "with --format csv, the one table to write: "+strings.Join(view.CompareCSVTables, ", ")+" (default compare)")
	f.BoolVar(&o.calls, "calls", false, "add every run's simulated calls and summarizer calls (JSON: each run's limits, calls and summaries, which ctxlab plot draws)")
	o.stats.addFlags(f)
	o.plot.addFlags(f, "plot", "write plots of each session (and, with several, the cost of each policy over all) into this directory")
	_ = cmd.RegisterFlagCompletionFunc("policy", completePolicy(true))
	return cmd
}

// checkSection checks --section: a CSV table of compare's, with what it
// needs.
func (o *compareOptions) checkSection() error {
	switch {
	case o.section == "":
		return nil
	case o.format != "csv":
		return usageError("--section %s: only with --format csv (the other formats print every table)", o.section)
	case !slices.Contains(view.CompareCSVTables, o.section):
		return usageError("--section %q: want one of %s", o.section, strings.Join(view.CompareCSVTables, ", "))
	case strings.HasSuffix(o.section, "_calls") && !o.calls:
		return usageError("--section %s needs --calls", o.section)
	case strings.HasPrefix(o.section, "fidelity") && !o.fidelity:
		return usageError("--section %s needs --fidelity", o.section)
	case o.section == "fidelity_groups" && o.by == "":
		return usageError("--section fidelity_groups needs --by")
	}
	return nil
}

// fidelityBys are the values of compare's --by.
var fidelityBys = []string{fidelity.ByVersion, fidelity.ByProject}

// checkBy checks --by: a grouping of the fidelity summary, with --fidelity.
func (o *compareOptions) checkBy() error {
	switch {
	case o.by == "":
		return nil
	case !slices.Contains(fidelityBys, o.by):
		return usageError("--by %q: want %s", o.by, strings.Join(fidelityBys, " or "))
	case !o.fidelity:
		return usageError("--by %s needs --fidelity (it groups the fidelity summary)", o.by)
	}
	return nil
}

// compared is one session's runs, with --fidelity its fidelity row, and
// under --plot the plots written.
type compared struct {
	runs     *report.Compared
	unpriced map[string]int // calls by model without a price
	fid      report.Fidelity
	plots    plotted
}

func runCompare(o *compareOptions, e env) error {
	if err := o.validate(e); err != nil {
		return err
	}
	if err := o.checkSection(); err != nil {
		return err
	}
	if err := o.checkBy(); err != nil {
		return err
	}
	ps, err := policies.ParseList(o.policies)
	if err != nil {
		return usageError("--policy: %v", err)
	}
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name()
	}
	baseline, measures, statOpt, err := o.stats.resolve(names)
	if err != nil {
		return err
	}
	if o.fidelity {
		for _, spec := range []string{observedPolicy, claudeCodePolicy} {
			if _, err := policies.Parse(spec); err != nil {
				return usageError("--fidelity: %v", err)
			}
		}
	}
	su, err := prepare(&o.inputOptions, &o.sim, &o.plot, e)
	if err != nil {
		return err
	}
	if o.fidelity {
		replay.MarkContinued(su.in.srcs) // a compaction after a file's last call
	}
	l, err := load(&o.inputOptions, e, su.in, func(i int, s *replay.Session) compared {
		return compareSession(s, o, names, su.simCfg, su.names[i])
	})
	if err != nil {
		return err
	}
	sessions := make([]*report.Compared, len(l.values))
	var fid []report.Fidelity
	unpriced := map[string]int{}
	for i, v := range l.values {
		sessions[i] = v.runs
		for m, n := range v.unpriced {
			unpriced[m] += n
		}
		if o.fidelity {
			fid = append(fid, v.fid)
		}
	}
	doc := report.NewCompareDocument(names, sessions, fid, su.cfg.Prices, l.errs)
	doc.Compare(baseline, measures, statOpt)
	doc.GroupFidelity(o.by)
	doc.UnpricedModels = accounting.SortedCounts(unpriced)
	doc.CostPartial = len(unpriced) > 0
	warnUnpriced(e, doc.UnpricedModels)
	err = render.Write(e.stdout, doc, report.Options{Format: report.Format(o.format), PerSession: o.detail || o.sessions, Calls: o.calls, Width: o.columns(e), Sections: []string{o.section}})
	if !o.plot.on() {
		return l.finish(&o.inputOptions, err)
	}
	per := make([]plotted, len(l.values))
	for i, v := range l.values {
		per[i] = v.plots
	}
	// Unlike replay's totals, which would repeat a lone session's plots,
	// the cost by policy is drawn for one session too: no other plot puts
	// the policies' totals side by side.
	totals := compareTotalFiles(doc.Policies, doc.Total, doc.SessionsWithoutCalls, doc.ComparisonSettings, doc.Comparisons, &o.plot)
	return o.plot.done(e, per, totals, l.finish(&o.inputOptions, err))
}

// compareTotalFiles is the plot of the whole input's cost under each
// policy, from a compare document's total, with the intervals of the
// totals against the baseline.
func compareTotalFiles(policies []string, total *report.Compared, withoutCalls int, set *report.ComparisonSettings, comps []report.Comparison, o *plotOptions) []plots.File {
	ms := make([]simulate.Metrics, len(total.Runs))
	for i, r := range total.Runs {
		ms[i] = r.Metrics
	}
	return plots.CompareTotalFiles(policies, ms, total.Sessions, costIntervals(policies, total, withoutCalls, set, comps), o.format, o.plotOpts())
}

// costIntervals are the cost plot's intervals: none without statistics
// or resamples.
func costIntervals(policies []string, total *report.Compared, withoutCalls int, set *report.ComparisonSettings, comps []report.Comparison) plots.CostIntervals {
	var ivs plots.CostIntervals
	if set != nil && set.Resamples > 0 {
		ivs.Low, ivs.High = report.TotalCostIntervals(policies, total, withoutCalls, comps)
		ivs.Interval = plots.Interval{Confidence: set.Confidence, Baseline: set.Baseline}
	}
	return ivs
}

// compareSession prepares a session once and runs it under every policy.
// Policies are compiled afresh for each session, since a policy may keep
// state across the calls of a run; only the metrics of each run are kept
// (and the calls, under --calls). Under --plot the session's plots are
// drawn here, on the worker, under the file name plotName.
func compareSession(s *replay.Session, o *compareOptions, names []string, cfg simulate.Config, plotName string) compared {
	tr := simulate.Prepare(s)
	results, _ := policies.RunList(tr, o.policies, cfg) // validated in runCompare
	var observed, claudeCode *simulate.Result
	for i, r := range results {
		switch names[i] {
		case observedPolicy:
			observed = r
		case claudeCodePolicy:
			claudeCode = r
		}
	}
	// The HTML report draws each session's runs: it needs their calls.
	out := compared{runs: report.NewCompared(s, results, o.calls || o.format == "html"), unpriced: accounting.Unpriced(s, cfg.Prices)}
	if o.plot.on() {
		out.plots = o.plot.writeSession(plots.SessionFiles(plotName, results, nil, o.plot.format, o.plot.plotOpts()), out.runs.HasCalls())
	}
	if !o.fidelity {
		return out
	}
	if observed == nil {
		observed, _ = policies.Run(tr, observedPolicy, cfg)
	}
	if claudeCode == nil {
		claudeCode, _ = policies.Run(tr, claudeCodePolicy, cfg)
	}
	out.fid = fidelity.New(s, tr, observed, claudeCode, fidelity.DefaultTolerances())
	return out
}
