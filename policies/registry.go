package policies

import (
	"fmt"
	"sort"

	"github.com/ctxlab/ctxlab/internal/param"
	"github.com/ctxlab/ctxlab/simulate"
)

// A policyDef describes one policy. Parsing, validation, the canonical
// name, Registry and so `ctxlab policies` all come from it.
type policyDef struct {
	name   string
	doc    string
	source string // where its behaviour and defaults come from
	// new returns a fresh policy and its parameters, in canonical order,
	// each bound to a field of it that holds the parameter's default.
	new func() (policy, []param.Param)
}

// policy is a simulate.Policy that takes its canonical spec as its name
// once its parameters are parsed. Embedding named makes one.
type policy interface {
	simulate.Policy
	setName(string)
}

// named is a policy's Name: its canonical spec.
type named struct{ name string }

func (n named) Name() string      { return n.name }
func (n *named) setName(s string) { n.name = s }

// registry is every policy, in the order `ctxlab policies` lists them: the
// baselines, Claude Code's own schemes, then the others.
var registry = [...]policyDef{
	observedDef, noneDef,
	claudeCodeDef, claudeCodeSMDef,
	thresholdDef, keepLastNDef, contextEditingDef, budgetDef, partialDef, summaryNMDef,
}

func lookup(name string) (*policyDef, bool) {
	for i := range registry {
		if registry[i].name == name {
			return &registry[i], true
		}
	}
	return nil, false
}

// errorf returns an error that names the policy:
// `policy "name": ` followed by the formatted message.
func (d *policyDef) errorf(format string, args ...any) error {
	return fmt.Errorf("policy %q: "+format, append([]any{d.name}, args...)...)
}

// Entry documents one policy.
type Entry struct {
	Name   string
	Doc    string
	Source string // where its behaviour and defaults come from
	Params []Param
}

// Param documents one parameter of a policy.
type Param struct {
	Name    string
	Default string // in canonical form; "" for an empty one
	Range   string // the values it takes, as its errors word them
	Doc     string
}

// Registry yields every policy with its place, in the order `ctxlab
// policies` lists them: the baselines, Claude Code's own schemes, then the
// others. It is an iterator; range over it:
//
//	for _, e := range policies.Registry { … }
//
// Each Entry is a fresh copy: changing it changes nothing here.
func Registry(yield func(int, Entry) bool) {
	for i := range registry {
		if !yield(i, registry[i].entry()) {
			return
		}
	}
}

func (d *policyDef) entry() Entry {
	e := Entry{Name: d.name, Doc: d.doc, Source: d.source}
	_, params := d.new()
	for _, p := range params {
		e.Params = append(e.Params, Param{Name: p.Name, Default: p.Default, Range: p.Takes, Doc: p.Doc})
	}
	return e
}

// Lookup documents the policy named name.
func Lookup(name string) (Entry, bool) {
	d, ok := lookup(name)
	if !ok {
		return Entry{}, false
	}
	return d.entry(), true
}

// Names lists the policy names, sorted.
func Names() []string {
	out := make([]string, 0, len(registry))
	for _, d := range registry {
		out = append(out, d.name)
	}
	sort.Strings(out)
	return out
}
