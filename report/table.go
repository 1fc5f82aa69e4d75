package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// Table is one report's rows, already formatted, ready for any renderer.
type Table struct {
	Name    string   // machine name: usage, tokens, duplicate_reads, …
	Title   string   // human title
	Note    string   // one line under the title (table/markdown only)
	Columns []string // header
	// CSVColumns, when set, is the CSV header instead of Columns made
	// lower case with underscores.
	CSVColumns []string
	Right      []bool // right-align column i (numbers)
	Rows       [][]string
	// Raw holds the unformatted values for CSV (plain numbers, no "$" or
	// thousands separators); nil means Rows are used.
	Raw [][]string
	// More counts rows cut by --top.
	More int
	// Empty is printed instead of a table without rows; "none" by default.
	Empty string
	// Short gives headers a shorter form, used when the table is fitted
	// to a width (see fit).
	Short map[string]string
	// Drop lists the columns (by header) a fitted table may leave out,
	// least useful first.
	Drop []string
	// Legend is printed under the table (table and Markdown), e.g. what
	// its labels mean.
	Legend string
	// ColumnNotes are lines of the note about one column each, printed
	// after Note while their column is shown: a fitted table that leaves
	// the column out leaves its line out too.
	ColumnNotes []ColumnNote
	// Transpose draws a one-row table (a summary) in the table, Markdown
	// and HTML formats as one Field/Value row per column, like the other
	// key-value tables, so that every figure shows at a terminal's width;
	// CSV and JSON keep its columns.
	Transpose bool

	dropped []string // the columns fit left out, by full header
}

// shown is the table the text and HTML formats draw: t itself, or for a
// one-row table marked Transpose, its row as Field/Value rows.
func (t *Table) shown() *Table {
	if !t.Transpose || len(t.Rows) != 1 {
		return t
	}
	out := &Table{
		Name: t.Name, Title: t.Title, Note: t.Note, Legend: t.Legend, ColumnNotes: t.ColumnNotes,
		Columns: []string{"Field", "Value"}, Right: []bool{false, true},
	}
	for i, c := range t.Columns {
		if i < len(t.Rows[0]) {
			out.addRow([]string{c, t.Rows[0][i]})
		}
	}
	return out
}

// ColumnNote is a line of a table's note about one of its columns (by its
// full header).
type ColumnNote struct{ Column, Text string }

// note returns the table's note with the lines of the columns it shows.
func (t *Table) note() string {
	lines := []string{}
	if t.Note != "" {
		lines = append(lines, t.Note)
	}
	for _, cn := range t.ColumnNotes {
		if !slices.Contains(t.dropped, cn.Column) {
			lines = append(lines, cn.Text)
		}
	}
	return strings.Join(lines, "\n")
}

func (t *Table) add(pretty, raw []string) {
	t.Rows = append(t.Rows, pretty)
	t.Raw = append(t.Raw, raw)
}

// drop removes columns from the header and every row.
func (t *Table) drop(cols ...int) {
	keep := func(i int) bool { return !slices.Contains(cols, i) }
	filter := func(row []string) []string {
		if row == nil {
			return nil
		}
		var out []string
		for i, c := range row {
			if keep(i) {
				out = append(out, c)
			}
		}
		return out
	}
	var right []bool
	for i, r := range t.Right {
		if keep(i) {
			right = append(right, r)
		}
	}
	t.Right = right
	t.Columns, t.CSVColumns = filter(t.Columns), filter(t.CSVColumns)
	for i := range t.Rows {
		t.Rows[i] = filter(t.Rows[i])
	}
	for i := range t.Raw {
		t.Raw[i] = filter(t.Raw[i])
	}
}

// addRow adds a row that is the same in every format.
func (t *Table) addRow(row []string) { t.add(row, row) }

