package batch

import (
	"fmt"

	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/report/export"
)

// Export reads the sessions and adds each one's rows to w as soon as it
// and every one before it are read: its report and its runs under each
// policy, built on the worker that read it. Memory holds the sessions in
// flight and w's buffers, not the input. Once w is closed it says on the
// log what it wrote into dir, and returns the export's manifest.
func Export(in *Inputs, o Options, ps []policies.Compiled, w *export.Writer, dir string) (*export.Manifest, *Outcome, error) {
	var werr error
	out, err := Each(in, o, func(s *Session) *export.Rows {
		return export.Build(s.Index, s.Session, s.Report(), s.Runs(ps), o.Accounting.Prices)
	}, func(r *export.Rows) {
		if werr == nil {
			werr = w.Add(r)
		}
	})
	if err != nil {
		return nil, out, err
	}
	var m *export.Manifest
	if werr == nil {
		m, werr = w.Close()
	}
	if werr != nil {
		return nil, out, fmt.Errorf("writing export: %w", werr)
	}
	if o.Log != nil {
		fmt.Fprintf(o.Log, "wrote %d sessions to %s:", m.Sessions, dir)
		for i, t := range m.Tables {
			sep := ","
			if i == 0 {
				sep = ""
			}
			fmt.Fprintf(o.Log, "%s %s %d rows (%d files)", sep, t.Name, t.Rows, t.Files)
		}
		fmt.Fprintln(o.Log)
	}
	return m, out, nil
}
