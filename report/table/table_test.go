package table

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/internal/numtext"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

func wideTable() *Table {
	t := &Table{
		Name: "t", Title: "T", Note: strings.Repeat("word ", 30),
		Columns: []Column{
			{Name: "Session", Kind: ID}, {Name: "File", Kind: Path}, {Name: "Name", Kind: Text}, {Name: "Time", Kind: Time},
			{Name: "Count", Right: true, Short: "N"}, {Name: "Extra", Right: true, Drop: 1},
		},
	}
	t.AddRow("d3e4f5a6-b7c8-4d9e-a0f1-b2c3d4e5f6a7", "/home/dev/日本語/プロジェクト/main.go", "名前🎉 long name that goes on", "2026-05-19T09:04:56Z", "1,234", "$0.10")
	t.AddRow("3f2a9c10-7d4e-4b6a-8c21-5e9f0a1b2c3d", "/home/dev/a.go", "plain", "2026-05-19T10:00:00Z", "5", "$1.00")
	return t
}

// render draws t as text (width) or Markdown.
func render(b *bytes.Buffer, t *Table, markdown bool, width int) error {
	if markdown {
		return WriteMarkdown(b, t)
	}
	return WriteText(b, t, width)
}

// TestFitWidth: a fitted table's every line is at most the width, and the
// rows of the box are all as wide as its border, East-Asian characters
// and emoji counting two columns.
func TestFitWidth(t *testing.T) {
	// Below 69 this table has nothing left to shorten: it overflows, still
	// aligned.
	for _, width := range []int{50, 69, 70, 80, 100} {
		var b bytes.Buffer
		if err := render(&b, wideTable(), false, width); err != nil {
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
	if err := render(&b, wideTable(), false, 70); err != nil {
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
	if !strings.Contains(out, "| /home/dev/a.go ") {
		t.Errorf("a short path left its cell:\n%s", out)
	}
	// No limit: every column, every path in its cell.
	b.Reset()
	if err := render(&b, wideTable(), false, 0); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, "| /home/dev/日本語/プロジェクト/main.go |") || !strings.Contains(out, "Extra") {
		t.Errorf("width 0 changed the table:\n%s", out)
	}
}

// TestFitMarkdownUntouched: Markdown keeps every column whatever the width.
func TestFitMarkdownUntouched(t *testing.T) {
	var b bytes.Buffer
	if err := render(&b, wideTable(), true, 40); err != nil {
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
			got = numtext.ShortID(in)
		}
		if got != want {
			t.Errorf("%q → %q, want %q", in, got, want)
		}
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
		tb.Columns[5].Note, tb.Columns[4].Note = line, "count: how many"
		var b bytes.Buffer
		if err := render(&b, tb, markdown, width); err != nil {
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
			Columns: []Column{{Name: "Sessions", Right: true}, {Name: "A long measure name", Right: true, CSV: "a_long_measure"}, {Name: "Error", Right: true, CSV: "error_pct"}},
		}
		t.Add([]string{"25", "10 of 10", "-3.2%"}, []string{"25", "10", "-3.24"})
		return t
	}
	for _, markdown := range []bool{false, true} {
		var b bytes.Buffer
		if err := render(&b, summary(), markdown, 30); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, want := range []string{"Field", "Value", "Sessions", "25", "A long measure", "10 of 10", "Error", "-3.2%"} {
			if !strings.Contains(out, want) {
				t.Errorf("markdown %v: missing %q in\n%s", markdown, want, out)
			}
		}
		// Fitted to 30 columns, the field's name wraps.
		if rows := strings.Count(out, "| A long measure name |"); markdown && rows != 1 || !markdown && !strings.Contains(out, "| A long measure | 10 of 10 |\n| name           |") {
			t.Errorf("markdown %v: the measure is on %d rows, want 1:\n%s", markdown, rows, out)
		}
	}
	var b bytes.Buffer
	if err := WriteCSV(&b, summary()); err != nil {
		t.Fatal(err)
	}
	if want := "sessions,a_long_measure,error_pct\n25,10,-3.24\n"; b.String() != want {
		t.Errorf("CSV:\n%s\nwant:\n%s", b.String(), want)
	}
	two := summary()
	two.Add([]string{"1", "2", "3"}, []string{"1", "2", "3"})
	b.Reset()
	if err := render(&b, two, false, 0); err != nil {
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
	tb := &Table{Name: "why", Title: "Why", Columns: []Column{{Name: "Session", Kind: ID}, {Name: "Reason", Kind: Prose}}}
	tb.AddRow("738a70de-a593-468d-9535-0a1a31be5d45", reason)
	var b bytes.Buffer
	if err := render(&b, tb, false, 60); err != nil {
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

func TestCellNumber(t *testing.T) {
	for _, c := range []struct{ text, raw, want string }{
		{"$0.30", "0.298592", "0.298592"}, {"1,234", "1234", "1234"}, {"-3", "-3", "-3"},
		{"1,234", "", ""}, {"unpriced", "", ""}, {"n/a", "n/a", ""}, {"call 3", "3 calls", ""},
	} {
		if got := (Cell{Text: c.text, Raw: c.raw}).Number(); got != c.want {
			t.Errorf("Number(%q, %q) = %q, want %q", c.text, c.raw, got, c.want)
		}
	}
}

// TestFitLeavesInputAlone: fitting draws a copy; the caller's table, which
// another format may draw next, keeps its cells and columns.
func TestFitLeavesInputAlone(t *testing.T) {
	tb := wideTable()
	var b bytes.Buffer
	if err := WriteText(&b, tb, 60); err != nil {
		t.Fatal(err)
	}
	if len(tb.Columns) != 6 || tb.Columns[4].Name != "Count" || tb.Rows[0][0].Text != "d3e4f5a6-b7c8-4d9e-a0f1-b2c3d4e5f6a7" || tb.Rows[0][1].Text != "/home/dev/日本語/プロジェクト/main.go" {
		t.Errorf("the table changed: %+v", tb)
	}
}

// TestDropOrder: columns go in their Drop order, lowest first, and only
// while the table is too wide; a column without a Drop goes only when
// the table cannot fit otherwise, and the first column never.
func TestDropOrder(t *testing.T) {
	tb := &Table{Name: "d", Title: "D", Columns: []Column{
		{Name: "Key"}, {Name: "Second", Drop: 2}, {Name: "First", Drop: 1}, {Name: "Kept"},
	}}
	tb.AddRow("k", strings.Repeat("2", 10), strings.Repeat("1", 10), strings.Repeat("x", 10))
	for _, c := range []struct {
		width int
		left  string
	}{{100, ""}, {40, "First"}, {30, "First, Second"}, {10, "First, Second, Kept"}} {
		var b bytes.Buffer
		if err := WriteText(&b, tb, c.width); err != nil {
			t.Fatal(err)
		}
		got := ""
		out := strings.Join(strings.Fields(b.String()), " ") // the line is wrapped to the width
		if _, s, ok := strings.Cut(out, "left out to fit "); ok {
			got = s[strings.Index(s, ": ")+2 : strings.Index(s, " (--wide")]
		}
		if got != c.left {
			t.Errorf("width %d: left out %q, want %q\n%s", c.width, got, c.left, b.String())
		}
	}
}

// TestPutBack: a narrow column ranked to go first comes back when a wide
// one ranked after it had to go and the room it leaves holds the narrow
// one whole; where it would not fit whole, it stays out rather than
// have the text cut for it.
func TestPutBack(t *testing.T) {
	tb := &Table{Name: "p", Title: "P", Columns: []Column{
		{Name: "Key"}, {Name: "Narrow", Drop: 1}, {Name: "Wide", Drop: 2}, {Name: "Name", Kind: Text},
	}}
	tb.AddRow("k", "12", strings.Repeat("w", 30), "a name of 18 chars")
	// Key 3, Narrow 6, Wide 30, Name 18 (cut to 12 before a column goes),
	// box 3 a column and 1: 70 in all, 64 with the name cut; without
	// Narrow the rest needs 55 at least, so below that Wide goes too, and
	// Narrow comes back where the table without Wide fits whole (37).
	for _, c := range []struct {
		width int
		left  string
	}{{70, ""}, {64, ""}, {63, "Narrow"}, {55, "Narrow"}, {54, "Wide"}, {37, "Wide"}, {36, "Narrow, Wide"}} {
		var b bytes.Buffer
		if err := WriteText(&b, tb, c.width); err != nil {
			t.Fatal(err)
		}
		got := ""
		out := strings.Join(strings.Fields(b.String()), " ")
		if _, s, ok := strings.Cut(out, "left out to fit "); ok {
			got = s[strings.Index(s, ": ")+2 : strings.Index(s, " (--wide")]
		}
		if got != c.left {
			t.Errorf("width %d: left out %q, want %q\n%s", c.width, got, c.left, b.String())
		}
		if c.width == 36 && !strings.Contains(b.String(), "a name of 18 chars") {
			t.Errorf("width 36: the name was cut to keep Narrow\n%s", b.String())
		}
	}
}

// TestRemoveColumn and AlignNumbers: a column goes from the header and
// every row; a column of numbers (by raw value or print) aligns right.
func TestRemoveColumnAlignNumbers(t *testing.T) {
	tb := &Table{Columns: []Column{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}}}
	tb.Add([]string{"x", "1,000", "$1", ""}, []string{"x", "1000", "1", ""})
	tb.AddRow("y", "2", "n/a", "")
	tb.RemoveColumn(0)
	if len(tb.Columns) != 3 || tb.Columns[0].Name != "b" || len(tb.Rows[0]) != 3 || tb.Rows[1][0].Text != "2" {
		t.Fatalf("after RemoveColumn: %+v", tb)
	}
	tb.AlignNumbers()
	if !tb.Columns[0].Right || tb.Columns[1].Right || !tb.Columns[2].Right {
		t.Errorf("alignment %+v, want right, left, right (a column of blanks counts as numbers)", tb.Columns)
	}
	empty := &Table{Columns: []Column{{Name: "a"}}}
	empty.AlignNumbers()
	if empty.Columns[0].Right {
		t.Error("a table without rows aligned a column right")
	}
}

// TestCutAndCSV: Cut keeps the first rows and counts the rest, which the
// text says; CSV writes raw values under the CSV header, a scope first.
func TestCutAndCSV(t *testing.T) {
	tb := &Table{Name: "c", Title: "C", Columns: []Column{{Name: "Waste tokens"}, {Name: "Cost", CSV: "cost_usd"}}}
	tb.Add([]string{"1,000", "$1.00"}, []string{"1000", "1.000000"})
	tb.Add([]string{"2,000", "$2.00"}, []string{"2000", "2.000000"})
	tb.Cut(1)
	tb.Cut(0)
	if len(tb.Rows) != 1 || tb.More != 1 {
		t.Fatalf("Cut(1): %d rows, more %d", len(tb.Rows), tb.More)
	}
	var b bytes.Buffer
	if err := WriteText(&b, tb, 0); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "… 1 more (raise --top)") {
		t.Errorf("no count of the rows cut:\n%s", b.String())
	}
	b.Reset()
	cw := csv.NewWriter(&b)
	if err := tb.WriteCSVRows(cw, "total", true); err != nil {
		t.Fatal(err)
	}
	cw.Flush()
	if want := "scope,waste_tokens,cost_usd\ntotal,1000,1.000000\n"; b.String() != want {
		t.Errorf("CSV %q, want %q", b.String(), want)
	}
}

// TestEmpty: a table without rows prints what stands for it.
func TestEmpty(t *testing.T) {
	for _, c := range []struct {
		empty, text, md string
	}{{"", "  (none)", "_none_"}, {"no calls", "  (no calls)", "_no calls_"}} {
		tb := &Table{Title: "E", Empty: c.empty, Columns: []Column{{Name: "a"}}}
		var b bytes.Buffer
		if err := WriteText(&b, tb, 80); err != nil || !strings.Contains(b.String(), c.text) {
			t.Errorf("text %q, %v; want %q", b.String(), err, c.text)
		}
		b.Reset()
		if err := WriteMarkdown(&b, tb); err != nil || !strings.Contains(b.String(), c.md) {
			t.Errorf("markdown %q, %v; want %q", b.String(), err, c.md)
		}
	}
}

// draw is WriteText's output.
func draw(t *testing.T, tb *Table, width int) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteText(&b, tb, width); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestFitBoundaries: a table exactly as wide as the width is drawn as it
// is; one column narrower, fitting starts; each step stops as soon as the
// table fits.
func TestFitBoundaries(t *testing.T) {
	mk := func() *Table {
		tb := &Table{Title: "B", Columns: []Column{
			{Name: "Session", Kind: ID}, {Name: "Count", Right: true, Short: "N"}, {Name: "Extra", Drop: 1},
		}}
		tb.AddRow("d3e4f5a6-b7c8-4d9e-a0f1-b2c3d4e5f6a7", "12345", "xxxxxxxxxx")
		return tb
	}
	full := mk().width() // 36 + 5 + 10 + 10
	if out := draw(t, mk(), full); !strings.Contains(out, "d3e4f5a6-b7c8-4d9e-a0f1-b2c3d4e5f6a7") || !strings.Contains(out, "Count") {
		t.Errorf("at its own width %d the table changed:\n%s", full, out)
	}
	// One narrower: the id and header shorten, which is enough: nothing
	// is left out.
	out := draw(t, mk(), full-1)
	if strings.Contains(out, "d3e4f5a6-b7c8") || strings.Contains(out, "Count") || strings.Contains(out, "left out") || !strings.Contains(out, "xxxxxxxxxx") {
		t.Errorf("at %d: want short id and header, every column:\n%s", full-1, out)
	}
	// The abbreviated table is 8 + 5 + 10 wide plus borders: at that width
	// nothing goes, one less and Extra does.
	short := 8 + 5 + 10 + boxOverhead(3)
	if out := draw(t, mk(), short); strings.Contains(out, "left out") {
		t.Errorf("at %d a column went:\n%s", short, out)
	}
	if out := draw(t, mk(), short-1); !strings.Contains(out, "left out to fit") {
		t.Errorf("at %d no column went:\n%s", short-1, out)
	}
}

// TestPathBoundary: a path of minPathWidth columns stays in its cell; one
// longer goes to the footer. A Path cell in another column goes too.
func TestPathBoundary(t *testing.T) {
	stay := "/" + strings.Repeat("a", minPathWidth-1)
	move := "/" + strings.Repeat("b", minPathWidth)
	tb := &Table{Title: "P", Columns: []Column{{Name: "File", Kind: Path}, {Name: "Field"}, {Name: "Value", Kind: Prose}}}
	tb.AddRow(stay, "w", strings.Repeat("z ", 40))
	tb.AddRow(move, "path", "")
	tb.Rows[1][2] = Cell{Text: "/" + strings.Repeat("c", 30), Path: true}
	out := draw(t, tb, 70)
	if !strings.Contains(out, "| "+stay+" ") || !strings.Contains(out, "[1] "+move) || !strings.Contains(out, "[2] /"+strings.Repeat("c", 30)) {
		t.Errorf("paths:\n%s", out)
	}
}

// TestCutWidest: the widest text columns are cut first, evenly, to what
// the width leaves, down to 12 columns (or their header) while columns
// with a Drop rank remain, then to 8; a column of fixed text is not cut.
// When no cut makes the table fit, the last columns go, text first.
func TestCutWidest(t *testing.T) {
	tb := &Table{Title: "C", Columns: []Column{{Name: "Name", Kind: Text}, {Name: "Cause", Kind: Text}, {Name: "Fixed"}}}
	tb.AddRow(strings.Repeat("n", 30), strings.Repeat("c", 20), strings.Repeat("f", 12))
	out := draw(t, tb, 60) // 30 + 20 + 12 + 10 = 72: Name and Cause to 19
	if !strings.Contains(out, "| "+strings.Repeat("n", 18)+"… | "+strings.Repeat("c", 18)+"… | "+strings.Repeat("f", 12)+" |") {
		t.Errorf("cut:\n%s", out)
	}
	out = draw(t, tb, 40) // 9 + 9 + 12 + 10, the floors 8 + 8 + 12 + 10
	if !strings.Contains(out, "| nnnnnnnn… | cccccccc… | "+strings.Repeat("f", 12)+" |") || strings.Contains(out, "left out") {
		t.Errorf("hard floor:\n%s", out)
	}
	out = draw(t, tb, 20) // nothing but Name fits: text goes before figures
	if !strings.Contains(out, "| nnnnnnnnnnnnnnn… |") || !strings.Contains(strings.Join(strings.Fields(out), " "), "left out to fit 20 columns: Cause, Fixed") {
		t.Errorf("last resort:\n%s", out)
	}
}

func TestShortFormBoundaries(t *testing.T) {
	if got := baseName("/a"); got != "a" {
		t.Errorf(`baseName("/a") = %q`, got)
	}
	if got := cutCell("abcdefgh\nabcdefghi", 8); got != "abcdefgh\nabcdefg…" {
		t.Errorf("cutCell = %q", got)
	}
	if got := Wrap("abcd efgh\nabcd efghi", 9); got != "abcd efgh\nabcd\nefghi" {
		t.Errorf("Wrap = %q", got)
	}
	if got := Wrap("abcd efgh", 0); got != "abcd efgh" {
		t.Errorf("Wrap at 0 = %q", got)
	}
}

// TestNotesAndLegend: the note is the table's, then one line of its
// columns' notes, without an empty first line; the legend follows the table in both text
// formats; Cut at exactly the rows keeps them all.
func TestNotesAndLegend(t *testing.T) {
	tb := &Table{Title: "N", Legend: "the legend", Columns: []Column{{Name: "a", Note: "a: first"}, {Name: "b", Note: "b: second"}}}
	tb.AddRow("1", "2")
	if got := tb.NoteText(); got != "a: first; b: second" {
		t.Errorf("NoteText = %q", got)
	}
	tb.Note = "n"
	if got := tb.NoteText(); got != "n\na: first; b: second" {
		t.Errorf("NoteText = %q", got)
	}
	if tb.Cut(1); tb.More != 0 || len(tb.Rows) != 1 {
		t.Errorf("Cut at the row count: more %d", tb.More)
	}
	if out := draw(t, tb, 0); !strings.HasSuffix(out, "the legend\n\n") {
		t.Errorf("text:\n%q", out)
	}
	var b bytes.Buffer
	if err := WriteMarkdown(&b, tb); err != nil || !strings.HasSuffix(b.String(), "\nthe legend\n\n") || !strings.HasPrefix(b.String(), "### N\n\nn\na: first; b: second\n\n") {
		t.Errorf("markdown:\n%q", b.String())
	}
	one := &Table{Title: "T", Transpose: true, Columns: []Column{{Name: "x"}, {Name: "y"}}}
	one.AddRow("1")
	if s := one.Shown(); len(s.Rows) != 1 || s.Rows[0][0].Text != "x" {
		t.Errorf("a short row transposed: %+v", s.Rows)
	}
}

// A footer's path wider than the width breaks after its separators, and
// each line fits unless one element is wider.
func TestWrapPath(t *testing.T) {
	line := "[1] /Users/dev/project/webtech-monorepo/packages/app/src/pages/user/detail/index.vue"
	got := wrapPath(line, 40)
	for _, l := range strings.Split(got, "\n") {
		if twwidth.Width(l) > 40 {
			t.Errorf("line %q wider than 40", l)
		}
	}
	if strings.ReplaceAll(got, "\n    ", "") != line {
		t.Errorf("the path does not read whole: %q", got)
	}
	if wrapPath(line, 0) != line || wrapPath(line, 200) != line {
		t.Error("a path that fits was broken")
	}
	if got := wrapPath(`[2] C:\Users\me\x.md`, 12); !strings.Contains(got, "\n    ") {
		t.Errorf("a Windows path was not broken: %q", got)
	}
}

// Shortened, different session ids and names stay different: an id keeps
// its start (a prefix --session accepts); a name its end (a project's
// folder, a model's version) and its "└ " mark, then as much of its
// start as tells it from the others.
func TestCutDistinct(t *testing.T) {
	for _, c := range []struct {
		in     []string
		width  int
		prefix bool
		want   []string
	}{
		{[]string{"-home-ubuntu-alpha", "-home-ubuntu-beta", "-home-ubuntu-alpha"}, 10, false, []string{"…ntu-alpha", "…untu-beta", "…ntu-alpha"}},
		{[]string{"└ deepseek-v4-flash", "└ deepseek-reasoner", "-home-ubuntu-alpha"}, 12, false, []string{"└ …-v4-flash", "└ …-reasoner", "…buntu-alpha"}},
		{[]string{"alpha-one", "beta-one"}, 6, false, []string{"a…-one", "b…-one"}},
		{[]string{"short", "x"}, 10, false, []string{"short", "x"}},
		// Some differ at the start, some at the end: kept from both.
		{[]string{"1xxxxxx", "2xxxxxx", "xxxxxx1", "xxxxxx2"}, 5, false, []string{"1…xxx", "2…xxx", "x…xx1", "x…xx2"}},
		// Wide characters count two columns.
		{[]string{"-home-開発-デモ-one", "-home-開発-デモ-two"}, 12, false, []string{"…発-デモ-one", "…発-デモ-two"}},
		// Policy specs keep their policy's name and where they differ.
		{[]string{"observed", "claude-code:window=100000,pct=60", "claude-code:window=100000,pct=70", "keep-last-n:n=10"}, 19, false,
			[]string{"observed", "claude-code:…pct=60", "claude-code:…pct=70", "keep-last-n:n=10"}},
		{[]string{"agent-acompact-fa0be5", "agent-acompact-b9c21e", "general-tool-calls"}, 17, true, []string{"agent-acompact-f…", "agent-acompact-b…", "general-tool-cal…"}},
	} {
		got, ok := cutDistinct(c.in, c.width, c.prefix)
		if !ok || strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("cutDistinct(%q, %d, %v) = %q, %v; want %q", c.in, c.width, c.prefix, got, ok, c.want)
		}
		for _, g := range got {
			if w := twwidth.Width(g); w > c.width {
				t.Errorf("cutDistinct(%q, %d): %q is %d wide", c.in, c.width, g, w)
			}
		}
	}
	if _, ok := cutDistinct([]string{"aaaa1", "aaaa2"}, 1, false); ok {
		t.Error("width 1 cannot tell them apart")
	}
	if _, ok := cutDistinct([]string{"agent-acompact-fa0be5", "agent-acompact-b9c21e"}, 16, true); ok {
		t.Error("ids that share their first 15 characters told apart in 16")
	}
	// Session ids: a UUID's first 8 characters, unless two share them;
	// another id keeps its start.
	tb := &Table{Title: "S", Columns: []Column{{Name: "Session", Kind: ID}, {Name: "N", Right: true}}}
	tb.AddRow("mclaude_general-0001-aaaa-bbbb-cccc", "1")
	tb.AddRow("mclaude_general-0002-aaaa-bbbb-cccc", strings.Repeat("9", 40))
	tb.AddRow("d3e4f5a6-b7c8-4d9e-a0f1-b2c3d4e5f6a7", "2")
	out := draw(t, tb, 70)
	for _, want := range []string{"| mclaude_general-0001", "| mclaude_general-0002", "| d3e4f5a6 "} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q:\n%s", want, out)
		}
	}
}

