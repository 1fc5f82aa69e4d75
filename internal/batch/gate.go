package batch

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ctxlab/ctxlab/internal/jsonerr"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/render"
	"github.com/ctxlab/ctxlab/report/view"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/budget"
)

// Gate reads the sessions and measures each for the budget: its recorded
// figures and its runs under the policies the budget's limits name, each
// compiled once. The samples come in input order; a session that cannot
// be measured fails the batch.
func Gate(in *Inputs, o Options, f *budget.File) ([]budget.Sample, *Outcome, error) {
	compiled := map[string]policies.Compiled{policies.Observed().Name(): policies.Observed()}
	for _, spec := range f.Policies() {
		c, err := policies.Compile(spec)
		if err != nil {
			return nil, nil, err
		}
		compiled[spec] = c
	}
	run := func(tr *simulate.Trace, spec string) (simulate.Metrics, error) {
		c, ok := compiled[spec]
		if !ok {
			return simulate.Metrics{}, fmt.Errorf("the budget's policy %q was not compiled", spec)
		}
		return c.Run(tr, o.Simulation).Metrics, nil
	}
	ms, out, err := Collect(in, o, func(s *Session) measured {
		smp, err := budget.NewSample(s.Session, s.Report(), f, run)
		return measured{smp, err}
	})
	if err != nil {
		return nil, out, err
	}
	samples := make([]budget.Sample, len(ms))
	for i, m := range ms {
		if m.err != nil {
			return nil, out, m.err
		}
		samples[i] = m.smp
	}
	return samples, out, nil
}

// measured is one session's sample for the budget, or why it has none.
type measured struct {
	smp budget.Sample
	err error
}

// Baseline reads the baseline a budget's max_increase bounds compare
// with, from the bytes of the file at path: an earlier gate's JSON output,
// or a replay report (replay --format json), whose sessions are measured
// for the budget as far as a replay report allows (budget.SampleFromReport).
func Baseline(data []byte, path string, f *budget.File) (*budget.Result, error) {
	var head struct {
		Schema  string `json:"schema"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("%s: not a JSON report: %v", path, jsonerr.Describe(err))
	}
	switch {
	case head.Schema == budget.Schema && head.Version == budget.SchemaVersion:
		var r budget.Result
		if err := json.Unmarshal(data, &r); err != nil {
			return nil, fmt.Errorf("%s: %v", path, jsonerr.DescribeIn(err, &r))
		}
		return &r, nil
	case head.Schema == report.SchemaReplay && head.Version == report.SchemaVersion:
		var doc report.Document
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, fmt.Errorf("%s: %v", path, jsonerr.DescribeIn(err, &doc))
		}
		samples := make([]budget.Sample, len(doc.Sessions))
		for i, s := range doc.Sessions {
			samples[i] = budget.SampleFromReport(s.Report)
		}
		return budget.Evaluate(f, path, samples, nil), nil
	}
	return nil, fmt.Errorf("%s: schema %q version %d, want the output of ctxlab gate --format json (%s %d) or ctxlab replay --format json (%s %d)",
		path, head.Schema, head.Version, budget.Schema, budget.SchemaVersion, report.SchemaReplay, report.SchemaVersion)
}

// GitHub reports a gate to GitHub Actions: the annotations of the broken
// limits on log (standard error, where the runner reads workflow commands
// as it does on standard output, which holds the report alone: a JSON,
// JUnit or CSV document must parse), and the Markdown report appended to
// the job summary, the file at summary ("": none).
func GitHub(log io.Writer, summary string, res, base *budget.Result) error {
	for _, a := range view.GitHubAnnotations(res) {
		fmt.Fprintln(log, a)
	}
	if summary == "" {
		return nil
	}
	var md strings.Builder
	if err := render.Write(&md, &report.GateDocument{Result: res, Baseline: base}, report.Options{Format: report.Markdown}); err != nil {
		return err
	}
	f, err := os.OpenFile(summary, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("GITHUB_STEP_SUMMARY: %w", err)
	}
	_, err = f.WriteString(md.String() + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
