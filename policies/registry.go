package policies

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/ctxlab/ctxlab/simulate"
)

// Param documents one parameter of a policy.
type Param struct {
	Name    string
	Default string
	Doc     string
}

// Entry is one policy in the registry: its name, documentation, the source
// of its behaviour and defaults, and a constructor from parsed arguments.
type Entry struct {
	Name   string
	Doc    string
	Source string
	Params []Param
	New    func(a Args) (simulate.Policy, error)
}

// Registry lists every policy, in the order `ctxlab policies` prints them:
// the baselines, Claude Code's own schemes, then the peers' (see order).
var Registry []Entry

// order ranks the policies for Registry; unlisted ones follow by name.
var order = []string{
	"observed", "none", "claude-code", "claude-code-sm",
	"threshold", "keep-last-n", "context-editing", "budget", "partial", "summary-nm",
}

func rank(name string) int {
	for i, n := range order {
		if n == name {
			return i
		}
	}
	return len(order)
}

func register(e Entry) {
	Registry = append(Registry, e)
	sort.SliceStable(Registry, func(i, j int) bool {
		ri, rj := rank(Registry[i].Name), rank(Registry[j].Name)
		if ri != rj {
			return ri < rj
		}
		return Registry[i].Name < Registry[j].Name
	})
}

// Lookup finds a policy by name.
func Lookup(name string) (*Entry, bool) {
	for i := range Registry {
		if Registry[i].Name == name {
			return &Registry[i], true
		}
	}
	return nil, false
}

// Args are a spec's parameters, with the entry's defaults filled in.
type Args struct {
	policy string
	vals   map[string]string
	set    map[string]bool
}

// Set reports whether the spec gave the parameter explicitly.
func (a Args) Set(name string) bool { return a.set[name] }

// String returns a parameter's value.
func (a Args) String(name string) string { return a.vals[name] }

// Int parses an integer parameter.
func (a Args) Int(name string) (int64, error) {
	v := a.vals[name]
	n, err := strconv.ParseInt(strings.ReplaceAll(v, "_", ""), 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("policy %q: %s=%q: want a whole number ≥ 0", a.policy, name, v)
	}
	return n, nil
}

// Float parses a number parameter.
func (a Args) Float(name string) (float64, error) {
	v := a.vals[name]
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 {
		return 0, fmt.Errorf("policy %q: %s=%q: want a number ≥ 0", a.policy, name, v)
	}
	return f, nil
}

// Bool parses a boolean parameter.
func (a Args) Bool(name string) (bool, error) {
	v := a.vals[name]
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("policy %q: %s=%q: want true or false", a.policy, name, v)
	}
	return b, nil
}

// List splits a list parameter (values separated by "|").
func (a Args) List(name string) []string {
	v := a.vals[name]
	if v == "" {
		return nil
	}
	return strings.Split(v, "|")
}

// Parse compiles one policy spec: "name" or "name:key=value,key=value", or
// several joined by "+" into a composition applied left to right
// ("keep-last-n:n=10+summary-nm:n=21,m=10"). Errors name the policy and
// the offending key or value.
func Parse(spec string) (simulate.Policy, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return nil, fmt.Errorf("empty policy spec")
	}
	parts := strings.Split(spec, "+")
	if len(parts) > 1 {
		var ps []simulate.Policy
		for _, part := range parts {
			p, err := Parse(part)
			if err != nil {
				return nil, err
			}
			ps = append(ps, p)
		}
		return &composite{parts: ps}, nil
	}
	name, params, _ := strings.Cut(spec, ":")
	e, ok := Lookup(name)
	if !ok {
		return nil, fmt.Errorf("unknown policy %q (see ctxlab policies; known: %s)", name, strings.Join(Names(), ", "))
	}
	a := Args{policy: name, vals: map[string]string{}, set: map[string]bool{}}
	for _, p := range e.Params {
		a.vals[p.Name] = p.Default
	}
	if params != "" {
		for _, kv := range strings.Split(params, ",") {
			k, v, ok := strings.Cut(kv, "=")
			k = strings.TrimSpace(k)
			if !ok {
				return nil, fmt.Errorf("policy %q: parameter %q has no value (want key=value)", name, k)
			}
			if _, known := a.vals[k]; !known {
				return nil, fmt.Errorf("policy %q: unknown parameter %q (want one of %s)", name, k, paramNames(e))
			}
			a.vals[k] = strings.TrimSpace(v)
			a.set[k] = true
		}
	}
	return e.New(a)
}

// ParseList splits a comma-separated list of specs, as `--policy a,b,c`
// gives them. A piece with "=" and no ":" continues the previous spec's
// parameters: "keep-last-n:n=10,polling=5,none" is two policies.
func ParseList(list string) ([]simulate.Policy, error) {
	var specs []string
	for _, piece := range strings.Split(list, ",") {
		piece = strings.TrimSpace(piece)
		if piece == "" {
			continue
		}
		if strings.Contains(piece, "=") && !strings.Contains(piece, ":") && len(specs) > 0 {
			specs[len(specs)-1] += "," + piece
			continue
		}
		specs = append(specs, piece)
	}
	if len(specs) == 0 {
		return nil, fmt.Errorf("no policy given")
	}
	out := make([]simulate.Policy, 0, len(specs))
	for _, s := range specs {
		p, err := Parse(s)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// Names lists the registered policy names, sorted.
func Names() []string {
	out := make([]string, 0, len(Registry))
	for _, e := range Registry {
		out = append(out, e.Name)
	}
	sort.Strings(out)
	return out
}

func paramNames(e *Entry) string {
	if len(e.Params) == 0 {
		return "none: this policy takes no parameters"
	}
	var n []string
	for _, p := range e.Params {
		n = append(n, p.Name)
	}
	return strings.Join(n, ", ")
}

// spec renders a canonical spec: the name and the parameters that differ
// from their defaults, in the entry's order.
func spec(name string, a Args) string {
	e, _ := Lookup(name)
	var kv []string
	for _, p := range e.Params {
		if v := a.vals[p.Name]; v != p.Default {
			kv = append(kv, p.Name+"="+v)
		}
	}
	if len(kv) == 0 {
		return name
	}
	return name + ":" + strings.Join(kv, ",")
}

// composite applies its parts in order before each call.
type composite struct{ parts []simulate.Policy }

func (c *composite) Name() string {
	n := make([]string, len(c.parts))
	for i, p := range c.parts {
		n[i] = p.Name()
	}
	return strings.Join(n, "+")
}

func (c *composite) Before(s *simulate.State) {
	for _, p := range c.parts {
		p.Before(s)
	}
}
