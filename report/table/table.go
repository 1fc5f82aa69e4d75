// Package table is ctxlab's table engine: a table of typed columns whose
// cells carry the text a person reads and the raw value a machine reads,
// drawn as a terminal box fitted to a width, as Markdown, or as CSV. It
// knows nothing of what the tables hold; the report views build them.
package table

import (
	"slices"
	"strconv"
	"strings"
)

// Kind says how a column's cells may be shortened when the table is
// fitted to a width.
type Kind uint8

const (
	Fixed Kind = iota // numbers, flags, ranges: kept as they are
	Path              // file paths: moved to a numbered footer
	ID                // session ids: their first 8 characters
	Time              // RFC 3339 UTC times: without the year and zone
	Text              // names, causes, actions: shortened (Table.ShortText), then cut with "…"
	Prose             // sentences (a key-value table's values, reasons): wrapped
)

// Column is one column's header and how it is drawn.
type Column struct {
	Name  string // header
	Kind  Kind
	Right bool // aligned right (numbers)
	// Short is the header's shorter form, taken when the table is
	// fitted to a width.
	Short string
	// CSV is the CSV header; Name lower-cased with underscores for spaces
	// when empty.
	CSV string
	// Drop is the column's place in the order a fitted table leaves
	// columns out (1 first); 0: never.
	Drop int
	// Note says what the column holds, printed while the column is shown:
	// the shown columns' notes are one line of the table's note.
	Note string
	// Distinct marks a column whose cells name what a row is about (a
	// project, a model): shortened to fit, different cells stay different,
	// cut where they differ. Session ids (ID) always are.
	Distinct bool
	// MachineOnly marks a column only CSV writes: a field that the formats
	// people read show in other cells instead (a lower bound's ≥).
	MachineOnly bool
}

// Cell is one value: Text as a person reads it (table, Markdown, HTML),
// Raw as a machine does (CSV, and HTML's sort keys).
type Cell struct {
	Text, Raw string
	// Path marks a file path in a column of another kind (a key-value
	// table's path row): it moves to the footer as a Path column's do.
	Path bool
	ref  bool // fitting moved its path to the footer
}

// Same is a cell that reads the same in every format.
func Same(s string) Cell { return Cell{Text: s, Raw: s} }

// Table is one report table, its cells already formatted.
type Table struct {
	Name    string // machine name: usage, tokens, duplicate_reads, …
	Title   string // human title
	Note    string // lines under the title (table, Markdown, HTML)
	Columns []Column
	Rows    [][]Cell
	// More counts the rows Cut left out.
	More int
	// Empty is printed instead of a table without rows; "none" when empty.
	Empty string
	// Legend is printed under the table (table and Markdown), e.g. what
	// its labels mean.
	Legend string
	// Transpose draws a one-row table (a summary) in the table, Markdown
	// and HTML formats as one Field/Value row per column, so that every
	// figure shows at a terminal's width; CSV keeps its columns.
	Transpose bool
	// KeyValue marks a record's fields, one per row (a summary, a run's
	// metrics), not a list: HTML never folds it, and its first column
	// (the field's name) should be Prose, wrapped rather than cut.
	KeyValue bool
	// ShortText is how fitting first shortens the cells of Text columns,
	// before it cuts them (report/view gives Claude model ids their short
	// form); nil: they are only cut.
	ShortText func(string) string
}

// Add appends a row whose cells read text and raw.
func (t *Table) Add(text, raw []string) {
	row := make([]Cell, len(text))
	for i := range text {
		row[i] = Cell{Text: text[i], Raw: raw[i]}
	}
	t.Rows = append(t.Rows, row)
}

// AddRow appends a row that reads the same in every format.
func (t *Table) AddRow(cells ...string) {
	row := make([]Cell, len(cells))
	for i, c := range cells {
		row[i] = Same(c)
	}
	t.Rows = append(t.Rows, row)
}

// Cut keeps the first top rows (0: all) and counts the rest in More.
func (t *Table) Cut(top int) *Table {
	if top > 0 && len(t.Rows) > top {
		t.More = len(t.Rows) - top
		t.Rows = t.Rows[:top]
	}
	return t
}

// Shown is the table the text and HTML formats draw: t without its
// MachineOnly columns, and for a one-row table marked Transpose, its row
// as Field/Value rows.
func (t *Table) Shown() *Table {
	if slices.ContainsFunc(t.Columns, func(c Column) bool { return c.MachineOnly }) {
		u := *t
		u.Columns, u.Rows = nil, make([][]Cell, len(t.Rows))
		for j, c := range t.Columns {
			if c.MachineOnly {
				continue
			}
			u.Columns = append(u.Columns, c)
			for i, r := range t.Rows {
				if j < len(r) {
					u.Rows[i] = append(u.Rows[i], r[j])
				}
			}
		}
		t = &u
	}
	if !t.Transpose || len(t.Rows) != 1 {
		return t
	}
	out := &Table{
		Name: t.Name, Title: t.Title, Note: t.NoteText(), Legend: t.Legend, KeyValue: true,
		Columns: []Column{{Name: "Field", Kind: Prose}, {Name: "Value", Kind: Prose, Right: true}},
	}
	for i, c := range t.Columns {
		if i < len(t.Rows[0]) {
			out.Rows = append(out.Rows, []Cell{Same(c.Name), t.Rows[0][i]})
		}
	}
	return out
}

// NoteText is the table's note and a line of the notes of the columns it
// shows, each once.
func (t *Table) NoteText() string {
	var notes []string
	for _, c := range t.Columns {
		if c.Note != "" && !slices.Contains(notes, c.Note) {
			notes = append(notes, c.Note)
		}
	}
	cols := strings.Join(notes, "; ")
	switch {
	case cols == "":
		return t.Note
	case t.Note == "":
		return cols
	}
	return t.Note + "\n" + cols
}

// AlignNumbers aligns right each column whose every cell that shows
// something holds a number, for tables whose columns vary with the input
// (a sweep's parameters).
func (t *Table) AlignNumbers() {
	for j := range t.Columns {
		numeric := len(t.Rows) > 0
		for _, r := range t.Rows {
			if j < len(r) && r[j].Text != "" && r[j].Number() == "" {
				numeric = false
			}
		}
		t.Columns[j].Right = numeric
	}
}

// Number is the number a cell holds, its Raw value when that is one; ""
// when it holds none.
func (c Cell) Number() string {
	if isNumber(c.Raw) {
		return c.Raw
	}
	return ""
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// Texts returns the text of each cell of a row.
func Texts(row []Cell) []string {
	out := make([]string, len(row))
	for i, c := range row {
		out[i] = c.Text
	}
	return out
}

// RemoveColumn removes column i from the header and every row.
func (t *Table) RemoveColumn(i int) {
	t.Columns = slices.Delete(t.Columns, i, i+1)
	for r := range t.Rows {
		if i < len(t.Rows[r]) {
			t.Rows[r] = slices.Delete(t.Rows[r], i, i+1)
		}
	}
}
