package main

import (
	"github.com/spf13/cobra"

	"github.com/ctxlab/ctxlab/internal/batch"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/render"
)

func newPoliciesCmd(e env) *cobra.Command {
	var format string
	var width textWidth
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
			if err := firstErr(checkFormat(format, render.For(report.PoliciesKind)), width.validate()); err != nil {
				return err
			}
			list, err := batch.PolicyList(args)
			if err != nil {
				return usageError("%v", err)
			}
			err = render.Write(e.stdout, list, report.Options{Format: report.Format(format), Width: width.columns(e)})
			if err != nil {
				return failed(writing(err))
			}
			return nil
		},
	}
	addFormatFlag(cmd.Flags(), &format, render.For(report.PoliciesKind))
	width.addFlags(cmd.Flags())
	return cmd
}
