package policies

import (
	"github.com/ctxlab/ctxlab/internal/param"
	"github.com/ctxlab/ctxlab/simulate"
)

var thresholdDef = policyDef{
	name: "threshold",
	doc: "Full compaction whenever the exact context reaches pct% of the window: everything after the " +
		"system prompt and tools is replaced by one summary. The simplest compaction baseline.",
	source: "common baseline (Claude Code's auto-compaction without its buffer and micro-compaction)",
	new: func() (policy, []param.Param) {
		p := &threshold{}
		return p, []param.Param{
			param.Number(&p.pct, "pct", 80, param.Span{Lo: 0, Hi: 100, Open: true}, "percentage of the window at which to compact (0 < pct ≤ 100)"),
			param.Whole(&p.window, "window", 0, 0, "window in tokens; 0: the model's (200000, 1000000 for [1m] models)"),
			param.Bool(&p.restore, "restore", false, "re-attach recent files and todos after the summary, as Claude Code does"),
		}
	},
}

type threshold struct {
	named
	pct     float64
	window  int64
	restore bool
}

// CompactAt is ⌊window × pct / 100⌋.
func (p *threshold) CompactAt(s *simulate.State) int64 {
	w := p.window
	if w == 0 {
		w = s.Limits.Window // claudecode.LimitsFor: by model, unless the run overrides it
	}
	return int64(float64(w) * p.pct / 100)
}

// Before compacts everything when s.Tokens ≥ CompactAt.
func (p *threshold) Before(s *simulate.State) {
	if s.Tokens >= p.CompactAt(s) {
		s.Compact(simulate.Compaction{From: 1, To: len(s.Items), Restore: p.restore, Label: "threshold"})
	}
}
