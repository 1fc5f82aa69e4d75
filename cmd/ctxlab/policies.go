package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

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
			var entries []policies.Entry
			for _, name := range args {
				p, ok := policies.Lookup(name)
				if !ok {
					return usageError("no policy %q (want one of %s)", name, strings.Join(policies.Names(), ", "))
				}
				entries = append(entries, p)
			}
			if len(args) == 0 {
				for _, p := range policies.Registry {
					entries = append(entries, p)
				}
			}
			var list []report.PolicyInfo
			for _, p := range entries {
				info := report.PolicyInfo{Name: p.Name, Doc: p.Doc, Source: p.Source}
				for _, a := range p.Params {
					info.Params = append(info.Params, report.ParamInfo{Name: a.Name, Default: a.Default, Range: a.Range, Doc: a.Doc})
				}
				list = append(list, info)
			}
			if err := render.Write(e.stdout, report.NewPolicyList(list), report.Options{Format: report.Format(format), Width: width.columns(e)}); err != nil {
				return &exitError{code: exitInput, err: fmt.Errorf("writing report: %w", err)}
			}
			return nil
		},
	}
	addFormatFlag(cmd.Flags(), &format, render.For(report.PoliciesKind))
	width.addFlags(cmd.Flags())
	return cmd
}
