package table

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/ctxlab/ctxlab/internal/numtext"

	"github.com/olekukonko/tablewriter/pkg/twwarp"
	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

// DefaultWidth is the width text tables are fitted to when the output is
// not a terminal and neither COLUMNS nor --width says otherwise.
const DefaultWidth = 100

// minPathWidth: paths no wider than this stay in their cell, unless the
// column is cut narrower.
const minPathWidth = 24

// floors are how narrow fitting makes a column of each kind, no narrower
// than its header: soft before any column is left out, hard once every
// column with a Drop rank is (docs/cli.md, "Fitting the terminal").
var floors = [2]map[Kind]int{
	soft: {Text: 12, ID: 12, Path: 16, Prose: 24},
	hard: {Text: 8, ID: 8, Path: 12, Prose: 12},
}

// level says which floors a fitting step cuts columns to.
type level int

const (
	soft level = iota
	hard
)

// fit shortens t to width columns (0: no limit) and returns the lines to
// print under it. Each step is taken only while the table is still too
// wide (docs/cli.md): long paths move to a numbered footer; headers take
// their short form, ids and times theirs; model ids theirs; a column
// without a value goes; text is cut (prose wrapped) down to its soft floor; columns
// go in their Drop order; text is cut to its hard floor and headers
// wrapped; then, as a last resort, the other columns from the right (never
// the first). A line under the table names every column left out. Widths
// are display widths as the terminal draws them (wide characters count
// two), measured as tablewriter measures them.
func (t *Table) fit(width int) (footer []string) {
	if width <= 0 || len(t.Rows) == 0 || t.width() <= width {
		return nil
	}
	f := &fitter{t: t, width: width, refs: map[string]int{}}
	f.toFooter(-1, -1, minPathWidth)
	if t.width() <= width {
		return f.footer
	}
	t.abbreviate()
	if t.width() > width && t.ShortText != nil {
		t.shortText()
	}
	var left []string
	if t.width() > width {
		left = t.dropEmpty()
	}
	if t.width() > width {
		left = append(left, f.fitColumns()...)
	}
	if len(left) > 0 {
		f.footer = append(f.footer, "left out to fit "+fmt.Sprint(width)+" columns: "+strings.Join(left, ", ")+" (--wide shows every column)")
	}
	return f.footer
}

// fitter fits one table: the footer of paths it moved out of their cells.
type fitter struct {
	t      *Table
	width  int
	footer []string
	refs   map[string]int // a path's number in the footer
	orig   [][]string     // each column's cells before shrink cut them
}

// toFooter moves the paths wider than limit out of their cells (column
// col and row row, or every one with -1) to numbered footer lines, the
// cell keeping the number and the file's base name.
func (f *fitter) toFooter(col, row, limit int) {
	for i, c := range f.t.Columns {
		if col >= 0 && i != col {
			continue
		}
		for r := range f.t.Rows {
			cell := &f.t.Rows[r][i]
			if row >= 0 && r != row || c.Kind != Path && !cell.Path || cell.ref || twwidth.Width(cell.Text) <= limit {
				continue
			}
			p := cell.Text
			n, ok := f.refs[p]
			if !ok {
				n = len(f.refs) + 1
				f.refs[p] = n
				f.footer = append(f.footer, fmt.Sprintf("[%d] %s", n, p))
			}
			cell.Text, cell.ref = fmt.Sprintf("[%d] %s", n, baseName(p)), true
		}
	}
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
		switch c.Kind {
		case ID:
			t.shortenColumn(i, numtext.ShortID)
		case Time:
			t.eachCell(i, shortTime)
		}
	}
}

// shortText gives the cells of Text columns their short form
// (ShortText).
func (t *Table) shortText() {
	for i, c := range t.Columns {
		switch {
		case c.Kind == Text && c.Distinct:
			t.shortenColumn(i, t.ShortText)
		case c.Kind == Text:
			t.eachCell(i, t.ShortText)
		}
	}
}

// shortenColumn rewrites column i's cells with short, unless that would
// make two different cells read alike: then they stay as they are.
func (t *Table) shortenColumn(i int, short func(string) string) {
	if out, ok := distinct(t.values(i), short); ok {
		for r := range t.Rows {
			t.Rows[r][i].Text = out[r]
		}
	}
}

