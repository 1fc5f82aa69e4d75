package main

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/plots"
	"github.com/ctxlab/ctxlab/report/render"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/metric"
	"github.com/ctxlab/ctxlab/simulate/paired"
	"github.com/ctxlab/ctxlab/simulate/sweep"
)

type sweepOptions struct {
	inputOptions
	sim         simOptions
	policies    []string
	vary        []string
	objective   string
	constraints []string
	pareto      string
	section     string
	stats       statsOptions
	plot        plotOptions
}

// The CSV tables of sweep (--section).
var sweepCSVTables = []string{"rows", "totals", "pareto"}

func newSweepCmd(e env) *cobra.Command {
	o := &sweepOptions{inputOptions: inputOptions{formats: formatNames(report.StudyFormats)}}
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
			if err := o.plot.validate(cmd.Flags().Changed, "plot"); err != nil {
				return err
			}
			o.paths = args
			return runSweep(o, e)
		},
	}
	f := cmd.Flags()
	o.addFlags(f)
	o.sim.addFlags(f)
	f.StringSliceVar(&o.policies, "policy", nil, "the policies to sweep (specs; fixed parameters as in compare)")
	f.StringArrayVar(&o.vary, "vary", nil, "PARAM=VALUES: a list a,b,c, a range lo..hi or lo..hi:step, or lo..hi:xF (repeatable: the cross product)")
	f.StringVar(&o.objective, "objective", "total_cost_usd", "the metric that orders the points (lowest first, or highest for a ratio)")
	f.StringArrayVar(&o.constraints, "constraint", nil, "METRIC<=X (or >=, <, >) that a point's totals must meet (repeatable)")
	f.StringVar(&o.pareto, "pareto", "", "A,B: print the Pareto front of two metrics")
	f.StringVar(&o.stats.baseline, "baseline", observedPolicy, "the policy spec every point is compared against, session by session (a grid point's spec, or run apart on every session)")
	o.stats.addTestFlags(f)
	f.StringVar(&o.section, "section", "", "with --format csv, the one table to write: "+strings.Join(sweepCSVTables, ", ")+" (default rows)")
	o.plot.addFlags(f, "plot", "draw the objective against each swept parameter (a heatmap for two, the Pareto front with --pareto) into this directory")
	// Per-call axes and top-N lists are the session plots'; a sweep draws none.
	for _, name := range []string{"x", "plot-top"} {
		_ = f.MarkHidden(name) // fails only for a flag that does not exist
	}
	return cmd
}

// registry is the policies as the grid needs them.
type registry struct{}

func (registry) Params(name string) ([]string, bool) {
	e, ok := policies.Lookup(name)
	if !ok {
		return nil, false
	}
	var out []string
	for _, p := range e.Params {
		out = append(out, p.Name)
	}
	return out, true
}

func (registry) Canon(spec string) (string, error) {
	p, err := policies.Parse(spec)
	if err != nil {
		return "", err
	}
	return p.Name(), nil
}

