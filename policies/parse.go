package policies

import (
	"fmt"
	"strings"

	"github.com/ctxlab/ctxlab/internal/param"
	"github.com/ctxlab/ctxlab/simulate"
)

// Parse makes a fresh policy of one spec: "name" or
// "name:key=value,key=value", or several joined by "+" into a composition
// applied left to right ("keep-last-n:n=10+summary-nm:n=21,m=10"). Errors
// name the policy and the offending key, or the value and what the
// parameter takes. A command that runs a spec on many sessions compiles it
// once (Compile) and asks the compiled spec for a fresh policy per run.
func Parse(spec string) (simulate.Policy, error) {
	c, err := Compile(spec)
	if err != nil {
		return nil, err
	}
	return c.New(), nil
}

// compile checks a spec of d, given what follows the colon, and returns
// what makes a fresh policy of it with the values given and its defaults
// for the rest. The policy's name is d's name and the parameters whose
// canonical value differs from the default, in order.
func (d *policyDef) compileSpec(spec string) (Compiled, error) {
	given, values, err := d.compile(spec)
	if err != nil {
		return Compiled{}, err
	}
	name, sep := d.name, ":"
	for _, v := range values {
		if v.Value != v.Default {
			name += sep + v.Name + "=" + v.Value
			sep = ","
		}
	}
	return Compiled{name: name, fresh: func() simulate.Policy { return d.fresh(given, name) }}, nil
}

// compile checks spec (what follows the colon) on a fresh policy of d and
// returns the values given, in the parameters' order, with every
// parameter's canonical value. Unknown keys are reported before bad
// values, and bad values in the parameters' order; a key given twice takes
// the last value.
func (d *policyDef) compile(spec string) ([]given, []Setting, error) {
	p, params := d.new()
	byName := map[string]string{}
	if spec != "" {
		for _, kv := range strings.Split(spec, ",") {
			k, v, ok := strings.Cut(kv, "=")
			k = strings.TrimSpace(k)
			if !ok {
				return nil, nil, d.errorf("parameter %q has no value (want key=value)", k)
			}
			if !hasParam(params, k) {
				return nil, nil, d.errorf("unknown parameter %q (%s)", k, knownParams(params))
			}
			byName[k] = strings.TrimSpace(v)
		}
	}
	var gs []given
	values := make([]Setting, len(params))
	for i, par := range params {
		values[i] = Setting{Name: par.Name, Value: par.Default, Default: par.Default}
		v, ok := byName[par.Name]
		if !ok {
			continue
		}
		canon, ok := par.Set(v)
		if !ok {
			return nil, nil, d.errorf("%s=%q: want %s", par.Name, v, par.Takes)
		}
		values[i].Value = canon
		gs = append(gs, given{param: i, value: v})
	}
	if c, ok := p.(checker); ok {
		if err := c.check(); err != nil {
			return nil, nil, d.errorf("%v", err)
		}
	}
	return gs, values, nil
}

// given is a value a spec gives a parameter (by its index in d.new's
// list), as written.
type given struct {
	param int
	value string
}

// fresh makes a policy of d with the values compile checked.
func (d *policyDef) fresh(gs []given, name string) simulate.Policy {
	p, params := d.new()
	for _, g := range gs {
		if _, ok := params[g.param].Set(g.value); !ok {
			panic(fmt.Sprintf("policies: %s=%q was accepted once and refused again", params[g.param].Name, g.value))
		}
	}
	p.setName(name)
	return p
}

// checker is a policy whose parameters must agree with each other; check
// says how they do not.
type checker interface{ check() error }

// A Setting is the value one parameter takes in a spec.
type Setting struct {
	Name    string
	Value   string // canonical form
	Default string // the policy's default, in canonical form
}

// Settings gives every parameter of a one-policy spec ("name" or
// "name:key=value,…"; not a "+" composition) with the value the spec sets,
// in canonical form, or the default where it sets none.
func Settings(spec string) ([]Setting, error) {
	spec = strings.TrimSpace(spec)
	name, params, _ := strings.Cut(spec, ":")
	if strings.Contains(spec, "+") {
		return nil, fmt.Errorf("policy spec %q: a composition has no single set of parameters", spec)
	}
	d, ok := lookup(name)
	if !ok {
		return nil, unknown(name)
	}
	_, values, err := d.compile(params)
	return values, err
}

// Defaults gives, for each one-policy spec, every parameter's value in
// canonical form: the spec's own, else the policy's default (Settings),
// by name.
func Defaults(specs []string) (map[string]map[string]string, error) {
	out := map[string]map[string]string{}
	for _, spec := range specs {
		settings, err := Settings(spec)
		if err != nil {
			return nil, err
		}
		m := map[string]string{}
		for _, s := range settings {
			m[s.Name] = s.Value
		}
		out[spec] = m
	}
	return out, nil
}

func hasParam(params []param.Param, name string) bool {
	for _, p := range params {
		if p.Name == name {
			return true
		}
	}
	return false
}

// knownParams says which keys an unknown one could have been.
func knownParams(params []param.Param) string {
	if len(params) == 0 {
		return "this policy takes no parameters"
	}
	n := make([]string, len(params))
	for i, p := range params {
		n[i] = p.Name
	}
	return "want one of " + strings.Join(n, ", ")
}

// ParseList makes a fresh policy of each spec of a list, as CompileList
// reads it.
func ParseList(list string) ([]simulate.Policy, error) {
	cs, err := CompileList(list)
	if err != nil {
		return nil, err
	}
	out := make([]simulate.Policy, len(cs))
	for i, c := range cs {
		out[i] = c.New()
	}
	return out, nil
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

// ReplaysManual reports whether any part models Claude Code.
func (c *composite) ReplaysManual() bool {
	for _, p := range c.parts {
		if r, ok := p.(simulate.ManualReplayer); ok && r.ReplaysManual() {
			return true
		}
	}
	return false
}

// CompactAt is the lowest of the parts' thresholds, the first a growing
// context reaches; 0 when no part has one.
func (c *composite) CompactAt(s *simulate.State) int64 {
	var at int64
	for _, p := range c.parts {
		if t, ok := p.(simulate.Thresholder); ok {
			if v := t.CompactAt(s); v > 0 && (at == 0 || v < at) {
				at = v
			}
		}
	}
	return at
}

func (c *composite) Before(s *simulate.State) {
	for _, p := range c.parts {
		p.Before(s)
	}
}