// eachCell rewrites the text of every cell of column i.
func (t *Table) eachCell(i int, f func(string) string) {
	for _, r := range t.Rows {
		r[i].Text = f(r[i].Text)
	}
}

func (t *Table) values(i int) []string {
	out := make([]string, len(t.Rows))
	for r, row := range t.Rows {
		out[r] = row[i].Text
	}
	return out
}

// dropEmpty leaves out the columns (but the first) whose every cell is
// empty, and returns their headers marked "(empty)".
func (t *Table) dropEmpty() (left []string) {
	for i := len(t.Columns) - 1; i > 0; i-- {
		if !slices.ContainsFunc(t.Rows, func(r []Cell) bool { return r[i].Text != "" }) {
			left = append(left, t.Columns[i].Name+" (empty)")
			t.RemoveColumn(i)
		}
	}
	slices.Reverse(left)
	return left
}

// dropOrder is the order columns are left out in: by their Drop rank,
// then (the last resort) the others from the right, text before figures;
// the first column, which names the row, never. declared counts the
// ranked ones.
func (t *Table) dropOrder() (order []int, declared int) {
	for i, c := range t.Columns {
		if i > 0 && c.Drop > 0 {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return t.Columns[a].Drop - t.Columns[b].Drop })
	declared = len(order)
	for _, figures := range []bool{false, true} {
		for i := len(t.Columns) - 1; i > 0; i-- {
			if k := t.Columns[i].Kind; t.Columns[i].Drop == 0 && (k == Fixed || k == Time) == figures {
				order = append(order, i)
			}
		}
	}
	return order, declared
}

// fitColumns finds the fewest columns to leave out, in their order, for
// the rest to fit with their text at the soft floors (while ranked
// columns remain) or the hard ones, cuts the rest to fit, and returns the
// headers of the columns left out.
func (f *fitter) fitColumns() (left []string) {
	t := f.t
	order, declared := t.dropOrder()
	var floors [2][]int // by level and column: leaving a column out changes no other's
	for _, lv := range []level{soft, hard} {
		for i := range t.Columns {
			floors[lv] = append(floors[lv], t.floor(i, lv))
		}
	}
	for k := 0; k <= len(order); k++ {
		levels := []level{soft}
		if k >= declared {
			levels = append(levels, hard)
		}
		for _, lv := range levels {
			least := boxOverhead(len(t.Columns) - k)
			for i, w := range floors[lv] {
				if !slices.Contains(order[:k], i) {
					least += w
				}
			}
			if least > f.width {
				continue
			}
			left = t.leaveOut(t.putBack(order[:k], f.width))
			f.shrink(lv)
			f.cutAll() // in case a cut fell short of its target
			return left
		}
	}
	left = t.leaveOut(order)
	f.shrink(hard)
	f.cutAll()
	return left
}

// putBack returns the columns of dropped (a prefix of the drop order,
// whose last column had to go for the rest to fit in width) without
// those that fit back whole in the room the table leaves at its natural
// widths: a narrow column ranked before a wide one stays when the wide
// one's going makes room for it, the most useful (the latest in the
// order) first. No text is cut further for it.
func (t *Table) putBack(dropped []int, width int) []int {
	used := boxOverhead(0)
	for i := range t.Columns {
		if !slices.Contains(dropped, i) {
			used += t.natural(i) + boxOverhead(1) - boxOverhead(0)
		}
	}
	out := slices.Clone(dropped)
	for j := len(out) - 2; j >= 0; j-- {
		if w := used + t.natural(out[j]) + boxOverhead(1) - boxOverhead(0); w <= width {
			used = w
			out = slices.Delete(out, j, j+1)
		}
	}
	return out
}

// leaveOut removes the columns cols (indexes into t.Columns) and returns
// their headers in that order.
func (t *Table) leaveOut(cols []int) []string {
	names := make([]string, len(cols))
	for k, i := range cols {
		names[k] = t.Columns[i].Name
	}
	desc := slices.Sorted(slices.Values(cols))
	slices.Reverse(desc) // from the right, so that the indexes hold
	for _, i := range desc {
		t.RemoveColumn(i)
	}
	return names
}

