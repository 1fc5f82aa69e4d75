// Package render is the one entry point that writes a document in a
// format: JSON (report), HTML (report/html), or the tables of
// report/view (table, Markdown, CSV, and JUnit for a gate).
package render

import (
	"io"

	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/html"
	"github.com/ctxlab/ctxlab/report/view"
)

// Write writes d to w in opt.Format (report.Table when empty).
func Write(w io.Writer, d report.Doc, opt report.Options) error {
	switch opt.Format {
	case report.JSON:
		return report.WriteJSON(w, d)
	case report.HTML:
		return html.Write(w, d, opt)
	}
	return view.Write(w, d, opt)
}
