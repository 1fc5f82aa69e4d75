package main

import (
	"bytes"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/ctxlab/ctxlab/internal/batch"
	"github.com/ctxlab/ctxlab/internal/cliflag"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/simulate/budget"
)

type gateOptions struct {
	inputOptions
	budget   string
	baseline string
}

func newGateCmd(e env) *cobra.Command {
	o := &gateOptions{inputOptions: inputOptions{outputOptions: outputOptions{kind: report.GateKind}}}
	cmd := &cobra.Command{
		Use:   "gate --budget FILE [paths…]",
		Short: "Check token and cost budgets over sessions: exit 1 when a limit is broken",
		Long: `Reads the sessions as ctxlab replay does, measures each one (the recorded
run, and a replay under each policy the budget names), and checks every
limit of the budget file: a measure, aggregated over the sessions the limit
selects, against its bounds, or against the same limit in a baseline (an
earlier gate --format json). Prints each limit, broken ones first, with its
value, bound, headroom and the sessions that weigh most. Under GitHub
Actions (GITHUB_ACTIONS=true) it also writes an error annotation for each
broken limit and appends a Markdown summary to $GITHUB_STEP_SUMMARY.
docs/gate.md gives the budget file's fields, the measures and examples.

Exit codes: 0 every limit holds; 1 a limit is broken (or no session could
be read); 2 a usage error or a malformed budget or baseline.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.paths = args
			return runGate(o, e)
		},
	}
	f := cmd.Flags()
	o.addFlags(f)
	f.StringVar(&o.budget, "budget", "", "the budget file (JSON; docs/gate.md)")
	f.StringVar(&o.baseline, "baseline", "", "an earlier gate's JSON output (--format json) whose values the max_increase bounds compare with")
	return cmd
}

func runGate(o *gateOptions, e env) error {
	file, base, err := o.plan(e)
	if err != nil {
		return err
	}
	in, bo, err := o.start(nil, e)
	if err != nil {
		return err
	}
	samples, out, err := batch.Gate(in, bo, file)
	if err != nil {
		return failed(err)
	}
	res := budget.Evaluate(file, o.budget, samples, base)
	werr := o.outputOptions.write(e, &report.GateDocument{Result: res, Baseline: base}, report.Options{})
	if e.getenv("GITHUB_ACTIONS") == "true" {
		// The step summary is a courtesy: a summary that cannot be written
		// is a warning, and the exit code stays the verdict's.
		if err := batch.GitHub(e.stderr, e.getenv("GITHUB_STEP_SUMMARY"), res, base); err != nil {
			fmt.Fprintln(e.stderr, "ctxlab: warning:", err)
		}
	}
	if err := o.finish(out, werr); err != nil || res.Pass {
		return err
	}
	return failed(fmt.Errorf("budget %s: %d of %d limits broken", o.budget, res.Failed, len(res.Limits)))
}

// plan checks gate's flags and reads the budget and, with --baseline, the
// baseline.
func (o *gateOptions) plan(e env) (*budget.File, *budget.Result, error) {
	if err := o.validate(e); err != nil {
		return nil, nil, err
	}
	if o.budget == "" {
		return nil, nil, usageError("--budget FILE is required")
	}
	bf, err := cliflag.ReadFile("--budget", o.budget)
	if err != nil {
		return nil, nil, usageError("%v", err)
	}
	file, err := budget.Parse(bytes.NewReader(bf), o.budget, e.clock(), policies.Canon)
	if err != nil {
		return nil, nil, usageError("%v", err)
	}
	if o.baseline == "" {
		return file, nil, nil
	}
	// An earlier gate's JSON output, or a replay report (batch.Baseline).
	data, err := cliflag.ReadFile("--baseline", o.baseline)
	if err != nil {
		return nil, nil, usageError("%v", err)
	}
	base, err := batch.Baseline(data, o.baseline, file)
	if err != nil {
		return nil, nil, usageError("--baseline %v", err)
	}
	return file, base, nil
}
