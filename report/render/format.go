package render

import (
	"io"

	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/html"
	"github.com/ctxlab/ctxlab/report/view"
)

// A Spec is one output format: its writer, the documents it writes, and,
// for a format that streams, the writer of replay's document a session at
// a time.
type Spec struct {
	Format report.Format
	Kinds  []report.Kind // the documents it writes
	Write  func(io.Writer, report.Doc, report.Options) error
	// Stream, when set, starts replay's document on w, priced with p,
	// over the window since–until (0: open), to be given its sessions as
	// they are read (report.SessionWriter).
	Stream func(w io.Writer, p *prices.Table, since, until replay.Time) report.SessionWriter
	// OneTable: the format holds one table (the command's --section
	// picks it), and every row of it unless --top is given.
	OneTable bool
	// Charts: the format draws each session's runs, so replay reports a
	// run (the observed one unless --policy names another) and compare
	// keeps every run's calls.
	Charts bool
}

// Formats is every output format, in the order --format lists them. The
// commands' --format values, their help and validation, and the shell's
// completion all come from it (For).
var Formats = []Spec{
	{Format: report.Table, Kinds: report.Kinds, Write: view.Text},
	{Format: report.JSON, Kinds: report.Kinds, Write: writeJSON, Stream: streamJSON},
	{Format: report.CSV, Kinds: report.Kinds, Write: view.CSV, OneTable: true},
	{Format: report.Markdown, Kinds: report.Kinds, Write: view.Markdown},
	{Format: report.JUnit, Kinds: []report.Kind{report.GateKind}, Write: view.JUnit},
	{Format: report.HTML, Kinds: report.Kinds, Write: html.Write, Charts: true},
	{Format: report.Latex, Kinds: []report.Kind{report.CompareKind, report.SweepKind}, Write: view.LaTeX},
}

func writeJSON(w io.Writer, d report.Doc, _ report.Options) error { return report.WriteJSON(w, d) }

func streamJSON(w io.Writer, p *prices.Table, since, until replay.Time) report.SessionWriter {
	j := report.NewReplayJSON(w, p)
	j.Since, j.Until = since, until
	return j
}

// Lookup returns a format's spec; the empty format is Table.
func Lookup(f report.Format) (Spec, bool) {
	if f == "" {
		f = report.Table
	}
	for _, s := range Formats {
		if s.Format == f {
			return s, true
		}
	}
	return Spec{}, false
}

// Writes reports whether the format writes documents of kind k.
func (s Spec) Writes(k report.Kind) bool {
	for _, x := range s.Kinds {
		if x == k {
			return true
		}
	}
	return false
}

// For lists the names of the formats that write documents of kind k, in
// the table's order: the values a command's --format takes, the first its
// default.
func For(k report.Kind) []string {
	var out []string
	for _, s := range Formats {
		if s.Writes(k) {
			out = append(out, string(s.Format))
		}
	}
	return out
}
