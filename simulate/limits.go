package simulate

import (
	"fmt"
	"strings"
	"time"

	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/replay"
)

// Limits are Claude Code's context thresholds for one model and version
// (its bundled cli.js, 2.1.x, checked against where real auto-compactions
// fired: compact_boundary preTokens).
type Limits struct {
	Window    int64 `json:"window"`
	Reserved  int64 `json:"reserved_output"`
	Available int64 `json:"available"` // window − reserved output
	Threshold int64 `json:"threshold"` // auto-compact threshold
	Warning   int64 `json:"warning"`   // warning level
	Blocking  int64 `json:"blocking"`  // input blocked
	// AutoCompactOff is set when auto-compaction is off (the policy's
	// setting, or inferred from the session: Trace.Inferred).
	AutoCompactOff bool `json:"auto_compact_off,omitempty"`
}

// Windows and thresholds, each from its source.
const (
	// DefaultWindow is the context window of Claude models; "[1m]"
	// variants have LongWindow (Anthropic's "Context windows"
	// documentation). "[1m]" is the only mark Claude Code reads from a
	// model's name: a gateway's "claude-opus-4.6-1m" (Claude Code 2.1.63)
	// auto-compacted at 168K like a 200K window. A longer window otherwise
	// shows in the recorded prompts (Inferred).
	DefaultWindow = 200_000
	LongWindow    = 1_000_000
	// Reserved output: 32K up to 2.1.19, 20K from 2.1.22 on (measured from
	// where real auto-compactions fired: ≈155K on 200K models in 2.0.76–
	// 2.1.19, ≈167K from 2.1.22). Versions between
	// keep the older value.
	ReservedOld       = 32_000
	ReservedNew       = 20_000
	ReservedNewFrom   = "2.1.22"
	AutoCompactBuffer = 13_000 // cli.js: uL0 / zQ0
	WarningOffset     = 20_000 // rD5 / c97
	BlockingOffset    = 3_000  // mL0
)

// EstimateFrom is the first Claude Code version whose auto-compaction count
// is the last response's usage total (input, cache reads and writes,
// output) plus Claude Code's estimate of every message after the first
// block of that response. Earlier versions count the usage total alone.
// Evidence: compact_boundary's compactMetadata.preTokens equals the last
// call's usage total exactly in 2.0.76 transcripts and exceeds it by the
// estimate of what followed in 2.1.41 and later ones; 1.0.x compactions
// fall where the usage total alone crosses the threshold. No transcript
// between 2.0.76 and 2.1.41 shows a compaction, so the change is placed at
// 2.1.0.
const EstimateFrom = "2.1.0"

// EstimateResponseFrom is the first Claude Code version whose count also
// adds the estimate of the last response's blocks after its first: Claude
// Code writes each block of a response as a message of its own, all with
// the response's usage, and from this version its count walks back to the
// response's first block, so the tool results between the blocks count.
// compactMetadata.preTokens is the usage total plus the estimate of what
// followed the response's last block in 2.1.19 transcripts (exactly, at
// both compactions) and in 2.1.41's, and plus the response's later blocks
// too in 2.1.118–2.1.146's (exactly, at eight). No transcript between has
// a compaction; Claude Code 2.1.88's published source walks back, so the
// change is placed there.
const EstimateResponseFrom = "2.1.88"

// The system prompt prefix kept warm by other requests. Every request of
// the same Claude Code setup (other sessions, other turns) begins with the
// same tool definitions and system prompt, and Claude Code sets a cache
// breakpoint at its end, so that prefix can still be cached when the
// session's own entries have expired. Whether it is, the session's first
// call shows: when it read from the cache (usage.cache_read_input_tokens
// above 0), other requests were keeping the prefix warm. In the
// transcripts the project tests against, every call after the session's
// own entries had expired (same version, directory and model) read such a
// prefix in those sessions (29 of 29, after gaps of 5 to 99 minutes, 1.0.x
// and 2.x alike), and nothing in the others (8 of 8, 9 to 513 minutes).
// A transcript that continues a conversation from its summary (Continues)
// is not such evidence: its first call read what its own compaction had
// just written, and in the one here (1.0.81) the call after a 7.5-minute
// sub-agent run read nothing.
// DefaultSharedPrefixTTL, six hours, covers the longest gap after which
// such a prefix was read (4¾ hours, on a new version); past that the
// transcripts say nothing.
//
// SharedPrefixFrom is the first version whose call on a new Claude Code
// version still reads a system prompt prefix (see turnRewrites).
const (
	SharedPrefixFrom       = "2.0.0"
	DefaultSharedPrefixTTL = 6 * time.Hour
)