// overviewLike is replay's overview at its widest: a 47-column project,
// ids, and figures that may go (Tokens, Compactions).
func overviewLike() *Table {
	tb := &Table{Title: "Sessions", Columns: []Column{
		{Name: "Date"}, {Name: "Project", Kind: Text, Distinct: true}, {Name: "Session", Kind: ID},
		{Name: "Calls", Right: true}, {Name: "Tokens", Right: true, Drop: 2}, {Name: "Cost", Right: true},
		{Name: "Compactions", Right: true, Short: "Compact.", Drop: 1}, {Name: "Cache hit", Right: true},
	}}
	tb.AddRow("2026-05-01", "-home-ubuntu-Documents-claude-backups-installers", "beee53d0-1d26-40b0-b0d2-e767a62574a3", "300", "28,337,759", "$43.30", "2", "95.6%")
	tb.AddRow("2026-05-02", "-home-ubuntu-Documents-claude-backups", "f5a50440-e018-4795-8fcb-23e42b068058", "164", "16,576,975", "$10.52", "0", "92.7%")
	tb.AddRow("2026-05-03", "-Users-liuhanwen-Desktop-project-webtech-monorepo", "general-tool-calls-with-comment-lines", "85", "3,390,000", "$3.39", "1", "96.6%")
	tb.AddRow("total", "", "3 sessions", "549", "48,304,734", "$57.21", "3", "94.9%")
	return tb
}

