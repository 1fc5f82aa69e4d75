package view

import (
	"fmt"
	"io"

	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/report/table"
)

// renderLaTeX writes sections as LaTeX tables: a comment naming the
// packages the tables need (booktabs, and longtable when one is longer
// than a page), then each section's title as a comment
// and its tables as floats labelled tab:SCOPE:TABLE. SCOPE is "total" for
// the whole input and a session's id for its own tables, the id's first
// 8 characters (as --session takes them; longer where two sessions' would
// read alike); TABLE is the table's name, '_' made '-'. A label that
// would repeat (one table per policy in a scope) gets -2, -3, … in order.
func renderLaTeX(w io.Writer, secs []section) error {
	pre := table.LaTeXPreamble
	for _, sec := range secs {
		for _, t := range sec.tables {
			if table.LongLaTeX(t) {
				pre = table.LaTeXPreambleLong
			}
		}
	}
	if _, err := fmt.Fprintf(w, "%s\n\n", pre); err != nil {
		return err
	}
	scopes := latexScopes(secs)
	used := map[string]int{}
	for si, sec := range secs {
		if sec.title != "" {
			if _, err := fmt.Fprintf(w, "%% %s\n\n", table.Escape(sec.title)); err != nil {
				return err
			}
		}
		for _, t := range sec.tables {
			label := "tab:" + scopes[si] + ":" + t.Name
			if n := used[label]; n > 0 {
				used[label]++
				label = fmt.Sprintf("%s-%d", label, n+1)
			} else {
				used[label] = 1
			}
			if err := table.WriteLaTeX(w, t, label); err != nil {
				return err
			}
		}
	}
	return nil
}

// latexScopes are the sections' label scopes: "total" for a section of
// the whole input (named "total" or not named), else the session id the
// section is named by, as short as it stays distinct from the others.
func latexScopes(secs []section) []string {
	out := make([]string, len(secs))
	var ids []string
	for i, sec := range secs {
		if sec.name == "" || sec.name == "total" {
			out[i] = "total"
			continue
		}
		ids = append(ids, sec.name)
	}
	short := table.ShortDistinct(ids, numtext.ShortID)
	k := 0
	for i := range out {
		if out[i] == "" {
			out[i] = short[k]
			k++
		}
	}
	return out
}
