package policies

import (
	"fmt"
	"time"

	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/internal/param"
	"github.com/ctxlab/ctxlab/simulate"
)

// microMode is claude-code's micro parameter: the variant of
// micro-compaction, or microByVersion to pick it by version.
type microMode string

const (
	microByVersion microMode = ""
	microSize      microMode = "size"
	microTime      microMode = "time"
	microOff       microMode = "off"
)

// The size variant's defaults (Claude Code's), which claude-code-sm's
// micro-compaction uses too.
var (
	microMinSavings = claudecode.MicroMinSavings.Value // skip a clearing that would free less
	microTarget     = claudecode.MicroTarget.Value     // clear until the remaining results fit in this
)

// The tool results micro-compaction keeps when the keep parameter is 0, by
// variant.
var microKeepSize = claudecode.MicroKeep.Value

const microKeepTime = 5

var claudeCodeDef = policyDef{
	name: "claude-code",
	doc: "Claude Code's own scheme: micro-compaction of old tool results, then auto-compaction at the threshold " +
		"with a summary and restored files and todos. The version (default: the session's own) picks the " +
		"output reservation and the micro-compaction variant.",
	source: "Claude Code's bundled cli.js, 2.1.x (auto-compaction, micro-compaction, token accounting); thresholds as compact_boundary preTokens show them in 2.0.76–2.1.146 transcripts",
	new: func() (policy, []param.Param) {
		p := &claudeCode{}
		return p, []param.Param{
			param.OptionalVersion(&p.version, "version", "", "Claude Code version to model; empty: each call's recorded version"),
			reserveParam(&p.limits.Reserved),
			param.Whole(&p.limits.Window, "window", 0, 0, "context window; 0: 200000, 1000000 for [1m] models"),
			param.Whole(&p.limits.Buffer, "buffer", claudecode.AutoCompactBuffer.Value, 1, "auto-compact buffer below the available window"),
			pctParam(&p.limits.Pct),
			param.Bool(&p.auto, "auto", true, "auto-compaction enabled"),
			microParam(&p.micro.mode, "micro-compaction: size (2.1.7's), time (idle longer than the TTL, keep 5), off; "+
				"empty: size for 2.1.0–2.1.21, off otherwise (the versions whose transcripts show it)"),
			param.Whole(&p.micro.keep, "keep", 0, 0, "tool results micro-compaction keeps; 0: 3 (size), 5 (time)"),
			param.Whole(&p.micro.minSavings, "min_savings", microMinSavings, 0, "size variant: skip when it would free less"),
			param.Whole(&p.micro.target, "target", microTarget, 0, "size variant: clear oldest results until the rest fit in this many tokens"),
			param.Whole(&p.micro.idle, "idle", 0, 0, "time variant: idle minutes that trigger it; 0: the session's cache TTL"),
			param.Bool(&p.restore, "restore", true, "re-attach recent files (5 × 5000, 50000 in all) and todos after a compaction"),
		}
	},
}

// The parameters claude-code shares with the policies that use its
// thresholds.

func reserveParam(dst *int64) param.Param {
	return param.Whole(dst, "reserve", 0, 0, "reserved output tokens; 0: 32000 before 2.1.22, 20000 from 2.1.22")
}

// checkRoom checks that a window set by hand leaves room for the largest
// output reservation and the buffer below it, as a threshold above zero
// needs.
func checkRoom(l claudecode.LimitParams) error {
	if l.Window == 0 {
		return nil
	}
	reserve, buffer := l.Reserved, l.Buffer
	if reserve == 0 {
		reserve = max(claudecode.ReservedOld.Value, claudecode.ReservedNew.Value)
	}
	if buffer == 0 {
		buffer = claudecode.AutoCompactBuffer.Value
	}
	if l.Window <= reserve+buffer {
		return fmt.Errorf("window=%d leaves no room for a threshold: want 0 (the model's) or more than reserve + buffer (%d + %d)", l.Window, reserve, buffer)
	}
	return nil
}

func (p *claudeCode) check() error { return checkRoom(p.limits) }

func pctParam(dst *float64) param.Param {
	return param.Number(dst, "pct", 0, param.Percent, "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE (can only lower the threshold); 0: unset")
}

