package policies

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ctxlab/ctxlab/simulate"
)

// A Compiled is a policy spec checked once: its canonical name, and a
// fresh policy of it for each run. A policy may keep state across the
// calls of a run, so two runs never share one; compiling once means a
// command that replays many sessions checks its specs before reading any,
// and has no error left to handle per session.
type Compiled struct {
	name  string
	fresh func() simulate.Policy
}

// Name is the canonical spec ("keep-last-n:n=10"): the name of every
// policy New makes and of every run.
func (c Compiled) Name() string { return c.name }

// New makes a fresh policy of the spec.
func (c Compiled) New() simulate.Policy { return c.fresh() }

// Run replays a trace under a fresh policy of the spec.
func (c Compiled) Run(tr *simulate.Trace, cfg simulate.Config) *simulate.Result {
	return simulate.Run(tr, c.New(), cfg)
}

// Compile checks one spec: "name" or "name:key=value,key=value", or
// several joined by "+" into a composition applied left to right
// ("keep-last-n:n=10+summary-nm:n=21,m=10"). Errors name the policy and
// the offending key, or the value and what the parameter takes. A
// composition holds neither observed (the recording, which decides
// nothing to compose with), nor one part twice, nor two models of Claude
// Code (claude-code, claude-code-sm): each would run two compactions of
// one scheme.
func Compile(spec string) (Compiled, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return Compiled{}, fmt.Errorf("empty policy spec")
	}
	if parts := strings.Split(spec, "+"); len(parts) > 1 {
		cs := make([]Compiled, len(parts))
		names := make([]string, len(parts))
		manual := ""
		for i, part := range parts {
			c, err := Compile(part)
			if err != nil {
				return Compiled{}, err
			}
			p := c.New()
			if o, ok := p.(simulate.Observer); ok && o.Observed() {
				return Compiled{}, fmt.Errorf("%q: %s is the recorded run and composes with nothing", spec, c.name)
			}
			if slices.Contains(names[:i], c.name) {
				return Compiled{}, fmt.Errorf("%q: %s is given twice", spec, c.name)
			}
			if r, ok := p.(simulate.ManualReplayer); ok && r.ReplaysManual() {
				if manual != "" {
					return Compiled{}, fmt.Errorf("%q: %s and %s both model Claude Code's compaction: give one", spec, manual, c.name)
				}
				manual = c.name
			}
			cs[i], names[i] = c, c.name
		}
		return Compiled{name: strings.Join(names, "+"), fresh: func() simulate.Policy {
			ps := make([]simulate.Policy, len(cs))
			for i, c := range cs {
				ps[i] = c.New()
			}
			return &composite{parts: ps}
		}}, nil
	}
	name, params, _ := strings.Cut(spec, ":")
	d, ok := lookup(name)
	if !ok {
		return Compiled{}, unknown(name)
	}
	return d.compileSpec(params)
}

func unknown(name string) error {
	return fmt.Errorf("unknown policy %q (see ctxlab policies; known: %s)", name, strings.Join(Names(), ", "))
}

// CompileList compiles a comma-separated list of specs, as `--policy
// a,b,c` gives them. A piece with "=" and no ":" continues the previous
// spec's parameters: "keep-last-n:n=10,polling=5,none" is two policies.
// Two specs of the same policy with the same settings (keep-last-n and
// keep-last-n:n=10) are an error: their runs would be the same.
func CompileList(list string) ([]Compiled, error) {
	var specs []string
	if strings.Trim(list, ", \t") == "" {
		return nil, fmt.Errorf("no policy given")
	}
	for _, piece := range strings.Split(list, ",") {
		piece = strings.TrimSpace(piece)
		if piece == "" {
			return nil, fmt.Errorf("%q: an empty spec between commas", list)
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
	out := make([]Compiled, 0, len(specs))
	given := map[string]string{}
	for _, s := range specs {
		c, err := Compile(s)
		if err != nil {
			return nil, err
		}
		if first, ok := given[c.name]; ok {
			return nil, fmt.Errorf("%q and %q are the same policy, %s: give it once", first, s, c.name)
		}
		given[c.name] = s
		out = append(out, c)
	}
	return out, nil
}

// Names of compiled specs, in order.
func CompiledNames(cs []Compiled) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.name
	}
	return out
}

// Canon is a spec's canonical name, the form runs, budgets and grids name
// it by.
func Canon(spec string) (string, error) {
	c, err := Compile(spec)
	return c.name, err
}
