package policies

import "github.com/ctxlab/ctxlab/simulate"

func init() {
	register(Entry{
		Name: "threshold",
		Doc: "Full compaction whenever the exact context reaches pct% of the window: everything after the " +
			"system prompt and tools is replaced by one summary. The simplest compaction baseline.",
		Source: "common baseline (Claude Code's auto-compaction without its buffer and micro-compaction)",
		Params: []Param{
			{Name: "pct", Default: "80", Doc: "percentage of the window at which to compact (0 < pct ≤ 100)"},
			{Name: "window", Default: "0", Doc: "window in tokens; 0: the model's (200000, 1000000 for [1m] models)"},
			{Name: "restore", Default: "false", Doc: "re-attach recent files and todos after the summary, as Claude Code does"},
		},
		New: newThreshold,
	})
}

type threshold struct {
	named
	pct     float64
	window  int64
	restore bool
}

func newThreshold(a Args) (simulate.Policy, error) {
	p := &threshold{named: named{a}}
	var err error
	if p.pct, err = a.Float("pct"); err != nil {
		return nil, err
	}
	if p.pct <= 0 || p.pct > 100 {
		return nil, a.errorf("pct=%v: want more than 0, at most 100", p.pct)
	}
	if p.window, err = a.Int("window"); err != nil {
		return nil, err
	}
	if p.restore, err = a.Bool("restore"); err != nil {
		return nil, err
	}
	return p, nil
}

// Before compacts everything when s.Tokens ≥ ⌊window × pct / 100⌋.
func (p *threshold) Before(s *simulate.State) {
	w := p.window
	if w == 0 {
		w = s.Limits.Window // simulate.LimitsFor: by model, unless the run overrides it
	}
	if s.Tokens >= int64(float64(w)*p.pct/100) {
		s.Compact(simulate.Compaction{From: 1, To: len(s.Items), Restore: p.restore, Label: "threshold"})
	}
}
