package view

import (
	"bytes"
	"regexp"
	"slices"
	"testing"

	"github.com/ctxlab/ctxlab/report/table"
)

// TestLaTeXLabels: every table is labelled tab:SCOPE:TABLE, SCOPE
// "total" for the whole input (a section named so or not named) and a
// session's id as short as it stays distinct; a label a scope would
// repeat gets -2, -3.
func TestLaTeXLabels(t *testing.T) {
	tb := func(name string) *table.Table {
		x := &table.Table{Name: name, Title: name, Columns: []table.Column{{Name: "a"}}}
		x.AddRow("1")
		return x
	}
	secs := []section{
		{name: "total", tables: []*table.Table{tb("compare_sessions")}},
		{name: "d3e4f5a6-b7c8-4d9e-a0f1-b2c3d4e5f6a7", tables: []*table.Table{tb("compare_context"), tb("simulated_calls"), tb("simulated_calls")}},
		{name: "d3e4f5a6-ffff-4d9e-a0f1-b2c3d4e5f6a7", tables: []*table.Table{tb("compare_context")}},
		{name: "5a1b3c4d-2e6f-4a7b-8c9d-0e1f2a3b4c5d", tables: []*table.Table{tb("compare_context")}},
		{tables: []*table.Table{tb("comparisons")}},
	}
	var b bytes.Buffer
	if err := renderLaTeX(&b, secs); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range regexp.MustCompile(`\\label\{([^}]*)\}`).FindAllStringSubmatch(b.String(), -1) {
		got = append(got, m[1])
	}
	want := []string{"tab:total:compare-sessions", "tab:d3e4f5a6-b:compare-context", "tab:d3e4f5a6-b:simulated-calls", "tab:d3e4f5a6-b:simulated-calls-2",
		"tab:d3e4f5a6-f:compare-context", "tab:5a1b3c4d:compare-context", "tab:total:comparisons"}
	if !slices.Equal(got, want) {
		t.Errorf("labels %q, want %q", got, want)
	}
}
