package table

import (
	"bytes"
	"strings"
	"testing"
)

// TestEscape: each character LaTeX treats specially comes out as the
// text it stands for, and the symbols the tables print as math.
func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		`a_b`:           `a\_b`,
		`50%`:           `50\%`,
		`$1.50`:         `$\$$1.50`,
		`R&D`:           `R\&D`,
		`#3`:            `\#3`,
		`{x}`:           `\{x\}`,
		`~`:             `\textasciitilde{}`,
		`x^2`:           `x\textasciicircum{}2`,
		`C:\dir`:        `C:\textbackslash{}dir`,
		`\{`:            `\textbackslash{}\{`, // escaped once, not twice
		`≥$1 Δ α − — …`: `$\geq$$\$$1 $\Delta$ $\alpha$ $-$ --- \ldots{}`,
		// A project named after C:\Users\x\.claude: two hyphens, not a dash.
		`C--Users-x--claude`: `C-{}-Users-x-{}-claude`,
		`a---b`:              `a-{}-{}-b`,
		`0.125†`:             `0.125$\dagger$`,
		// Characters the standard fonts lack: a question mark each.
		`-home-用户-プロジェクト`: `-home-??-??????`,
		`café, Zürich`:    `café, Zürich`,
		`p <0.001 | >`:    `p $<$0.001 \textbar{} $>$`,
		"two\nlines":      "two lines",
		`plain text 42`:   `plain text 42`,
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMinus(t *testing.T) {
	for in, want := range map[string]string{
		`-7.0\%`:             `$-$7.0\%`,
		`[-6.6\%, -3.2\%]`:   `[$-$6.6\%, $-$3.2\%]`,
		`-\$0.80`:            `$-$\$0.80`,
		`-$\$$0.80`:          `$-$$\$$0.80`,
		`+3.2\%`:             `+3.2\%`,
		`-`:                  `-`,
		`a-1`:                `a-1`, // inside a word: a hyphen
		`--- (-x)`:           `--- (-x)`,
		`d3e4f5a6-b7c8-4d9e`: `d3e4f5a6-b7c8-4d9e`,
	} {
		if got := minus(in); got != want {
			t.Errorf("minus(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestWriteLaTeX: a booktabs table whose rows have as many cells as the
// column specification, numbers right-aligned, the note as comments.
func TestWriteLaTeX(t *testing.T) {
	tb := &Table{
		Name: "cost_by_policy", Title: "Cost & cache", Note: "Δ: against observed\nsecond line",
		Columns: []Column{{Name: "Policy", Kind: Text}, {Name: "Total", Right: true}, {Name: "Δ %", Right: true}},
	}
	tb.AddRow("keep_last_n", "$1.50", "-2.1%")
	tb.AddRow("observed", "$0.30", "—")
	var b bytes.Buffer
	if err := WriteLaTeX(&b, tb, "tab:total:cost_by_policy"); err != nil {
		t.Fatal(err)
	}
	want := `\begin{table}[htbp]
\centering
\caption{Cost \& cache}
\label{tab:total:cost-by-policy}
% Δ: against observed
% second line
\begin{tabular}{lrr}
\toprule
Policy & Total & $\Delta$ \% \\
\midrule
keep\_last\_n & $\$$1.50 & $-$2.1\% \\
observed & $\$$0.30 & --- \\
\bottomrule
\end{tabular}
\end{table}

`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
	empty := &Table{Title: "None", Empty: "no session", Columns: []Column{{Name: "a"}, {Name: "b"}}}
	b.Reset()
	if err := WriteLaTeX(&b, empty, "x"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `\multicolumn{2}{l}{\emph{no session}} \\`) {
		t.Errorf("empty table:\n%s", b.String())
	}
}

// TestLabelText keeps letters, digits, ':' and '-', each range's ends
// included, and makes the characters either side of them '-'.
func TestLabelText(t *testing.T) {
	if got, want := labelText("azAZ09:-`{@[/;_ é"), "azAZ09:----------"; got != want {
		t.Errorf("labelText = %q, want %q", got, want)
	}
}

// TestTypesettable: a line break is set (as a space), a character the
// standard fonts lack is not.
func TestTypesettable(t *testing.T) {
	for s, want := range map[string]bool{"a\nb": true, "plain": true, "😀": false, "a😀": false} {
		if got := Typesettable(s); got != want {
			t.Errorf("Typesettable(%q) = %v, want %v", s, got, want)
		}
	}
}