func microParam(dst *microMode, doc string) param.Param {
	return param.OneOf(dst, "micro", microByVersion, doc, microSize, microTime, microOff, microByVersion)
}

type claudeCode struct {
	named
	version string
	limits  claudecode.LimitParams
	auto    bool
	micro   microCompaction
	restore bool
}

// ReplaysManual: claude-code models Claude Code, whose user's /compact
// the run replays (simulate.ManualReplayer).
func (p *claudeCode) ReplaysManual() bool { return true }

func (p *claudeCode) Before(s *simulate.State) {
	version, limits := p.limitsAt(s)
	p.micro.run(s, version, limits)
	if p.auto && !limits.AutoCompactOff && s.Trigger >= limits.Threshold {
		s.Compact(simulate.Compaction{From: 1, To: len(s.Items), Restore: p.restore, Version: p.version, Label: "auto"})
	}
}

// limitsAt returns the Claude Code version the run models at the call s
// describes and its limits under the policy's parameters.
func (p *claudeCode) limitsAt(s *simulate.State) (string, claudecode.Limits) {
	version := p.version
	if version == "" {
		version = s.Version
	}
	params := p.limits
	params.AutoCompactOff = !p.auto
	return version, s.LimitsFor(params, version)
}

// CompactAt is the auto-compact threshold, none with auto=false or when
// the session's prompts show auto-compaction off.
func (p *claudeCode) CompactAt(s *simulate.State) int64 {
	_, limits := p.limitsAt(s)
	if !p.auto || limits.AutoCompactOff {
		return 0
	}
	return limits.Threshold
}

// microCompaction is Claude Code's micro-compaction as claude-code's
// parameters configure it; claude-code-sm runs it with their defaults.
type microCompaction struct {
	mode       microMode
	keep       int   // 0: microKeepSize or microKeepTime
	minSavings int64 // size variant
	target     int64 // size variant
	idle       int64 // time variant, in minutes; 0: the session's cache TTL
}

// run clears old tool results before a call of version, whose thresholds
// are limits, as the variant of micro-compaction m.mode picks does.
func (m microCompaction) run(s *simulate.State, version string, limits claudecode.Limits) {
	mode, keep := m.mode, m.keep
	if mode == microByVersion {
		mode = microOff
		if simulate.MicroByDefault(version, s.Micro) {
			mode = microSize
		}
	}
	if keep == 0 {
		keep = microKeepSize
		if mode == microTime {
			keep = microKeepTime
		}
	}
	switch mode {
	case microSize:
		if s.Trigger >= limits.Warning {
			m.sizeMicro(s, keep)
		}
	case microTime:
		idle := time.Duration(m.idle) * time.Minute
		if idle == 0 {
			idle = s.TTL
		}
		if s.GapMs > idle.Milliseconds() {
			ids := compactable(s)
			if len(ids) > keep {
				s.Clear(ids[:len(ids)-keep], "micro (idle)")
			}
		}
	}
}

// sizeMicro is Claude Code's microCompactToolResults (bundled cli.js, 2.1.x): keep the last keep
// compactable results, clear the oldest while the rest exceed the target,
// and only if that frees at least min_savings. Claude Code measures the
// results by its estimate (length/4): a 2.1.19 microcompact_boundary's
// preTokens (59,492) is the results' estimate, and its tokensSaved
// (21,761) left 37,731, under the 40,000 target.
func (m microCompaction) sizeMicro(s *simulate.State, keep int) {
	ids := compactable(s)
	ests := make([]int64, len(ids))
	for k, j := range ids {
		ests[k] = int64(s.Items[j].Est)
	}
	if n, freed := claudecode.MicroClears(ests, keep, m.target); freed >= m.minSavings {
		s.Clear(ids[:n], "micro")
	}
}

// compactable returns the indexes of the results of compactable tools not
// yet cleared, oldest first.
func compactable(s *simulate.State) []int {
	var out []int
	for j, it := range s.Items {
		if it.Kind == simulate.KindToolResult && !it.Cleared && claudecode.Compactable(it.Tool) {
			out = append(out, j)
		}
	}
	return out
}
