package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/policies"
)

// wordsKey annotates a flag with the words it takes (takes), which the
// shell completes.
const wordsKey = "ctxlab-words"

// takes records, where a flag is defined, the words it takes: the list
// its value is checked against, which completion offers.
func takes(f *pflag.FlagSet, name string, words []string) {
	_ = f.SetAnnotation(name, wordsKey, words) // fails only for a flag that does not exist
}

// completeFlagValues registers, on every command, the completion of each
// flag that takes one of a few words. cobra's completion reads a
// one-letter long flag (--x) as a shorthand and finds no such flag: --x is
// not completed.
func completeFlagValues(root *cobra.Command) {
	for _, c := range root.Commands() {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if ws, ok := f.Annotations[wordsKey]; ok {
				_ = c.RegisterFlagCompletionFunc(f.Name, cobra.FixedCompletions(ws, cobra.ShellCompDirectiveNoFileComp))
			}
		})
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

// completePolicy completes a --policy spec, or the last of a
// comma-separated list (list): policies.Complete.
func completePolicy(list bool) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		return policies.Complete(toComplete, list), cobra.ShellCompDirectiveNoSpace | cobra.ShellCompDirectiveNoFileComp
	}
}

// completeVary offers the parameters of the policies --policy names:
// policies.CompleteParams.
func completeVary(c *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
	specs, _ := c.Flags().GetStringSlice("policy") // a flag of sweep's: no error
	return policies.CompleteParams(specs), cobra.ShellCompDirectiveNoSpace | cobra.ShellCompDirectiveNoFileComp
}
