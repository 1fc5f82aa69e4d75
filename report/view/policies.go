package view

import (
	"io"
	"strings"

	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/table"
)

// Text widths of the policies listing in the table format when it is
// not fitted to a width (--wide).
const (
	docWidth   = 78
	paramWidth = 60
)

// writePolicies draws the list: per policy its doc and source, then a
// table of its parameters with their defaults and the values they take.
func writePolicies(w io.Writer, doc *report.PolicyList, opt report.Options, l layout) error {
	// Text not fitted to a width is wrapped here; fitted, to the width (the
	// parameters' meanings are prose).
	text := !l.markdown
	unfitted := text && opt.Width <= 0
	var tables []*table.Table
	for _, p := range doc.Policies {
		note := p.Doc + "\n\nsource: " + p.Source
		switch {
		case unfitted:
			note = wrap(p.Doc, docWidth) + "\nsource: " + p.Source
		case text:
			note = p.Doc + "\nsource: " + p.Source
		}
		t := &table.Table{
			Name: "policies", Title: p.Name, Note: note,
			Columns: []table.Column{{Name: "Parameter"}, {Name: "Default"}, {Name: "Meaning", Kind: table.Prose}}, Empty: "no parameters",
		}
		for _, a := range p.Params {
			def, meaning := a.Default, a.Doc
			if def == "" {
				def = `""`
			}
			if a.Range != "" {
				meaning += "; takes " + a.Range
			}
			if unfitted {
				meaning = wrap(meaning, paramWidth)
			}
			t.AddRow(a.Name, def, meaning)
		}
		tables = append(tables, t)
	}
	return l.write(w, []section{{name: "policies", tables: tables}}, opt.Width)
}

// writePoliciesCSV writes one row per policy and parameter (one with empty
// parameter columns for a policy without any).
func writePoliciesCSV(w io.Writer, doc *report.PolicyList) error {
	t := &table.Table{Name: "policies", Columns: csvColumns("policy", "source", "doc", "parameter", "default", "takes", "meaning")}
	for _, p := range doc.Policies {
		if len(p.Params) == 0 {
			t.AddRow(p.Name, p.Source, p.Doc, "", "", "", "")
		}
		for _, a := range p.Params {
			t.AddRow(p.Name, p.Source, p.Doc, a.Name, a.Default, a.Range, a.Doc)
		}
	}
	return table.WriteCSV(w, t)
}

// wrap breaks s into lines of at most width characters at spaces.
func wrap(s string, width int) string {
	var b strings.Builder
	n := 0
	for i, word := range strings.Fields(s) {
		l := len([]rune(word))
		switch {
		case i == 0:
		case n+1+l > width:
			b.WriteByte('\n')
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(word)
		n += l
	}
	return b.String()
}
