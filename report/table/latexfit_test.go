package table

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/internal/texcheck"
)

// latexWide is a table as wide as compare's: a name column of long
// policy specs and a dozen figures, some of them droppable.
func latexWide(rows int, drop bool) *Table {
	t := &Table{Name: "wide_table", Title: "Twelve figures", Note: "a note"}
	t.Columns = append(t.Columns, Column{Name: "Policy", Kind: Text}, Column{Name: "Rank"})
	for i := range 12 {
		c := Column{Name: fmt.Sprintf("Figure number %d", i), Short: fmt.Sprintf("F%d", i), Right: true}
		if drop && i >= 8 {
			c.Drop = 12 - i
		}
		t.Columns = append(t.Columns, c)
	}
	for r := range rows {
		cells := []string{fmt.Sprintf("claude-code:window=%d,pct=%d+keep-last-n:n=%d", 50000+r, 60+r%30, r%9), fmt.Sprint(r + 1)}
		for i := range 12 {
			cells = append(cells, fmt.Sprintf("-%d,%03d.%d%%", i+r, r*7%1000, i))
		}
		t.AddRow(cells...)
	}
	return t
}

// TestFitLaTeX: every part of a fitted table is at most latexWidth wide
// by the fonts' widths; a table fits by leaving out its droppable columns
// when that is enough, and is split into parts that repeat its key
// columns (every column kept) when it is not; a column of numbers is set
// right even when not declared so.
func TestFitLaTeX(t *testing.T) {
	for _, c := range []struct {
		name      string
		t         *Table
		parts     int
		dropped   int
		firstCols int
	}{
		{"droppable", latexWide(5, true), 2, 0, 2},
		{"fixed", latexWide(5, false), 2, 0, 2},
	} {
		tb := c.t.clone()
		lay := fitLaTeX(tb)
		if len(lay.parts) < c.parts || len(lay.dropped) != c.dropped {
			t.Errorf("%s: %d parts, dropped %v", c.name, len(lay.parts), lay.dropped)
		}
		for k, p := range lay.parts {
			if w := lay.width(tb, p); w > latexWidth {
				t.Errorf("%s: part %d is %.1fpt wide", c.name, k, w)
			}
			if p[0] != 0 || p[1] != 1 {
				t.Errorf("%s: part %d does not begin with the key columns: %v", c.name, k, p)
			}
		}
		if !lay.numeric[1] {
			t.Errorf("%s: Rank, all numbers, not aligned right", c.name)
		}
	}
	// Four figures fit once a few columns go: they go, nothing is split.
	narrow := latexWide(3, true)
	for len(narrow.Columns) > 6 {
		narrow.RemoveColumn(2)
	}
	for i := range narrow.Columns[2:] {
		narrow.Columns[2+i].Drop = 0
	}
	narrow.Columns[2].Drop, narrow.Columns[3].Drop = 1, 2
	lay := fitLaTeX(narrow)
	if len(lay.parts) != 1 || len(lay.dropped) == 0 || lay.width(narrow, lay.parts[0]) > latexWidth {
		t.Errorf("narrow: %d parts, dropped %v, %.1fpt", len(lay.parts), lay.dropped, lay.width(narrow, lay.parts[0]))
	}
}

// TestWriteLaTeXParts: the parts of a split table are floats labelled
// label, label:2, …, captioned "(k of n)"; a table longer than a page is
// a longtable; every float compiles without an overfull line at 10pt and
// 12pt.
func TestWriteLaTeXParts(t *testing.T) {
	var b bytes.Buffer
	if err := WriteLaTeX(&b, latexWide(5, false), "tab:total:wide_table"); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	labels := regexp.MustCompile(`\\label\{([^}]*)\}`).FindAllStringSubmatch(out, -1)
	if len(labels) < 2 || labels[0][1] != "tab:total:wide-table" || labels[1][1] != "tab:total:wide-table:2" ||
		!strings.Contains(out, `\caption{Twelve figures (1 of `) || !strings.Contains(out, "% split into ") {
		t.Errorf("parts:\n%s", out)
	}
	var long bytes.Buffer
	if err := WriteLaTeX(&long, latexWide(45, false), "tab:total:long"); err != nil {
		t.Fatal(err)
	}
	if l := long.String(); !strings.Contains(l, `\begin{longtable}`) || strings.Contains(l, `\begin{table}`) || !strings.Contains(l, `\endhead`) {
		t.Errorf("a table of 45 rows is not a longtable:\n%.600s", l)
	}
	if !LongLaTeX(latexWide(45, false)) || LongLaTeX(latexWide(5, false)) {
		t.Error("LongLaTeX")
	}
	texcheck.PDFLaTeX(t)
	for _, opt := range []string{"10pt", "12pt"} {
		log := texcheck.Compile(t, opt, []string{"booktabs", "longtable"}, out+"\\clearpage\n"+long.String())
		if p := texcheck.Problems(log); len(p) > 0 {
			t.Errorf("%s: %q", opt, p)
		}
	}
}
