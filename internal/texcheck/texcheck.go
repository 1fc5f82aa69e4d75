// Package texcheck compiles LaTeX for ctxlab's tests: the tables of
// --format latex are typeset by pdflatex, as a paper would, and the log
// says whether anything overflowed. Tests skip without pdflatex unless
// CTXLAB_LATEX_TESTS=1 (as .ci/run sets after installing Debian's
// texlive-latex-recommended), which makes its absence a failure.
package texcheck

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Env, set to 1, makes the tests fail instead of skip without pdflatex.
const Env = "CTXLAB_LATEX_TESTS"

// PDFLaTeX finds pdflatex, or skips (fails under Env=1).
func PDFLaTeX(t testing.TB) string {
	t.Helper()
	if p, err := exec.LookPath("pdflatex"); err == nil {
		return p
	}
	msg := "pdflatex not found on PATH: the LaTeX tests need Debian's texlive-latex-recommended (apt-get install texlive-latex-recommended)"
	if os.Getenv(Env) == "1" {
		t.Fatalf("%s; %s=1 requires it", msg, Env)
	}
	t.Skip(msg + "; skipped (CI installs it and sets " + Env + "=1)")
	return ""
}

// Compile typesets body in a document of the article class with options
// (such as "12pt,a4paper") and the packages named, and returns pdflatex's
// log. A LaTeX error fails the test with the log's error lines.
func Compile(t testing.TB, options string, packages []string, body string) string {
	t.Helper()
	bin := PDFLaTeX(t)
	dir := t.TempDir()
	var doc strings.Builder
	doc.WriteString(`\documentclass[` + options + "]{article}\n")
	for _, p := range packages {
		doc.WriteString(`\usepackage{` + p + "}\n")
	}
	doc.WriteString("\\begin{document}\n" + body + "\n\\end{document}\n")
	if err := os.WriteFile(filepath.Join(dir, "doc.tex"), []byte(doc.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "doc.tex")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	logData, _ := os.ReadFile(filepath.Join(dir, "doc.log"))
	log := string(logData)
	if err != nil {
		var errs []string
		for _, l := range strings.Split(log, "\n") {
			if strings.HasPrefix(l, "!") || strings.HasPrefix(l, "l.") {
				errs = append(errs, l)
			}
		}
		if len(errs) == 0 {
			errs = []string{string(out)}
		}
		t.Fatalf("pdflatex (%s): %v\n%s", options, err, strings.Join(errs, "\n"))
	}
	return log
}

// problem is what a log says of a table that does not fit: a line too
// wide or too tall for its box, a float too large for the page, or a
// font the fonts lack a character of.
var problem = regexp.MustCompile(`(?m)^(Overfull \\[hv]box.*|LaTeX Warning: Float too large.*|Missing character.*)$`)

// Problems are the log's overfull boxes, floats too large and missing
// characters, one line each.
func Problems(log string) []string {
	return problem.FindAllString(log, -1)
}

// Bitmap reports whether the log shows pdflatex making a bitmap font
// (METAFONT run by mktexpk, or a .pk font loaded): a font the PDF would
// hold as Type 3, which publishers' PDF checks refuse.
func Bitmap(log string) bool {
	return strings.Contains(log, "mktexpk") || strings.Contains(log, "/fonts/pk/")
}
