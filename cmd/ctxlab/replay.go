package main

import (
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/internal/batch"
	"github.com/ctxlab/ctxlab/internal/cliflag"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/render"
	"github.com/ctxlab/ctxlab/report/view"
)

type replayOptions struct {
	inputOptions
	top       int
	sections  []string
	policy    string
	calls     bool
	plot      plotOptions
	detail    bool
	by        string
	breakdown bool
	order     string // --order: the periods' order
	now       string // --now: the time --by block's active block is open at
	tz        string
	loc       *time.Location
	compiled  *policies.Compiled // --policy's, by validate
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
			if err := o.plot.validate(cmd.Flags().Changed); err != nil {
				return err
			}
			defer o.plot.tidy()
			return runReplay(o, cmd, e)
		},
	}
	f := cmd.Flags()
	o.addFlags(f)
	f.BoolVar(&o.sessions, "sessions", false, "old name of --detail")
	f.BoolVar(&o.detail, "detail", false, "with several sessions, print each session's reports after the overview")
	f.StringVar(&o.by, "by", "", "print usage grouped by day, week, month, project, model or session instead")
	f.StringVar(&o.order, "order", "", "with --by day, week, month or block: asc, oldest first (default), or desc, newest first")
	cliflag.Takes(f, "order", orders)
	f.StringVar(&o.now, "now", "", "with --by block, mark the block open at this time (a time, a date, or now for the clock)")
	f.BoolVar(&o.breakdown, "breakdown", false, "with --by day, week, month, project or session, split each group by model")
	f.StringVar(&o.tz, "tz", "UTC", "time zone of dates and of --by's days, weeks and months (an IANA name, or Local)")
	f.IntVar(&o.top, "top", 10, "rows per list report, most expensive first (0: all; CSV: all unless given)")
	f.StringSliceVar(&o.sections, "section", nil, "sections to print: "+strings.Join(report.Sections, ", ")+
		" (default all); with --format csv, the one table to write: "+strings.Join(view.CSVTables, ", ")+" (default sessions, or groups with --by)")
	// --section's words: the report's sections, or with a format of one
	// table (CSV) the tables it can hold, each once.
	_ = cmd.RegisterFlagCompletionFunc("section", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		if s, ok := render.Lookup(report.Format(o.format)); ok && s.OneTable {
			return view.CSVTables, cobra.ShellCompDirectiveNoFileComp
		}
		return report.Sections, cobra.ShellCompDirectiveNoFileComp
	})
	cliflag.Takes(f, "by", groupBys())
	f.StringVar(&o.policy, "policy", "", "replay each session under this policy spec (see ctxlab policies)")
	f.BoolVar(&o.calls, "calls", false, "with --policy, print every simulated call")
	o.plot.addFlags(f, "plot", "write plots of each session (and, with several, of the whole input) into this directory")
	_ = cmd.RegisterFlagCompletionFunc("policy", completePolicy(false))
	return cmd
}

// orders are --order's words: oldest period first, or newest.
var orders = []string{"asc", "desc"}

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
	if err := o.checkBy(); err != nil {
		return err
	}
	if o.sessions {
		o.detail = true
	}
	if err := o.checkSections(); err != nil {
		return err
	}
	if o.policy == "" && (o.plot.plots() != nil || o.spec.Charts) {
		// The plots of a session's context, cost and cache (and the HTML
		// report's charts) need a run: the observed one reproduces the
		// transcript.
		o.policy = policies.Observed().Name()
	}
	if o.policy == "" && o.calls {
		return usageError("--calls needs --policy")
	}
	if o.policy == "" {
		if slices.ContainsFunc(o.sections, func(s string) bool {
			return s == "simulation" || s == "simulated_calls" || s == "summarizer_calls"
		}) {
			return usageError("--section %s needs --policy", o.sections[0])
		}
		return nil
	}
	c, err := policies.Compile(o.policy)
	if err != nil {
		return usageError("--policy: %v", err)
	}
	o.compiled = &c
	return nil
}

// checkBy checks --by and --breakdown: the grouped view is a view of its
// own.
func (o *replayOptions) checkBy() error {
	if o.by != "" {
		if _, err := accounting.ParseGroupBy(o.by); err != nil {
			return usageError("--by %v", err)
		}
		if o.detail || o.policy != "" || (len(o.sections) > 0 && !o.spec.OneTable) {
			return usageError("--by is a view of its own: it takes no --detail, --policy or --section")
		}
	}
	if o.order != "" && (!slices.Contains(orders, o.order) || !accounting.GroupBy(o.by).IsTime()) {
		return usageError("--order %q: it orders periods: give %s with --by day, week, month or block", o.order, strings.Join(orders, " or "))
	}
	if o.breakdown && (o.by == "" || o.by == string(accounting.ByModel)) {
		return usageError("--breakdown splits --by day, week, month, project or session by model; give one of those")
	}
	return nil
}

// checkSections checks --section: report sections, or the one table of a
// format that holds one.
func (o *replayOptions) checkSections() error {
	if !o.spec.OneTable {
		for _, s := range o.sections {
			if s != "all" && !slices.Contains(report.Sections, s) {
				return usageError("--section %q: want one of %s", s, strings.Join(report.Sections, ", "))
			}
		}
		return nil
	}
	if len(o.sections) > 1 {
		return usageError("--section %s: CSV holds one table; give one of %s", strings.Join(o.sections, ","), strings.Join(view.CSVTables, ", "))
	}
	if _, ok := view.CSVTable(o.sections, o.by != ""); !ok {
		return usageError("--section %q: want one of %s", o.sections[0], strings.Join(view.CSVTables, ", "))
	}
	return nil
}

func runReplay(o *replayOptions, cmd *cobra.Command, e env) error {
	if err := o.validate(e); err != nil {
		return err
	}
	in, bo, err := o.start(&o.plot, e)
	if err != nil {
		return err
	}
	now, err := parseTime("--now", strings.Replace(o.now, "now", "0s", 1), replay.ParseSince, e)
	if err != nil {
		return err
	}
	plan := batch.ReplayPlan{Policy: o.compiled, Plots: o.plot.plots(), By: accounting.GroupBy(o.by), Location: o.loc, Newest: o.order == orders[1], Now: now}
	if o.spec.Stream != nil && plan.Plots == nil && o.by == "" {
		out, err := batch.ReplayStream(in, bo, plan, e.stdout, o.spec.Stream)
		return o.finish(out, err)
	}
	doc, written, out, err := batch.Replay(in, bo, plan)
	if err != nil {
		return failed(err)
	}
	top := o.top
	if o.spec.OneTable && !cmd.Flags().Changed("top") {
		top = 0 // a CSV stream is every row unless asked
	}
	opt := report.Options{
		Top: top, Sections: o.sections, PerSession: o.detail, Calls: o.calls || o.spec.OneTable, Location: o.loc, Breakdown: o.breakdown,
	}
	return o.plot.done(e, written, o.write(e, doc, opt, out))
}
