package batch

import (
	"errors"
	"fmt"
	"github.com/ctxlab/ctxlab/internal/numtext"

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
		// A failed run leaves nothing it wrote (Writer.Abort).
		return nil, out, errors.Join(err, w.Abort())
	}
	var m *export.Manifest
	if werr == nil {
		m, werr = w.Close()
	}
	if werr != nil {
		return nil, out, errors.Join(fmt.Errorf("writing export: %w", werr), w.Abort())
	}
	if o.Log != nil {
		fmt.Fprintf(o.Log, "wrote %s to %s:", numtext.Count(m.Sessions, "session", "sessions"), dir)
		for i, t := range m.Tables {
			sep := ","
			if i == 0 {
				sep = ""
			}
			fmt.Fprintf(o.Log, "%s %s %s (%s)", sep, t.Name, numtext.Count(t.Rows, "row", "rows"), numtext.Count(t.Files, "file", "files"))
		}
		fmt.Fprintln(o.Log)
	}
	return m, out, nil
}