// TestTextBeforeFigures: a long name is shortened before a figure is
// left out: at 100 columns the overview keeps Tokens and Compactions and
// cuts the project (issue: both went while a 47-column project stayed).
func TestTextBeforeFigures(t *testing.T) {
	out := draw(t, overviewLike(), 100)
	for _, want := range []string{"Tokens", "Compact.", "28,337,759", "| …ps-installers ", "| general-tool… "} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q at 100 columns:\n%s", want, out)
		}
	}
	if strings.Contains(out, "left out") {
		t.Errorf("a column left out at 100 columns:\n%s", out)
	}
	// At 80 the figures go in their order, the names cut no further
	// than 12 columns while they can.
	out = draw(t, overviewLike(), 80)
	if !strings.Contains(strings.Join(strings.Fields(out), " "), "left out to fit 80 columns: Compact., Tokens") {
		t.Errorf("at 80 columns:\n%s", out)
	}
}

// TestKeepHead: a cut keeps what tells a row what it is: a model's row
// under its group keeps its "└", a project its end, a session id its
// start (--session takes a prefix), one that is not a UUID included.
func TestKeepHead(t *testing.T) {
	tb := &Table{Title: "Usage by project", Columns: []Column{
		{Name: "Project", Kind: Text, Distinct: true}, {Name: "Calls", Right: true}, {Name: "Cost", Right: true, Drop: 1},
	}, ShortText: strings.NewReplacer("claude-opus-4-1-20250805", "opus-4-1", "claude-sonnet-4-5-20250929", "sonnet-4-5").Replace}
	for _, p := range []string{"-home-ubuntu-Documents-claude-backups-installers", "-home-ubuntu-Documents-claude-backups"} {
		tb.AddRow(p, "300", "$43.30")
		tb.AddRow("└ claude-opus-4-1-20250805", "200", "$40.00")
		tb.AddRow("└ claude-sonnet-4-5-20250929", "100", "$3.30")
	}
	out := draw(t, tb, 40)
	for _, want := range []string{"| └ opus-4-1 ", "| └ sonnet-4-5 "} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q:\n%s", want, out)
		}
	}
	for _, want := range []string{"-installers |", "-backups |"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q:\n%s", want, out)
		}
	}
	ids := &Table{Title: "Sessions", Columns: []Column{{Name: "Session", Kind: ID}, {Name: "Cost", Right: true}}}
	ids.AddRow("general-tool-calls-with-comment-lines", strings.Repeat("9", 30))
	ids.AddRow("agent-acompact-fa0be5", "1")
	ids.AddRow("agent-acompact-b9c21e", "2")
	ids.AddRow("d3e4f5a6-b7c8-4d9e-a0f1-b2c3d4e5f6a7", "3")
	out = draw(t, ids, 55)
	for _, want := range []string{"| general-tool-ca", "| agent-acompact-f", "| agent-acompact-b", "| d3e4f5a6 "} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "| general- ") || strings.Contains(out, "| …") {
		t.Errorf("an id cut to its first 8 characters, or from its start:\n%s", out)
	}
}

