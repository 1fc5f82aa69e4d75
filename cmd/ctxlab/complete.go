package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/view"
)

// completeFlagValues registers, on every command that has the flag, the
// values a shell completes for the flags that take one of a few words.
func completeFlagValues(root *cobra.Command) {
	for _, c := range root.Commands() {
		words := map[string][]string{
			"by":          groupBys(),
			"plot-format": {"png", "svg", "pdf"},
			// cobra's completion reads a one-letter long flag (--x) as a
			// shorthand and finds no such flag: --x is not completed.
		}
		if f := c.Flags().Lookup("format"); f != nil {
			_, list, _ := strings.Cut(f.Usage, "output format: ")
			words["format"] = strings.Split(list, ", ")
		}
		switch c.Name() {
		case "replay":
			words["section"] = slices.Concat(report.Sections, view.CSVTables)
		case "compare":
			words["section"] = view.CompareCSVTables
			words["by"] = fidelityBys
		}
		for name, ws := range words {
			if c.Flags().Lookup(name) != nil {
				_ = c.RegisterFlagCompletionFunc(name, cobra.FixedCompletions(ws, cobra.ShellCompDirectiveNoFileComp))
			}
		}
		if c.Name() == "sweep" {
			_ = c.RegisterFlagCompletionFunc("vary", completeVary)
		}
	}
}

func groupBys() []string {
	out := make([]string, len(accounting.GroupBys))
	for i, g := range accounting.GroupBys {
		out[i] = string(g)
	}
	return out
}

// completeVary offers the parameters of the policies --policy names (of
// every policy when it names none), as PARAM=.
func completeVary(c *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
	names := policies.Names()
	if v, err := c.Flags().GetStringSlice("policy"); err == nil && len(v) > 0 {
		names = nil
		for _, spec := range v {
			name, _, _ := strings.Cut(spec, ":")
			names = append(names, name)
		}
	}
	var out []string
	for _, n := range names {
		if p, ok := policies.Lookup(n); ok {
			for _, a := range p.Params {
				if w := a.Name + "="; !slices.Contains(out, w) {
					out = append(out, w)
				}
			}
		}
	}
	return out, cobra.ShellCompDirectiveNoSpace | cobra.ShellCompDirectiveNoFileComp
}