// natural is column i's width as it stands: its header's and its widest
// cell's.
func (t *Table) natural(i int) int {
	w := cellWidth(t.Columns[i].Name)
	for _, r := range t.Rows {
		w = max(w, cellWidth(r[i].Text))
	}
	return w
}

// cellsWidth is column i's widest cell.
func (t *Table) cellsWidth(i int) int {
	w := 0
	for _, r := range t.Rows {
		w = max(w, cellWidth(r[i].Text))
	}
	return w
}

// floor is how narrow column i may be cut at lv: its kind's floor, no
// narrower than its header (at the hard level, the header's widest word:
// it wraps), nor than different ids and names can be cut to and stay
// different. Fixed columns and times keep their cells whole, wrapped at
// their spaces at the hard level.
func (t *Table) floor(i int, lv level) int {
	c := t.Columns[i]
	nat := t.natural(i)
	head := cellWidth(c.Name)
	if lv == hard {
		head = headerFloor(c.Name)
	}
	kindFloor, cut := floors[lv][c.Kind]
	switch {
	case !cut && lv == hard: // figures wrap at their spaces: "$6.21 (+20.4%)"
		w := head
		for _, r := range t.Rows {
			w = max(w, wordsWidth(r[i].Text))
		}
		return w
	case !cut:
		return max(head, t.cellsWidth(i))
	}
	w := min(nat, max(kindFloor, head))
	if c.Kind == ID || c.Kind == Text && c.Distinct {
		values := t.values(i)
		for w < nat {
			if _, ok := cutDistinct(values, w, c.Kind == ID); ok {
				break
			}
			w++
		}
	}
	return w
}

