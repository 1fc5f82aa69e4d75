package report

import (
	"github.com/ctxlab/ctxlab/report/table"
	"io"
	"strings"
)

// PolicyList is what `ctxlab policies` prints: every registered policy
// with its documentation, source and parameters. The command fills it from
// the policies registry (report does not import policies).
type PolicyList struct {
	Schema   string       `json:"schema"`
	Version  int          `json:"version"`
	Policies []PolicyInfo `json:"policies"`
}

// PolicyInfo describes one policy.
type PolicyInfo struct {
	Name   string      `json:"name"`
	Doc    string      `json:"doc"`
	Source string      `json:"source"`
	Params []ParamInfo `json:"params"`
}

// ParamInfo describes one parameter of a policy.
type ParamInfo struct {
	Name    string `json:"name"`
	Default string `json:"default"`
	Range   string `json:"range"` // the values it takes
	Doc     string `json:"doc"`
}

// NewPolicyList wraps the policies in a versioned document.
func NewPolicyList(ps []PolicyInfo) *PolicyList {
	if ps == nil {
		ps = []PolicyInfo{}
	}
	for i := range ps {
		if ps[i].Params == nil {
			ps[i].Params = []ParamInfo{}
		}
	}
	return &PolicyList{Schema: SchemaPolicies, Version: SchemaVersion, Policies: ps}
}

// Text widths of the policies listing in the table format.
const (
	docWidth   = 78
	paramWidth = 60
)

// WritePolicies renders the list: per policy its doc and source, then a
// table of its parameters with their defaults and the values they take.
func WritePolicies(w io.Writer, doc *PolicyList, opt Options) error {
	switch opt.Format {
	case "json":
		return writeJSON(w, doc)
	case "html":
		return writePoliciesHTML(w, doc)
	}
	if opt.Format == "csv" {
		// One row per policy and parameter (one with empty parameter
		// columns for a policy without any).
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
	text := opt.Format != "markdown"
	var tables []*table.Table
	for _, p := range doc.Policies {
		note := p.Doc + "\n\nsource: " + p.Source
		if text {
			note = wrap(p.Doc, docWidth) + "\nsource: " + p.Source
		}
		t := &table.Table{
			Name: "policies", Title: p.Name, Note: note,
			Columns: []table.Column{{Name: "Parameter"}, {Name: "Default"}, {Name: "Meaning"}}, Empty: "no parameters",
		}
		for _, a := range p.Params {
			def, meaning := a.Default, a.Doc
			if def == "" {
				def = `""`
			}
			if a.Range != "" {
				meaning += "; takes " + a.Range
			}
			if text {
				meaning = wrap(meaning, paramWidth)
			}
			t.AddRow(a.Name, def, meaning)
		}
		tables = append(tables, t)
	}
	return render(w, opt.Format, opt.Width, []section{{name: "policies", tables: tables}})
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