func runSweep(o *sweepOptions, e env) error {
	if err := o.validate(e); err != nil {
		return err
	}
	if len(o.policies) == 0 {
		return usageError("--policy: name at least one policy to sweep")
	}
	var varies []sweep.Vary
	for _, s := range o.vary {
		v, err := sweep.ParseVary(s)
		if err != nil {
			return usageError("--vary %v", err)
		}
		varies = append(varies, v)
	}
	points, err := sweep.Grid(o.policies, varies, registry{})
	if err != nil {
		return usageError("%v", err)
	}
	fixed, err := defaults(o.policies)
	if err != nil {
		return usageError("--policy: %v", err)
	}
	obj, err := metric.Lookup(o.objective)
	if err != nil {
		return usageError("--objective: %v", err)
	}
	var cons []sweep.Constraint
	for _, s := range o.constraints {
		c, err := sweep.ParseConstraint(s)
		if err != nil {
			return usageError("--constraint %v", err)
		}
		cons = append(cons, c)
	}
	var pareto []metric.Metric
	if o.pareto != "" {
		names := strings.Split(o.pareto, ",")
		if len(names) != 2 {
			return usageError("--pareto %q: want two metrics, A,B", o.pareto)
		}
		for _, n := range names {
			m, err := metric.Lookup(strings.TrimSpace(n))
			if err != nil {
				return usageError("--pareto: %v", err)
			}
			pareto = append(pareto, m)
		}
	}
	base, apart, statOpt, err := o.resolveStats(points, pareto)
	if err != nil {
		return err
	}
	su, err := prepare(&o.inputOptions, &o.sim, &o.plot, e)
	if err != nil {
		return err
	}
	// Claude Code's own scheme, drawn beside the points: a grid point's
	// rows, else run apart, unless it is the baseline.
	cc, _ := policies.Parse(claudeCodePolicy)
	ccSpec := cc.Name()
	ccApart := ccSpec != base && !slices.ContainsFunc(points, func(pt sweep.Point) bool { return pt.Spec == ccSpec })
	type swept struct {
		rows  []sweep.Row
		base  report.SweepRow // the baseline, when run apart
		cc    report.SweepRow // claude-code, when run apart
		input report.SweepInput
	}
	l, err := load(&o.inputOptions, e, su.in, func(i int, s *replay.Session) swept {
		tr := simulate.Prepare(s)
		out := swept{input: report.SweepInput{Path: su.in.srcs[i].Path, SHA256: hashSource(su.in.srcs[i])}}
		for pi, p := range points {
			r, _ := policies.Run(tr, p.Spec, su.simCfg) // checked by Grid
			out.rows = append(out.rows, sweep.Row{Point: pi, Session: s.ID, Project: s.Project, Metrics: r.Metrics})
		}
		if apart {
			r, _ := policies.Run(tr, base, su.simCfg) // checked by resolveStats
			out.base = report.SweepRow{Policy: base, Session: s.ID, Project: s.Project, Metrics: r.Metrics}
		}
		if ccApart {
			r, _ := policies.Run(tr, ccSpec, su.simCfg)
			out.cc = report.SweepRow{Policy: ccSpec, Session: s.ID, Project: s.Project, Metrics: r.Metrics}
		}
		return out
	})
	if err != nil {
		return err
	}
	var rows []sweep.Row
	var inputs []report.SweepInput
	var baseRows, ccRows []report.SweepRow
	for _, v := range l.values {
		rows = append(rows, v.rows...)
		inputs = append(inputs, v.input)
		if apart {
			baseRows = append(baseRows, v.base)
		}
		if ccApart {
			ccRows = append(ccRows, v.cc)
		}
	}
	grid := report.SweepGrid{Policies: o.policies, Vary: varies, Defaults: fixed, Points: points}
	doc := report.NewSweepDocument(version(), grid, obj, cons, pareto, inputs, rows, l.errs)
	if apart && baseRows == nil {
		baseRows = []report.SweepRow{} // no session: still run apart
	}
	doc.Compare(base, baseRows, statOpt)
	if ccApart && ccRows == nil {
		ccRows = []report.SweepRow{} // no session: still run apart
	}
	doc.SetClaudeCode(ccSpec, ccRows)
	err = l.finish(&o.inputOptions, render.Write(e.stdout, doc, report.Options{Format: report.Format(o.format), Width: o.columns(e), Sections: []string{o.section}}))
	if !o.plot.on() {
		return err
	}
	params := make([]string, len(varies))
	for i, v := range varies {
		params[i] = v.Param
	}
	var iv plots.Interval
	if statOpt.Resamples > 0 {
		iv = plots.Interval{Confidence: statOpt.Confidence, Baseline: base}
	}
	files := plots.SweepFiles(points, doc.Totals, params, obj, pareto, doc.ParetoComparisons, len(doc.Inputs), iv, doc.References(), o.plot.format, o.plot.plotOpts())
	return o.plot.done(e, nil, files, err)
}

// resolveStats checks --baseline, --bootstrap, --confidence, --alpha and
// --section: the baseline's canonical spec, whether it must be run apart
// (it is none of the grid's points), and the statistics' options.
func (o *sweepOptions) resolveStats(points []sweep.Point, pareto []metric.Metric) (string, bool, paired.Options, error) {
	opt, err := o.stats.options()
	if err != nil {
		return "", false, opt, err
	}
	switch {
	case o.section == "":
	case o.format != "csv":
		return "", false, opt, usageError("--section %s: only with --format csv (the other formats print every table)", o.section)
	case !slices.Contains(sweepCSVTables, o.section):
		return "", false, opt, usageError("--section %q: want one of %s", o.section, strings.Join(sweepCSVTables, ", "))
	case o.section == "pareto" && len(pareto) != 2:
		return "", false, opt, usageError("--section pareto needs --pareto A,B")
	}
	if strings.TrimSpace(o.stats.baseline) == "" {
		return "", false, opt, usageError("--baseline: want a policy spec, such as %s", observedPolicy)
	}
	p, err := policies.Parse(o.stats.baseline)
	if err != nil {
		return "", false, opt, usageError("--baseline: %v", err)
	}
	name := p.Name()
	apart := !slices.ContainsFunc(points, func(pt sweep.Point) bool { return pt.Spec == name })
	return name, apart, opt, nil
}

// defaults gives each base spec's parameters: the spec's own values, else
// the policy's defaults.
func defaults(bases []string) (map[string]map[string]string, error) {
	out := map[string]map[string]string{}
	for _, b := range bases {
		settings, err := policies.Settings(b)
		if err != nil {
			return nil, err
		}
		m := map[string]string{}
		for _, s := range settings {
			m[s.Name] = s.Value
		}
		out[b] = m
	}
	return out, nil
}

// hashSource is the SHA-256 of a session's files, the main one then its
// agents in order; "" for standard input or a file that cannot be read.
func hashSource(src replay.Source) string {
	if src.Path == "-" {
		return ""
	}
	h := sha256.New()
	for _, p := range append([]string{src.Path}, src.Agents...) {
		f, err := os.Open(p)
		if err != nil {
			return ""
		}
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return ""
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}
