package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ctxlab/ctxlab/internal/batch"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/render"
	"github.com/ctxlab/ctxlab/report/view"
	"github.com/ctxlab/ctxlab/simulate/budget"
)

type gateOptions struct {
	inputOptions
	sim      simOptions
	budget   string
	baseline string
}

func newGateCmd(e env) *cobra.Command {
	o := &gateOptions{inputOptions: inputOptions{kind: report.GateKind}}
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
	o.sim.addFlags(f)
	f.StringVar(&o.budget, "budget", "", "the budget file (JSON; docs/gate.md)")
	f.StringVar(&o.baseline, "baseline", "", "an earlier `gate --format json` output whose values the max_increase bounds compare with")
	return cmd
}

func runGate(o *gateOptions, e env) error {
	if err := o.validate(e); err != nil {
		return err
	}
	if o.budget == "" {
		return usageError("--budget FILE is required")
	}
	bf, err := os.Open(o.budget)
	if err != nil {
		return usageError("--budget: %v", err)
	}
	file, err := budget.Parse(bf, o.budget, e.clock(), policies.Canon)
	bf.Close()
	if err != nil {
		return usageError("%v", err)
	}
	base, err := readBaseline(o.baseline, file)
	if err != nil {
		return err
	}
	in, bo, err := o.start(&o.sim, nil, e)
	if err != nil {
		return err
	}
	samples, out, err := batch.Gate(in, bo, file)
	if err != nil {
		return failed(err)
	}
	res := budget.Evaluate(file, o.budget, samples, base)
	werr := render.Write(e.stdout, &report.GateDocument{Result: res, Baseline: base}, report.Options{Format: o.spec.Format, Width: o.columns(e)})
	if e.getenv("GITHUB_ACTIONS") == "true" {
		werr = firstErr(werr, github(e, res, base))
	}
	if err := o.finish(out, writing(werr)); err != nil {
		return err
	}
	if !res.Pass {
		return &exitError{code: exitInput, err: fmt.Errorf("budget %s: %d of %d limits broken", o.budget, res.Failed, len(res.Limits))}
	}
	return nil
}

// readBaseline reads the baseline: an earlier gate's JSON output, or a
// replay report (replay --format json), whose sessions are measured for
// the budget as far as a replay report allows; "" is none.
func readBaseline(path string, file *budget.File) (*budget.Result, error) {
	if path == "" {
		return nil, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, usageError("--baseline: %v", err)
	}
	var head struct {
		Schema  string `json:"schema"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, usageError("--baseline %s: not a JSON report: %v", path, err)
	}
	switch {
	case head.Schema == budget.Schema && head.Version == budget.SchemaVersion:
		var r budget.Result
		if err := json.Unmarshal(data, &r); err != nil {
			return nil, usageError("--baseline %s: %v", path, err)
		}
		return &r, nil
	case head.Schema == report.SchemaReplay && head.Version == report.SchemaVersion:
		var doc report.Document
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, usageError("--baseline %s: %v", path, err)
		}
		samples := make([]budget.Sample, len(doc.Sessions))
		for i, s := range doc.Sessions {
			samples[i] = budget.SampleFromReport(s.Report)
		}
		return budget.Evaluate(file, path, samples, nil), nil
	}
	return nil, usageError("--baseline %s: schema %q version %d, want the output of ctxlab gate --format json (%s %d) or ctxlab replay --format json (%s %d)",
		path, head.Schema, head.Version, budget.Schema, budget.SchemaVersion, report.SchemaReplay, report.SchemaVersion)
}

// github writes the annotations of the broken limits on standard error,
// where the GitHub Actions runner reads workflow commands as it does on
// standard output, which holds the report alone (a JSON, JUnit or CSV
// document must parse); and it appends the Markdown report to the job
// summary.
func github(e env, res, base *budget.Result) error {
	for _, a := range view.GitHubAnnotations(res) {
		fmt.Fprintln(e.stderr, a)
	}
	path := e.getenv("GITHUB_STEP_SUMMARY")
	if path == "" {
		return nil
	}
	var md strings.Builder
	if err := render.Write(&md, &report.GateDocument{Result: res, Baseline: base}, report.Options{Format: report.Markdown}); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("GITHUB_STEP_SUMMARY: %w", err)
	}
	_, err = f.WriteString(md.String() + "\n")
	return firstErr(err, f.Close())
}
