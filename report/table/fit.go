package table

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ctxlab/ctxlab/internal/numtext"

	"github.com/ctxlab/ctxlab/internal/claudecode"

	"github.com/olekukonko/tablewriter/pkg/twwarp"
	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

// DefaultWidth is the width text tables are fitted to when the output is
// not a terminal and neither COLUMNS nor --width says otherwise.
const DefaultWidth = 100

// minPathWidth: paths no wider than this stay in their cell.
const minPathWidth = 24

// fit shortens t to width columns (0: no limit) and returns the lines to
// print under it. Each step is taken only while the table is still too
// wide (docs/cli.md): long paths move to a numbered footer; headers take
// their short form and ids and times their abbreviated one; columns go in
// their Drop order; model ids lose "claude-" and their date; then the
// widest text column is cut with "…", or wrapped when it is prose. Widths
// are display widths as the terminal draws them (wide characters count
// two), measured as tablewriter measures them.
func (t *Table) fit(width int) (footer []string) {
	if width <= 0 || len(t.Rows) == 0 || t.width() <= width {
		return nil
	}
	footer = t.pathsToFooter()
	if t.width() <= width {
		return footer
	}
	t.abbreviate()
	if dropped := t.dropColumns(width); len(dropped) > 0 {
		footer = append(footer, "left out to fit "+fmt.Sprint(width)+" columns: "+strings.Join(dropped, ", ")+" (--wide shows every column)")
	}
	if t.width() > width {
		t.eachCell(Text, ShortModel)
	}
	t.cutWidest(width)
	return footer
}

// pathsToFooter moves long paths to numbered footer lines, the cell
// keeping the number and the file's base name.
func (t *Table) pathsToFooter() (footer []string) {
	refs := map[string]int{}
	for i, c := range t.Columns {
		for _, r := range t.Rows {
			p := r[i].Text
			if c.Kind != Path && !r[i].Path || twwidth.Width(p) <= minPathWidth {
				continue
			}
			n, ok := refs[p]
			if !ok {
				n = len(refs) + 1
				refs[p] = n
				footer = append(footer, fmt.Sprintf("[%d] %s", n, p))
			}
			r[i].Text = fmt.Sprintf("[%d] %s", n, baseName(p))
		}
	}
	return footer
}

// abbreviate gives headers their short form, session ids their first 8
// characters and times their form without year and zone.
func (t *Table) abbreviate() {
	for i, c := range t.Columns {
		if c.Short != "" {
			t.Columns[i].Name = c.Short
		}
	}
	for i, c := range t.Columns {
		if c.Kind == ID {
			t.shortenColumn(i, func(v string) string { return numtext.ShortID(v) })
		}
	}
	t.eachCell(Time, shortTime)
}

// shortenColumn rewrites column i's cells with short, unless that would
// make two different cells read alike: then each keeps the shortest form,
// at least as long as short gives, that tells them apart.
func (t *Table) shortenColumn(i int, short func(string) string) {
	values := make([]string, len(t.Rows))
	width := 0
	for r, row := range t.Rows {
		values[r] = row[i].Text
		width = max(width, twwidth.Width(short(values[r])))
	}
	out, ok := distinct(values, func(v string) string { return short(v) })
	if !ok {
		out, ok = shortenDistinct(values, width)
	}
	if !ok {
		return
	}
	for r := range t.Rows {
		t.Rows[r][i].Text = out[r]
	}
}

// ShortDistinct shortens each value with short, and where two different
// values would then read alike, lengthens each of them to the shortest
// prefix no other value shares (session ids as --session takes them:
// d3e4f5a6, or d3e4f5a6-b beside d3e4f5a6-f). Equal values stay equal.
func ShortDistinct(values []string, short func(string) string) []string {
	out := make([]string, len(values))
	for i, v := range values {
		r := []rune(v)
		n := min(len([]rune(short(v))), len(r)) // short gives a prefix
		for n < len(r) && slices.ContainsFunc(values, func(o string) bool { return o != v && strings.HasPrefix(o, string(r[:n])) }) {
			n++
		}
		out[i] = string(r[:n])
	}
	return out
}

// distinct applies f to values and reports whether different values stay
// different.
func distinct(values []string, f func(string) string) ([]string, bool) {
	out := make([]string, len(values))
	seen := map[string]string{}
	for r, v := range values {
		out[r] = f(v)
		if prev, ok := seen[out[r]]; ok && prev != v {
			return nil, false
		}
		seen[out[r]] = v
	}
	return out, true
}

// shortenDistinct cuts values to width, keeping different values
// different: cut at the end, else at the start, else in the middle, where
// they differ. ok is false when no such cut exists.
func shortenDistinct(values []string, width int) ([]string, bool) {
	if width < 2 {
		return nil, false
	}
	fit := func(v string) bool { return twwidth.Width(v) <= width }
	if out, ok := distinct(values, func(v string) string {
		if fit(v) {
			return v
		}
		return twwidth.Truncate(v, width-1) + "…"
	}); ok {
		return out, true
	}
	for head := 0; head < width-1; head++ {
		tail := width - 1 - head
		if out, ok := distinct(values, func(v string) string {
			if fit(v) {
				return v
			}
			r := []rune(v)
			return string(r[:min(head, len(r))]) + "…" + string(r[max(0, len(r)-tail):])
		}); ok {
			return out, true
		}
	}
	return nil, false
}

