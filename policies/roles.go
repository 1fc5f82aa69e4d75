package policies

// The policies that play a part in a report whatever a command lists,
// named here once: the recorded run is compare's and sweep's default
// baseline, gate's recorded figures and the fidelity table's reference;
// Claude Code's own scheme, at its defaults, is the fidelity table's model
// of it (docs/compare.md).
var (
	observedRun   = mustCompile(&observedDef)
	claudeCodeRun = mustCompile(&claudeCodeDef)
)

// Observed is the policy that replays what happened: the session's own
// compactions, its prompts fitted to the recorded ones.
func Observed() Compiled { return observedRun }

// ClaudeCode is Claude Code's own scheme at its defaults.
func ClaudeCode() Compiled { return claudeCodeRun }

// IsObserved reports whether a canonical name is Observed's: the run a
// budget calls the recorded one.
func IsObserved(name string) bool { return name == observedRun.name }

// mustCompile compiles a registered policy at its defaults, which cannot
// fail: a policy's defaults satisfy its own checks (TestRegistry).
func mustCompile(d *policyDef) Compiled {
	c, err := d.compileSpec("")
	if err != nil {
		panic(err)
	}
	return c
}

// Grid is the registry as simulate/sweep's grid takes it: a policy's
// parameter names, and a spec's canonical name.
type Grid struct{}

// Params are the names of a policy's parameters, in canonical order.
func (Grid) Params(name string) ([]string, bool) {
	d, ok := lookup(name)
	if !ok {
		return nil, false
	}
	_, params := d.new()
	out := make([]string, len(params))
	for i, p := range params {
		out[i] = p.Name
	}
	return out, true
}

// Canon is Canon.
func (Grid) Canon(spec string) (string, error) { return Canon(spec) }
