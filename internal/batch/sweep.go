package batch

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"slices"

	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/plots"
	"github.com/ctxlab/ctxlab/simulate/metric"
	"github.com/ctxlab/ctxlab/simulate/paired"
	"github.com/ctxlab/ctxlab/simulate/sweep"
)

// SweepPlan is `ctxlab sweep`'s study: the grid's points run on every
// session, each compared with the baseline.
type SweepPlan struct {
	Ctxlab      string // the build that runs the study, as the document records it
	Grid        report.SweepGrid
	Objective   metric.Metric
	Constraints []sweep.Constraint
	Pareto      []metric.Metric // two metrics, or none
	// Baseline is the canonical spec every point is compared with; it is
	// run apart on every session when it is none of the grid's points.
	Baseline string
	Stats    paired.Options
	// Plots draws the objective against each swept parameter (nil: none).
	Plots *Plots
}

// swept is one session's rows: one per point, and the baseline's and
// claude-code's when they are run apart.
type swept struct {
	rows     []sweep.Row
	base, cc *report.SweepRow
	input    report.SweepInput
}

// Sweep reads the sessions once, runs each under every point of the grid
// (and the baseline), and returns the study's document; under Plots, the
// plots written.
func Sweep(in *Inputs, o Options, p SweepPlan) (*report.SweepDocument, Written, *Outcome, error) {
	points := make([]policies.Compiled, len(p.Grid.Points))
	apart := true
	for i, pt := range p.Grid.Points {
		c, err := policies.Compile(pt.Spec)
		if err != nil {
			return nil, Written{}, nil, err
		}
		points[i] = c
		apart = apart && c.Name() != p.Baseline
	}
	var base policies.Compiled
	if apart {
		var err error
		if base, err = policies.Compile(p.Baseline); err != nil {
			return nil, Written{}, nil, err
		}
	}
	// Claude Code's own scheme, drawn beside the points: a grid point's
	// rows, else run apart, unless it is the baseline.
	cc := policies.ClaudeCode()
	ccApart := cc.Name() != p.Baseline && !slices.ContainsFunc(points, func(c policies.Compiled) bool { return c.Name() == cc.Name() })
	ss, out, err := Collect(in, o, func(s *Session) swept {
		v := swept{input: report.SweepInput{Path: s.Source.Path, SHA256: hashSource(s.Source)}}
		for pi, r := range s.Runs(points) {
			v.rows = append(v.rows, sweep.Row{Point: pi, Session: s.ID, Project: s.Project, Metrics: r.Metrics})
		}
		if apart {
			v.base = &report.SweepRow{Policy: base.Name(), Session: s.ID, Project: s.Project, Metrics: s.Run(base).Metrics}
		}
		if ccApart {
			v.cc = &report.SweepRow{Policy: cc.Name(), Session: s.ID, Project: s.Project, Metrics: s.Run(cc).Metrics}
		}
		return v
	})
	if err != nil {
		return nil, Written{}, out, err
	}
	var rows []sweep.Row
	var inputs []report.SweepInput
	var baseRows, ccRows []report.SweepRow // nil: not run apart
	if apart {
		baseRows = []report.SweepRow{}
	}
	if ccApart {
		ccRows = []report.SweepRow{}
	}
	for _, v := range ss {
		rows = append(rows, v.rows...)
		inputs = append(inputs, v.input)
		if v.base != nil {
			baseRows = append(baseRows, *v.base)
		}
		if v.cc != nil {
			ccRows = append(ccRows, *v.cc)
		}
	}
	doc := report.NewSweepDocument(p.Ctxlab, p.Grid, p.Objective, p.Constraints, p.Pareto, inputs, rows, out.Errors)
	doc.Compare(p.Baseline, baseRows, p.Stats)
	doc.SetClaudeCode(cc.Name(), ccRows)
	return doc, p.plots(doc), out, nil
}

// plots draws the sweep's plots from its document.
func (p *SweepPlan) plots(doc *report.SweepDocument) Written {
	if p.Plots == nil {
		return Written{}
	}
	params := make([]string, len(p.Grid.Vary))
	for i, v := range p.Grid.Vary {
		params[i] = v.Param
	}
	var iv plots.Interval
	if opt := p.Stats.Resolved(); opt.Resamples > 0 { // as the document's comparisons
		iv = plots.Interval{Confidence: opt.Confidence, Baseline: p.Baseline}
	}
	return p.Plots.Write(plots.SweepFiles(p.Grid.Points, doc.Totals, params, p.Objective, p.Pareto, doc.ParetoComparisons, len(doc.Inputs), iv, doc.References(), p.Plots.Format, p.Plots.Options))
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