// DefaultClockSlack is how much later than its lifetime a cache entry is
// still read, by the transcript's clock (Config.ClockSlack). A
// transcript's timestamps are written when responses arrive, after the
// requests that refreshed the cache, so the time between two recorded
// calls overstates the time between the requests the cache saw. In the
// transcripts the project keeps, Claude calls 300–316 s after the
// previous one read the whole previous prompt (3 of 3) and calls 321–345 s
// after did not (0 of 7).
const DefaultClockSlack = 20 * time.Second

// DefaultGatewayTTL is the cache lifetime assumed for models reached
// through an Anthropic-compatible endpoint. DeepSeek's "Context Caching"
// guide says unused cache entries are cleared "within a few hours to a few
// days". In the DeepSeek transcripts here, calls after gaps of 1.7, 2.6
// and 11.0 hours read the whole previous prompt, and calls after 17.7,
// 18.8 and 49.6 hours read none of it; twelve hours covers the longest
// gap after which the prompt was still read.
const DefaultGatewayTTL = 12 * time.Hour

// DefaultGatewayCacheUnit is the unit in which a model reached through an
// Anthropic-compatible endpoint caches a request's prompt. Such an
// endpoint caches every request's whole prompt, with no breakpoint, and
// its usage reports as input what it did not read, or for some endpoints
// the whole prompt (Trace.MissOnlyInput): never the uncached tail after a
// breakpoint that Anthropic's usage reports.
// DeepSeek's "Context Caching" guide stores prefixes in units of 64
// tokens. In the DeepSeek transcripts here, of the calls that did not
// fall back, 213 read exactly the previous prompt rounded down to 64
// tokens and 193 one unit less; deepseek-v4 calls often read past it,
// into the previous response, which the model does not cache.
const DefaultGatewayCacheUnit = 64

// LimitParams are the overridable inputs of Limits. Zero fields take the
// defaults above.
type LimitParams struct {
	Window   int64   // 0: by model
	Reserved int64   // 0: by version
	Buffer   int64   // 0: AutoCompactBuffer
	Pct      float64 // CLAUDE_AUTOCOMPACT_PCT_OVERRIDE; 0: unset
	// AutoCompactOff computes the warning level from the available window,
	// as Claude Code does when auto-compaction is disabled.
	AutoCompactOff bool
}

// LimitsFor computes the limits for a model and CLI version.
func LimitsFor(p LimitParams, model, version string) Limits {
	l := Limits{Window: p.Window, Reserved: p.Reserved}
	if l.Window == 0 {
		l.Window = DefaultWindow
		if strings.Contains(model, "[1m]") {
			l.Window = LongWindow
		}
	}
	if l.Reserved == 0 {
		l.Reserved = ReservedOld
		if version == "" || replay.CompareVersions(version, ReservedNewFrom) >= 0 {
			l.Reserved = ReservedNew
		}
	}
	buf := p.Buffer
	if buf == 0 {
		buf = AutoCompactBuffer
	}
	l.Available = l.Window - l.Reserved
	l.Threshold = l.Available - buf
	if p.Pct > 0 && p.Pct <= 100 {
		// The override can only lower the threshold (cli.js: aI2).
		l.Threshold = min(int64(float64(l.Available)*p.Pct/100), l.Threshold)
	}
	base := l.Threshold
	if p.AutoCompactOff {
		base = l.Available
		l.AutoCompactOff = true
	}
	l.Warning = base - WarningOffset
	l.Blocking = l.Window - BlockingOffset
	return l
}

// MinPrefix is a row of the minimum cacheable prefix table: a model whose
// id contains Match caches no prefix shorter than Tokens.
type MinPrefix struct {
	Match  string
	Tokens int64
}

// DefaultMinCacheableTokens is the minimum cacheable prefix of the models
// DefaultMinCacheable does not list (Sonnet 4.x, Opus 4/4.1).
const DefaultMinCacheableTokens = 1024

// DefaultMinCacheable returns the minimum cacheable prefix by model
// (Anthropic's "Prompt caching" documentation): 4,096
// for Opus 4.5/4.6 and Haiku 4.5, 2,048 for the other (3.x) Haiku models.
// The first row that matches wins.
func DefaultMinCacheable() []MinPrefix {
	return []MinPrefix{{"opus-4-5", 4096}, {"opus-4-6", 4096}, {"haiku-4-5", 4096}, {"haiku", 2048}}
}

