package policies

import "github.com/ctxlab/ctxlab/simulate"

// Run replays a trace under a policy spec. The policy is compiled afresh
// for the run, since a policy may keep state across the calls of a run;
// every command that replays a session goes through Run or RunList.
func Run(tr *simulate.Trace, spec string, cfg simulate.Config) (*simulate.Result, error) {
	p, err := Parse(spec)
	if err != nil {
		return nil, err
	}
	return simulate.Run(tr, p, cfg), nil
}

// RunList replays a trace under each policy of a list (ParseList's
// syntax), in order, each compiled afresh.
func RunList(tr *simulate.Trace, list string, cfg simulate.Config) ([]*simulate.Result, error) {
	ps, err := ParseList(list)
	if err != nil {
		return nil, err
	}
	out := make([]*simulate.Result, len(ps))
	for i, p := range ps {
		out[i] = simulate.Run(tr, p, cfg)
	}
	return out, nil
}
