package table

import (
	"fmt"
	"io"
	"strings"
)

// LaTeXPreamble is the line a LaTeX document needs for WriteLaTeX's
// tables: booktabs' rules.
const LaTeXPreamble = `% needs \usepackage{booktabs} in the preamble`

// WriteLaTeX draws t as a LaTeX table float for a paper: its title as the
// caption, a booktabs tabular (\toprule, \midrule, \bottomrule) with every
// column, numbers aligned right, and its note as comment lines. Every
// cell is escaped (Escape); label is the table's \label, letters, digits,
// ':' and '-' kept, anything else made '-'.
func WriteLaTeX(w io.Writer, t *Table, label string) error {
	t = t.Shown()
	var b strings.Builder
	b.WriteString("\\begin{table}[htbp]\n\\centering\n")
	fmt.Fprintf(&b, "\\caption{%s}\n\\label{%s}\n", Escape(t.Title), labelText(label))
	for _, line := range strings.Split(t.NoteText(), "\n") {
		if line != "" {
			fmt.Fprintf(&b, "%% %s\n", line)
		}
	}
	spec := make([]byte, len(t.Columns))
	header := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		spec[i] = 'l'
		if c.Right {
			spec[i] = 'r'
		}
		header[i] = Escape(c.Name)
	}
	fmt.Fprintf(&b, "\\begin{tabular}{%s}\n\\toprule\n%s \\\\\n\\midrule\n", spec, strings.Join(header, " & "))
	if len(t.Rows) == 0 {
		empty := t.Empty
		if empty == "" {
			empty = "none"
		}
		fmt.Fprintf(&b, "\\multicolumn{%d}{l}{\\emph{%s}} \\\\\n", max(len(t.Columns), 1), Escape(empty))
	}
	for _, r := range t.Rows {
		cells := make([]string, len(t.Columns))
		for i := range cells {
			if i < len(r) {
				cells[i] = Escape(r[i].Text)
				if t.Columns[i].Right {
					cells[i] = minus(cells[i])
				}
			}
		}
		fmt.Fprintf(&b, "%s \\\\\n", strings.Join(cells, " & "))
	}
	b.WriteString("\\bottomrule\n\\end{tabular}\n")
	if t.More > 0 {
		fmt.Fprintf(&b, "%% %d more rows left out (raise --top)\n", t.More)
	}
	if t.Legend != "" {
		fmt.Fprintf(&b, "%% %s\n", strings.ReplaceAll(t.Legend, "\n", "\n% "))
	}
	b.WriteString("\\end{table}\n\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// latexText is what each character LaTeX treats specially, and each
// symbol the tables print that its default fonts lack, becomes in text
// mode.
var latexText = strings.NewReplacer(
	`\`, `\textbackslash{}`,
	`{`, `\{`, `}`, `\}`,
	`_`, `\_`, `%`, `\%`, `$`, `\$`, `&`, `\&`, `#`, `\#`,
	`~`, `\textasciitilde{}`, `^`, `\textasciicircum{}`,
	"\n", " ", `<`, `$<$`, `>`, `$>$`, `|`, `\textbar{}`,
	`…`, `\ldots{}`, `≥`, `$\geq$`, `≤`, `$\leq$`, `Δ`, `$\Delta$`, `×`, `$\times$`,
	`−`, `$-$`, `—`, `---`, `–`, `--`, `→`, `$\rightarrow$`, `α`, `$\alpha$`, `±`, `$\pm$`, `²`, `$^2$`, `†`, `\dag{}`,
)

// Escape writes s as LaTeX text on one line: the ten special characters
// escaped (\ { } _ % $ & # ~ ^), < > and | (which the default OT1 font
// lacks) and the symbols the tables use spelled in math mode.
func Escape(s string) string { return latexText.Replace(s) }

// minus typesets the minus signs of a number column's numbers ("-7.0\%",
// "[-6.6\%, +3.2\%]", "-\$0.80") as minus signs, not hyphens: a '-' at
// the start or after '[', '(' or a space, before a digit or an escape.
func minus(cell string) string {
	var b strings.Builder
	for i := 0; i < len(cell); i++ {
		c := cell[i]
		if c == '-' && (i == 0 || strings.IndexByte("[( ", cell[i-1]) >= 0) &&
			i+1 < len(cell) && (cell[i+1] >= '0' && cell[i+1] <= '9' || cell[i+1] == '\\') {
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
