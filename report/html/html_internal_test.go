package html

import (
	"github.com/ctxlab/ctxlab/accounting"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/report/table"

	"github.com/ctxlab/ctxlab/report/plots"
)

// TestHTMLTableOf: a cell sorts by its raw value when that is a number,
// and is not a number otherwise, whatever it prints; columns align as the
// table says; a long table is folded.
func TestHTMLTableOf(t *testing.T) {
	tb := &table.Table{Name: "x", Title: "X", Columns: []table.Column{{Name: "Name"}, {Name: "Cost", Right: true}, {Name: "Note"}}}
	tb.Add([]string{"a", "$0.30", "1,000"}, []string{"a", "0.298592", "n/a"})
	tb.Add([]string{"b", "unpriced", "2,000"}, []string{"b", "", "2000"})
	h := htmlTableOf(tb, "s-x")
	if got := []string{h.Rows[0][1].Value, h.Rows[0][2].Value, h.Rows[1][1].Value, h.Rows[1][2].Value}; strings.Join(got, "|") != "0.298592|||2000" {
		t.Errorf("sort values %q", got)
	}
	if !h.Columns[1].Right || h.Columns[2].Right || !h.Rows[0][1].Right || h.Fold {
		t.Errorf("alignment or folding wrong: %+v", h)
	}
	plain := &table.Table{Name: "rows", Columns: []table.Column{{Name: "policy"}, {Name: "calls"}, {Name: "project"}}}
	for i := range foldRows + 1 {
		plain.AddRow("p", strings.Repeat("1", i%3+1), "-home-x")
	}
	plain.AlignNumbers()
	h = htmlTableOf(plain, "r")
	if h.Columns[0].Right || !h.Columns[1].Right || h.Columns[2].Right || !h.Rows[5][1].Right || !h.Fold {
		t.Errorf("machine table: columns %+v, fold %v", h.Columns, h.Fold)
	}
	// One rule: folded from 21 rows; 20 show whole.
	plain.Rows = plain.Rows[:foldRows]
	if h = htmlTableOf(plain, "r"); h.Fold || foldRows != 20 || foldShow != 10 {
		t.Errorf("%d rows folded: %v (rule: above %d, showing %d)", len(plain.Rows), h.Fold, foldRows, foldShow)
	}
	// A record's fields are not a list: a key/value table of any length
	// shows every row (a run's cost rows come last in the simulation
	// table's 26).
	kv := &table.Table{Name: "simulation", KeyValue: true, Columns: []table.Column{{Name: "Field"}, {Name: "Value"}}}
	for i := range 26 {
		kv.AddRow(strings.Repeat("f", i+1), "1")
	}
	if h = htmlTableOf(kv, "s"); h.Fold {
		t.Error("a key/value table of 26 rows is folded")
	}
}

// TestHTMLPathCells: a file path, in a path column or a key-value
// table's path row, may wrap anywhere; other cells keep their words.
func TestHTMLPathCells(t *testing.T) {
	tb := &table.Table{Name: "d", Columns: []table.Column{{Name: "File", Kind: table.Path}, {Name: "Reads", Right: true}, {Name: "Note", Kind: table.Text}}}
	tb.AddRow("/a/b.go", "2", "x")
	tb.Rows = append(tb.Rows, []table.Cell{table.Same("/c.go"), table.Same("3"), {Text: "/d.go", Raw: "/d.go", Path: true}})
	h := htmlTableOf(tb, "d")
	var got []string
	for _, r := range h.Rows {
		for _, c := range r {
			got = append(got, c.Class)
		}
	}
	if strings.Join(got, ",") != "path,,,path,,path" {
		t.Errorf("classes %q", got)
	}
}

// TestInlineSVG: the figure loses its XML prologue and namespace
// declarations and gains a role and an escaped label.
func TestInlineSVG(t *testing.T) {
	f := plots.Duplicates(nil, plots.Options{Session: `a<b>"c"`})
	svg, err := inlineSVG(f)
	if err != nil {
		t.Fatal(err)
	}
	s := string(svg)
	if !strings.HasPrefix(s, "<svg ") || !strings.HasSuffix(s, "</svg>") || strings.Contains(s, "<?xml") || strings.Contains(s, "xmlns") {
		t.Errorf("not an inline <svg> element: %.120q … %q", s, s[max(0, len(s)-20):])
	}
	if !strings.Contains(s, ` role="img" aria-label="`) || strings.Contains(s, `a<b>`) || !strings.Contains(s, `a&lt;b&gt;`) {
		t.Errorf("label or title not escaped: %.400q", s)
	}
}

// TestOverviewCost: a session none of whose calls has a price shows
// "unpriced" and carries no number to sort by (it sorts last); one with
// some priced calls sorts by the cost of those.
func TestOverviewCost(t *testing.T) {
	for _, c := range []struct {
		unpriced    int
		text, value string
	}{{0, "$1.25", "1.25"}, {1, "≥$1.25", "1.25"}, {3, "unpriced", ""}} {
		r := &accounting.Report{}
		r.Summary.Cost = 1.25
		r.Usage.Total.Calls, r.Usage.Total.Cost, r.Usage.Total.Unpriced = 3, 1.25, c.unpriced
		cost := overviewRow(r, "s", "#s", "", "")[5]
		if cost.Text != c.text || cost.Value != c.value {
			t.Errorf("%d of 3 calls unpriced: %q sorting by %q, want %q by %q", c.unpriced, cost.Text, cost.Value, c.text, c.value)
		}
	}
}
