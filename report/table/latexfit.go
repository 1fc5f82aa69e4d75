package table

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ctxlab/ctxlab/internal/numtext"
)

// A LaTeX table is fitted to the text width of the standard classes:
// article, report and book set \textwidth to 345pt at 10pt (on letter
// and A4 paper alike), 360pt at 11pt and 390pt at 12pt. Their fonts grow
// faster than that width (\small is 9pt, 10pt, 10.95pt), so a table 320pt
// wide in a 10pt document is at most 360pt in an 11pt one and 389pt in a
// 12pt one: latexWidth fits all three.
const (
	latexWidth = 320.0 // points
	tabcolsep  = 6.0   // points on each side of a column (LaTeX's default)
	// minProse is the narrowest a wrapped prose column is set.
	minProse = 100.0
)

// wrapAfter are the characters a name may break after when it wraps: a
// policy spec's separators, a path's.
const wrapAfter = ":,+/"

// The font sizes a table is tried at, as cmWidths indexes them.
var latexSizes = []string{"", `\small`, `\footnotesize`}

// latexLayout is how a table is set: its font size (an index of
// latexSizes), the groups of columns set as one table each (a table too
// wide even at the smallest size is split into parts, each repeating the
// key columns), and the width of each column wrapped in a \parbox (0:
// not wrapped): prose at its spaces, a name (wrapName) at its
// punctuation too.
type latexLayout struct {
	size int
	// sep is the space on each side of a column: tabcolsep, or
	// narrowSep.
	sep      float64
	parts    [][]int
	prose    []float64
	wrapName []bool
	// numeric marks the columns aligned right: every cell a number.
	numeric []bool
	// dropped lists the columns left out, cut those whose cells were
	// shortened with "…".
	dropped, cut []string
	// whole is each cut column's cells as they were before the first cut,
	// which a later cut starts from again.
	whole map[int][]string
}

// fitLaTeX fits t (a copy it may change) to latexWidth: session ids are
// always their first 8 characters (longer where two would read alike:
// ShortDistinct);
// then, at the first of these levels at which the table fits, the font
// goes to \small, headers take their short form, the font goes to
// \footnotesize, the space between columns narrows from 12pt to 6pt,
// names (policy specs, projects) wrap at their punctuation, and prose
// wraps. A table too wide at every level loses a column, in their
// Drop order (the text formats' choice of what matters least), and is
// tried again from the first level. One too wide with no column left to
// lose keeps them all and is split, at the last level, into parts that
// repeat the key columns (the leading ones that are not numbers: what a
// row is about), and a part whose single column of figures does not fit
// beside the keys has its widest text cut with "…".
func fitLaTeX(t *Table) latexLayout {
	n := len(t.Columns)
	lay := latexLayout{numeric: make([]bool, n), prose: make([]float64, n), wrapName: make([]bool, n), sep: tabcolsep}
	names := make([]string, n)
	for i, c := range t.Columns {
		lay.numeric[i] = c.Right || numericColumn(t, i)
		names[i] = c.Name
		if c.Kind == ID {
			values := make([]string, len(t.Rows))
			for r, row := range t.Rows {
				values[r] = row[i].Text
			}
			for r, v := range ShortDistinct(values, numtext.ShortID) {
				t.Rows[r][i].Text = v
			}
		}
	}
	all := func() []int {
		out := make([]int, len(t.Columns))
		for i := range out {
			out[i] = i
		}
		return out
	}
	// level sets the layout of level k afresh.
	level := func(k int) {
		lay.size, lay.sep = 0, tabcolsep
		clear(lay.prose)
		clear(lay.wrapName)
		for i := range t.Columns {
			t.Columns[i].Name = names[i]
			if c := t.Columns[i]; k >= 2 && c.Short != "" {
				t.Columns[i].Name = c.Short
			}
		}
		switch {
		case k >= 3:
			lay.size = 2
		case k >= 1:
			lay.size = 1
		}
		if k >= 4 {
			lay.sep = narrowSep
		}
		if k >= 5 {
			lay.wrapNames(t)
		}
		if k >= 6 {
			lay.wrapProse(t)
		}
	}
	const levels = 7
	// What dropping would take away, restored when it is not enough.
	keep, keepNames, keepNumeric := t.clone(), slices.Clone(names), slices.Clone(lay.numeric)
	for {
		for k := range levels {
			level(k)
			if lay.width(t, all()) <= latexWidth {
				lay.parts = [][]int{all()}
				return lay
			}
		}
		i := lay.nextDrop(t)
		if i < 0 {
			break
		}
		lay.dropped = append(lay.dropped, t.Columns[i].Name)
		t.RemoveColumn(i)
		names = slices.Delete(names, i, i+1)
		lay.numeric = slices.Delete(lay.numeric, i, i+1)
		lay.prose = slices.Delete(lay.prose, i, i+1)
		lay.wrapName = slices.Delete(lay.wrapName, i, i+1)
	}
	// Too wide even without them: every column, in parts.
	if lay.dropped != nil {
		*t, names, lay.numeric, lay.dropped = *keep, keepNames, keepNumeric, nil
		lay.prose, lay.wrapName = make([]float64, len(t.Columns)), make([]bool, len(t.Columns))
	}
	level(levels - 1)
	lay.parts = lay.split(t)
	for _, part := range lay.parts {
		lay.cutText(t, part)
	}
	return lay
}

