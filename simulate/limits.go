package simulate

import (
	"fmt"

	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate/item"
)

// Inferred is what a session's recorded calls prove about the limits
// Claude Code applied, beyond what the model and version give. A recorded
// call that succeeded with a prompt above the window proves a larger
// window; a call sent, without a compaction, after a call whose usage total
// (a lower bound of Claude Code's count) reached the auto-compact
// threshold proves that auto-compaction could not fire there: the window
// was larger (on a model offered with a long window) or auto-compaction was
// off. Unless the session auto-compacted: an auto-compaction after a call
// below the larger window's threshold proves auto-compaction on at the
// model's own window, and Claude Code then sent that call uncompacted
// because its auto-compaction failed or was interrupted (Claude Code
// catches the failure and sends the request as it is; 1.0.x to 2.1.x).
// Otherwise only recorded prompt sizes are used, never where the recorded
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
		l := claudecode.LimitsFor(claudecode.LimitParams{}, c.Model, c.Version)
		if p := c.Usage.Prompt(); p > l.Window && l.Window < claudecode.LongWindow.Value {
			return Inferred{Window: claudecode.LongWindow.Value, Reason: fmt.Sprintf(
				"call %d's recorded prompt of %s tokens passed the %s-token window", c.Index+1, numtext.Int(p), numtext.Int(l.Window))}
		}
	}
	if autoCompacted(calls) {
		return Inferred{}
	}
	for i := 0; i+1 < len(calls); i++ {
		c, next := calls[i], calls[i+1]
		l := claudecode.LimitsFor(claudecode.LimitParams{}, c.Model, c.Version)
		total := c.Usage.Prompt() + c.Usage.Output
		if next.RealCompact != nil || next.Model != c.Model || total < l.Threshold || c.Usage.Prompt() == 0 {
			continue
		}
		why := fmt.Sprintf("call %d was sent without a compaction after call %d's usage total of %s tokens, at or above the %s-token auto-compact threshold",
			next.Index+1, c.Index+1, numtext.Int(total), numtext.Int(l.Threshold))
		if claudecode.OffersLongWindow(c.Model) {
			return Inferred{Window: claudecode.LongWindow.Value, Reason: why}
		}
		return Inferred{AutoCompactOff: true, Reason: why}
	}
	return Inferred{}
}

// autoCompacted reports whether the session auto-compacted: a full
// compaction that the transcript does not mark manual, after a measured
// call. Its count was below a long window's threshold (a prompt above the
// 200,000-token window is the stronger proof, looked for first), so it
// proves auto-compaction on at the model's own window.
func autoCompacted(calls []TraceCall) bool {
	for i := 1; i < len(calls); i++ {
		c := calls[i].RealCompact
		if c != nil && c.Kind != replay.CompactMicro && c.Trigger != "manual" && calls[i-1].Usage.Prompt() > 0 {
			return true
		}
	}
	return false
}

// With returns p with the inference applied where p leaves the value to the
// default: an inferred window when p sets none, and auto-compaction off.
func (in Inferred) With(p claudecode.LimitParams) claudecode.LimitParams {
	if p.Window == 0 {
		p.Window = in.Window
	}
	if in.AutoCompactOff {
		p.AutoCompactOff = true
	}
	return p
}

// MicroByDefault reports whether Claude Code of a version micro-compacts
// by size in a session whose recorded prompts show ev: by version, unless
// they show it off (an experiment flag decides, whatever the version).
func MicroByDefault(version string, ev MicroEvidence) bool {
	return !ev.Off && claudecode.MicroBySize.In(version)
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
// warning level, clearing the oldest compactable results down to
// claudecode.MicroTarget would have freed claudecode.MicroMinSavings, and
// no micro-compaction came before the call. The results are followed as
// the recording has them: a full compaction leaves none, a
// micro-compaction clears its own.
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
		weights := claudecode.CountRulesFor(c.Version, claudecode.CountCutoffs{})
		for _, it := range c.Items {
			if it.Artifact || it.Msg < 0 {
				continue
			}
			if c.RealCompact != nil && it.Msg < c.RealCompact.Msg {
				continue
			}
			if it.Kind != KindAssistant && it.Kind != KindToolUse { // not the response
				appended += item.CountEst(weights, &it)
			}
			if it.Kind == KindToolResult && claudecode.Compactable(it.Tool) {
				results = append(results, result{it.ToolID, int64(it.Est)})
			}
		}
		if i == 0 || c.RealMicro != nil || c.RealCompact != nil {
			continue
		}
		p := &calls[i-1]
		count := p.Usage.Prompt() + p.Usage.Output + appended
		l := claudecode.LimitsFor(claudecode.LimitParams{}, p.Model, p.Version)
		if p.Usage.Prompt() == 0 || count < l.Warning {
			continue
		}
		ests := make([]int64, len(results))
		for k, r := range results {
			ests[k] = r.est
		}
		if _, saved := claudecode.MicroClears(ests, claudecode.MicroKeep.Value, claudecode.MicroTarget.Value); saved >= claudecode.MicroMinSavings.Value {
			return MicroEvidence{Off: true, Reason: fmt.Sprintf(
				"call %d was sent with its tool results whole although Claude Code's count (at least %s tokens) was past the %s-token warning level and micro-compaction would have cleared %s tokens of them (by Claude Code's estimate)",
				c.Index+1, numtext.Int(count), numtext.Int(l.Warning), numtext.Int(saved))}
		}
	}
	return MicroEvidence{}
}
