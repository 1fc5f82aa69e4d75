package view

import (
	"fmt"
	"io"

	"github.com/ctxlab/ctxlab/report/table"
)

// renderLaTeX writes sections as LaTeX tables: a comment naming what the
// booktabs package is needed for, then each section's title as a comment
// and its tables as floats labelled tab:SECTION:TABLE.
func renderLaTeX(w io.Writer, secs []section) error {
	if _, err := fmt.Fprintf(w, "%s\n\n", table.LaTeXPreamble); err != nil {
		return err
	}
	for _, sec := range secs {
		if sec.title != "" {
			if _, err := fmt.Fprintf(w, "%% %s\n\n", table.Escape(sec.title)); err != nil {
				return err
			}
		}
		for _, t := range sec.tables {
			label := "tab:" + t.Name
			if sec.name != "" {
				label = "tab:" + sec.name + ":" + t.Name
			}
			if err := table.WriteLaTeX(w, t, label); err != nil {
				return err
			}
		}
	}
	return nil
}
