package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/ctxlab/ctxlab/internal/batch"
	"github.com/ctxlab/ctxlab/internal/cliflag"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/view"
	"github.com/ctxlab/ctxlab/simulate/metric"
	"github.com/ctxlab/ctxlab/simulate/paired"
	"github.com/ctxlab/ctxlab/simulate/sweep"
)

type sweepOptions struct {
	inputOptions
	policies    []string
	vary        []string
	objective   string
	constraints []string
	pareto      string
	section     string
	stats       statsOptions
	plot        plotOptions
}

func newSweepCmd(e env) *cobra.Command {
	o := &sweepOptions{inputOptions: inputOptions{outputOptions: outputOptions{kind: report.SweepKind}}}
	cmd := &cobra.Command{
		Use:   "sweep --policy NAME[,NAME…] --vary PARAM=VALUES [--vary …] [paths…]",
		Short: "Replay sessions over a grid of policy parameters: totals, spread, best point, Pareto front",
		Long: `Reads the sessions once and replays each under every point of a grid: the
policies of --policy with the parameters of --vary set to each combination of
their values (a list a,b,c; a range lo..hi, lo..hi:step; a geometric range
lo..hi:xF). Prints one row per point, best first by --objective among the
points that meet every --constraint, with the objective's spread across the
sessions; --pareto A,B adds the Pareto front of two metrics. CSV and JSON
hold one row per point and session (tidy), and the totals apart; JSON also
records the grid, the build and each input's SHA-256 so that a study can be
rerun and checked. docs/sweep.md has a worked example.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.plot.validate(cmd.Flags().Changed); err != nil {
				return err
			}
			defer o.plot.tidy()
			o.paths = args
			return runSweep(o, e)
		},
	}
	f := cmd.Flags()
	o.addFlags(f)
	f.StringSliceVar(&o.policies, "policy", nil, "the policies to sweep (specs; fixed parameters as in compare)")
	f.StringArrayVar(&o.vary, "vary", nil, "PARAM=VALUES: a list a,b,c, a range lo..hi or lo..hi:step, or lo..hi:xF (repeatable: the cross product)")
	f.StringVar(&o.objective, "objective", "total_cost_usd", "the metric that orders the points (lowest first, or highest for a ratio)")
	f.StringArrayVar(&o.constraints, "constraint", nil, "METRIC<=X (or >=, <, >) that a point's totals must meet (repeatable)")
	f.StringVar(&o.pareto, "pareto", "", "A,B: print the Pareto front of two metrics")
	f.StringVar(&o.stats.baseline, "baseline", policies.Observed().Name(), "the policy spec every point is compared against, session by session (a grid point's spec, or run apart on every session)")
	o.stats.addTestFlags(f)
	f.StringVar(&o.section, "section", "", "with --format csv, the one table to write: "+strings.Join(view.SweepCSVTables, ", ")+" (default rows)")
	cliflag.Takes(f, "section", view.SweepCSVTables)
	o.plot.addFlags(f, "plot", "draw the objective against each swept parameter (a heatmap for two, the Pareto front with --pareto) into this directory")
	// Per-call axes and top-N lists are the session plots'; a sweep draws none.
	for _, name := range []string{"x", "plot-top"} {
		_ = f.MarkHidden(name) // fails only for a flag that does not exist
	}
	_ = cmd.RegisterFlagCompletionFunc("vary", completeVary)
	return cmd
}

func runSweep(o *sweepOptions, e env) error {
	plan, err := o.plan(e)
	if err != nil {
		return err
	}
	in, bo, err := o.start(&o.plot, e)
	if err != nil {
		return err
	}
	doc, written, out, err := batch.Sweep(in, bo, plan)
	if err != nil {
		return failed(err)
	}
	return o.plot.done(e, written, o.write(e, doc, report.Options{Sections: []string{o.section}}, out))
}

// plan checks sweep's flags: the grid, the objective, the constraints,
// the Pareto front and the statistics.
func (o *sweepOptions) plan(e env) (batch.SweepPlan, error) {
	if err := o.validate(e); err != nil {
		return batch.SweepPlan{}, err
	}
	grid, err := o.grid()
	if err != nil {
		return batch.SweepPlan{}, err
	}
	obj, err := metric.Lookup(o.objective)
	if err != nil {
		return batch.SweepPlan{}, usageError("--objective: %v", err)
	}
	cons, err := parseEach("--constraint", o.constraints, sweep.ParseConstraint)
	if err != nil {
		return batch.SweepPlan{}, err
	}
	pareto, err := o.paretoMetrics()
	if err != nil {
		return batch.SweepPlan{}, err
	}
	base, statOpt, err := o.resolveStats(pareto)
	if err != nil {
		return batch.SweepPlan{}, err
	}
	return batch.SweepPlan{
		Ctxlab: batch.Build(), Grid: grid, Objective: obj, Constraints: cons, Pareto: pareto,
		Baseline: base, Stats: statOpt, Plots: o.plot.plots(),
	}, nil
}

// grid is --policy × --vary, with each base spec's parameters.
func (o *sweepOptions) grid() (report.SweepGrid, error) {
	if len(o.policies) == 0 {
		return report.SweepGrid{}, usageError("--policy: name at least one policy to sweep")
	}
	varies, err := parseEach("--vary", o.vary, sweep.ParseVary)
	if err != nil {
		return report.SweepGrid{}, err
	}
	points, err := sweep.Grid(o.policies, varies, policies.Grid{})
	if err != nil {
		return report.SweepGrid{}, usageError("%v", err)
	}
	fixed, err := policies.Defaults(o.policies)
	if err != nil {
		return report.SweepGrid{}, usageError("--policy: %v", err)
	}
	return report.SweepGrid{Policies: o.policies, Vary: varies, Defaults: fixed, Points: points}, nil
}

// paretoMetrics are --pareto's two metrics, or none.
func (o *sweepOptions) paretoMetrics() ([]metric.Metric, error) {
	if o.pareto == "" {
		return nil, nil
	}
	names := strings.Split(o.pareto, ",")
	if len(names) != 2 {
		return nil, usageError("--pareto %q: want two metrics, A,B", o.pareto)
	}
	return parseEach("--pareto:", names, func(n string) (metric.Metric, error) { return metric.Lookup(strings.TrimSpace(n)) })
}

// resolveStats checks --baseline, --bootstrap, --confidence, --alpha and
// --section: the baseline's canonical spec and the statistics' options.
func (o *sweepOptions) resolveStats(pareto []metric.Metric) (string, paired.Options, error) {
	opt, err := o.stats.options()
	if err != nil {
		return "", opt, err
	}
	if err := o.checkTable(o.section, view.SweepCSVTables); err != nil {
		return "", opt, err
	}
	if o.section == "pareto" && len(pareto) != 2 {
		return "", opt, usageError("--section pareto needs --pareto A,B")
	}
	if strings.TrimSpace(o.stats.baseline) == "" {
		return "", opt, usageError("--baseline: want a policy spec, such as %s", policies.Observed().Name())
	}
	name, err := policies.Canon(o.stats.baseline)
	if err != nil {
		return "", opt, usageError("--baseline: %v", err)
	}
	return name, opt, nil
}
