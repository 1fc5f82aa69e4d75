package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ctxlab/ctxlab/internal/batch"
	"github.com/ctxlab/ctxlab/internal/cliflag"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/view"
	"github.com/ctxlab/ctxlab/simulate/fidelity"
	"github.com/ctxlab/ctxlab/simulate/metric"
	"github.com/ctxlab/ctxlab/simulate/paired"
)

type compareOptions struct {
	inputOptions
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

var defaultStats = batch.DefaultStats

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

// options checks --bootstrap, --confidence and --alpha (batch.Stats).
func (o *statsOptions) options() (paired.Options, error) {
	opt, err := o.Stats().Options()
	return opt, wrapUsage(err)
}

// resolve checks the flags against the policies' canonical names
// (batch.Stats).
func (o *statsOptions) resolve(names []string) (int, []metric.Metric, paired.Options, error) {
	base, ms, opt, err := o.Stats().Resolve(names)
	return base, ms, opt, wrapUsage(err)
}

// Stats are the flags' values.
func (o *statsOptions) Stats() batch.Stats {
	return batch.Stats{Baseline: o.baseline, Metrics: o.metrics, Bootstrap: o.bootstrap, Confidence: o.confidence, Alpha: o.alpha}
}

func newCompareCmd(e env) *cobra.Command {
	o := &compareOptions{inputOptions: inputOptions{outputOptions: outputOptions{kind: report.CompareKind}}}
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
			if err := o.plot.validate(cmd.Flags().Changed); err != nil {
				return err
			}
			defer o.plot.tidy()
			return runCompare(o, e)
		},
	}
	f := cmd.Flags()
	o.addFlags(f)
	f.BoolVar(&o.sessions, "sessions", false, "old name of --detail")
	f.BoolVar(&o.detail, "detail", false, "with several sessions, print each session's tables after the overview")
	f.StringVar(&o.policies, "policy", policies.Observed().Name()+","+policies.ClaudeCode().Name(), "comma-separated policy specs; the first is the baseline of the deltas")
	f.BoolVar(&o.fidelity, "fidelity", false, "add the fidelity table: observed and claude-code against the transcript")
	f.StringVar(&o.by, "by", "", "with --fidelity, also sum the fidelity rows by "+strings.Join(fidelityBys, " or ")+" (the Claude Code version most of a session's calls recorded)")
	f.StringVar(&o.section, "section", "", "with --format csv, the one table to write: "+strings.Join(view.CompareCSVTables, ", ")+" (default compare)")
	cliflag.Takes(f, "by", fidelityBys)
	cliflag.Takes(f, "section", view.CompareCSVTables)
	f.BoolVar(&o.calls, "calls", false, "add every run's simulated calls and summarizer calls (JSON: each run's limits, calls and summaries, which ctxlab plot draws)")
	o.stats.addFlags(f)
	o.plot.addFlags(f, "plot", "write plots of each session (and, with several, the cost of each policy over all) into this directory")
	_ = cmd.RegisterFlagCompletionFunc("policy", completePolicy(true))
	return cmd
}

// checkSection checks --section, a CSV table of compare's with what it
// needs, and --by, a grouping of the fidelity summary, with --fidelity.
func (o *compareOptions) checkSection() error {
	switch err := o.checkTable(o.section, view.CompareCSVTables); {
	case err != nil:
		return err
	case strings.HasSuffix(o.section, "_calls") && !o.calls:
		return usageError("--section %s needs --calls", o.section)
	case strings.HasPrefix(o.section, "fidelity") && !o.fidelity:
		return usageError("--section %s needs --fidelity", o.section)
	case o.section == "fidelity_groups" && o.by == "":
		return usageError("--section fidelity_groups needs --by")
	case o.by != "" && !slices.Contains(fidelityBys, o.by):
		return usageError("--by %q: want %s", o.by, strings.Join(fidelityBys, " or "))
	case o.by != "" && !o.fidelity:
		return usageError("--by %s needs --fidelity (it groups the fidelity summary)", o.by)
	}
	return nil
}

// fidelityBys are the values of compare's --by.
var fidelityBys = []string{fidelity.ByVersion, fidelity.ByProject}

func runCompare(o *compareOptions, e env) error {
	plan, err := o.plan(e)
	if err != nil {
		return err
	}
	in, bo, err := o.start(&o.plot, e)
	if err != nil {
		return err
	}
	doc, written, out, err := batch.Compare(in, bo, plan)
	if err != nil {
		return failed(err)
	}
	opt := report.Options{PerSession: o.detail || o.sessions, Calls: o.calls, Sections: []string{o.section}}
	return o.plot.done(e, written, o.write(e, doc, opt, out))
}

// plan checks compare's flags and compiles its policies.
func (o *compareOptions) plan(e env) (batch.ComparePlan, error) {
	if err := firstErr(o.validate(e), o.checkSection()); err != nil {
		return batch.ComparePlan{}, err
	}
	cs, err := policies.CompileList(o.policies)
	if err != nil {
		return batch.ComparePlan{}, usageError("--policy: %v", err)
	}
	baseline, measures, statOpt, err := o.stats.resolve(policies.CompiledNames(cs))
	if err != nil {
		return batch.ComparePlan{}, err
	}
	return batch.ComparePlan{
		Policies: cs, Calls: o.calls || o.spec.Charts, Fidelity: o.fidelity, FidelityBy: o.by,
		Baseline: baseline, Measures: measures, Stats: statOpt, Plots: o.plot.plots(),
	}, nil
}
