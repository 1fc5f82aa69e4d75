package batch

import (
	"fmt"
	"strings"

	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/report"
)

// PolicyList is `ctxlab policies`' document: the policies named, or every
// registered one when none is, in the registry's order, with their
// parameters.
func PolicyList(names []string) (*report.PolicyList, error) {
	var entries []policies.Entry
	for _, name := range names {
		p, ok := policies.Lookup(name)
		if !ok {
			return nil, fmt.Errorf("no policy %q (want one of %s)", name, strings.Join(policies.Names(), ", "))
		}
		entries = append(entries, p)
	}
	if len(names) == 0 {
		for _, p := range policies.Registry {
			entries = append(entries, p)
		}
	}
	list := make([]report.PolicyInfo, len(entries))
	for i, p := range entries {
		list[i] = report.PolicyInfo{Name: p.Name, Doc: p.Doc, Source: p.Source}
		for _, a := range p.Params {
			list[i].Params = append(list[i].Params, report.ParamInfo{Name: a.Name, Default: a.Default, Range: a.Range, Doc: a.Doc})
		}
	}
	return report.NewPolicyList(list), nil
}
