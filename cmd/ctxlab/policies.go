package main

import (
	"github.com/spf13/cobra"

	"github.com/ctxlab/ctxlab/internal/batch"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/report"
)

func newPoliciesCmd(e env) *cobra.Command {
	o := &outputOptions{kind: report.PoliciesKind}
	cmd := &cobra.Command{
		Use:   "policies [NAME…]",
		Short: "List the context policies replay --policy and compare accept",
		Long: `Lists every registered context policy (or only those named) with its
documentation, the source of its behaviour, and its parameters with their
defaults. A policy spec is "name" or "name:key=value,key=value"; "a+b"
applies a then b before each call.`,
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			return policies.Names(), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.validate(); err != nil {
				return err
			}
			list, err := batch.PolicyList(args)
			if err != nil {
				return usageError("%v", err)
			}
			return failed(o.write(e, list, report.Options{}))
		},
	}
	o.addFlags(cmd.Flags())
	return cmd
}