// narrowSep is the space on each side of a column once the table is set
// tight: \setlength{\tabcolsep}{3pt}.
const narrowSep = 3.0

// wrapNames lets each name column (text, not a number) wrap at its
// punctuation, in two lines or more: as wide as half its widest cell, its
// longest unbreakable piece or its header, whichever is widest.
func (lay *latexLayout) wrapNames(t *Table) {
	for i, c := range t.Columns {
		if c.Kind != Text || lay.numeric[i] {
			continue
		}
		limit := max(textWidth(c.Name, lay.size, false), (lay.colWidth(t, i)-2*lay.sep)/2)
		for _, r := range t.Rows {
			if i < len(r) {
				limit = max(limit, longestPiece(r[i].Text, lay.size))
			}
		}
		if lay.colWidth(t, i)-2*lay.sep > limit {
			lay.prose[i], lay.wrapName[i] = limit, true
		}
	}
}

// wrapProse lets each prose column wrap in what the other columns leave.
func (lay *latexLayout) wrapProse(t *Table) {
	for i, c := range t.Columns {
		if c.Kind != Prose {
			continue
		}
		rest := 0.0
		for j := range t.Columns {
			if j != i {
				rest += lay.colWidth(t, j)
			}
		}
		if w := latexWidth - rest - 2*lay.sep; w >= minProse && w < lay.colWidth(t, i)-2*lay.sep {
			lay.prose[i] = w
		}
	}
}

// nextDrop is the column to leave out next: the lowest Drop rank; -1
// when none may go.
func (lay *latexLayout) nextDrop(t *Table) int {
	best := -1
	for i, c := range t.Columns {
		if c.Drop > 0 && (best < 0 || c.Drop < t.Columns[best].Drop) {
			best = i
		}
	}
	return best
}

// keys are the leading columns that are not numbers (what a row is
// about: a policy, a session and its project, a metric), at most all but
// one; else the first column (a call's number).
func keys(t *Table) int {
	n := 0
	for n < len(t.Columns)-1 && !t.Columns[n].Right {
		n++
	}
	return max(n, min(1, len(t.Columns)-1))
}

// dropCaptionColumns leaves out the columns that only repeat the caption:
// every cell the same text, which the title names (a run's calls, each
// row naming the run's policy). It returns their headers.
func dropCaptionColumns(t *Table) []string {
	var out []string
	for i := 0; i < len(t.Columns) && len(t.Columns) > 1; {
		same := len(t.Rows) > 0
		v := ""
		for r, row := range t.Rows {
			if i >= len(row) || r > 0 && row[i].Text != v {
				same = false
				break
			}
			v = row[i].Text
		}
		if same && v != "" && strings.Contains(t.Title, v) {
			out = append(out, t.Columns[i].Name)
			t.RemoveColumn(i)
			continue
		}
		i++
	}
	return out
}

// longLines is the most lines a table float holds: at \small in a 12pt
// document a line is 13.6pt, and the text of a page of the standard
// classes at 12pt is about 530pt tall on letter paper, less the caption
// and the rules. A longer table is a longtable, which breaks across pages.
const longLines = 30

// lines is how many lines the table's rows take: one each, more where a
// wrapped cell breaks.
func (lay *latexLayout) lines(t *Table) int {
	n := 0
	for _, r := range t.Rows {
		most := 1
		for i := range r {
			if i < len(lay.prose) && lay.prose[i] > 0 {
				most = max(most, wrappedLines(r[i].Text, lay.prose[i], lay.size, lay.wrapName[i]))
			}
		}
		n += most
	}
	return n
}