// TestNeverWider: whatever the table, no line is wider than the width:
// names, ids, paths and prose are cut or wrapped, headers and figures
// wrap, and as a last resort columns go (never the first), each named.
func TestNeverWider(t *testing.T) {
	mk := func() *Table {
		tb := &Table{Title: "Budget /home/開発者/プロジェクト/とても長いディレクトリの名前/ci/the-budget-of-every-pull-request.json",
			Note:   "a note with a path /home/開発者/プロジェクト/とても長いディレクトリの名前/さらに深い場所/ that has no space",
			Legend: "一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十",
			Columns: []Column{
				{Name: "Session", Kind: ID}, {Name: "File", Kind: Path}, {Name: "Project", Kind: Text, Distinct: true},
				{Name: "Time", Kind: Time}, {Name: "Policy spec with a long name", Short: "claude-code:window=100000,pct=80", Right: true},
				{Name: "Reason", Kind: Prose}, {Name: "Extra", Right: true, Drop: 1}, {Name: "Spiral"},
			},
		}
		tb.AddRow("general-tool-calls-with-comment-lines", "/home/開発者/プロジェクト/とても長いディレクトリの名前/OKKI客户分析启动指令.md", "-home-開発者-プロジェクト-台帳システム-长期项目",
			"2026-05-19T09:04:56Z", "$123,456.78 (+1,234.5%)", "説明文にはスペースがないので途中で折り返す必要がある長い理由", "$0.10", "")
		tb.AddRow("d3e4f5a6-b7c8-4d9e-a0f1-b2c3d4e5f6a7", "src/main.go", "-home-dev-demo", "2026-05-19T10:00:00Z", "$1.00 (0.0%)", "short", "$1.00", "")
		return tb
	}
	for w := 40; w <= 130; w++ {
		out := draw(t, mk(), w)
		for _, l := range strings.Split(out, "\n") {
			if lw := twwidth.Width(l); lw > w {
				t.Errorf("width %d: %q is %d wide", w, l, lw)
			}
		}
		if !strings.Contains(out, "| Session") && !strings.Contains(out, "| Sess") {
			t.Errorf("width %d: the first column went:\n%s", w, out)
		}
	}
	out := draw(t, mk(), 60)
	if !strings.Contains(out, "Spiral (empty)") {
		t.Errorf("the empty column is not named among those left out:\n%s", out)
	}
}

