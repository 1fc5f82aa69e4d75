package policies

import (
	"strconv"
	"time"

	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate"
)

// compactableTools are the tools whose results Claude Code's
// micro-compaction clears (seed 000, COMPACTABLE_TOOLS).
var compactableTools = map[string]bool{
	"Read": true, "Bash": true, "Grep": true, "Glob": true,
	"WebSearch": true, "WebFetch": true, "Edit": true, "Write": true,
}

// Micro-compaction by version. The size-based variant is seed 000's
// (Claude Code 2.1.7), and the one microcompact_boundary seen in real
// transcripts is 2.1.19's; no 1.0/2.0 transcript and none from 2.1.22 on
// has one, and replaying real sessions of those versions with
// micro-compaction on moves their first auto-compaction away from the real
// one. So the default is size-based from MicroFrom up to MicroUntil and off
// elsewhere. The transcripts only place the end between 2.1.19 and 2.1.22,
// so it is taken where they show the output reservation change
// (simulate.ReservedNewFrom): one version boundary, not two that could
// drift apart. The later variant the community reports (keep 5, when idle
// longer than the cache TTL) is micro=time.
const (
	MicroFrom  = "2.1.0"
	MicroUntil = simulate.ReservedNewFrom // exclusive
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

// The size variant's defaults, which claude-code-sm's micro-compaction
// uses too.
const (
	microMinSavings = 20_000 // skip a clearing that would free less
	microTarget     = 40_000 // clear until the remaining results fit in this
)

func init() {
	register(Entry{
		Name: "claude-code",
		Doc: "Claude Code's own scheme: micro-compaction of old tool results, then auto-compaction at the threshold " +
			"with a summary and restored files and todos. The version (default: the session's own) picks the " +
			"output reservation and the micro-compaction variant.",
		Source: "seeds 000, 002, 004; reference.md §1",
		Params: []Param{
			{Name: "version", Default: "", Doc: "Claude Code version to model; empty: each call's recorded version"},
			{Name: "reserve", Default: "0", Doc: "reserved output tokens; 0: 32000 before 2.1.22, 20000 from 2.1.22"},
			{Name: "window", Default: "0", Doc: "context window; 0: 200000, 1000000 for [1m] models"},
			{Name: "buffer", Default: "13000", Doc: "auto-compact buffer below the available window"},
			{Name: "pct", Default: "0", Doc: "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE (can only lower the threshold); 0: unset"},
			{Name: "auto", Default: "true", Doc: "auto-compaction enabled"},
			{Name: "micro", Default: "", Doc: "micro-compaction: size (seed 000), time (idle longer than the TTL, keep 5), off; empty: size for 2.1.0–2.1.21, off otherwise (the versions whose transcripts show it)"},
			{Name: "keep", Default: "0", Doc: "tool results micro-compaction keeps; 0: 3 (size), 5 (time)"},
			{Name: "min_savings", Default: strconv.Itoa(microMinSavings), Doc: "size variant: skip when it would free less"},
			{Name: "target", Default: strconv.Itoa(microTarget), Doc: "size variant: clear oldest results until the rest fit in this many tokens"},
			{Name: "idle", Default: "0", Doc: "time variant: idle minutes that trigger it; 0: the session's cache TTL"},
			{Name: "restore", Default: "true", Doc: "re-attach recent files (5 × 5000, 50000 in all) and todos after a compaction"},
		},
		New: newClaudeCode,
	})
}

type claudeCode struct {
	named
	version    string
	limits     simulate.LimitParams
	auto       bool
	micro      microMode
	keep       int
	minSavings int64
	target     int64
	idle       time.Duration
	restore    bool
}

func newClaudeCode(a Args) (simulate.Policy, error) {
	p := &claudeCode{named: named{a}, version: a.String("version")}
	var keep, idle int64
	err := a.ints([]intParam{{"reserve", &p.limits.Reserved, 0}, {"window", &p.limits.Window, 0},
		{"buffer", &p.limits.Buffer, 0}, {"keep", &keep, 0}, {"min_savings", &p.minSavings, 0},
		{"target", &p.target, 0}, {"idle", &idle, 0}})
	if err != nil {
		return nil, err
	}
	if p.limits.Pct, err = a.Pct("pct"); err != nil {
		return nil, err
	}
	if p.auto, err = a.Bool("auto"); err != nil {
		return nil, err
	}
	if p.restore, err = a.Bool("restore"); err != nil {
		return nil, err
	}
	if p.micro, err = parseMicro(a); err != nil {
		return nil, err
	}
	p.limits.AutoCompactOff = !p.auto
	p.keep = int(keep)
	p.idle = time.Duration(idle) * time.Minute
	return p, nil
}

// parseMicro checks the micro parameter of claude-code and claude-code-sm.
func parseMicro(a Args) (microMode, error) {
	switch m := microMode(a.String("micro")); m {
	case microByVersion, microSize, microTime, microOff:
		return m, nil
	default:
		return "", a.errorf("micro=%q: want size, time or off", m)
	}
}

func (p *claudeCode) Before(s *simulate.State) {
	version := p.version
	if version == "" {
		version = s.Version
	}
	limits := s.LimitsFor(p.limits, version)
	micro, keep := p.micro, p.keep
	if micro == microByVersion {
		micro = microOff
		if version != "" && replay.CompareVersions(version, MicroFrom) >= 0 && replay.CompareVersions(version, MicroUntil) < 0 {
			micro = microSize
		}
	}
	if keep == 0 {
		keep = 3
		if micro == microTime {
			keep = 5
		}
	}
	switch micro {
	case microSize:
		if s.Trigger >= limits.Warning {
			p.sizeMicro(s, keep)
		}
	case microTime:
		idle := p.idle
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
	if p.auto && !limits.AutoCompactOff && s.Trigger >= limits.Threshold {
		s.Compact(simulate.Compaction{From: 1, To: len(s.Items), Restore: p.restore, Label: "auto"})
	}
}

// sizeMicro is seed 002's microCompactToolResults: keep the last keep
// compactable results, clear the oldest while the rest exceed the target,
// and only if that frees at least min_savings.
func (p *claudeCode) sizeMicro(s *simulate.State, keep int) {
	ids := compactable(s)
	if len(ids) <= keep {
		return
	}
	var total int64
	for _, j := range ids {
		total += s.Items[j].Tokens
	}
	var clear []int
	var savings int64
	for _, j := range ids[:len(ids)-keep] {
		if total-savings <= p.target {
			break
		}
		clear = append(clear, j)
		savings += s.Items[j].Tokens
	}
	if savings >= p.minSavings {
		s.Clear(clear, "micro")
	}
}

// compactable returns the indexes of the results of compactable tools not
// yet cleared, oldest first.
func compactable(s *simulate.State) []int {
	var out []int
	for j, it := range s.Items {
		if it.Kind == simulate.KindToolResult && !it.Cleared && compactableTools[it.Tool] {
			out = append(out, j)
		}
	}
	return out
}
