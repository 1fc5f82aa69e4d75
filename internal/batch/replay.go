package batch

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/plots"
	"github.com/ctxlab/ctxlab/simulate"
)

// ReplayPlan is what `ctxlab replay` asks of each session beyond its
// report.
type ReplayPlan struct {
	// Policy is the run to report with each session (nil: none), and
	// beside it the recorded run's metrics, unless it is that run.
	Policy *policies.Compiled
	// Plots draws each session's plots on the worker that read it, and
	// with several sessions the whole input's (nil: none).
	Plots *Plots
	// By groups the usage (accounting.GroupBys; "": no grouped view) in
	// days, weeks and months of Location.
	By       accounting.GroupBy
	Location *time.Location
	// Newest puts a period view's newest period first (--order desc).
	Newest bool
	// Now, Unix ms, marks the billing block open at that time (--by
	// block); 0 marks none, so that the output does not depend on the clock.
	Now int64
}

// replayed is one session's part of the document, and its plots.
type replayed struct {
	s     *report.Session
	plots Written
}

func (p *ReplayPlan) session(s *Session, names []string) replayed {
	r := replayed{s: &report.Session{Report: s.Report()}}
	if p.Policy != nil {
		r.s.Simulation = s.Run(*p.Policy)
		if r.s.Simulation.Policy != policies.Observed().Name() {
			// The recorded run, for the side-by-side table.
			r.s.Recorded = &s.Run(policies.Observed()).Metrics
		}
	}
	if p.Plots != nil {
		// Drawn here, on the worker, so that only the paths are kept.
		runs := []*simulate.Result{r.s.Simulation}
		files := plots.SessionFiles(names[s.Index], runs, r.s.Report, p.Plots.Format, p.Plots.Options)
		r.plots = p.Plots.WriteSession(files, plots.HasCalls(runs, r.s.Report))
	}
	return r
}

// Replay reads the sessions and returns replay's document: each session's
// report, under a policy its run, the window of the selection and, with
// By, the grouped view; and under Plots the plots written, each session's
// in input order, then the whole input's.
func Replay(in *Inputs, o Options, p ReplayPlan) (*report.Document, Written, *Outcome, error) {
	var names []string
	if p.Plots != nil {
		names = sessionNames(in.Sources)
	}
	rs, out, err := Collect(in, o, func(s *Session) replayed { return p.session(s, names) })
	if err != nil {
		return nil, Written{}, out, err
	}
	reps := make([]*accounting.Report, len(rs))
	for i, r := range rs {
		reps[i] = r.s.Report
	}
	doc := report.NewDocument(reps, o.Accounting.Prices, out.Errors)
	warnUnpriced(o.Log, doc.UnpricedModels)
	var written Written
	for i, r := range rs {
		doc.Sessions[i] = r.s
		written.Add(r.plots)
	}
	doc.Since, doc.Until = replay.Time(o.Selection.Since), replay.Time(o.Selection.Until)
	if p.By != "" {
		doc.By = string(p.By)
		var total accounting.Group
		win := accounting.Window{Since: o.Selection.Since, Until: o.Selection.Until}
		doc.Groups, total = accounting.GroupsIn(reps, p.By, p.Location, o.Accounting.Prices, win)
		for i := range doc.Groups {
			doc.Groups[i].Active = p.By == accounting.ByBlock && p.Now != 0 && accounting.ActiveBlock(doc.Groups[i], p.Now)
		}
		if n := len(doc.Groups); p.Newest && n > 0 {
			if doc.Groups[n-1].Key == accounting.UnknownKey {
				n-- // calls without a time stay last
			}
			slices.Reverse(doc.Groups[:n])
		}
		doc.GroupsTotal = &total
	}
	if p.Plots != nil && len(rs) > 1 {
		written.Add(p.Plots.Write(plots.TotalFiles(doc.Total, p.Plots.Format, p.Plots.Options)))
	}
	return doc, written, out, nil
}

// ReplayStream is Replay for a format that streams (start: its writer of
// replay's document, report/render's Spec.Stream): each session is
// written to w (started when the first session is read, so that nothing
// is written when none is) as soon as it and every one before it are
// read, and merged into the total, then dropped. A write error stops the
// writing, not the reading.
func ReplayStream(in *Inputs, o Options, p ReplayPlan, w io.Writer, start StartStream) (*Outcome, error) {
	p.Plots = nil // a stream keeps no session for the whole input's plots
	total := accounting.NewMerger(o.Accounting.Prices)
	var sw report.SessionWriter
	var werr error
	out, err := Each(in, o, func(s *Session) replayed { return p.session(s, nil) }, func(r replayed) {
		total.Add(r.s.Report)
		if sw == nil {
			sw = start(w, o.Accounting.Prices, replay.Time(o.Selection.Since), replay.Time(o.Selection.Until))
		}
		if werr == nil {
			werr = sw.Session(r.s)
		}
	})
	if err != nil {
		return out, err
	}
	t := total.Report()
	warnUnpriced(o.Log, report.UnpricedModels(t.Usage))
	if werr == nil {
		werr = sw.Close(t, out.Errors)
	}
	if werr != nil {
		return out, fmt.Errorf("writing report: %w", werr)
	}
	return out, nil
}

// StartStream starts replay's document on w, priced with p, over the
// window since–until, to be given its sessions as they are read.
type StartStream func(w io.Writer, p *prices.Table, since, until replay.Time) report.SessionWriter
