package policies

import (
	"fmt"
	"math"
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
}

// errorf returns an error that names the policy:
// `policy "name": ` followed by the formatted message.
func (a Args) errorf(format string, args ...any) error {
	return fmt.Errorf("policy %q: "+format, append([]any{a.policy}, args...)...)
}

// String returns a parameter's value.
func (a Args) String(name string) string { return a.vals[name] }

// Int, Positive, Float, Pct and Bool parse a parameter and store its
// canonical form, so that a policy's name lists a default written
// differently (pct=80.0, n=010, tokens=100_000) as the default it is.

// Int parses a whole-number parameter (≥ 0).
func (a Args) Int(name string) (int64, error) { return a.intMin(name, 0) }

// Positive parses a whole-number parameter that must be 1 or more.
func (a Args) Positive(name string) (int64, error) { return a.intMin(name, 1) }

// intMin parses a whole-number parameter of at least least.
func (a Args) intMin(name string, least int64) (int64, error) {
	v := a.vals[name]
	n, err := strconv.ParseInt(strings.ReplaceAll(v, "_", ""), 10, 64)
	if err != nil || n < least {
		return 0, a.errorf("%s=%q: want a whole number ≥ %d", name, v, least)
	}
	a.vals[name] = strconv.FormatInt(n, 10)
	return n, nil
}

// intParam is a whole-number parameter for Args.ints: its name, where it
// goes, and its least value.
type intParam struct {
	name  string
	dst   *int64
	least int64
}

// ints parses whole-number parameters in order, stopping at the first
// error.
func (a Args) ints(params []intParam) error {
	for _, p := range params {
		n, err := a.intMin(p.name, p.least)
		if err != nil {
			return err
		}
		*p.dst = n
	}
	return nil
}

// Float parses a number parameter (≥ 0). NaN and infinities are rejected:
// NaN would pass every range check a policy makes.
func (a Args) Float(name string) (float64, error) {
	v := a.vals[name]
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, a.errorf("%s=%q: want a finite number ≥ 0", name, v)
	}
	f += 0 // -0 → 0
	a.vals[name] = strconv.FormatFloat(f, 'g', -1, 64)
	return f, nil
}

// Pct parses a percentage from 0 to 100 (CLAUDE_AUTOCOMPACT_PCT_OVERRIDE;
// 0: unset).
func (a Args) Pct(name string) (float64, error) {
	f, err := a.Float(name)
	if err == nil && f > 100 {
		return 0, a.errorf("%s=%v: want 0 to 100", name, f)
	}
	return f, err
}

// Bool parses a boolean parameter.
func (a Args) Bool(name string) (bool, error) {
	v := a.vals[name]
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, a.errorf("%s=%q: want true or false", name, v)
	}
	a.vals[name] = strconv.FormatBool(b)
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
	a := Args{policy: name, vals: map[string]string{}}
	for _, p := range e.Params {
		a.vals[p.Name] = p.Default
	}
	if params != "" {
		for _, kv := range strings.Split(params, ",") {
			k, v, ok := strings.Cut(kv, "=")
			k = strings.TrimSpace(k)
			if !ok {
				return nil, a.errorf("parameter %q has no value (want key=value)", k)
			}
			if _, known := a.vals[k]; !known {
				return nil, a.errorf("unknown parameter %q (want one of %s)", k, paramNames(e))
			}
			a.vals[k] = strings.TrimSpace(v)
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

// named gives a policy built from Args its Name: the canonical spec, the
// policy's name and the parameters that differ from their defaults, in the
// entry's order.
type named struct{ args Args }

func (n named) Name() string {
	a := n.args
	e, ok := Lookup(a.policy)
	if !ok {
		return a.policy
	}
	var kv []string
	for _, p := range e.Params {
		if v := a.vals[p.Name]; v != p.Default {
			kv = append(kv, p.Name+"="+v)
		}
	}
	if len(kv) == 0 {
		return a.policy
	}
	return a.policy + ":" + strings.Join(kv, ",")
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