// TestPathCell: a file's name too long for its cell is cut in its middle,
// keeping its footer number and its extension; a path short enough for
// the footer but not for the cut column goes to the footer too.
func TestPathCell(t *testing.T) {
	for _, c := range []struct {
		in   string
		w    int
		want string
	}{
		{"[4] recruitment_interview_invite.py", 20, "[4] recruitment_….py"},
		{"[7] OKKI客户分析启动指令.md", 16, "[7] OKKI客户…\u200b.md"},
		{"[12] x", 10, "[12] x"},
		{"[3] no-extension-at-all", 12, "[3] no-exte…"},
		{"plain_file_name.go", 10, "plain_….go"},
	} {
		want := strings.ReplaceAll(c.want, "\u200b", "")
		if got := cutPath(c.in, c.w); got != want || twwidth.Width(got) > c.w {
			t.Errorf("cutPath(%q, %d) = %q, want %q", c.in, c.w, got, want)
		}
	}
	tb := &Table{Title: "Duplicate reads", Columns: []Column{{Name: "File", Kind: Path}, {Name: "Reads", Right: true}, {Name: "Waste", Right: true}}}
	tb.AddRow("/home/dev/project/src/pages/user/detail/recruitment_interview_invite.py", "3", strings.Repeat("9", 20))
	tb.AddRow("src/components/Dialog.vue", "2", "1")
	out := draw(t, tb, 50)
	for _, want := range []string{"[1] /home/dev/project/src/pages/user/detail/", "[2] src/components/Dialog.vue", "| [1] recruit", ".py |", "| [2] Dialog.vue"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q:\n%s", want, out)
		}
	}
}