// MinCacheable is the shortest prefix a model caches under the default
// table; shorter prompts are not cached at all.
func MinCacheable(model string) int64 { return minCacheable(DefaultMinCacheable(), model) }

func minCacheable(table []MinPrefix, model string) int64 {
	for _, r := range table {
		if strings.Contains(model, r.Match) {
			return r.Tokens
		}
	}
	return DefaultMinCacheableTokens
}

// LongWindowModels lists the models offered with a 1M-token context window
// (Anthropic's "Context windows" documentation: Claude Sonnet 4, 4.5 and
// 4.6, and Claude Opus 4.6). The transcript's message.model does not say
// whether a session used it: Claude Code sends the long window as a beta
// header, so the model id is the same.
var LongWindowModels = []string{"sonnet-4-2", "sonnet-4-5", "sonnet-4-6", "opus-4-6"}

func offersLongWindow(model string) bool {
	for _, m := range LongWindowModels {
		if strings.Contains(model, m) {
			return true
		}
	}
	return false
}

// Inferred is what a session's recorded calls prove about the limits
// Claude Code applied, beyond what the model and version give. A recorded
// call that succeeded with a prompt above the window proves a larger
// window; a call sent, without a compaction, after a call whose usage total
// (Claude Code's own count, before any estimate) reached the auto-compact
// threshold proves that auto-compaction could not fire there: the window
// was larger (on a model offered with a long window) or auto-compaction was
// off. Only recorded prompt sizes are used, never where the recorded
// compactions fell.
type Inferred struct {
	Window         int64  `json:"window,omitempty"`
	AutoCompactOff bool   `json:"auto_compact_off,omitempty"`
	Reason         string `json:"reason"`
}

// inferLimits reads a trace's recorded calls for evidence that the default
// limits were not the ones in force.
func inferLimits(calls []TraceCall) Inferred {
	// A prompt above the window is the stronger proof: look for it first.
	for _, c := range calls {
		l := LimitsFor(LimitParams{}, c.Model, c.Version)
		if p := c.Usage.Prompt(); p > l.Window && l.Window < LongWindow {
			return Inferred{Window: LongWindow, Reason: fmt.Sprintf(
				"call %d's recorded prompt of %s tokens passed the %s-token window", c.Index+1, numtext.Int(p), numtext.Int(l.Window))}
		}
	}
	for i := 0; i+1 < len(calls); i++ {
		c, next := calls[i], calls[i+1]
		l := LimitsFor(LimitParams{}, c.Model, c.Version)
		total := c.Usage.Prompt() + c.Usage.Output
		if next.RealCompact != nil || next.Model != c.Model || total < l.Threshold || c.Usage.Prompt() == 0 {
			continue
		}
		why := fmt.Sprintf("call %d was sent without a compaction after call %d's usage total of %s tokens, at or above the %s-token auto-compact threshold",
			next.Index+1, c.Index+1, numtext.Int(total), numtext.Int(l.Threshold))
		if offersLongWindow(c.Model) {
			return Inferred{Window: LongWindow, Reason: why}
		}
		return Inferred{AutoCompactOff: true, Reason: why}
	}
	return Inferred{}
}

// With returns p with the inference applied where p leaves the value to the
// default: an inferred window when p sets none, and auto-compaction off.
func (in Inferred) With(p LimitParams) LimitParams {
	if p.Window == 0 {
		p.Window = in.Window
	}
	if in.AutoCompactOff {
		p.AutoCompactOff = true
	}
	return p
}

// Claude Code's size-based micro-compaction (microCompactToolResults in
// its bundled cli.js, 2.1.x): past the warning level it clears the oldest
// results of the compactable tools, keeping the last MicroKeep, while the
// rest exceed MicroTarget, when that frees at least MicroMinSavings, all
// by its estimate (length/4).
const (
	MicroKeep       = 3
	MicroTarget     = 40_000
	MicroMinSavings = 20_000
)

// MicroClears applies the size rule to the estimates of the compactable
// results, oldest first: all but the last keep may go, oldest first, while
// the rest exceed target. It returns how many go and what that frees.
func MicroClears(ests []int64, keep int, target int64) (n int, freed int64) {
	if len(ests) <= keep {
		return 0, 0
	}
	var total int64
	for _, e := range ests {
		total += e
	}
	for _, e := range ests[:len(ests)-keep] {
		if total-freed <= target {
			break
		}
		n++
		freed += e
	}
	return n, freed
}