// wrappedLines is how many lines s takes in a \parbox of width: its
// pieces (words, and for a name the pieces between its punctuation) set
// greedily.
func wrappedLines(s string, width float64, size int, name bool) int {
	lines, used := 1, 0.0
	rs := []rune(s)
	start := 0
	for k, r := range rs {
		if r != ' ' && (!name || !strings.ContainsRune(wrapAfter, r)) && k < len(rs)-1 {
			continue
		}
		w := textWidth(string(rs[start:k+1]), size, false)
		if name && r == ' ' {
			w += textWidth(" ", size, false)
		}
		if used > 0 && used+w > width {
			lines++
			used = 0
		}
		used += w
		start = k + 1
	}
	return lines
}

// split groups the columns after the keys into parts that fit beside
// them, in their order.
func (lay *latexLayout) split(t *Table) [][]int {
	k := keys(t)
	var parts [][]int
	var cur []int
	for i := k; i < len(t.Columns); i++ {
		next := append(append([]int(nil), cur...), i)
		if len(cur) > 0 && lay.width(t, withKeys(k, next)) > latexWidth {
			parts = append(parts, withKeys(k, cur))
			next = []int{i}
		}
		cur = next
	}
	if len(cur) > 0 || len(parts) == 0 {
		parts = append(parts, withKeys(k, cur))
	}
	return parts
}

func withKeys(k int, cols []int) []int {
	out := make([]int, 0, k+len(cols))
	for i := range k {
		out = append(out, i)
	}
	return append(out, cols...)
}

// cutText shortens the widest text column of a part, keeping different
// cells different, until the part fits or nothing more is gained.
func (lay *latexLayout) cutText(t *Table, part []int) {
	for lay.width(t, part) > latexWidth {
		best := lay.widestText(t, part)
		if best < 0 {
			return
		}
		values := lay.wholeText(t, best)
		longest := 0
		for _, v := range values {
			longest = max(longest, utf8.RuneCountInString(v))
		}
		if !lay.cutColumn(t, part, best, values, longest) {
			return
		}
		if lay.width(t, part) > latexWidth && longest <= 9 {
			return
		}
	}
}

// widestText is the widest column of part that cutText may shorten: text,
// an id or a fixed non-numeric column, not wrapped as prose; -1 if none.
func (lay *latexLayout) widestText(t *Table, part []int) int {
	best := -1
	for _, i := range part {
		c := t.Columns[i]
		if (c.Kind == Text || c.Kind == ID || c.Kind == Fixed && !lay.numeric[i]) && lay.prose[i] == 0 && (best < 0 || lay.colWidth(t, i) > lay.colWidth(t, best)) {
			best = i
		}
	}
	return best
}

// wholeText is column i's cells as they were before any cut, kept on the
// first cut so that each later one starts from the whole text.
func (lay *latexLayout) wholeText(t *Table, i int) []string {
	if values := lay.whole[i]; values != nil {
		return values
	}
	values := make([]string, len(t.Rows))
	for r, row := range t.Rows {
		values[r] = row[i].Text
	}
	if lay.whole == nil {
		lay.whole = map[int][]string{}
	}
	lay.whole[i] = values
	return values
}

// cutColumn cuts column best's values to the longest length below longest
// (and at least 8 characters) that keeps them different and makes up the
// part's excess width, or to 8; it reports whether it found a cut.
func (lay *latexLayout) cutColumn(t *Table, part []int, best int, values []string, longest int) bool {
	excess := lay.width(t, part) - latexWidth
	for n := longest - 1; n >= 8; n-- {
		out, ok := latexCut(values, n, t.Columns[best].Kind == ID)
		if !ok {
			continue
		}
		w := 0.0
		for _, v := range out {
			w = max(w, textWidth(v, lay.size, false))
		}
		if lay.colWidth(t, best)-2*lay.sep-w >= excess || n == 8 {
			for r := range t.Rows {
				t.Rows[r][best].Text = out[r]
			}
			if !slices.Contains(lay.cut, t.Columns[best].Name) {
				lay.cut = append(lay.cut, t.Columns[best].Name)
			}
			return true
		}
	}
	return false
}

// width is the typeset width of the columns cols: each column's widest
// cell and its padding.
func (lay *latexLayout) width(t *Table, cols []int) float64 {
	w := 0.0
	for _, i := range cols {
		w += lay.colWidth(t, i)
	}
	return w
}

