package table

import (
	"fmt"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// WriteText draws t for a terminal: its title, note, an ASCII box fitted
// to width (0: no limit), and the lines fitting adds under it.
func WriteText(w io.Writer, t *Table, width int) error {
	fmt.Fprintf(w, "%s\n", Wrap(t.Title, width))
	t = t.Shown().clone()
	footer := t.fit(width) // before the note, which leaves out the notes of columns fit leaves out
	if note := t.NoteText(); note != "" {
		fmt.Fprintf(w, "%s\n", Wrap(note, width))
	}
	if done, err := writeEmpty(w, t, "  (%s)\n\n"); done {
		return err
	}
	if err := writeBox(w, t, renderer.NewBlueprint(tw.Rendition{Symbols: tw.NewSymbols(tw.StyleASCII)}), false); err != nil {
		return err
	}
	for _, f := range footer {
		if strings.HasPrefix(f, "[") {
			f = wrapPath(f, width)
		} else {
			f = Wrap(f, width)
		}
		fmt.Fprintln(w, f)
	}
	writeMore(w, t)
	if t.Legend != "" {
		fmt.Fprintln(w, Wrap(t.Legend, width))
	}
	_, err := fmt.Fprintln(w)
	return err
}

// WriteMarkdown draws t as a Markdown section: a heading, its note and a
// pipe table with every column.
func WriteMarkdown(w io.Writer, t *Table) error {
	fmt.Fprintf(w, "### %s\n\n", t.Title)
	t = t.Shown()
	if note := t.NoteText(); note != "" {
		fmt.Fprintf(w, "%s\n\n", note)
	}
	if done, err := writeEmpty(w, t, "_%s_\n\n"); done {
		return err
	}
	if err := writeBox(w, t, renderer.NewMarkdown(), true); err != nil {
		return err
	}
	writeMore(w, t)
	if t.Legend != "" {
		fmt.Fprintf(w, "\n%s\n", t.Legend)
	}
	_, err := fmt.Fprintln(w)
	return err
}

// writeEmpty prints what stands for a table without rows.
func writeEmpty(w io.Writer, t *Table, format string) (bool, error) {
	if len(t.Rows) > 0 {
		return false, nil
	}
	empty := t.Empty
	if empty == "" {
		empty = "none"
	}
	_, err := fmt.Fprintf(w, format, empty)
	return true, err
}

func writeMore(w io.Writer, t *Table) {
	if t.More > 0 {
		fmt.Fprintf(w, "… %d more (raise --top)\n", t.More)
	}
}

// writeBox draws the header and rows with tablewriter.
func writeBox(w io.Writer, t *Table, rend tw.Renderer, markdown bool) error {
	align := make([]tw.Align, len(t.Columns))
	header := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		align[i] = tw.AlignLeft
		if c.Right {
			align[i] = tw.AlignRight
		}
		header[i] = c.Name
	}
	tbl := tablewriter.NewTable(w,
		tablewriter.WithRenderer(rend),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithHeaderAlignmentConfig(tw.CellAlignment{PerColumn: align}),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: align}),
		tablewriter.WithTrimSpace(tw.Off),
	)
	tbl.Header(header)
	for _, r := range t.Rows {
		cells := Texts(r)
		if markdown {
			cells = markdownCells(cells)
		}
		if err := tbl.Append(cells); err != nil {
			return err
		}
	}
	return tbl.Render()
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

// clone copies t's columns and rows, which fitting rewrites.
func (t *Table) clone() *Table {
	c := *t
	c.Columns = append([]Column(nil), t.Columns...)
	c.Rows = make([][]Cell, len(t.Rows))
	for i, r := range t.Rows {
		c.Rows[i] = append([]Cell(nil), r...)
	}
	return &c
}

// wrapPath breaks a footer's path line wider than width after its path
// separators, the lines after the first indented: the path reads whole.
// A path element wider than a line is broken within.
func wrapPath(line string, width int) string {
	if width <= 0 || cellWidth(line) <= width {
		return line
	}
	const indent = "    "
	var out []string
	cur := ""
	for len(line) > 0 {
		i := strings.IndexAny(line, `/\`)
		piece := line
		if i >= 0 {
			piece = line[:i+1]
		}
		line = line[len(piece):]
		if cur != "" && cur != indent && cellWidth(cur+piece) > width {
			out = append(out, cur)
			cur = indent
		}
		cur += piece
		for cellWidth(cur) > width {
			h := headOf(cur, width)
			if len(strings.TrimLeft(h, " ")) == 0 {
				break // no room beside the indent
			}
			out, cur = append(out, h), indent+cur[len(h):]
		}
	}
	return strings.Join(append(out, cur), "\n")
}