// TestWrapBreaks: a word wider than the width (a path, a sentence in a
// script without spaces) is broken within, so no line is wider.
func TestWrapBreaks(t *testing.T) {
	for _, c := range []struct {
		in   string
		w    int
		want string
	}{
		{"a /very/long/path/without/spaces end", 10, "a\n/very/long\n/path/with\nout/spaces\nend"},
		{"日本語の文章には空白がない", 10, "日本語の文\n章には空白\nがない"},
		{"fits", 10, "fits"},
	} {
		if got := Wrap(c.in, c.w); got != c.want {
			t.Errorf("Wrap(%q, %d) = %q, want %q", c.in, c.w, got, c.want)
		}
	}
}

// TestHardWraps: once every ranked column is gone, headers wrap at their
// spaces and a policy spec's separators, and figures at their spaces,
// before another column goes.
func TestHardWraps(t *testing.T) {
	tb := &Table{Title: "Sessions under each policy", Columns: []Column{{Name: "Session", Kind: ID}}}
	for _, p := range []string{"observed", "claude-code:window=100000,pct=80", "keep-last-n:n=10,polling=2"} {
		tb.Columns = append(tb.Columns, Column{Name: p, Right: true})
	}
	tb.AddRow("d3e4f5a6-b7c8-4d9e-a0f1-b2c3d4e5f6a7", "$5.16", "$6.21 (+20.4%)", "$16.22 (+214.2%)")
	out := draw(t, tb, 60)
	for _, want := range []string{"claude-code:", "window=", "(+214.2%)"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "left out") {
		t.Errorf("a column went:\n%s", out)
	}
}
