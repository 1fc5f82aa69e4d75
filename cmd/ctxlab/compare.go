package main

import (
	"github.com/spf13/cobra"

	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/report"
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
how to read the output.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.paths = args
			return runCompare(o, e)
		},
	}
	f := cmd.Flags()
	o.addFlags(f)
	o.sim.addFlags(f)
	f.StringVar(&o.policies, "policy", observedPolicy+","+claudeCodePolicy, "comma-separated policy specs; the first is the baseline of the deltas")
	f.BoolVar(&o.fidelity, "fidelity", false, "add the fidelity table: observed and claude-code against the transcript")
	return cmd
}

// compared is one session's runs and, with --fidelity, its fidelity row.
type compared struct {
	runs *report.Compared
	fid  report.Fidelity
}

func runCompare(o *compareOptions, e env) error {
	if err := o.validate(); err != nil {
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
	cfg, err := o.config()
	if err != nil {
		return err
	}
	if err := o.sim.validate(); err != nil {
		return err
	}
	simCfg := o.sim.config(cfg.Prices)
	l, err := load(&o.inputOptions, e, func(s *replay.Session) compared {
		return compareSession(s, o, names, simCfg)
	})
	if err != nil {
		return err
	}
	sessions := make([]*report.Compared, len(l.values))
	var fid []report.Fidelity
	for i, v := range l.values {
		sessions[i] = v.runs
		if o.fidelity {
			fid = append(fid, v.fid)
		}
	}
	doc := report.NewCompareDocument(names, sessions, fid, cfg.Prices, l.errs)
	err = report.WriteCompare(e.stdout, doc, report.Options{Format: o.format, PerSession: o.sessions})
	return l.finish(&o.inputOptions, err)
}

// compareSession prepares a session once and runs it under every policy.
// Policies are compiled afresh for each session, since a policy may keep
// state across the calls of a run; only the metrics of each run are kept.
func compareSession(s *replay.Session, o *compareOptions, names []string, cfg simulate.Config) compared {
	tr := simulate.Prepare(s)
	ps, _ := policies.ParseList(o.policies) // validated in runCompare
	results := make([]*simulate.Result, len(ps))
	var observed, claudeCode *simulate.Result
	for i, p := range ps {
		results[i] = simulate.Run(tr, p, cfg)
		switch names[i] {
		case observedPolicy:
			observed = results[i]
		case claudeCodePolicy:
			claudeCode = results[i]
		}
	}
	out := compared{runs: report.NewCompared(s, results)}
	if !o.fidelity {
		return out
	}
	if observed == nil {
		p, _ := policies.Parse(observedPolicy)
		observed = simulate.Run(tr, p, cfg)
	}
	if claudeCode == nil {
		p, _ := policies.Parse(claudeCodePolicy)
		claudeCode = simulate.Run(tr, p, cfg)
	}
	out.fid = report.NewFidelity(s, tr, observed, claudeCode)
	return out
}
