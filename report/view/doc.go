// Package view draws ctxlab's documents as tables: each command's sections
// for a terminal (fitted to its width), Markdown and LaTeX, its CSV streams
// and a gate's JUnit. The tables are report/table's; the HTML page draws
// the same ones. Each format's writer is a function here that
// report/render's table of formats names; which documents a format writes
// is that table's to say.
package view

import (
	"fmt"
	"io"

	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/table"
)

// Text draws a document's sections as text tables fitted to opt.Width
// (0: no limit).
func Text(w io.Writer, d report.Doc, opt report.Options) error { return laidOut(w, d, opt, text) }

// Markdown draws a document's sections as Markdown tables.
func Markdown(w io.Writer, d report.Doc, opt report.Options) error {
	return laidOut(w, d, opt, markdown)
}

// LaTeX draws a document's sections as booktabs tables.
func LaTeX(w io.Writer, d report.Doc, opt report.Options) error { return laidOut(w, d, opt, latex) }

// A layout writes titled sections of tables in one format. markdown says
// how the prose around them reads: a gate's diff fenced, a policy's notes
// left to the reader's width.
type layout struct {
	write    func(w io.Writer, secs []section, width int) error
	markdown bool
}

var (
	text     = layout{write: writeText}
	markdown = layout{write: writeMarkdown, markdown: true}
	latex    = layout{write: func(w io.Writer, secs []section, _ int) error { return renderLaTeX(w, secs) }}
)

func laidOut(w io.Writer, d report.Doc, opt report.Options, l layout) error {
	switch d := d.(type) {
	case *report.Document:
		return writeReplay(w, d, opt, l)
	case *report.CompareDocument:
		return writeCompare(w, d, opt, l)
	case *report.GateDocument:
		return writeGate(w, d, opt, l)
	case *report.SweepDocument:
		return writeSweep(w, d, opt, l)
	case *report.PolicyList:
		return writePolicies(w, d, opt, l)
	}
	return fmt.Errorf("view: unknown document %T", d)
}

// CSV writes one table of a document, the one opt.Sections[0] names (each
// document's default otherwise): a header, then its rows.
func CSV(w io.Writer, d report.Doc, opt report.Options) error {
	switch d := d.(type) {
	case *report.Document:
		return writeCSV(w, d, opt)
	case *report.CompareDocument:
		return writeCompareCSV(w, d, opt)
	case *report.GateDocument:
		return table.WriteCSV(w, GateTable(d.Result)) // the limits; their reasons are JSON's and the text's
	case *report.SweepDocument:
		return writeSweepCSV(w, d, opt)
	case *report.PolicyList:
		return writePoliciesCSV(w, d)
	}
	return fmt.Errorf("view: unknown document %T", d)
}

// JUnit writes a gate's limits as the test cases of one suite.
func JUnit(w io.Writer, d report.Doc, _ report.Options) error {
	if g, ok := d.(*report.GateDocument); ok {
		return writeJUnit(w, g.Result)
	}
	return fmt.Errorf("view: no JUnit for %T", d)
}