// renderText draws t with tablewriter: an ASCII box for "table", a pipe
// table for "markdown".
// A table drawn for a terminal is fitted to width (0: no limit).
func renderText(w io.Writer, t *Table, markdown bool, width int) error {
	if markdown {
		fmt.Fprintf(w, "### %s\n\n", t.Title)
	} else {
		fmt.Fprintf(w, "%s\n", t.Title)
	}
	t = t.shown()
	var footer []string
	if !markdown {
		footer = t.fit(width) // before the note, which leaves out the notes of columns fit leaves out
	}
	if note := t.note(); note != "" {
		if markdown {
			fmt.Fprintf(w, "%s\n\n", note)
		} else {
			fmt.Fprintf(w, "%s\n", wrapText(note, width))
		}
	}
	if len(t.Rows) == 0 {
		empty := t.Empty
		if empty == "" {
			empty = "none"
		}
		if markdown {
			_, err := fmt.Fprintf(w, "_%s_\n\n", empty)
			return err
		}
		_, err := fmt.Fprintf(w, "  (%s)\n\n", empty)
		return err
	}
	align := make([]tw.Align, len(t.Columns))
	for i := range align {
		align[i] = tw.AlignLeft
		if i < len(t.Right) && t.Right[i] {
			align[i] = tw.AlignRight
		}
	}
	var rend tw.Renderer
	if markdown {
		rend = renderer.NewMarkdown()
	} else {
		rend = renderer.NewBlueprint(tw.Rendition{Symbols: tw.NewSymbols(tw.StyleASCII)})
	}
	tbl := tablewriter.NewTable(w,
		tablewriter.WithRenderer(rend),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithHeaderAlignmentConfig(tw.CellAlignment{PerColumn: align}),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: align}),
		tablewriter.WithTrimSpace(tw.Off),
	)
	tbl.Header(t.Columns)
	for _, r := range t.Rows {
		if markdown {
			r = markdownCells(r)
		}
		if err := tbl.Append(r); err != nil {
			return err
		}
	}
	if err := tbl.Render(); err != nil {
		return err
	}
	for _, f := range footer {
		if !strings.HasPrefix(f, "[") { // a path is never broken
			f = wrapText(f, width)
		}
		fmt.Fprintln(w, f)
	}
	if t.More > 0 {
		fmt.Fprintf(w, "… %d more (raise --top)\n", t.More)
	}
	if t.Legend != "" {
		if markdown {
			fmt.Fprintf(w, "\n%s\n", t.Legend)
		} else {
			fmt.Fprintln(w, wrapText(t.Legend, width))
		}
	}
	_, err := fmt.Fprintln(w)
	return err
}

// markdownCells keeps a multi-line cell in one table row, and a "|" in a
// cell from ending it.
func markdownCells(r []string) []string {
	out := make([]string, len(r))
	for i, c := range r {
		out[i] = strings.ReplaceAll(strings.ReplaceAll(c, "|", `\|`), "\n", "<br>")
	}
	return out
}

// writeCSVTable writes t alone as a CSV stream: its header, then its rows.
func writeCSVTable(w io.Writer, t *Table) error {
	cw := csv.NewWriter(w)
	if err := csvTable(cw, "", t, true); err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

// csvTable writes t alone: a header naming its columns (after scope when
// scope is set), then its rows.
func csvTable(cw *csv.Writer, scope string, t *Table, header bool) error {
	if header {
		cols := t.CSVColumns
		if cols == nil {
			cols = csvHeader(t.Columns)
		}
		if scope != "" {
			cols = append([]string{"scope"}, cols...)
		}
		if err := cw.Write(cols); err != nil {
			return err
		}
	}
	rows := t.Raw
	if rows == nil {
		rows = t.Rows
	}
	for _, r := range rows {
		if scope != "" {
			r = append([]string{scope}, r...)
		}
		if err := cw.Write(r); err != nil {
			return err
		}
	}
	return nil
}

func csvHeader(cols []string) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = strings.ReplaceAll(strings.ToLower(c), " ", "_")
	}
	return out
}

func raw[T ~int | ~int64](n T) string { return strconv.FormatInt(int64(n), 10) }

func usd(x float64) string {
	if x != 0 && x < 0.01 && x > -0.01 {
		return fmt.Sprintf("$%.4f", x)
	}
	return fmt.Sprintf("$%.2f", x)
}

func rawUSD(x float64) string { return strconv.FormatFloat(x, 'f', 6, 64) }

func pct(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) + "%" }