// shrink cuts the columns to fit f.width, none below its floor at lv,
// in passes: first what reads whole on more lines (prose wrapped; at the
// hard level, headers wrapped too), then what loses characters (names,
// ids, paths), then (at the hard level) figures wrapped at their spaces,
// which makes every row taller. Within a pass the widest columns are cut
// first, evenly: to the one width that makes the table fit.
func (f *fitter) shrink(lv level) {
	t := f.t
	n := len(t.Columns)
	f.orig = make([][]string, n)
	heads := make([]string, n)
	fl := make([]int, n)
	for i := range t.Columns {
		f.orig[i], heads[i], fl[i] = t.values(i), t.Columns[i].Name, t.floor(i, lv)
	}
	fixed := func(k Kind) bool { return k == Fixed || k == Time }
	passes := []func(i int) int{
		func(i int) int { // prose; headers
			switch c := t.Columns[i]; {
			case c.Kind == Prose:
				return fl[i]
			case fixed(c.Kind) && lv == hard:
				return max(headerFloor(heads[i]), t.cellsWidth(i))
			}
			return -1
		},
		func(i int) int { // names, ids, paths
			if k := t.Columns[i].Kind; k == Text || k == ID || k == Path {
				return fl[i]
			}
			return -1
		},
		func(i int) int { // figures
			if fixed(t.Columns[i].Kind) {
				return fl[i]
			}
			return -1
		},
	}
	nat := make([]int, n)
	for i := range t.Columns {
		nat[i] = t.natural(i)
	}
	for _, floor := range passes {
		total := boxOverhead(n)
		for _, w := range nat {
			total += w
		}
		if total <= f.width {
			return
		}
		// The widest first, evenly: the largest cap such that cutting
		// this pass's columns to it (none below its floor) fits.
		cut := func(cap int) int {
			s := 0
			for i, w := range nat {
				if fi := floor(i); fi >= 0 && w > max(cap, fi) {
					s += w - max(cap, fi)
				}
			}
			return s
		}
		excess := total - f.width
		lo, hi := 0, slices.Max(nat)
		for lo < hi { // the largest cap that cuts at least excess, or 0
			mid := (lo + hi + 1) / 2
			if cut(mid) >= excess {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		spare := cut(lo) - excess // what the cap cuts beyond the excess: given back, left first
		for i, w := range nat {
			fi := floor(i)
			if fi < 0 || w <= max(lo, fi) {
				continue
			}
			to := max(lo, fi)
			if give := min(spare, w-to); to == lo && give > 0 {
				to += give
				spare -= give
			}
			if to < w {
				t.Columns[i].Name = heads[i]
				f.cutColumn(i, to, fi)
				nat[i] = t.natural(i)
			}
		}
	}
}

// cutColumn cuts column i, from its cells as they were before shrink, to
// width w (no narrower than floor, which different names need): names and
// ids where they stay different, paths keeping their number and
// extension, prose wrapped, other text cut with "…", figures wrapped at
// their spaces; a header wider than w is wrapped.
func (f *fitter) cutColumn(i, w, floor int) {
	t := f.t
	c := &t.Columns[i]
	if cellWidth(c.Name) > w {
		c.Name = wrapHeader(c.Name, w)
	}
	orig := f.orig[i]
	set := func(g func(string) string) {
		for r, row := range t.Rows {
			row[i].Text = g(orig[r])
		}
	}
	switch {
	case c.Kind == ID || c.Kind == Text && c.Distinct:
		for ; w >= floor; w-- {
			if out, ok := cutDistinct(orig, w, c.Kind == ID); ok {
				for r, row := range t.Rows {
					row[i].Text = out[r]
				}
				return
			}
		}
	case c.Kind == Path || c.Kind == Prose:
		for r, row := range t.Rows {
			cell := &row[i]
			if !cell.ref && (c.Kind == Path || cell.Path) && cellWidth(orig[r]) > w { // too wide for the cell: to the footer
				cell.Text = orig[r]
				f.toFooter(i, r, w)
				orig[r] = cell.Text
			}
			if c.Kind == Path || cell.ref {
				cell.Text = cutPath(orig[r], w)
			} else {
				cell.Text = Wrap(orig[r], w)
			}
		}
	case c.Kind == Text:
		set(func(s string) string { return cutCell(s, w) })
	default:
		set(func(s string) string { return Wrap(s, w) })
	}
}

// wordsWidth is the width of a cell's widest word.
func wordsWidth(s string) int {
	w := 0
	for _, f := range strings.Fields(s) {
		w = max(w, twwidth.Width(f))
	}
	return w
}

// cutAll is the end of every fitting: while the table is still too wide,
// its widest column's cells and header are cut, whatever their kind, so
// that no line is wider than the width.
func (f *fitter) cutAll() {
	t := f.t
	for {
		total := t.width()
		if total <= f.width {
			return
		}
		best, bw := -1, 0
		for i := range t.Columns {
			if w := t.natural(i); w > bw {
				best, bw = i, w
			}
		}
		if bw <= 1 {
			return
		}
		w := max(1, bw-(total-f.width))
		c := &t.Columns[best]
		c.Name = cutCell(c.Name, w)
		if c.Kind == Prose {
			t.eachCell(best, func(s string) string { return Wrap(s, w) })
		} else {
			t.eachCell(best, func(s string) string { return cutCell(s, w) })
		}
	}
}

// cutDistinct cuts values to at most width, marking each cut with "…",
// so that different values stay different (equal ones stay equal). An id
// (prefix) keeps its start, which --session accepts as a prefix. A name
// keeps its end, where a project's folder and a model's version are,
// and the "└ " that marks a model's row under its group; else as much of
// its start as tells the names apart. ok is false when no cut does.
func cutDistinct(values []string, width int, prefix bool) ([]string, bool) {
	if width < 2 {
		return nil, false
	}
	cut := func(h int) func(string) string {
		return func(v string) string {
			if cellWidth(v) <= width {
				return v
			}
			mark, rest := "", v
			if r, ok := strings.CutPrefix(v, "└ "); ok && width > 4 {
				mark, rest = "└ ", r
			}
			room := width - twwidth.Width(mark)
			hh := min(h, room-1)
			return mark + headOf(rest, hh) + "…" + tailOf(rest, room-1-hh)
		}
	}
	if prefix {
		return distinct(values, cut(width-1))
	}
	// A policy spec keeps its policy's name, up to the colon, and the end
	// where its settings differ: "claude-code:…pct=60".
	if h := specHead(values); h > 0 && h < width-1 {
		if out, ok := distinct(values, cut(h)); ok {
			return out, true
		}
	}
	for h := 0; h < width; h++ {
		if out, ok := distinct(values, cut(h)); ok {
			return out, true
		}
	}
	return nil, false
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

// specHead is the width of the longest policy name before a colon among
// values that name policies with parameters ("claude-code:pct=60"), or
// 0 when none does.
func specHead(values []string) int {
	h := 0
	for _, v := range values {
		if name, _, ok := strings.Cut(v, ":"); ok && name != "" && !strings.ContainsAny(name, " /\\") {
			h = max(h, twwidth.Width(name)+1)
		}
	}
	return h
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

// headOf is the longest start of s at most w columns wide.
func headOf(s string, w int) string {
	n := 0
	for i, r := range s {
		if n += twwidth.Width(string(r)); n > w {
			return s[:i]
		}
	}
	return s
}

// tailOf is the longest end of s at most w columns wide.
func tailOf(s string, w int) string {
	n := 0
	for i := len(s); i > 0; {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		if n += twwidth.Width(string(r)); n > w {
			return s[i:]
		}
		i -= size
	}
	return s
}

// cutPath cuts a path's cell ("[3] name.go") to width, keeping its number
// and its extension: "[3] very_lo….go".
func cutPath(s string, width int) string {
	if cellWidth(s) <= width {
		return s
	}
	num, name := "", s
	if strings.HasPrefix(s, "[") {
		if i := strings.Index(s, "] "); i > 0 {
			num, name = s[:i+2], s[i+2:]
		}
	}
	ext := ""
	if i := strings.LastIndexByte(name, '.'); i > 0 && len(name)-i <= 8 {
		ext = name[i:]
	}
	room := width - twwidth.Width(num) - twwidth.Width(ext) - 1
	if room < 1 {
		return cutCell(s, width)
	}
	return num + headOf(strings.TrimSuffix(name, ext), room) + "…" + ext
}

// headerFloor is the width of a header's widest word: it wraps at spaces
// and after the separators of a policy spec (: , =).
func headerFloor(name string) int {
	w := 0
	for _, p := range headerWords(name) {
		w = max(w, twwidth.Width(strings.TrimSpace(p)))
	}
	return w
}

// headerWords splits a header after each space, colon, comma and equals
// sign.
func headerWords(name string) []string {
	var out []string
	for name != "" {
		i := strings.IndexAny(name, " :,=")
		if i < 0 {
			return append(out, name)
		}
		out, name = append(out, name[:i+1]), name[i+1:]
	}
	return out
}

// wrapHeader breaks a header into lines of at most width where its words
// allow.
func wrapHeader(name string, width int) string {
	var lines []string
	cur := ""
	for _, p := range headerWords(name) {
		if cur != "" && twwidth.Width(strings.TrimSpace(cur+p)) > width {
			lines, cur = append(lines, strings.TrimSpace(cur)), ""
		}
		cur += p
	}
	return strings.Join(append(lines, strings.TrimSpace(cur)), "\n")
}

// boxOverhead is the width a table of n columns spends on borders and
// padding: "| a | b |" is the cells plus 3n+1.
func boxOverhead(n int) int { return 3*n + 1 }

// cellWidth is the display width of a cell: its widest line.
func cellWidth(s string) int {
	if ascii(s) {
		return len(s)
	}
	w := 0
	for l := range strings.SplitSeq(s, "\n") {
		w = max(w, twwidth.Width(l))
	}
	return w
}

// ascii reports whether s is one line of printable ASCII, as wide as it
// is long.
func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// width is the table's width as drawn.
func (t *Table) width() int {
	total := boxOverhead(len(t.Columns))
	for i := range t.Columns {
		total += t.natural(i)
	}
	return total
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
			lines[i] = headOf(l, width-1) + "…"
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

// Wrap wraps each line of s to width (0: as it is), at spaces, and within
// a word wider than width (a path, a sentence in a script without spaces).
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
		for _, w := range lines {
			out = append(out, breakWord(w, width)...)
		}
	}
	return strings.Join(out, "\n")
}

// breakWord cuts a line wider than width into pieces of at most width.
func breakWord(s string, width int) []string {
	var out []string
	for twwidth.Width(s) > width {
		h := headOf(s, width)
		if h == "" { // one character wider than the width
			_, size := utf8.DecodeRuneInString(s)
			h = s[:size]
		}
		out, s = append(out, h), s[len(h):]
	}
	return append(out, s)
}
