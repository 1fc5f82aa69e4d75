package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/report"
)

func newPoliciesCmd(e env) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "policies",
		Short: "List the context policies replay --policy and compare accept",
		Long: `Lists every registered context policy with its documentation, the source
of its behaviour, and its parameters with their defaults. A policy spec is
"name" or "name:key=value,key=value"; "a+b" applies a then b before each call.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format, report.Formats); err != nil {
				return err
			}
			var list []report.PolicyInfo
			for _, p := range policies.Registry {
				info := report.PolicyInfo{Name: p.Name, Doc: p.Doc, Source: p.Source}
				for _, a := range p.Params {
					info.Params = append(info.Params, report.ParamInfo{Name: a.Name, Default: a.Default, Range: a.Range, Doc: a.Doc})
				}
				list = append(list, info)
			}
			if err := report.WritePolicies(e.stdout, report.NewPolicyList(list), report.Options{Format: format}); err != nil {
				return &exitError{code: exitInput, err: fmt.Errorf("writing report: %w", err)}
			}
			return nil
		},
	}
	addFormatFlag(cmd.Flags(), &format, report.Formats)
	return cmd
}
