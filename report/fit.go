package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/olekukonko/tablewriter/pkg/twwarp"
	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

// DefaultWidth is the width text tables are fitted to when the output is
// not a terminal and neither COLUMNS nor --width says otherwise.
const DefaultWidth = 100

// Fitting a table to a width (the "table" format only; Markdown, CSV and
// JSON always carry every column). The steps, each taken only while the
// table is still too wide, documented in docs/cli.md:
//
//  1. long file paths move to a numbered footer, the cell keeping the
//     number and the file's base name;
//  2. headers take their short form (Table.Short) and cells their
//     abbreviated one: session ids their first 8 characters, times
//     without the year and zone (still UTC);
//  3. columns go in the table's Drop order, least useful first, and a
//     line under the table names them;
//  4. model ids in text columns lose "claude-" and their date
//     (claude-haiku-4-5-20251001 → haiku-4-5); then the widest text
//     column (names, causes, actions) is cut with "…", and prose (a
//     key-value table's values, the reasons a "Why" table gives) is
//     wrapped onto more lines: a reason cut short says nothing.
//
// Widths are display widths as the terminal draws them (East-Asian wide
// characters and emoji count two), measured as tablewriter measures them.

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
		ws[i] = cellWidth(c)
	}
	for _, r := range t.Rows {
		for i, c := range r {
			if i < len(ws) {
				ws[i] = max(ws[i], cellWidth(c))
			}
		}
	}
	total := boxOverhead(len(ws))
	for _, w := range ws {
		total += w
	}
	return ws, total
}

// column returns the index of the named column, or -1.
func (t *Table) column(name string) int { return slices.Index(t.Columns, name) }

// columnKind says how a column's cells may be shortened, from its header.
type columnKind int

const (
	kindFixed columnKind = iota // numbers, flags: kept as they are
	kindPath                    // file paths: to the footer
	kindID                      // session ids: first 8 characters
	kindTime                    // RFC 3339 UTC times: without year and zone
	kindText                    // names, causes: cut with "…" as a last resort
	kindWrap                    // prose (key-value values, reasons): wrapped
)

func kindOf(header string) columnKind {
	switch header {
	case "File", "Path":
		return kindPath
	case "Session":
		return kindID
	case "Time":
		return kindTime
	case "Value", "Reason":
		return kindWrap
	case "Name", "Thread", "Model", "Policy", "Limit", "Cause", "Actions", "Label", "Project", "Kind":
		return kindText
	}
	return kindFixed
}

// minPathWidth: paths no wider than this stay in their cell.
const minPathWidth = 24

// fit shortens t to width columns (0: no limit) by the steps above and
// returns the lines to print under it.
func (t *Table) fit(width int) (footer []string) {
	if width <= 0 || len(t.Rows) == 0 {
		return nil
	}
	_, total := t.widths()
	if total <= width {
		return nil
	}
	// 1. Paths to a footer.
	refs := map[string]int{}
	for i, h := range t.Columns {
		for _, r := range t.Rows {
			// A path column, or the value of a key-value table's path row.
			isPath := kindOf(h) == kindPath || (h == "Value" && i == 1 && r[0] == "path")
			p := r[i]
			if !isPath || twwidth.Width(p) <= minPathWidth {
				continue
			}
			n, ok := refs[p]
			if !ok {
				n = len(refs) + 1
				refs[p] = n
				footer = append(footer, fmt.Sprintf("[%d] %s", n, p))
			}
			r[i] = fmt.Sprintf("[%d] %s", n, baseName(p))
		}
	}
	if _, total = t.widths(); total <= width {
		return footer
	}
	// 2. Short headers and abbreviated cells.
	for i, h := range t.Columns {
		if s, ok := t.Short[h]; ok {
			t.Columns[i] = s
		}
		abbrev := map[columnKind]func(string) string{kindID: shortID, kindTime: shortTime}[kindOf(h)]
		if abbrev == nil {
			continue
		}
		for _, r := range t.Rows {
			r[i] = abbrev(r[i])
		}
	}
	// 3. Columns in the drop order (by their full or short header).
	var dropped []string
	for _, name := range t.Drop {
		if _, total = t.widths(); total <= width {
			break
		}
		i := t.column(name)
		if i < 0 {
			i = t.column(t.Short[name])
		}
		if i < 0 {
			continue
		}
		dropped = append(dropped, t.Columns[i])
		t.dropped = append(t.dropped, name)
		t.drop(i)
	}
	if len(dropped) > 0 {
		footer = append(footer, "left out to fit "+fmt.Sprint(width)+" columns: "+strings.Join(dropped, ", ")+" (--wide shows every column)")
	}
	// 4. Short model ids, then cut the widest text column, no narrower
	// than its header or 8.
	if _, total = t.widths(); total > width {
		for i, h := range t.Columns {
			if kindOf(h) != kindText {
				continue
			}
			for _, r := range t.Rows {
				r[i] = shortModel(r[i])
			}
		}
	}
	ws, total := t.widths()
	for total > width {
		best := -1
		for i, h := range t.Columns {
			floor := max(8, cellWidth(h))
			if k := kindOf(h); (k == kindText || k == kindWrap) && ws[i] > floor && (best < 0 || ws[i] > ws[best]) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		to := max(8, cellWidth(t.Columns[best]), ws[best]-(total-width))
		shorten := cutCell
		if kindOf(t.Columns[best]) == kindWrap {
			shorten = wrapText
		}
		for _, r := range t.Rows {
			r[best] = shorten(r[best], to)
		}
		before := total
		if ws, total = t.widths(); total >= before {
			break // words longer than the width: nothing more to gain
		}
	}
	return footer
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

// shortID is a session id's first 8 characters, as --session accepts.
func shortID(s string) string {
	if len(s) > 8 && strings.Count(s, "-") >= 4 {
		return s[:8]
	}
	return s
}

// shortTime turns 2026-05-19T09:04:56Z into 05-19 09:04:56.
func shortTime(s string) string {
	if len(s) == 20 && s[10] == 'T' && s[19] == 'Z' {
		return s[5:10] + " " + s[11:19]
	}
	return s
}

// shortModel turns claude-haiku-4-5-20251001 into haiku-4-5, each line of
// a cell.
func shortModel(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if m, ok := strings.CutPrefix(l, "claude-"); ok && isModelRest(m) {
			if n := len(m); n > 9 && m[n-9] == '-' && strings.Trim(m[n-8:], "0123456789") == "" {
				m = m[:n-9]
			}
			lines[i] = m
		}
	}
	return strings.Join(lines, "\n")
}

// isModelRest tells a model id's rest after "claude-" (opus-4-6, 3-5-haiku)
// from a policy name's (claude-code).
func isModelRest(m string) bool {
	for _, p := range []string{"opus", "sonnet", "haiku", "instant"} {
		if strings.HasPrefix(m, p) {
			return true
		}
	}
	return m != "" && m[0] >= '0' && m[0] <= '9'
}

// wrapText wraps each line of a note to width (0: as it is).
func wrapText(s string, width int) string {
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
