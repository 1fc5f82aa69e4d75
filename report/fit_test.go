package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

func wideTable() *Table {
	t := &Table{
		Name: "t", Title: "T", Note: strings.Repeat("word ", 30),
		Columns: []string{"Session", "File", "Name", "Time", "Count", "Extra"},
		Right:   []bool{false, false, false, false, true, true},
		Short:   map[string]string{"Count": "N"},
		Drop:    []string{"Extra"},
	}
	t.addRow([]string{"d3e4f5a6-b7c8-4d9e-a0f1-b2c3d4e5f6a7", "/home/dev/日本語/プロジェクト/main.go", "名前🎉 long name that goes on", "2026-05-19T09:04:56Z", "1,234", "$0.10"})
	t.addRow([]string{"3f2a9c10-7d4e-4b6a-8c21-5e9f0a1b2c3d", "/home/dev/short.go", "plain", "2026-05-19T10:00:00Z", "5", "$1.00"})
	return t
}

// TestFitWidth: a fitted table's every line is at most the width, and the
// rows of the box are all as wide as its border, East-Asian characters
// and emoji counting two columns.
func TestFitWidth(t *testing.T) {
	// Below 69 this table has nothing left to shorten: it overflows, still
	// aligned.
	for _, width := range []int{50, 69, 70, 80, 100} {
		var b bytes.Buffer
		if err := renderText(&b, wideTable(), false, width); err != nil {
			t.Fatal(err)
		}
		border := -1
		for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
			w := twwidth.Width(l)
			if w > width && width >= 69 {
				t.Errorf("width %d: line %q is %d wide", width, l, w)
			}
			if strings.HasPrefix(l, "+") && border < 0 {
				border = w
			}
			if (strings.HasPrefix(l, "|") || strings.HasPrefix(l, "+")) && w != border {
				t.Errorf("width %d: line %q is %d wide, the border %d", width, l, w, border)
			}
		}
	}
}

// TestFitSteps: each step as docs/cli.md lists it, at a width that needs
// them all.
func TestFitSteps(t *testing.T) {
	var b bytes.Buffer
	if err := renderText(&b, wideTable(), false, 70); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"[1] main.go", // the path's cell
		"[1] /home/dev/日本語/プロジェクト/main.go", // and the footer
		"| d3e4f5a6 |",   // short session id
		"05-19 09:04:56", // short time
		"|     N |",      // short header
		"left out to fit 70 columns: Extra (--wide shows every column)",
		"…", // the name cut
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if !strings.Contains(out, "| /home/dev/short.go |") {
		t.Errorf("a short path left its cell:\n%s", out)
	}
	// No limit: every column, every path in its cell.
	b.Reset()
	if err := renderText(&b, wideTable(), false, 0); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, "| /home/dev/日本語/プロジェクト/main.go |") || !strings.Contains(out, "Extra") {
		t.Errorf("width 0 changed the table:\n%s", out)
	}
}

// TestFitMarkdownUntouched: Markdown keeps every column whatever the width.
func TestFitMarkdownUntouched(t *testing.T) {
	var b bytes.Buffer
	if err := renderText(&b, wideTable(), true, 40); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "Extra") || !strings.Contains(b.String(), "d3e4f5a6-b7c8-4d9e-a0f1-b2c3d4e5f6a7") {
		t.Errorf("markdown was fitted:\n%s", b.String())
	}
}

func TestShortForms(t *testing.T) {
	for in, want := range map[string]string{
		"2026-05-19T09:04:56Z":                 "05-19 09:04:56",
		"2026-05-19":                           "2026-05-19",
		"d3e4f5a6-b7c8-4d9e-a0f1-b2c3d4e5f6a7": "d3e4f5a6",
		"main":                                 "main",
	} {
		got := shortTime(in)
		if got == in {
			got = shortID(in)
		}
		if got != want {
			t.Errorf("%q → %q, want %q", in, got, want)
		}
	}
	if got := shortModel("claude-haiku-4-5-20251001\nclaude-opus-4-6[1m]\ngpt-5\nclaude-code:pct=80\nclaude-3-opus-20240229"); got != "haiku-4-5\nopus-4-6[1m]\ngpt-5\nclaude-code:pct=80\n3-opus" {
		t.Errorf("shortModel = %q", got)
	}
	for in, want := range map[string]string{`C:\\Users\\me\\P4P优化\\记录表.md`: "记录表.md", "/home/dev/x.go": "x.go", "x.go": "x.go", "/a/b/": "b"} {
		if got := baseName(in); got != want {
			t.Errorf("baseName(%q) = %q, want %q", in, got, want)
		}
	}
	if got := cutCell("日本語テキスト", 7); got != "日本語…" {
		t.Errorf("cutCell = %q, want 日本語…", got)
	}
}