// Micro-compaction by version. The size-based variant is the one in
// Claude Code 2.1.7's bundled cli.js, and the one microcompact_boundary
// seen in real transcripts is 2.1.19's; no 1.0/2.0 transcript and none
// from 2.1.22 on has one, and replaying real sessions of those versions
// with micro-compaction on moves their first auto-compaction away from the
// real one. So it is on by default from MicroFrom up to MicroUntil, where
// the transcripts show the output reservation change (ReservedNewFrom):
// they place the end only between 2.1.19 and 2.1.22. The later variant
// the community reports (keep 5, when idle longer than the cache TTL) is
// claude-code's micro=time.
const (
	MicroFrom  = "2.1.0"
	MicroUntil = ReservedNewFrom // exclusive
)

// MicroByDefault reports whether Claude Code of a version micro-compacts
// by size in a session whose recorded prompts show ev: by version, unless
// they show it off (an experiment flag decides, whatever the version).
func MicroByDefault(version string, ev MicroEvidence) bool {
	return version != "" && !ev.Off && replay.CompareVersions(version, MicroFrom) >= 0 && replay.CompareVersions(version, MicroUntil) < 0
}

// CompactableTools are the tools whose results micro-compaction clears
// (COMPACTABLE_TOOLS in Claude Code's bundled cli.js, 2.1.7).
var CompactableTools = map[string]bool{
	"Read": true, "Bash": true, "Grep": true, "Glob": true,
	"WebSearch": true, "WebFetch": true, "Edit": true, "Write": true,
}

// MicroEvidence is what a session's recorded prompts show of Claude Code's
// micro-compaction, which a remotely set experiment flag turns on or off
// whatever the version: Off when a call's recorded context would have
// been micro-compacted by the size rule before it and was not.
type MicroEvidence struct {
	Off    bool   `json:"off,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// inferMicro looks in the recorded calls for a call before which the size
// rule would have cleared results and the context kept them: Claude
// Code's count (the usage total of the call before, and the estimate of
// what was appended since, a lower bound of its count) was past the
// warning level, and clearing the oldest compactable results down to
// MicroTarget would have freed MicroMinSavings, and no micro-compaction
// came before the call. The results are followed as the recording has
// them: a full compaction leaves none, a micro-compaction clears its own.
func inferMicro(calls []TraceCall) MicroEvidence {
	type result struct {
		id  string
		est int64
	}
	var results []result
	for i := range calls {
		c := &calls[i]
		if c.RealCompact != nil {
			results = results[:0]
		}
		if m := c.RealMicro; m != nil {
			cleared := map[string]bool{}
			for _, id := range m.CompactedToolIDs {
				cleared[id] = true
			}
			kept := results[:0]
			for _, r := range results {
				if !cleared[r.id] {
					kept = append(kept, r)
				}
			}
			results = kept
		}
		var appended int64
		for _, it := range c.Items {
			if it.Artifact || it.Msg < 0 {
				continue
			}
			if c.RealCompact != nil && it.Msg < c.RealCompact.Msg {
				continue
			}
			if it.Kind != KindAssistant && it.Kind != KindToolUse { // not the response
				appended += int64(it.Est)
			}
			if it.Kind == KindToolResult && CompactableTools[it.Tool] {
				results = append(results, result{it.ToolID, int64(it.Est)})
			}
		}
		if i == 0 || c.RealMicro != nil || c.RealCompact != nil {
			continue
		}
		p := &calls[i-1]
		count := p.Usage.Prompt() + p.Usage.Output + appended
		l := LimitsFor(LimitParams{}, p.Model, p.Version)
		if p.Usage.Prompt() == 0 || count < l.Warning {
			continue
		}
		ests := make([]int64, len(results))
		for k, r := range results {
			ests[k] = r.est
		}
		if _, saved := MicroClears(ests, MicroKeep, MicroTarget); saved >= MicroMinSavings {
			return MicroEvidence{Off: true, Reason: fmt.Sprintf(
				"call %d was sent with its tool results whole although Claude Code's count (at least %s tokens) was past the %s-token warning level and micro-compaction would have cleared %s tokens of them (by Claude Code's estimate)",
				c.Index+1, numtext.Int(count), numtext.Int(l.Warning), numtext.Int(saved))}
		}
	}
	return MicroEvidence{}
}
