// Package view draws ctxlab's documents as tables: each command's sections
// for a terminal (fitted to its width) and Markdown, and its CSV streams.
// The tables are report/table's; the HTML page draws the same ones.
package view

import (
	"fmt"
	"io"

	"github.com/ctxlab/ctxlab/report"
)

// Write draws a document as text tables (report.Table, fitted to
// opt.Width), Markdown, CSV or, for a gate, JUnit, and for a comparison or
// a sweep LaTeX.
func Write(w io.Writer, d report.Doc, opt report.Options) error {
	switch opt.Format {
	case report.Table, report.Markdown, report.CSV, "":
	case report.Latex:
		switch d.(type) {
		case *report.CompareDocument, *report.SweepDocument:
		default:
			return fmt.Errorf("view: no %s format for %T", opt.Format, d)
		}
	case report.JUnit:
		if g, ok := d.(*report.GateDocument); ok {
			return writeGate(w, g, opt)
		}
		fallthrough
	default:
		return fmt.Errorf("view: no %s format for %T", opt.Format, d)
	}
	switch d := d.(type) {
	case *report.Document:
		return writeReplay(w, d, opt)
	case *report.CompareDocument:
		return writeCompare(w, d, opt)
	case *report.GateDocument:
		return writeGate(w, d, opt)
	case *report.SweepDocument:
		return writeSweep(w, d, opt)
	case *report.PolicyList:
		return writePolicies(w, d, opt)
	}
	return fmt.Errorf("view: unknown document %T", d)
}
