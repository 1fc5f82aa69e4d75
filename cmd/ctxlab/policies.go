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

// completePolicy completes a --policy spec, or the last of a
// comma-separated list (list): a policy name, then after "name:" its
// parameters as "key=", after "+" the next policy's name.
func completePolicy(list bool) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		head, cur := "", toComplete
		if i := strings.LastIndexAny(cur, "+"+map[bool]string{true: ","}[list]); i >= 0 {
			head, cur = cur[:i+1], cur[i+1:]
		}
		name, params, hasParams := strings.Cut(cur, ":")
		if !hasParams {
			var out []string
			for _, n := range policies.Names() {
				out = append(out, head+n, head+n+":")
			}
			// After "spec:k=v," a piece with "=" continues spec's
			// parameters (ParseList): offer them too.
			if prev := previousSpec(head); prev != "" {
				if p, ok := policies.Lookup(prev); ok {
					for _, a := range p.Params {
						out = append(out, head+a.Name+"=")
					}
				}
			}
			return out, cobra.ShellCompDirectiveNoSpace | cobra.ShellCompDirectiveNoFileComp
		}
		p, ok := policies.Lookup(name)
		if !ok {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		done := "" // the parameters already given
		if i := strings.LastIndex(params, ","); i >= 0 {
			done = params[:i+1]
		}
		var out []string
		for _, a := range p.Params {
			out = append(out, head+name+":"+done+a.Name+"=")
		}
		return out, cobra.ShellCompDirectiveNoSpace | cobra.ShellCompDirectiveNoFileComp
	}
}

// previousSpec is the name of the policy whose parameters a list ends in,
// before a trailing comma ("keep-last-n:n=5," gives keep-last-n); "" when
// the list does not end in parameters.
func previousSpec(head string) string {
	rest, ok := strings.CutSuffix(head, ",")
	if !ok {
		return ""
	}
	if i := strings.LastIndexAny(rest, "+"); i >= 0 {
		rest = rest[i+1:]
	}
	// The last piece with a colon starts the spec the list ends in.
	pieces := strings.Split(rest, ",")
	for i := len(pieces) - 1; i >= 0; i-- {
		if name, _, ok := strings.Cut(pieces[i], ":"); ok {
			return name
		}
		if !strings.Contains(pieces[i], "=") {
			return ""
		}
	}
	return ""
}