// colWidth is column i's width with its padding: its widest cell, or its
// \parbox.
func (lay *latexLayout) colWidth(t *Table, i int) float64 {
	if lay.prose[i] > 0 {
		return lay.prose[i] + 2*lay.sep
	}
	w := textWidth(t.Columns[i].Name, lay.size, false)
	for _, r := range t.Rows {
		if i < len(r) {
			w = max(w, textWidth(r[i].Text, lay.size, lay.numeric[i]))
		}
	}
	return w + 2*lay.sep
}

// textWidth is the typeset width of a cell's text at a size, each
// character as Escape writes it (a number's minus as a minus sign, a
// character the fonts lack as "?"), without kerning: Computer Modern's
// kerns only narrow a pair, so the sum is an upper bound.
func textWidth(s string, size int, number bool) float64 {
	w := 0.0
	prev := ' '
	rs := []rune(s)
	for k, r := range rs {
		if number && r == '-' && strings.ContainsRune("[( ", prev) && k+1 < len(rs) && (rs[k+1] >= '0' && rs[k+1] <= '9' || rs[k+1] == '$') {
			r = '−'
		}
		if r == '\n' {
			r = ' '
		}
		cw, ok := cmWidths[r]
		if !ok {
			cw = cmWidths['?']
		}
		w += cw[size]
		prev = r
	}
	return w
}

// longestPiece is the width of the longest piece of s that a wrapped name
// cannot break: between spaces and after the characters of wrapAfter.
func longestPiece(s string, size int) float64 {
	longest, start := 0.0, 0
	rs := []rune(s)
	for k, r := range rs {
		if r == ' ' || strings.ContainsRune(wrapAfter, r) || k == len(rs)-1 {
			end := k + 1
			if r == ' ' {
				end = k
			}
			longest = max(longest, textWidth(string(rs[start:end]), size, false))
			start = k + 1
		}
	}
	return longest
}

// breakName sets a name's pieces (Escape's output of each), each in an
// \mbox so that it breaks nowhere else (not at its hyphens): a line may
// break at a space and after the characters of wrapAfter.
func breakName(s string) string {
	var b strings.Builder
	start := 0
	rs := []rune(s)
	for k, r := range rs {
		switch {
		case r == ' ':
			if k > start {
				b.WriteString(`\mbox{` + Escape(string(rs[start:k])) + `}`)
			}
			b.WriteString(" ")
			start = k + 1
		case strings.ContainsRune(wrapAfter, r) || k == len(rs)-1:
			b.WriteString(`\mbox{` + Escape(string(rs[start:k+1])) + `}`)
			if k < len(rs)-1 {
				b.WriteString(`\allowbreak{}`)
			}
			start = k + 1
		}
	}
	return b.String()
}

// quads are the em of the fonts at each size of latexSizes (\fontdimen6
// of cmr10, cmr9 and cmr8 as the 10pt classes load them): a \parbox is as
// wide in em as its text is, so that it grows with the font in an 11pt
// or 12pt document.
var quads = []float64{10.00002, 9.24994, 8.50012}

// ems writes a width in points at a size as em of that size's font.
func ems(w float64, size int) string {
	return strconv.FormatFloat(w/quads[size]+0.005, 'f', 2, 64) + "em"
}

// numericColumn reports whether every cell of column i that shows
// something holds a number: such a column is aligned right.
func numericColumn(t *Table, i int) bool {
	any := false
	for _, r := range t.Rows {
		if i >= len(r) || r[i].Text == "" {
			continue
		}
		if r[i].Number() == "" {
			return false
		}
		any = true
	}
	return any
}

// partCaption is the caption of part k of n.
func partCaption(title string, k, n int) string {
	if n < 2 {
		return title
	}
	return fmt.Sprintf("%s (%d of %d)", title, k+1, n)
}

// latexCut cuts values to at most width, different values staying
// different, as the text tables cut them (cutDistinct): an id keeps its
// start, as --session takes it, and where two differ only at the end (ids
// that are not UUIDs are never shortened to 8 characters) as much of its
// start as the end leaves room for; a name keeps its end.
func latexCut(values []string, width int, id bool) ([]string, bool) {
	if !id {
		return cutDistinct(values, width, false)
	}
	if out, ok := cutDistinct(values, width, true); ok {
		return out, true
	}
	for h := width - 2; h > 0; h-- {
		if out, ok := distinct(values, func(v string) string {
			if cellWidth(v) <= width {
				return v
			}
			return headOf(v, h) + "…" + tailOf(v, width-1-h)
		}); ok {
			return out, true
		}
	}
	return nil, false
}
