package batch

import (
	"errors"
	"fmt"
	"io"

	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/plots"
	"github.com/ctxlab/ctxlab/simulate"
)

// Redrawn is what Redraw wrote, and how many sessions lacked what some
// plots need: a simulation (a replay report without one) or the runs'
// calls (a compare report without them). Written.WithoutCalls counts the
// sessions whose main thread made no call: nothing to draw.
type Redrawn struct {
	Written
	NoRuns, NoCalls int
}

// Redraw reads a saved JSON report, replay's or compare's, from r (the
// file at path) one session at a time and writes the plots the command's
// --plot would have written for it: each session's, then the whole
// input's. Drawing and encoding, most of the time, run on a pool of
// workers while the next session is read. It says on log which sessions
// lacked what some plots need. On a malformed report it stops, and what
// it wrote before is returned with the error, which names the place.
func Redraw(r io.Reader, path string, p *Plots, workers int, log io.Writer) (Redrawn, error) {
	var (
		namer    plots.Namer
		sessions int
		out      Redrawn
	)
	pool := p.pool(workers)
	withoutCalls := 0
	h, err := report.ReadJSON(r, func(s report.ReadSession) error {
		sessions++
		files, err := p.sessionFiles(s, &namer, &out, &withoutCalls)
		if err == nil {
			pool.submit(files)
		}
		return err
	})
	out.Written = pool.wait()
	out.WithoutCalls = withoutCalls
	if err != nil {
		var de *report.DecodeError
		if errors.As(err, &de) {
			return out, fmt.Errorf("%s: %w", de.Position(path), de.Err)
		}
		return out, fmt.Errorf("%s: %w", path, err)
	}
	if out.NoRuns > 0 {
		fmt.Fprintf(log, "ctxlab: %s: %s without a simulation: no context, cost or cache plots (write the report with replay --policy or --plot)\n", path, numtext.Count(out.NoRuns, "session", "sessions"))
	}
	if out.NoCalls > 0 {
		fmt.Fprintf(log, "ctxlab: %s: %s without per-call results: no context, cost or cache plots (write the report with compare --calls)\n", path, numtext.Count(out.NoCalls, "session", "sessions"))
	}
	switch {
	case h.ReplayTotal != nil && sessions > 1:
		out.Add(p.Write(plots.TotalFiles(h.ReplayTotal, p.Format, p.Options)))
	case h.CompareTotal != nil:
		out.Add(p.Write(CompareTotalFiles(h.Policies, h.CompareTotal, h.SessionsWithoutCalls, h.ComparisonSettings, h.Comparisons, p)))
	}
	return out, nil
}

// sessionFiles are the plots of one session read from a report.
// A session without a call has none, and is counted in withoutCalls.
func (p *Plots) sessionFiles(s report.ReadSession, namer *plots.Namer, out *Redrawn, withoutCalls *int) ([]plots.File, error) {
	switch {
	case s.Replay != nil:
		rep := s.Replay.Report
		if rep == nil {
			return nil, errors.New(`a session without "summary"`)
		}
		var runs []*simulate.Result
		if s.Replay.Simulation != nil {
			runs = []*simulate.Result{s.Replay.Simulation}
		} else {
			out.NoRuns++
		}
		if !plots.HasCalls(runs, rep) {
			*withoutCalls++
		}
		return plots.SessionFiles(namer.Name(rep.Summary.ID, rep.Summary.Project), runs, rep, p.Format, p.Options), nil
	case s.Compare != nil && !s.Compare.HasCalls():
		namer.Name(s.Compare.ID, s.Compare.Project) // the later sessions' names are compare --plot's
		*withoutCalls++                             // nothing to draw, with or without --calls
		return nil, nil
	case s.Compare != nil:
		c := s.Compare
		var runs []*simulate.Result
		for i := range c.Runs {
			r := c.Runs[i].Result(c)
			if r == nil {
				runs = nil
				out.NoCalls++
				break
			}
			runs = append(runs, r)
		}
		return plots.SessionFiles(namer.Name(c.ID, c.Project), runs, nil, p.Format, p.Options), nil
	}
	return nil, nil
}
