package policies

import (
	"fmt"
	"strings"

	"github.com/ctxlab/ctxlab/internal/param"
	"github.com/ctxlab/ctxlab/simulate"
)

// Parse compiles one policy spec: "name" or "name:key=value,key=value", or
// several joined by "+" into a composition applied left to right
// ("keep-last-n:n=10+summary-nm:n=21,m=10"). Errors name the policy and
// the offending key, or the value and what the parameter takes. Each call
// returns a fresh policy.
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
	d, ok := lookup(name)
	if !ok {
		return nil, fmt.Errorf("unknown policy %q (see ctxlab policies; known: %s)", name, strings.Join(Names(), ", "))
	}
	return d.parse(params)
}

// parse compiles a spec of d, given what follows the colon: a fresh policy
// with the values given and its defaults for the rest. Its name is d's name
// and the parameters whose canonical value differs from the default, in
// order.
func (d *policyDef) parse(spec string) (simulate.Policy, error) {
	p, values, err := d.compile(spec)
	if err != nil {
		return nil, err
	}
	name, sep := d.name, ":"
	for _, v := range values {
		if v.Value != v.Default {
			name += sep + v.Name + "=" + v.Value
			sep = ","
		}
	}
	p.setName(name)
	return p, nil
}

// compile sets a fresh policy of d from spec (what follows the colon) and
// returns it with every parameter's canonical value, in the parameters'
// order. Unknown keys are reported before bad values, and bad values in
// the parameters' order; a key given twice takes the last value.
func (d *policyDef) compile(spec string) (policy, []Setting, error) {
	p, params := d.new()
	given := map[string]string{}
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
			given[k] = strings.TrimSpace(v)
		}
	}
	values := make([]Setting, len(params))
	for i, par := range params {
		values[i] = Setting{Name: par.Name, Value: par.Default, Default: par.Default}
		v, ok := given[par.Name]
		if !ok {
			continue
		}
		canon, ok := par.Set(v)
		if !ok {
			return nil, nil, d.errorf("%s=%q: want %s", par.Name, v, par.Takes)
		}
		values[i].Value = canon
	}
	if c, ok := p.(checker); ok {
		if err := c.check(); err != nil {
			return nil, nil, d.errorf("%v", err)
		}
	}
	return p, values, nil
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
		return nil, fmt.Errorf("unknown policy %q (see ctxlab policies; known: %s)", name, strings.Join(Names(), ", "))
	}
	_, values, err := d.compile(params)
	return values, err
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

// ParseList splits a comma-separated list of specs, as `--policy a,b,c`
// gives them. A piece with "=" and no ":" continues the previous spec's
// parameters: "keep-last-n:n=10,polling=5,none" is two policies. Two specs
// of the same policy with the same settings (keep-last-n and
// keep-last-n:n=10) are an error: their runs would be the same.
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
	given := map[string]string{}
	for _, s := range specs {
		p, err := Parse(s)
		if err != nil {
			return nil, err
		}
		if first, ok := given[p.Name()]; ok {
			return nil, fmt.Errorf("%q and %q are the same policy, %s: give it once", first, s, p.Name())
		}
		given[p.Name()] = s
		out = append(out, p)
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
