package table

import (
	"fmt"
	"io"
	"strings"

	"github.com/ctxlab/ctxlab/internal/numtext"
)

// LaTeXPreamble is the line a LaTeX document needs for WriteLaTeX's
// tables: booktabs' rules; LaTeXPreambleLong also longtable, for tables
// longer than a page (LongLaTeX).
const (
	LaTeXPreamble     = `% needs \usepackage{booktabs} in the preamble`
	LaTeXPreambleLong = `% needs \usepackage{booktabs} and \usepackage{longtable} in the preamble`
)

// WriteLaTeX draws t as LaTeX tables for a paper: its title as the
// caption, a booktabs tabular (\toprule, \midrule, \bottomrule), numbers
// aligned right, and its note as comment lines; a table of more than
// longLines lines is a longtable, which breaks across pages, its header
// repeated, rather than a float. The table is fitted to the text width
// of a standard class (fitLaTeX): a column that only repeats the caption
// left out, session ids short, then a smaller font and short headers,
// wrapped prose, the columns that matter least left out, and last parts
// that repeat the key columns, each a
// table of its own (label, label:2, …); what fitting changed is said in
// comment lines. Every cell is escaped (Escape); label is the table's
// \label, letters, digits, ':' and '-' kept, anything else made '-'.
func WriteLaTeX(w io.Writer, t *Table, label string) error {
	t = t.Shown().clone()
	lacking := lackingCells(t)
	dropped := dropCaptionColumns(t)
	lay := fitLaTeX(t)
	long := lay.lines(t) > longLines
	notes := latexNotes(t, &lay, dropped, lacking)
	after := latexAfter(t)
	size := latexSizes[lay.size]
	if lay.sep != tabcolsep {
		size += fmt.Sprintf("\\setlength{\\tabcolsep}{%gpt}", lay.sep)
	}
	var b strings.Builder
	for k, part := range lay.parts {
		lbl := labelText(label)
		if k > 0 {
			lbl += fmt.Sprintf(":%d", k+1)
		}
		caption := fmt.Sprintf("\\caption{%s}\n\\label{%s}", Escape(partCaption(t.Title, k, len(lay.parts))), lbl)
		spec, head := latexHead(t, &lay, part)
		if long {
			if size != "" {
				b.WriteString("{" + size + "\n")
			}
			fmt.Fprintf(&b, "\\begin{longtable}{%s}\n%s \\\\\n%s%s\\endfirsthead\n%s\\endhead\n", spec, caption, notes, head, head)
			fmt.Fprintf(&b, "\\midrule\n\\multicolumn{%d}{r}{\\emph{continued}} \\\\\n\\endfoot\n\\bottomrule\n\\endlastfoot\n", len(part))
		} else {
			fmt.Fprintf(&b, "\\begin{table}[htbp]\n\\centering\n%s\n%s", caption, notes)
			if size != "" {
				b.WriteString(size + "\n")
			}
			fmt.Fprintf(&b, "\\begin{tabular}{%s}\n%s", spec, head)
		}
		writeLaTeXRows(&b, t, &lay, part)
		if long {
			b.WriteString("\\end{longtable}\n")
			if size != "" {
				b.WriteString("}\n")
			}
			b.WriteString(after + "\n")
			continue
		}
		b.WriteString("\\bottomrule\n\\end{tabular}\n" + after + "\\end{table}\n\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// lackingCells lists, once each in the order of the rows, the cells of t
// with characters the standard LaTeX fonts lack.
func lackingCells(t *Table) []string {
	var lacking []string
	seen := map[string]bool{}
	for _, r := range t.Rows {
		for _, c := range r {
			if !seen[c.Text] && !Typesettable(c.Text) {
				seen[c.Text] = true
				lacking = append(lacking, c.Text)
			}
		}
	}
	return lacking
}

// latexNotes is the comment lines under each part's caption: the table's
// note, then what fitting it to the page changed.
func latexNotes(t *Table, lay *latexLayout, dropped, lacking []string) string {
	var notes strings.Builder
	for _, line := range strings.Split(t.NoteText(), "\n") {
		if line != "" {
			fmt.Fprintf(&notes, "%% %s\n", line)
		}
	}
	if len(dropped) > 0 {
		fmt.Fprintf(&notes, "%% left out, as the caption says it: %s\n", strings.Join(dropped, ", "))
	}
	if len(lay.dropped) > 0 {
		fmt.Fprintf(&notes, "%% left out to fit the text width: %s (--format csv or json has every column)\n", strings.Join(lay.dropped, ", "))
	}
	if len(lay.parts) > 1 {
		fmt.Fprintf(&notes, "%% split into %d tables to fit the text width, each with the first %s\n", len(lay.parts), numtext.Count(keys(t), "column", "columns"))
	}
	if len(lay.cut) > 0 {
		fmt.Fprintf(&notes, "%% cut with \\ldots to fit the text width: %s (--format csv has every cell whole)\n", strings.Join(lay.cut, ", "))
	}
	if len(lacking) > 0 {
		fmt.Fprintf(&notes, "%% ? stands for characters the standard LaTeX fonts lack (xelatex or lualatex can set them): %s\n", strings.Join(lacking, "; "))
	}
	return notes.String()
}

// latexAfter is the comment lines after each part's rows: the rows left
// out and the legend.
func latexAfter(t *Table) string {
	var after strings.Builder
	if t.More > 0 {
		fmt.Fprintf(&after, "%% %d more rows left out (raise --top)\n", t.More)
	}
	if t.Legend != "" {
		fmt.Fprintf(&after, "%% %s\n", strings.ReplaceAll(t.Legend, "\n", "\n% "))
	}
	return after.String()
}

// latexHead is a part's column spec (numbers right, the rest left) and its
// header lines between \toprule and \midrule.
func latexHead(t *Table, lay *latexLayout, part []int) (spec, head string) {
	cols := make([]byte, len(part))
	header := make([]string, len(part))
	for j, i := range part {
		cols[j] = 'l'
		if lay.numeric[i] {
			cols[j] = 'r'
		}
		header[j] = Escape(t.Columns[i].Name)
	}
	return string(cols), fmt.Sprintf("\\toprule\n%s \\\\\n\\midrule\n", strings.Join(header, " & "))
}

// writeLaTeXRows writes a part's rows (or the line that says it has
// none): cells escaped, prose wrapped in a \parbox, numbers with a true
// minus sign.
func writeLaTeXRows(b *strings.Builder, t *Table, lay *latexLayout, part []int) {
	if len(t.Rows) == 0 {
		empty := t.Empty
		if empty == "" {
			empty = "none"
		}
		fmt.Fprintf(b, "\\multicolumn{%d}{l}{\\emph{%s}} \\\\\n", max(len(part), 1), Escape(empty))
	}
	for _, r := range t.Rows {
		cells := make([]string, len(part))
		for j, i := range part {
			if i >= len(r) {
				continue
			}
			cells[j] = Escape(r[i].Text)
			switch {
			case lay.prose[i] > 0 && lay.wrapName[i]:
				cells[j] = fmt.Sprintf("\\parbox[t]{%s}{\\raggedright %s\\strut}", ems(lay.prose[i], lay.size), breakName(r[i].Text))
			case lay.prose[i] > 0:
				cells[j] = fmt.Sprintf("\\parbox[t]{%s}{\\raggedright %s\\strut}", ems(lay.prose[i], lay.size), cells[j])
			case lay.numeric[i]:
				cells[j] = minus(cells[j])
			}
		}
		fmt.Fprintf(b, "%s \\\\\n", strings.Join(cells, " & "))
	}
}

// LongLaTeX reports whether WriteLaTeX sets t as a longtable: more lines
// than a page holds.
func LongLaTeX(t *Table) bool {
	t = t.Shown().clone()
	dropCaptionColumns(t)
	lay := fitLaTeX(t)
	return lay.lines(t) > longLines
}

// latexRunes is what each character LaTeX treats specially, and each
// symbol the tables print that its default fonts lack, becomes in text
// mode.
var latexRunes = map[rune]string{
	'\\': `\textbackslash{}`, '{': `\{`, '}': `\}`,
	'_': `\_`, '%': `\%`, '$': `$\$$`, '&': `\&`, '#': `\#`,
	'~': `\textasciitilde{}`, '^': `\textasciicircum{}`,
	'<': `$<$`, '>': `$>$`, '|': `\textbar{}`,
	'…': `\ldots{}`, '≥': `$\geq$`, '≤': `$\leq$`, 'Δ': `$\Delta$`, '×': `$\times$`,
	'−': `$-$`, '—': `---`, '–': `--`, '→': `$\rightarrow$`, 'α': `$\alpha$`, '±': `$\pm$`, '²': `$^2$`, '†': `$\dagger$`,
}

// Escape writes s as LaTeX text on one line: the ten special characters
// escaped (\ { } _ % $ & # ~ ^), < > and | (which the default OT1 font
// lacks), the symbols the tables use spelled in math mode (the dollar
// and the dagger too: in text, LaTeX takes them from the TS1 fonts, which
// a basic TeX installation has only as bitmaps, and which publishers'
// PDF checks refuse as Type 3 fonts), a hyphen
// before another as "-{}" (so that "--" in a project name stays two
// hyphens, not an en dash), and a character LaTeX's standard fonts lack
// (Typesettable) as "?".
func Escape(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case r == '\n':
			r = ' '
		case !typesettable(r):
			r = '?'
		}
		if e, ok := latexRunes[r]; ok {
			b.WriteString(e)
			continue
		}
		b.WriteRune(r)
		if r == '-' && i+1 < len(rs) && rs[i+1] == '-' {
			b.WriteString("{}")
		}
	}
	return b.String()
}

// Typesettable reports whether pdflatex sets every character of s with a
// standard class's fonts and no package: printable ASCII, the Latin-1
// letters the OT1 encoding builds from a letter and an accent, and the
// symbols Escape spells (cmWidths has each one's width).
func Typesettable(s string) bool {
	for _, r := range s {
		if r != '\n' && !typesettable(r) {
			return false
		}
	}
	return true
}

func typesettable(r rune) bool {
	_, ok := cmWidths[r]
	return ok
}

// minus typesets the minus signs of a number column's numbers ("-7.0\%",
// "[-6.6\%, +3.2\%]", "-$\$$0.80") as minus signs, not hyphens: a '-' at
// the start or after '[', '(' or a space, before a digit, an escape or
// math.
func minus(cell string) string {
	var b strings.Builder
	for i := 0; i < len(cell); i++ {
		c := cell[i]
		if c == '-' && (i == 0 || strings.IndexByte("[( ", cell[i-1]) >= 0) &&
			i+1 < len(cell) && (cell[i+1] >= '0' && cell[i+1] <= '9' || cell[i+1] == '\\' || cell[i+1] == '$') {
			b.WriteString("$-$")
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func labelText(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == ':' || r == '-' {
			return r
		}
		return '-'
	}, s)
}
