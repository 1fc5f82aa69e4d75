package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/simulate/fidelity"

	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/plots"
	"github.com/ctxlab/ctxlab/report/render"
	"github.com/ctxlab/ctxlab/report/view"
	"github.com/ctxlab/ctxlab/simulate"
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
	calls    bool
	detail   bool
	section  string
	plot     plotOptions
}

func newCompareCmd(e env) *cobra.Command {
	o := &compareOptions{}
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
	f.StringVar(&o.section, "section", "", "with --format csv, the one table to write: "+strings.Join(view.CompareCSVTables, ", ")+" (default compare)")
	f.BoolVar(&o.calls, "calls", false, "add every run's simulated calls and summarizer calls (JSON: each run's limits, calls and summaries, which ctxlab plot draws)")
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
	ps, err := policies.ParseList(o.policies)
	if err != nil {
		return usageError("--policy: %v", err)
	}
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name()
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
	totals := compareTotalFiles(doc.Policies, doc.Total, &o.plot)
	return o.plot.done(e, per, totals, l.finish(&o.inputOptions, err))
}

// compareTotalFiles is the plot of the whole input's cost under each
// policy, from a compare document's total.
func compareTotalFiles(policies []string, total *report.Compared, o *plotOptions) []plots.File {
	ms := make([]simulate.Metrics, len(total.Runs))
	for i, r := range total.Runs {
		ms[i] = r.Metrics
	}
	return plots.CompareTotalFiles(policies, ms, total.Sessions, o.format, o.plotOpts())
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
		out.plots = o.plot.write(plots.SessionFiles(plotName, results, nil, o.plot.format, o.plot.plotOpts()))
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
