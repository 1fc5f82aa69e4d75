package batch

import (
	"encoding/json"
	"errors"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/budget"
	"github.com/ctxlab/ctxlab/simulate/fidelity"
	"github.com/ctxlab/ctxlab/simulate/sweep"
)

// Each command's value of a session, as a part holds it (part.go): what
// the merge makes the document of, exactly as the command makes it of
// the value it keeps.

// writtenPart is the plots a shard wrote for a session.
type writtenPart struct {
	Paths []string `json:"paths,omitempty"`
	Errs  []string `json:"errors,omitempty"`
}

func partOfWritten(w Written) writtenPart {
	p := writtenPart{Paths: w.Paths}
	for _, err := range w.Errs {
		p.Errs = append(p.Errs, err.Error())
	}
	return p
}

func (p writtenPart) written() Written {
	w := Written{Paths: p.Paths}
	for _, e := range p.Errs {
		w.Errs = append(w.Errs, errors.New(e))
	}
	return w
}

type replayedPart struct {
	Report     *accounting.ReportPart `json:"report"`
	Simulation *simulate.Result       `json:"simulation,omitempty"`
	Recorded   *simulate.Metrics      `json:"recorded,omitempty"`
	Plots      writtenPart            `json:"plots"`
}

func (replayed) partValue() {}

func (r replayed) MarshalJSON() ([]byte, error) {
	rep, err := r.s.Report.Part()
	if err != nil {
		return nil, err
	}
	return json.Marshal(replayedPart{Report: rep, Simulation: r.s.Simulation, Recorded: r.s.Recorded, Plots: partOfWritten(r.plots)})
}

func (r *replayed) UnmarshalJSON(data []byte) error {
	var p replayedPart
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	if p.Report == nil {
		return errors.New("no report")
	}
	rep, err := p.Report.MakeReport()
	if err != nil {
		return err
	}
	r.s = &report.Session{Report: rep, Simulation: p.Simulation, Recorded: p.Recorded}
	r.plots = p.Plots.written()
	return nil
}

type comparedPart struct {
	Runs     *report.Compared `json:"runs"`
	Unpriced map[string]int   `json:"unpriced,omitempty"`
	Fidelity json.RawMessage  `json:"fidelity,omitempty"`
	Plots    writtenPart      `json:"plots"`
}

func (compared) partValue() {}

func (c compared) MarshalJSON() ([]byte, error) {
	p := comparedPart{Runs: c.runs, Unpriced: c.unpriced, Plots: partOfWritten(c.plots)}
	if c.fid.Reasons != nil { // a row New made (ComparePlan.Fidelity)
		b, err := c.fid.MarshalPart()
		if err != nil {
			return nil, err
		}
		p.Fidelity = b
	}
	return json.Marshal(p)
}

func (c *compared) UnmarshalJSON(data []byte) error {
	var p comparedPart
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	if p.Runs == nil {
		return errors.New("no runs")
	}
	c.runs, c.unpriced, c.plots = p.Runs, p.Unpriced, p.Plots.written()
	if p.Fidelity != nil {
		f, err := fidelity.UnmarshalPart(p.Fidelity)
		if err != nil {
			return err
		}
		c.fid = f
	}
	return nil
}

type sweptPart struct {
	Rows  []sweep.Row       `json:"rows"`
	Base  *report.SweepRow  `json:"baseline,omitempty"`
	CC    *report.SweepRow  `json:"claude_code,omitempty"` // the plots' reference, when run apart
	Input report.SweepInput `json:"input"`
}

func (swept) partValue() {}

func (s swept) MarshalJSON() ([]byte, error) {
	return json.Marshal(sweptPart{Rows: s.rows, Base: s.base, CC: s.cc, Input: s.input})
}

func (s *swept) UnmarshalJSON(data []byte) error {
	var p sweptPart
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	s.rows, s.base, s.cc, s.input = p.Rows, p.Base, p.CC, p.Input
	return nil
}

type measuredPart struct {
	Sample budget.Sample `json:"sample"`
	Err    string        `json:"error,omitempty"`
}

func (measured) partValue() {}

func (m measured) MarshalJSON() ([]byte, error) {
	p := measuredPart{Sample: m.smp}
	if m.err != nil {
		p.Err = m.err.Error()
	}
	return json.Marshal(p)
}

func (m *measured) UnmarshalJSON(data []byte) error {
	var p measuredPart
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	m.smp = p.Sample
	if p.Err != "" {
		m.err = errors.New(p.Err)
	}
	return nil
}