// eachCell rewrites the text of every cell of the columns of kind k.
func (t *Table) eachCell(k Kind, f func(string) string) {
	for i, c := range t.Columns {
		if c.Kind != k {
			continue
		}
		for _, r := range t.Rows {
			r[i].Text = f(r[i].Text)
		}
	}
}

// dropColumns leaves out columns in their Drop order while the table is
// wider than width, and returns their headers as shown.
func (t *Table) dropColumns(width int) (dropped []string) {
	var ranks []int
	for _, c := range t.Columns {
		if c.Drop > 0 {
			ranks = append(ranks, c.Drop)
		}
	}
	slices.Sort(ranks)
	for _, rank := range ranks {
		if t.width() <= width {
			break
		}
		i := slices.IndexFunc(t.Columns, func(c Column) bool { return c.Drop == rank })
		dropped = append(dropped, t.Columns[i].Name)
		t.RemoveColumn(i)
	}
	return dropped
}

// cutWidest cuts the widest text column (prose: wraps it), no narrower
// than its header or 8, until the table fits or nothing more is gained.
func (t *Table) cutWidest(width int) {
	ws, total := t.widths()
	for total > width {
		best := -1
		for i, c := range t.Columns {
			floor := max(8, cellWidth(c.Name))
			if (c.Kind == Text || c.Kind == Prose || c.Kind == ID) && ws[i] > floor && (best < 0 || ws[i] > ws[best]) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		c := t.Columns[best]
		to := max(8, cellWidth(c.Name), ws[best]-(total-width))
		switch {
		case c.Kind == ID || c.Distinct:
			values := make([]string, len(t.Rows))
			for r, row := range t.Rows {
				values[r] = row[best].Text
			}
			if out, ok := shortenDistinct(values, to); ok {
				for r := range t.Rows {
					t.Rows[r][best].Text = out[r]
				}
			}
		case c.Kind == Prose:
			for _, r := range t.Rows {
				r[best].Text = Wrap(r[best].Text, to)
			}
		default:
			for _, r := range t.Rows {
				r[best].Text = cutCell(r[best].Text, to)
			}
		}
		before := total
		if ws, total = t.widths(); total >= before {
			break // words longer than the width: nothing more to gain
		}
	}
}

// boxOverhead is the width a table of n columns spends on borders and
// padding: "| a | b |" is the cells plus 3n+1.
func boxOverhead(n int) int { return 3*n + 1 }

// cellWidth is the display width of a cell: its widest line.
func cellWidth(s string) int {
	w := 0
	for l := range strings.SplitSeq(s, "\n") {
		w = max(w, twwidth.Width(l))
	}
	return w
}

// widths returns each column's width and the table's.
func (t *Table) widths() ([]int, int) {
	ws := make([]int, len(t.Columns))
	for i, c := range t.Columns {
		ws[i] = cellWidth(c.Name)
	}
	for _, r := range t.Rows {
		for i, c := range r {
			if i < len(ws) {
				ws[i] = max(ws[i], cellWidth(c.Text))
			}
		}
	}
	total := boxOverhead(len(ws))
	for _, w := range ws {
		total += w
	}
	return ws, total
}

func (t *Table) width() int {
	_, w := t.widths()
	return w
}

// baseName is a path's last element, for Unix and Windows paths alike
// (transcripts recorded on Windows name files C:\…\x.md).
func baseName(p string) string {
	if i := strings.LastIndexAny(strings.TrimRight(p, `/\`), `/\`); i >= 0 {
		return strings.TrimRight(p[i+1:], `/\`)
	}
	return p
}

// cutCell cuts each line of a cell to width, marking the cut with "…".
func cutCell(s string, width int) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if twwidth.Width(l) > width {
			lines[i] = twwidth.Truncate(l, width-1) + "…"
		}
	}
	return strings.Join(lines, "\n")
}

// shortTime turns 2026-05-19T09:04:56Z into 05-19 09:04:56.
func shortTime(s string) string {
	if len(s) == 20 && s[10] == 'T' && s[19] == 'Z' {
		return s[5:10] + " " + s[11:19]
	}
	return s
}

// ShortModel shortens each Claude model id among the lines of a cell
// (claudecode.ShortModel: claude-haiku-4-5-20251001 is haiku-4-5).
func ShortModel(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = claudecode.ShortModel(l)
	}
	return strings.Join(lines, "\n")
}

// Wrap wraps each line of s to width (0: as it is).
func Wrap(s string, width int) string {
	if width <= 0 {
		return s
	}
	var out []string
	for l := range strings.SplitSeq(s, "\n") {
		if twwidth.Width(l) <= width {
			out = append(out, l)
			continue
		}
		lines, _ := twwarp.WrapString(l, width)
		out = append(out, lines...)
	}
	return strings.Join(out, "\n")
}
