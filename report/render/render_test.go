package render_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/render"
)

// Write picks the writer by format: the same JSON as report.WriteJSON, a
// page for html, tables for the text formats, and an error for a format
// the document has no writer for.
func TestWrite(t *testing.T) {
	doc := report.NewPolicyList([]report.PolicyInfo{{Name: "observed", Source: "built in", Doc: "the session as recorded"}})
	var want bytes.Buffer
	if err := report.WriteJSON(&want, doc); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		format report.Format
		prefix string
	}{
		{report.JSON, want.String()},
		{report.HTML, "<!DOCTYPE html>"},
		{report.Table, "observed\n"},
		{"", "observed\n"},
		{report.Markdown, "### observed\n\nthe session as recorded"},
		{report.CSV, "policy,source,doc,parameter"},
	} {
		var b bytes.Buffer
		if err := render.Write(&b, doc, report.Options{Format: c.format}); err != nil {
			t.Fatalf("%q: %v", c.format, err)
		}
		if !strings.HasPrefix(b.String(), c.prefix) {
			t.Errorf("%q: output starts %.60q, want %.60q", c.format, b.String(), c.prefix)
		}
	}
	if err := render.Write(&bytes.Buffer{}, doc, report.Options{Format: report.JUnit}); err == nil {
		t.Error("JUnit for a policy list: no error")
	}
	if err := render.Write(&bytes.Buffer{}, doc, report.Options{Format: report.Latex}); err == nil {
		t.Error("LaTeX for a policy list: no error")
	}
	if err := render.Write(&bytes.Buffer{}, doc, report.Options{Format: "yaml"}); err == nil {
		t.Error("an unknown format: no error")
	}
}