// TestColumnNotes: a column's line of the note goes with the column. A
// fitted table that leaves the column out leaves the line out; an unfitted
// one, Markdown and HTML keep it.
func TestColumnNotes(t *testing.T) {
	const line = "extra: what the extra column holds"
	render := func(markdown bool, width int) string {
		tb := wideTable()
		tb.ColumnNotes = []ColumnNote{{"Extra", line}, {"Count", "count: how many"}}
		var b bytes.Buffer
		if err := renderText(&b, tb, markdown, width); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	for _, c := range []struct {
		markdown bool
		width    int
		want     bool
	}{{false, 70, false}, {false, 0, true}, {true, 70, true}} {
		out := render(c.markdown, c.width)
		if got := strings.Contains(out, line); got != c.want {
			t.Errorf("markdown %v, width %d: the Extra column's note shown %v, want %v:\n%s", c.markdown, c.width, got, c.want, out)
		}
		if !strings.Contains(out, "count: how many") {
			t.Errorf("markdown %v, width %d: the Count column's note left out:\n%s", c.markdown, c.width, out)
		}
	}
}

// TestTranspose: a one-row summary marked Transpose is drawn as one
// Field/Value row per column in the table and Markdown formats, every
// figure kept at any width, while its CSV keeps the columns; a table of
// more rows is drawn as it is.
func TestTranspose(t *testing.T) {
	summary := func() *Table {
		t := &Table{
			Name: "s", Title: "S", Transpose: true,
			Columns:    []string{"Sessions", "A long measure name", "Error"},
			CSVColumns: []string{"sessions", "a_long_measure", "error_pct"},
			Right:      []bool{true, true, true},
		}
		t.add([]string{"25", "10 of 10", "-3.2%"}, []string{"25", "10", "-3.24"})
		return t
	}
	for _, markdown := range []bool{false, true} {
		var b bytes.Buffer
		if err := renderText(&b, summary(), markdown, 30); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, want := range []string{"Field", "Value", "Sessions", "25", "A long measure name", "10 of 10", "Error", "-3.2%"} {
			if !strings.Contains(out, want) {
				t.Errorf("markdown %v: missing %q in\n%s", markdown, want, out)
			}
		}
		if rows := strings.Count(out, "| A long measure name |"); rows != 1 {
			t.Errorf("markdown %v: the measure is on %d rows, want 1:\n%s", markdown, rows, out)
		}
	}
	var b bytes.Buffer
	if err := writeCSVTable(&b, summary()); err != nil {
		t.Fatal(err)
	}
	if want := "sessions,a_long_measure,error_pct\n25,10,-3.24\n"; b.String() != want {
		t.Errorf("CSV:\n%s\nwant:\n%s", b.String(), want)
	}
	two := summary()
	two.add([]string{"1", "2", "3"}, []string{"1", "2", "3"})
	b.Reset()
	if err := renderText(&b, two, false, 0); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "| Field") {
		t.Errorf("a two-row table was transposed:\n%s", b.String())
	}
}

// TestFitWrapsReasons: a reason is wrapped to the width, never cut, so
// every word of it is still there.
func TestFitWrapsReasons(t *testing.T) {
	reason := "4 calls' recorded cache reads fell back where the transcript shows no cause (Claude Code changed an earlier part of the prompt): 83,217 tokens the model reads were written"
	tb := &Table{Name: "why", Title: "Why", Columns: []string{"Session", "Reason"}}
	tb.addRow([]string{"738a70de-a593-468d-9535-0a1a31be5d45", reason})
	var b bytes.Buffer
	if err := renderText(&b, tb, false, 60); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	var words []string
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if w := twwidth.Width(l); w > 60 {
			t.Errorf("line %q is %d wide", l, w)
		}
		if strings.HasPrefix(l, "|") {
			cells := strings.Split(l, "|")
			words = append(words, strings.Fields(cells[2])...)
		}
	}
	if strings.Contains(out, "…") {
		t.Errorf("the reason was cut:\n%s", out)
	}
	if got := strings.Join(words[1:], " "); got != reason {
		t.Errorf("wrapped reason reads\n%q\nwant\n%q", got, reason)
	}
}
