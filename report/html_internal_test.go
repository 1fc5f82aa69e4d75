package report

import (
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/report/plots"
)

func TestPrintedNumber(t *testing.T) {
	for in, want := range map[string]string{
		"1,234": "1234", "$0.12": "0.12", "$0.0010": "0.0010", "+5.0%": "5.0", "-$1.20": "-1.20", "≥300": "300",
		"-3": "-3", "+902": "902", "0.8424": "0.8424",
		"—": "", "": "", "unpriced": "", "$0.30 + 2 unpriced": "", "1e5": "", "call 3": "", "2m 52s": "", "3 of 4": "",
	} {
		if got := printedNumber(in); got != want {
			t.Errorf("printedNumber(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestHTMLTableOf: a cell sorts by its CSV value when that is a number,
// else by the number it prints; a table without alignments aligns its
// columns of numbers right; a long table is folded.
func TestHTMLTableOf(t *testing.T) {
	tb := &Table{Name: "x", Title: "X", Columns: []string{"Name", "Cost", "Note"}, Right: []bool{false, true, false}}
	tb.add([]string{"a", "$0.30", "1,000"}, []string{"a", "0.298592", "n/a"})
	tb.addRow([]string{"b", "unpriced", "—"})
	h := htmlTableOf(tb, "s-x")
	if got := []string{h.Rows[0][1].Value, h.Rows[0][2].Value, h.Rows[1][1].Value, h.Rows[1][2].Value}; strings.Join(got, "|") != "0.298592|1000||" {
		t.Errorf("sort values %q", got)
	}
	if !h.Columns[1].Right || h.Columns[2].Right || !h.Rows[0][1].Right || h.Fold {
		t.Errorf("alignment or folding wrong: %+v", h)
	}
	plain := &Table{Name: "rows", Columns: []string{"policy", "calls", "project"}}
	for i := range foldRows + 1 {
		plain.addRow([]string{"p", strings.Repeat("1", i%3+1), "-home-x"})
	}
	h = htmlTableOf(plain, "r")
	if h.Columns[0].Right || !h.Columns[1].Right || h.Columns[2].Right || !h.Rows[5][1].Right || !h.Fold {
		t.Errorf("machine table: columns %+v, fold %v", h.Columns, h.Fold)
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
