package main

import (
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/plots"
	"github.com/ctxlab/ctxlab/report/render"
	"github.com/ctxlab/ctxlab/report/view"
	"github.com/ctxlab/ctxlab/simulate"
)

type replayOptions struct {
	inputOptions
	sim       simOptions
	top       int
	sections  []string
	policy    string
	calls     bool
	plot      plotOptions
	detail    bool
	by        string
	breakdown bool
	tz        string
	loc       *time.Location
}

func newReplayCmd(e env) *cobra.Command {
	o := &replayOptions{}
	cmd := &cobra.Command{
		Use:   "replay [paths…]",
		Short: "Report what happened in sessions: usage, cost, tokens, duplicate reads, cache breaks, compactions",
		Long: `Reads Claude Code transcripts (files, directories searched recursively,
or - for standard input) and reports, per session and for the whole input,
the observed API usage and cost, Claude Code's own token accounting,
duplicate file reads, prompt-cache breaks and the compaction timeline.
With --policy it also replays each session's main thread under a context
policy (see ctxlab policies) and reports the simulated run. With --plot DIR
it draws each session's run (under observed when no --policy is given),
token accounting and duplicate reads into DIR (see docs/plots.md).

With no path it reads every directory in CLAUDE_CONFIG_DIR (a comma-separated
list; each one's projects/ folder), else ~/.config/claude/projects and
~/.claude/projects.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.paths = args
			if err := o.plot.validate(cmd.Flags().Changed, "plot"); err != nil {
				return err
			}
			return runReplay(o, cmd, e)
		},
	}
	f := cmd.Flags()
	o.addFlags(f)
	f.BoolVar(&o.sessions, "sessions", false, "old name of --detail")
	f.BoolVar(&o.detail, "detail", false, "with several sessions, print each session's reports after the overview")
	f.StringVar(&o.by, "by", "", "print usage grouped by day, week, month, project, model or session instead")
	f.BoolVar(&o.breakdown, "breakdown", false, "with --by day, week, month, project or session, split each group by model")
	f.StringVar(&o.tz, "tz", "UTC", "time zone of dates and of --by's days, weeks and months (an IANA name, or Local)")
	o.sim.addFlags(f)
	f.IntVar(&o.top, "top", 10, "rows per list report, most expensive first (0: all; CSV: all unless given)")
	f.StringSliceVar(&o.sections, "section", nil, "sections to print: "+strings.Join(report.Sections, ", ")+
		" (default all); with --format csv, the one table to write: "+strings.Join(view.CSVTables, ", ")+" (default sessions, or groups with --by)")
	f.StringVar(&o.policy, "policy", "", "replay each session under this policy spec (see ctxlab policies)")
	f.BoolVar(&o.calls, "calls", false, "with --policy, print every simulated call")
	o.plot.addFlags(f, "plot", "write plots of each session (and, with several, of the whole input) into this directory")
	_ = cmd.RegisterFlagCompletionFunc("policy", completePolicy(false))
	return cmd
}

func (o *replayOptions) validate(e env) error {
	if err := o.inputOptions.validate(e); err != nil {
		return err
	}
	if o.top < 0 {
		return usageError("--top %d: must be 0 or more", o.top)
	}
	loc, err := time.LoadLocation(o.tz)
	if err != nil {
		return usageError("--tz %q: not a time zone (want an IANA name such as Europe/Paris, UTC or Local)", o.tz)
	}
	o.loc = loc
	if o.by != "" {
		if _, err := accounting.ParseGroupBy(o.by); err != nil {
			return usageError("--by %v", err)
		}
		if o.detail || o.policy != "" || (len(o.sections) > 0 && o.format != "csv") {
			return usageError("--by is a view of its own: it takes no --detail, --policy or --section")
		}
	}
	if o.breakdown && (o.by == "" || o.by == string(accounting.ByModel)) {
		return usageError("--breakdown splits --by day, week, month, project or session by model; give one of those")
	}
	if o.sessions {
		o.detail = true
	}
	if o.format == "csv" {
		if len(o.sections) > 1 {
			return usageError("--section %s: CSV holds one table; give one of %s", strings.Join(o.sections, ","), strings.Join(view.CSVTables, ", "))
		}
		if _, ok := view.CSVTable(o.sections, o.by != ""); !ok {
			return usageError("--section %q: want one of %s", o.sections[0], strings.Join(view.CSVTables, ", "))
		}
	} else {
		for _, s := range o.sections {
			if s != "all" && !slices.Contains(report.Sections, s) {
				return usageError("--section %q: want one of %s", s, strings.Join(report.Sections, ", "))
			}
		}
	}
	if o.policy == "" && (o.plot.on() || o.format == "html") {
		// The plots of a session's context, cost and cache (and the HTML
		// report's charts) need a run: the observed one reproduces the
		// transcript.
		o.policy = observedPolicy
	}
	if o.policy == "" {
		if o.calls {
			return usageError("--calls needs --policy")
		}
		if slices.ContainsFunc(o.sections, func(s string) bool {
			return s == "simulation" || s == "simulated_calls" || s == "summarizer_calls"
		}) {
			return usageError("--section %s needs --policy", o.sections[0])
		}
		return nil
	}
	if _, err := policies.Parse(o.policy); err != nil {
		return usageError("--policy: %v", err)
	}
	return nil
}

// replayed is one session's report, under --policy its simulated run, and
// under --plot the plots written.
type replayed struct {
	rep   *accounting.Report
	sim   *simulate.Result
	rec   *simulate.Metrics
	plots plotted
}

func runReplay(o *replayOptions, cmd *cobra.Command, e env) error {
	if err := o.validate(e); err != nil {
		return err
	}
	su, err := prepare(&o.inputOptions, &o.sim, &o.plot, e)
	if err != nil {
		return err
	}
	work := func(i int, s *replay.Session) replayed {
		r := replayed{rep: accounting.Analyze(s, su.cfg)}
		if o.policy != "" {
			tr := simulate.Prepare(s)
			r.sim, _ = policies.Run(tr, o.policy, su.simCfg) // validated above
			if r.sim.Policy != observedPolicy {
				// The recorded run, for the side-by-side table.
				obs, _ := policies.Run(tr, observedPolicy, su.simCfg)
				r.rec = &obs.Metrics
			}
		}
		if o.plot.on() {
			// Drawn here, on the worker, so that only the paths are kept.
			runs := []*simulate.Result{r.sim}
			r.plots = o.plot.writeSession(plots.SessionFiles(su.names[i], runs, r.rep, o.plot.format, o.plot.plotOpts()), plots.HasCalls(runs, r.rep))
		}
		return r
	}
	if o.format == "json" && !o.plot.on() && o.by == "" {
		return replayJSON(o, e, su, work)
	}
	l, err := load(&o.inputOptions, e, su.in, work)
	if err != nil {
		return err
	}
	reps := make([]*accounting.Report, len(l.values))
	for i, v := range l.values {
		reps[i] = v.rep
	}
	doc := report.NewDocument(reps, su.cfg.Prices, l.errs)
	warnUnpriced(e, doc.UnpricedModels)
	for i, v := range l.values {
		doc.Sessions[i].Simulation, doc.Sessions[i].Recorded = v.sim, v.rec
	}
	doc.Since, doc.Until = replay.Time(o.sel.Since), replay.Time(o.sel.Until)
	if o.by != "" {
		doc.By = o.by
		var total accounting.Group
		doc.Groups, total = accounting.GroupsIn(reps, accounting.GroupBy(o.by), o.loc, su.cfg.Prices, accounting.Window{Since: o.sel.Since, Until: o.sel.Until})
		doc.GroupsTotal = &total
	}
	top := o.top
	if o.format == "csv" && !cmd.Flags().Changed("top") {
		top = 0 // a CSV stream is every row unless asked
	}
	err = render.Write(e.stdout, doc, report.Options{
		Format: report.Format(o.format), Top: top, Sections: o.sections, PerSession: o.detail, Calls: o.calls || o.format == "csv",
		Width: o.columns(e), Location: o.loc, Breakdown: o.breakdown,
	})
	if !o.plot.on() {
		return l.finish(&o.inputOptions, err)
	}
	per := make([]plotted, len(l.values))
	for i, v := range l.values {
		per[i] = v.plots
	}
	var totals []plots.File
	if len(l.values) > 1 {
		totals = plots.TotalFiles(doc.Total, o.plot.format, o.plot.plotOpts())
	}
	return o.plot.done(e, per, totals, l.finish(&o.inputOptions, err))
}

// replayJSON is runReplay's JSON report written as the sessions come: each
// session's report is written and merged into the total as soon as it is
// out, then dropped, so memory does not hold every session's report.
func replayJSON(o *replayOptions, e env, su *setup, work func(int, *replay.Session) replayed) error {
	total := accounting.NewMerger(su.cfg.Prices)
	var out *report.ReplayJSON
	var werr error
	l := &loaded[replayed]{}
	err := l.each(&o.inputOptions, e, su.in, work, func(v replayed) {
		total.Add(v.rep)
		if out == nil {
			out = report.NewReplayJSON(e.stdout, su.cfg.Prices) // not before a session is read
			out.Since, out.Until = replay.Time(o.sel.Since), replay.Time(o.sel.Until)
		}
		if werr == nil {
			werr = out.Session(&report.Session{Report: v.rep, Simulation: v.sim, Recorded: v.rec})
		}
	})
	if err != nil {
		return err
	}
	t := total.Report()
	warnUnpriced(e, report.UnpricedModels(t.Usage))
	if werr == nil {
		werr = out.Close(t, l.errs)
	}
	return l.finish(&o.inputOptions, werr)
}
