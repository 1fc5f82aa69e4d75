// Package render writes a document in a format: its table of formats
// (Formats) names each format's writer (report's JSON, report/html's
// page, report/view's tables), the documents it writes and whether it
// streams, and Write dispatches by it. It is the one place a format is
// added.
package render

import (
	"fmt"
	"io"

	"github.com/ctxlab/ctxlab/report"
)

// Write writes d to w in opt.Format (report.Table when empty).
func Write(w io.Writer, d report.Doc, opt report.Options) error {
	s, ok := Lookup(opt.Format)
	if !ok {
		return fmt.Errorf("render: no format %q", opt.Format)
	}
	if !s.Writes(d.Kind()) {
		return fmt.Errorf("render: no %s format for a %s document", s.Format, d.Kind())
	}
	return s.Write(w, d, opt)
}
