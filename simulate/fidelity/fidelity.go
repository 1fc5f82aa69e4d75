// Package fidelity measures how closely the simulation reproduces what a
// transcript recorded: the cache model's reads and writes against the
// recorded ones, claude-code's compactions against the real ones, and the
// prompt each compaction left; every disagreement comes with its reason.
package fidelity

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate"
)

// Row measures how closely the replay reproduces a session: the cache
// model's prediction for the recorded prompts (the observed run) against
// the recorded cache reads and writes, and claude-code's first
// auto-compaction against the real one. Every disagreement beyond the
// tolerances (Tolerances) comes with a reason.
type Row struct {
	Session string `json:"session"`
	// Project is the session's folder under projects/, and Version the
	// Claude Code version most of its calls recorded (empty when none
	// did): the keys SummarizeBy groups rows by.
	Project string `json:"project,omitempty"`
	Version string `json:"version,omitempty"`
	Calls   int    `json:"calls"`
	// Cache reads and writes (5 minute + 1 hour) of the main thread's
	// calls, as recorded and as the cache model predicted them.
	RecordedCacheRead   int64 `json:"recorded_cache_read"`
	SimulatedCacheRead  int64 `json:"simulated_cache_read"`
	RecordedCacheWrite  int64 `json:"recorded_cache_write"`
	SimulatedCacheWrite int64 `json:"simulated_cache_write"`
	// The errors are (simulated − recorded) / recorded × 100; nil when
	// nothing was recorded.
	CacheReadErrorPct  *float64 `json:"cache_read_error_pct,omitempty"`
	CacheWriteErrorPct *float64 `json:"cache_write_error_pct,omitempty"`
	// CallWriteError is the sum over calls of |predicted − recorded| cache
	// writes, the error a call written too much cannot cancel against one
	// written too little; CallWriteErrorPct is it in percent of the
	// recorded writes (nil when none were recorded).
	CallWriteError    int64    `json:"call_write_error"`
	CallWriteErrorPct *float64 `json:"call_write_error_pct,omitempty"`
	// PromptMismatches counts observed calls whose prompt differs from the
	// recorded one; the replay is fitted so that it is 0. Calls whose usage
	// records no prompt (Unmeasured) have nothing to compare.
	PromptMismatches int `json:"prompt_mismatches"`
	Unmeasured       int `json:"unmeasured_calls"`
	// RealAutoCompaction is the call before which the session first
	// auto-compacted (a full compaction whose trigger is auto or, where
	// nothing in the transcript says, unknown): its calls before it + 1; 0
	// when it never did. The summary a file goes on from
	// (replay.Compaction.Continued) is a compaction made elsewhere, not
	// counted; a compaction after the last call (the
	// conversation went on in another file, replay.Session.ContinuedIn) is
	// the last call + 1. SimulatedAutoCompaction is the first call after a
	// compaction claude-code decided (not a /compact it replayed), the last
	// call + 1 when it compacts after the last call; 0 when none.
	RealAutoCompaction      int `json:"real_auto_compaction_call"`
	SimulatedAutoCompaction int `json:"simulated_auto_compaction_call"`
	// RealAutoCompactionTotal is the recorded usage total (prompt +
	// output) of the call before the first auto-compaction, where Claude
	// Code's threshold check starts from, and ClaudeCodeThreshold the
	// auto-compact threshold claude-code's run applied at that call (0
	// when auto-compaction is off there). Both 0 when the session never
	// auto-compacted.
	RealAutoCompactionTotal int64 `json:"real_auto_compaction_total"`
	ClaudeCodeThreshold     int64 `json:"claude_code_threshold"`
	// RealPostCompactionPrompt is the recorded prompt of the first call
	// after the first real auto-compaction, and
	// SimulatedPostCompactionPrompt claude-code's prompt at the first call
	// after its own first auto-compaction: what each compaction left.
	// PostCompactionErrorPct is (simulated − real) / real × 100; nil unless
	// both compacted.
	RealPostCompactionPrompt      int64    `json:"real_post_compaction_prompt"`
	SimulatedPostCompactionPrompt int64    `json:"simulated_post_compaction_prompt"`
	PostCompactionErrorPct        *float64 `json:"post_compaction_error_pct,omitempty"`
	// ManualCompactions counts the session's own /compact runs, and
	// ManualReplayed those claude-code's run replayed
	// (Config.ManualCompactions).
	ManualCompactions int `json:"manual_compactions"`
	ManualReplayed    int `json:"manual_replayed"`
	// Inferred is what the recorded prompts proved about the limits.
	Inferred *simulate.Inferred `json:"inferred_limits,omitempty"`
	// MicroCompaction is the micro-compaction claude-code applies by
	// default to the session's main version ("size" or "off"), and
	// MicroCompactionReason what decided it: the version, or the recorded
	// prompts (simulate.Trace.Micro).
	MicroCompaction       string `json:"micro_compaction,omitempty"`
	MicroCompactionReason string `json:"micro_compaction_reason,omitempty"`
	// ClockMoved counts the calls whose time the model moved past their
	// timestamp because tools' recorded run times prove more time passed
	// (replay.Call.Clock); ClockMovedMs is the largest move, in ms.
	ClockMoved   int   `json:"clock_moved_calls"`
	ClockMovedMs int64 `json:"clock_moved_ms"`
	// SystemPrefix is the cached system prompt prefix the model used
	// (simulate.Trace.SystemPrefix) and SystemPrefixSource how it was found.
	SystemPrefix       int64  `json:"system_prefix_tokens"`
	SystemPrefixSource string `json:"system_prefix_source,omitempty"`
	// KeptWarm is set when the model kept the system prompt prefix warm
	// past the session's own entries (simulate.Result.KeptWarm), and Continued when
	// the transcript continues a conversation from its summary
	// (simulate.Trace.Continued), whose first call's read is no evidence of that.
	KeptWarm  bool `json:"system_prefix_kept_warm"`
	Continued bool `json:"continued"`
	// BasePrefix is the shortest prefix of the system prompt a call on
	// the session's main model (the one most of its calls used) read
	// where that was less than SystemPrefix (simulate.TraceCall.BaseRead), and
	// BasePrefixCall the call that read it; 0 when none did. From that
	// call on, the model reads it after a change of working directory,
	// and it, not SystemPrefix, is what other requests keep warm.
	BasePrefix     int64 `json:"base_prefix_tokens"`
	BasePrefixCall int   `json:"base_prefix_call"`
	// SystemPrefixRead is where the system prompt ends as the last call on
	// the main model whose fallback within the lifetime of the session's
	// own entries read other than SystemPrefix, and less than the context
	// before the first message, showed (simulate.TraceCall.SysRead),
	// and SystemPrefixReadCall that call; 0 when none did. From that call
	// on a rewrite of the conversation falls back there.
	SystemPrefixRead     int64 `json:"system_prefix_read_tokens"`
	SystemPrefixReadCall int   `json:"system_prefix_read_call"`
	// Auxiliary is the kind of a side request read without its session;
	// it is not replayed.
	Auxiliary string `json:"auxiliary,omitempty"`
	// UnseenBreaks counts calls whose recorded cache read fell more than
	// Tolerances.Tokens below the model's: the real prefix changed
	// where the transcript shows no cause. WarmElsewhere counts calls whose
	// recorded read was that much above the model's: a prefix the model
	// had expired or never written was warm, kept so by other requests.
	UnseenBreaks  int `json:"unseen_breaks"`
	WarmElsewhere int `json:"warm_elsewhere"`
	// ShallowerFallbacks counts the calls whose recorded read was that
	// much above the model's where a rule of the model made the call fall
	// back (an action on the call, or a prompt that shrank without a
	// recorded cause): the real request broke less of the cached prefix
	// than the rule has it. They are not in WarmElsewhere.
	ShallowerFallbacks int `json:"shallower_fallbacks"`
	// NewVersionShorter counts the calls that are the first of their model
	// on a new Claude Code version and whose recorded read fell that much
	// below the model's: the model reads the previous version's system
	// prompt prefix, and the new version's warm prefix was shorter. They
	// are not in UnseenBreaks.
	NewVersionShorter int `json:"new_version_shorter_prefix"`
	// StoppedClock counts the calls whose recorded read fell that much
	// below the model's where the transcript's clock does not tell the
	// time since the call before: either response has no timestamp, or
	// one that another response shares (lines written at once, as when a
	// session is copied or resumed; two real responses never share a
	// millisecond). An idle gap that let the cache expire cannot be seen
	// there. They are not in UnseenBreaks.
	StoppedClock int `json:"stopped_clock_breaks"`
	// ShorterPrefix counts the calls at which the model reads only the
	// system prompt prefix it takes (SystemPrefix) and whose recorded read
	// was above 0 but that much shorter: the real fallback, or the prefix
	// other requests kept warm, ended earlier than the model's measure of
	// the system prompt. They are not in UnseenBreaks.
	ShorterPrefix int `json:"shorter_system_prefix"`
	// AllowedToolsBreaks counts the turns whose recorded read fell that
	// much below the model's, into the tools and system prompt (above 0,
	// below the context before the first message), after a turn that
	// first used a tool Claude Code asks permission for
	// (simulate.TraceCall.AfterAsk), on a version whose system prompt
	// lists the tools the user allowed (claudecode.AllowedTools): a "don't
	// ask again" answer, which the transcript does not record, changes it.
	// The model breaks such a turn at its recorded read
	// (simulate.TraceCall.AllowedChanged), no disagreement; these are the
	// turns it leaves, where a cause the transcript shows (a new working
	// directory or UTC date, a skill written) breaks the cache at another
	// place. They are not in UnseenBreaks.
	AllowedToolsBreaks int `json:"allowed_tools_breaks"`
	// CopiedCalls counts the calls left out of the cache figures above
	// because another session of the input recorded them first (the same
	// message.id and requestId: a resumed conversation's copy), and
	// CopiedFrom names those sessions (LeaveOutCopies).
	CopiedCalls int      `json:"copied_calls,omitempty"`
	CopiedFrom  []string `json:"copied_from,omitempty"`
	// Reasons explain each disagreement beyond the tolerances; empty when
	// there is none.
	Reasons []string `json:"reasons"`

	afterLast int // the number a compaction after the last call takes
	// calls are the observed run's calls as measured (compareCalls), and
	// cacheReasons the number of reasons before the cache's
	// (explainCache), which LeaveOutCopies gives anew.
	calls        []callRecord
	cacheReasons int
}

// Tolerances are the bounds within which the replay is said to
// agree with a session.
type Tolerances struct {
	ReadPct, WritePct float64 // cache read and write error, ± percent
	Tokens            int64   // a per-call read difference that counts
	// PostCompactionPct bounds the error of the prompt after the first
	// auto-compaction, ± percent.
	PostCompactionPct float64
	// CacheCostPct bounds the error of a session's cache cost, ± percent,
	// counted for the sessions whose recorded cache cost is at least
	// CacheCostMin tokens of input price (see Row.CacheCost).
	CacheCostPct float64
	CacheCostMin int64
}

// DefaultTolerances are the bounds the fidelity issue sets for a
// whole set of sessions: reads within ±2%, writes within ±10%; a call's
// read counts as different when it is 2,000 tokens off (the size Claude
// Code's own cache-break detector ignores); the prompt after the first
// auto-compaction within ±10%; the cache cost of a session whose cache
// cost 100,000 input tokens or more within ±10%.
func DefaultTolerances() Tolerances {
	return Tolerances{ReadPct: 2, WritePct: 10, Tokens: 2000, PostCompactionPct: 10, CacheCostPct: 10, CacheCostMin: 100_000}
}

// New compares the observed run (and the claude-code run) of a
// session's trace with what the transcript recorded.
func New(s *replay.Session, tr *simulate.Trace, observed, claudeCode *simulate.Result, tol Tolerances) Row {
	f := Row{Session: s.ID, Project: s.Project, Version: tr.MainVersion(), Calls: len(observed.Calls), Auxiliary: string(tr.Auxiliary), Reasons: []string{}}
	if tr.Auxiliary == "" && len(tr.Calls) > 0 {
		f.SystemPrefix, f.SystemPrefixSource = tr.SystemPrefix, tr.SystemPrefixSource
		f.KeptWarm, f.Continued = observed.KeptWarm(), tr.Continued
		f.MicroCompaction, f.MicroCompactionReason = microDecision(tr)
	}
	if tr.Inferred != (simulate.Inferred{}) {
		in := tr.Inferred
		f.Inferred = &in
	}
	f.compareCalls(tr, observed, tol)
	tok := f.tally()
	f.compactions(s, tr, claudeCode)
	parts := f.postCompaction(tr, claudeCode)
	f.explain(tr, tok, tol, parts)
	return f
}

// compareCalls records, for each call of the observed run, its recorded
// and predicted cache figures and the cause its read difference falls
// under (the first that applies, when it differs by more than
// tol.Tokens), and counts the prompts that differ; tally sums them.
func (f *Row) compareCalls(tr *simulate.Trace, observed *simulate.Result, tol Tolerances) {
	// The recorded timestamps, not the Clock tool run times moved on.
	recorded := func(i int) int64 { return tr.Calls[i].Time - tr.Calls[i].Ahead }
	stamps := make(map[int64]int, len(tr.Calls)) // responses per timestamp
	for i := range tr.Calls {
		stamps[recorded(i)]++
	}
	unclocked := func(t int64) bool { return t == 0 || stamps[t] > 1 }
	version := map[string]string{} // each model's previous call's version
	main := tr.MainModel()
	f.calls = make([]callRecord, 0, len(observed.Calls))
	for i, c := range observed.Calls {
		tc := &tr.Calls[i]
		u := tc.Usage
		f.prefixFacts(tc, c.Call, main)
		prev, seen := version[tc.Model]
		newVersion := seen && prev != "" && tc.Version != "" && tc.Version != prev
		version[tc.Model] = tc.Version
		stopped := i > 0 && (unclocked(recorded(i)) || unclocked(recorded(i-1)))
		if c.Recorded == 0 {
			f.Unmeasured++
		} else if c.Prompt != c.Recorded {
			f.PromptMismatches++
		}
		r := callRecord{time: recorded(i), read: u.CacheRead, write: u.CacheWrite()}
		if tr.Thread != nil && tc.Index < len(tr.Thread.Calls) {
			r.key = tr.Thread.Calls[tc.Index].Key()
		}
		if p := c.Predicted; p != nil && c.Recorded != 0 {
			r.measured, r.simRead, r.simWrite = true, p.Read, p.Write
			r.cause, r.diff = readCauseOf(p.Read-u.CacheRead, tol.Tokens, readFacts{
				newVersion: newVersion, stopped: stopped,
				shorter:   p.Read == tr.SystemPrefix && u.CacheRead > 0,
				allowed:   tc.AfterAsk && claudecode.AllowedTools.In(tc.Version) && u.CacheRead > 0 && u.CacheRead < tr.Overhead,
				shallower: len(c.Actions) > 0 || tc.Shrink > 0,
			})
		}
		f.calls = append(f.calls, r)
	}
}

// readFacts is what, besides its figures, decides the cause a call's
// read difference falls under.
type readFacts struct {
	newVersion bool // another Claude Code version than the model's previous call
	stopped    bool // the call or the one before has no timestamp, or shares it with another response
	shorter    bool // the prediction read the system prompt prefix alone, the call more
	allowed    bool // after a permission prompt, where the allowed tools rewrite the prompt
	shallower  bool // the run rewrote or lost part of the conversation at the call
}

// readCauseOf returns the cause a read difference d (predicted minus
// recorded) falls under, the first that applies, and the tokens it
// accounts for; causeNone within tol.
func readCauseOf(d, tol int64, f readFacts) (readCause, int64) {
	switch {
	case d > tol && f.newVersion:
		return causeNewVersion, d
	case d > tol && f.stopped:
		return causeStopped, d
	case d > tol && f.shorter:
		return causeShorter, d
	case d > tol && f.allowed:
		return causeAllowedTools, d
	case d > tol:
		return causeUnseen, d
	case d < -tol && f.shallower:
		return causeShallower, -d
	case d < -tol:
		return causeWarm, -d
	}
	return causeNone, 0
}

// callRecord is one call as the fidelity row measures it.
type callRecord struct {
	key  string // replay.Call.Key, "" without a message.id
	time int64  // the recorded timestamp, Unix ms
	// The recorded cache read and write, and the model's prediction;
	// measured is set when there is one to compare (a prediction, and a
	// recorded prompt).
	read, write       int64
	simRead, simWrite int64
	measured          bool
	cause             readCause
	diff              int64 // the read difference the cause accounts for
	// copiedFrom is the session that recorded this call first, when
	// another session of the input holds it (LeaveOutCopies).
	copiedFrom string
}

// readCause is what a call's read difference beyond the tolerance is put
// down to (Row's UnseenBreaks and the counts after it).
type readCause uint8

const (
	causeNone readCause = iota
	causeNewVersion
	causeStopped
	causeShorter
	causeAllowedTools
	causeUnseen
	causeShallower
	causeWarm
)

// tally sums the measured calls that no other session of the input
// recorded first into the row's cache figures, and returns the tokens
// each cause accounts for.
func (f *Row) tally() reasonTokens {
	var tok reasonTokens
	f.RecordedCacheRead, f.RecordedCacheWrite, f.SimulatedCacheRead, f.SimulatedCacheWrite, f.CallWriteError = 0, 0, 0, 0, 0
	f.NewVersionShorter, f.StoppedClock, f.ShorterPrefix, f.UnseenBreaks, f.ShallowerFallbacks, f.WarmElsewhere = 0, 0, 0, 0, 0, 0
	f.AllowedToolsBreaks = 0
	f.CopiedCalls, f.CopiedFrom = 0, nil
	for _, r := range f.calls {
		if r.copiedFrom != "" {
			f.CopiedCalls++
			if !slices.Contains(f.CopiedFrom, r.copiedFrom) {
				f.CopiedFrom = append(f.CopiedFrom, r.copiedFrom)
			}
			continue
		}
		f.RecordedCacheRead += r.read
		f.RecordedCacheWrite += r.write
		if !r.measured {
			continue // nothing recorded to compare the prediction with
		}
		f.SimulatedCacheRead += r.simRead
		f.SimulatedCacheWrite += r.simWrite
		f.CallWriteError += max(r.simWrite-r.write, r.write-r.simWrite)
		switch r.cause {
		case causeNewVersion:
			f.NewVersionShorter++
			tok.newVersion += r.diff
		case causeStopped:
			f.StoppedClock++
			tok.stopped += r.diff
		case causeShorter:
			f.ShorterPrefix++
			tok.shorter += r.diff
		case causeAllowedTools:
			f.AllowedToolsBreaks++
			tok.allowed += r.diff
		case causeUnseen:
			f.UnseenBreaks++
			tok.unseen += r.diff
		case causeShallower:
			f.ShallowerFallbacks++
			tok.shallower += r.diff
		case causeWarm:
			f.WarmElsewhere++
			tok.warm += r.diff
		}
	}
	sort.Strings(f.CopiedFrom)
	f.CacheReadErrorPct = errorPct(f.SimulatedCacheRead, f.RecordedCacheRead)
	f.CacheWriteErrorPct = errorPct(f.SimulatedCacheWrite, f.RecordedCacheWrite)
	f.CallWriteErrorPct = sharePct(f.CallWriteError, f.RecordedCacheWrite)
	return tok
}

// LeaveOutCopies leaves out of each row's cache figures the calls another
// row's session recorded first: a resumed conversation's file copies the
// lines of the conversation it resumes, under the same message.id and
// requestId, and often with one timestamp for all (written at once). Such
// a call was billed once, in the session that made it (accounting.Merge
// counts it once too), and its copy's clock cannot place it, so it is
// measured there alone. A call's first recording is the one with the
// earliest timestamp (of equal ones, or none, the row first in rows);
// each row counts the calls it left out (CopiedCalls), names the sessions
// that hold them (CopiedFrom) and says so among its reasons. Rows read
// back from JSON hold no calls and are left as they are.
func LeaveOutCopies(rows []Row, tol Tolerances) {
	type first struct {
		row  int
		time int64
	}
	earlier := func(t, than int64) bool { return t > 0 && (than == 0 || t < than) }
	owner := map[string]first{}
	for i := range rows {
		for _, r := range rows[i].calls {
			if r.key == "" {
				continue
			}
			if o, ok := owner[r.key]; !ok || o.row != i && earlier(r.time, o.time) {
				owner[r.key] = first{i, r.time}
			}
		}
	}
	for i := range rows {
		f := &rows[i]
		copied := false
		for j := range f.calls {
			r := &f.calls[j]
			if o, ok := owner[r.key]; ok && r.key != "" && o.row != i {
				r.copiedFrom, copied = rows[o.row].Session, true
			}
		}
		if copied {
			f.Reasons = f.Reasons[:f.cacheReasons]
			f.explainCache(f.tally(), tol)
		}
	}
}

// prefixFacts notes what a call of the session's main model showed of the
// cached prefixes, and the clock moved past its timestamp.
func (f *Row) prefixFacts(tc *simulate.TraceCall, call int, main string) {
	u := tc.Usage
	if tc.BaseRead && tc.Model == main {
		f.BasePrefix, f.BasePrefixCall = u.CacheRead, call
	}
	if tc.SysRead && tc.Model == main {
		f.SystemPrefixRead, f.SystemPrefixReadCall = u.CacheRead, call
	}
	if tc.Ahead > 0 {
		f.ClockMoved++
		f.ClockMovedMs = max(f.ClockMovedMs, tc.Ahead)
	}
}

// compactions sets where the session first auto-compacted, where
// claude-code did, and the count and threshold at the real one.
func (f *Row) compactions(s *replay.Session, tr *simulate.Trace, claudeCode *simulate.Result) {
	if s.Main != nil {
		f.afterLast = len(s.Main.Calls) + 1
		for _, c := range s.Main.Compactions {
			switch {
			case c.Kind == replay.CompactMicro:
			case c.Continued:
				// The summary the file goes on from (before its first
				// call, or copied in by a resume): a compaction made
				// elsewhere, whatever its trigger.
			case c.Trigger == "manual":
				f.ManualCompactions++
			case f.RealAutoCompaction == 0:
				f.RealAutoCompaction = c.CallsBefore + 1
			}
		}
	}
	if f.RealAutoCompaction == 0 && s.ContinuedIn != "" {
		f.RealAutoCompaction = f.afterLast
	}
	f.SimulatedAutoCompaction = claudeCode.Compacted.FirstAuto
	if n := len(tr.Calls); f.SimulatedAutoCompaction == 0 && n > 0 && s.ContinuedIn != "" {
		// The conversation went on in another file, so a query came after
		// the last call: claude-code compacts before it when its count
		// after the last call reaches the threshold.
		if l := claudeCode.LimitsAt(tr, n-1); !l.AutoCompactOff && l.Threshold > 0 && claudeCode.Compacted.EndCount >= l.Threshold {
			f.SimulatedAutoCompaction = f.afterLast
		}
	}
	f.ManualReplayed = claudeCode.Compacted.Manual
	if i := lastCallBefore(tr, f.RealAutoCompaction); i >= 0 && f.RealAutoCompaction > 1 {
		u := tr.Calls[i].Usage
		f.RealAutoCompactionTotal = u.Prompt() + u.Output
		if l := claudeCode.LimitsAt(tr, i); !l.AutoCompactOff {
			f.ClaudeCodeThreshold = l.Threshold
		}
	}
}

// microDecision says which micro-compaction claude-code applies by default
// to a trace's main version, and why.
func microDecision(tr *simulate.Trace) (mode, why string) {
	v := tr.MainVersion()
	switch {
	case v == "":
		return "off", "the transcript records no Claude Code version"
	case tr.Micro.Off:
		return "off", "the recorded prompts show it off: " + tr.Micro.Reason
	case simulate.MicroByDefault(v, tr.Micro):
		return "size", fmt.Sprintf("Claude Code %s micro-compacts by size (from %s until %s), and the recorded prompts do not show it off", v, claudecode.MicroBySize.From, claudecode.MicroBySize.Until)
	}
	return "off", fmt.Sprintf("Claude Code %s does not micro-compact by default (size-based from %s until %s)", v, claudecode.MicroBySize.From, claudecode.MicroBySize.Until)
}

// postCompaction fills the prompts of the first call after the first real
// and the first simulated auto-compaction, and their error; and in parts,
// for the reason, what each compaction left: the summary and what came back
// with it (the attachments the transcript records after the compaction;
// claude-code's re-attached files and todos).
func (f *Row) postCompaction(tr *simulate.Trace, claudeCode *simulate.Result) postParts {
	var parts postParts
	if f.RealAutoCompaction > 1 {
		for i := lastCallBefore(tr, f.RealAutoCompaction) + 1; i < len(tr.Calls); i++ {
			c := &tr.Calls[i]
			for _, it := range c.Items {
				// Sized by the estimate at the session's ratio: the fit puts
				// what the transcript does not show on the last of them.
				switch {
				case it.Kind == simulate.KindSummary:
					parts.realSummary += tr.Estimate(it.Est)
				case it.Artifact:
					parts.realAttached += tr.Estimate(it.Est)
				}
			}
			if p := c.Usage.Prompt(); p > 0 {
				f.RealPostCompactionPrompt = p
				break
			}
		}
	}
	parts.simSummary, parts.simRestored = claudeCode.Compacted.Summary, claudeCode.Compacted.Restored
	for _, c := range claudeCode.Calls {
		if c.Compacted && c.Call == f.SimulatedAutoCompaction {
			f.SimulatedPostCompactionPrompt = c.Prompt
			break
		}
	}
	if f.RealPostCompactionPrompt > 0 && f.SimulatedPostCompactionPrompt > 0 {
		f.PostCompactionErrorPct = errorPct(f.SimulatedPostCompactionPrompt, f.RealPostCompactionPrompt)
	}
	return parts
}

// postParts are the prompts after the first compactions in parts, in
// tokens: the summary and what came back with it, recorded and simulated.
type postParts struct {
	realSummary, realAttached int64
	simSummary, simRestored   int64
}

// reasonTokens are the read differences, in tokens, of the calls each
// reason counts.
type reasonTokens struct {
	unseen, warm, shallower, newVersion, stopped, shorter, allowed int64
}

// explain gives a reason for each disagreement beyond the tolerances.
func (f *Row) explain(tr *simulate.Trace, tok reasonTokens, tol Tolerances, parts postParts) {
	if f.Auxiliary != "" {
		f.reason("auxiliary transcript (%s) read without its session: costed as observed, not replayed", f.Auxiliary)
		return
	}
	f.explainInferred(tr)
	f.explainCompaction(tr)
	if p := f.PostCompactionErrorPct; p != nil && math.Abs(*p) > tol.PostCompactionPct {
		f.explainPostCompaction(parts)
	}
	f.cacheReasons = len(f.Reasons)
	f.explainCache(tok, tol)
}

func (f *Row) reason(format string, a ...any) {
	f.Reasons = append(f.Reasons, fmt.Sprintf(format, a...))
}

// explainInferred names what the model inferred rather than read, and the
// calls it could not measure.
func (f *Row) explainInferred(tr *simulate.Trace) {
	add := f.reason
	if f.Inferred != nil {
		what := "a " + numtext.Int(f.Inferred.Window) + "-token window"
		if f.Inferred.AutoCompactOff {
			what = "auto-compaction off"
		}
		add("limits inferred, %s: %s", what, f.Inferred.Reason)
	}
	if v := tr.MainVersion(); tr.Micro.Off && simulate.MicroByDefault(v, simulate.MicroEvidence{}) {
		add("micro-compaction inferred off (Claude Code %s micro-compacts by size unless an experiment flag turns it off): %s", v, tr.Micro.Reason)
	}
	if f.ClockMoved > 0 {
		add("clock inferred: at %s, where the timestamps stop, tools' recorded run times (toolUseResult) move the model's clock up to %s past the timestamp; idle gaps are measured on it", numtext.Count(f.ClockMoved, "call", "calls"), (time.Duration(f.ClockMovedMs) * time.Millisecond).Round(time.Second))
	}
	if f.Unmeasured > 0 {
		add("%s recorded a usage without a prompt (a failed or cut-off response): nothing to fit or compare", numtext.Count(f.Unmeasured, "call", "calls"))
	}
	if f.PromptMismatches > 0 {
		add("%s from the recorded ones: the fit found no item to size (not expected; please report)", numtext.Count(f.PromptMismatches, "prompt differs", "prompts differ"))
	}
}

// explainCompaction says why claude-code's first auto-compaction is not
// the real one.
func (f *Row) explainCompaction(tr *simulate.Trace) {
	add := f.reason
	switch real, sim := f.RealAutoCompaction, f.SimulatedAutoCompaction; {
	case real > 1 && sim != real:
		at := "never"
		if sim > 0 {
			at = f.callText(sim)
		}
		// What claude-code counted before the real compaction: the last
		// call the trace has before it (a transcript may leave calls out).
		counted := "the transcript has no call before it"
		if i := lastCallBefore(tr, real); i >= 0 {
			threshold := "auto-compaction off there"
			if f.ClaudeCodeThreshold > 0 {
				threshold = "its threshold there " + numtext.Int(f.ClaudeCodeThreshold)
			}
			counted = fmt.Sprintf("call %d's recorded usage total %s tokens, %s", tr.Calls[i].Index+1, numtext.Int(f.RealAutoCompactionTotal), threshold)
		}
		if why := failedCompaction(tr, sim); sim > 0 && sim < real && why != "" {
			add("first auto-compaction %s, claude-code %s (%s): %s", f.callText(real), at, counted, why)
			break
		}
		add("first auto-compaction %s, claude-code %s (%s): not explained", f.callText(real), at, counted)
	case real == 0 && sim > 0 && f.ManualCompactions > f.ManualReplayed:
		add("the session compacted by hand %s and never automatically; replayed without those, its context reaches the threshold at call %d", numtext.Count(f.ManualCompactions, "time", "times"), sim)
	case real == 0 && sim > 0 && f.smallerAfterRestart(tr, sim) != "":
		add("%s", f.smallerAfterRestart(tr, sim))
	case real == 0 && sim > 0 && failedCompaction(tr, sim) != "":
		add("claude-code compacts at call %d where the session never compacted: %s", sim, failedCompaction(tr, sim))
	case real == 0 && sim > 0:
		why := ""
		if i := lastCallBefore(tr, sim); i >= 0 {
			u := tr.Calls[i].Usage
			why = fmt.Sprintf(" (call %d's recorded usage total %s tokens; with the response's final output where the transcript has a placeholder, and Claude Code's estimate of what followed, claude-code's count reaches its threshold there%s)",
				tr.Calls[i].Index+1, numtext.Int(u.Prompt()+u.Output), followedText(tr, i+1, sim))
		}
		add("claude-code compacts at call %d where the session never compacted%s: not explained", sim, why)
	}
}

// explainPostCompaction splits both prompts after the first compaction
// into the summary, what came back with it, and the rest.
func (f *Row) explainPostCompaction(parts postParts) {
	real, sim := f.RealPostCompactionPrompt, f.SimulatedPostCompactionPrompt
	attached := "re-attached " + numtext.Int(parts.realAttached)
	if parts.realAttached == 0 {
		attached = "re-attached not recorded (Claude Code wrote no line for what it re-attached)"
	}
	f.reason("prompt after the first auto-compaction %s against the recorded: recorded %s (summary %s, %s, the rest %s: system prompt, tools and what Claude Code puts before the first message), claude-code %s (summary %s, re-attached %s, the rest %s)",
		pctText(f.PostCompactionErrorPct), numtext.Int(real), numtext.Int(parts.realSummary), attached, numtext.Int(real-parts.realSummary-parts.realAttached),
		numtext.Int(sim), numtext.Int(parts.simSummary), numtext.Int(parts.simRestored), numtext.Int(sim-parts.simSummary-parts.simRestored))
}

// explainCache says which calls the cache figures leave out, and gives
// the causes of the cache reads and writes that differ, or says that the
// differences are small and many. It comes last among the reasons, so that
// LeaveOutCopies can give it again.
func (f *Row) explainCache(tok reasonTokens, tol Tolerances) {
	if f.CopiedCalls > 0 {
		verb := "are"
		if f.CopiedCalls == 1 {
			verb = "is"
		}
		f.reason("%s recorded first in %s (the same message.id and requestId: a resumed conversation's copy) %s left out of the cache figures: measured there",
			numtext.Count(f.CopiedCalls, "call", "calls"), sessionsText(f.CopiedFrom), verb)
	}
	readOff := f.CacheReadErrorPct != nil && math.Abs(*f.CacheReadErrorPct) > tol.ReadPct
	writeOff := f.CacheWriteErrorPct != nil && math.Abs(*f.CacheWriteErrorPct) > tol.WritePct
	if !readOff && !writeOff {
		return
	}
	add := f.reason
	explained := false
	if f.UnseenBreaks > 0 {
		add("%s recorded cache reads fell back where the transcript shows no cause (Claude Code changed an earlier part of the prompt): %s tokens the model reads were written", numtext.Count(f.UnseenBreaks, "call's", "calls'"), numtext.Int(tok.unseen))
		explained = true
	}
	if f.StoppedClock > 0 {
		add("%s recorded cache reads fell back where the transcript's clock stops (this response or the one before has no timestamp, or one another response shares), so an idle gap that let the cache expire cannot be seen: %s tokens the model reads were written", numtext.Count(f.StoppedClock, "call's", "calls'"), numtext.Int(tok.stopped))
		explained = true
	}
	if f.ShorterPrefix > 0 {
		add("%s at which the model reads only the system prompt prefix it takes (%s tokens, the %s) read a shorter one: %s tokens the model reads were written", numtext.Count(f.ShorterPrefix, "call", "calls"), numtext.Int(f.SystemPrefix), f.SystemPrefixSource, numtext.Int(tok.shorter))
		explained = true
	}
	if f.AllowedToolsBreaks > 0 {
		add("%s recorded cache reads fell back after a turn that first used a tool Claude Code asks permission for: Claude Code %s–%s lists the tools the user allowed in the system prompt it builds at each turn, and a \"don't ask again\" answer, which the transcript does not record, changes it: %s tokens the model reads were written",
			numtext.Count(f.AllowedToolsBreaks, "turn's", "turns'"), claudecode.AllowedTools.From, previousVersion(claudecode.AllowedTools.Until), numtext.Int(tok.allowed))
		explained = true
	}
	if f.NewVersionShorter > 0 {
		add("%s on a new Claude Code version read a shorter system prompt prefix than the previous version's, which the model reads: %s tokens the model reads were written", numtext.Count(f.NewVersionShorter, "call", "calls"), numtext.Int(tok.newVersion))
		explained = true
	}
	if f.WarmElsewhere > 0 {
		add("%s read prefixes the model had expired or never written, kept warm by other requests (sub-agents, other sessions, the shared system prompt): %s tokens", numtext.Count(f.WarmElsewhere, "call", "calls"), numtext.Int(tok.warm))
		explained = true
	}
	if f.ShallowerFallbacks > 0 {
		add("%s fell back less far than a rule of the model has it (the recorded reads reached past where the model's read stops): %s tokens the model writes were read", numtext.Count(f.ShallowerFallbacks, "call", "calls"), numtext.Int(tok.shallower))
		explained = true
	}
	if !explained {
		add("cache reads %s, writes %s against the recorded: small differences spread over many calls (each under %s tokens)",
			pctText(f.CacheReadErrorPct), pctText(f.CacheWriteErrorPct), numtext.Int(tol.Tokens))
	}
}

// previousVersion names the versions before v by its minor series: 2.1.0
// gives "2.0.x".
func previousVersion(v string) string {
	parts := strings.Split(v, ".")
	if len(parts) == 3 && parts[2] == "0" && parts[1] != "0" {
		if n, err := strconv.Atoi(parts[1]); err == nil {
			return parts[0] + "." + strconv.Itoa(n-1) + ".x"
		}
	}
	return "before " + v
}

// sessionsText names sessions: "session a", "sessions a and b", "sessions
// a, b and c".
func sessionsText(ids []string) string {
	switch len(ids) {
	case 0:
		return "no session"
	case 1:
		return "session " + ids[0]
	}
	return "sessions " + strings.Join(ids[:len(ids)-1], ", ") + " and " + ids[len(ids)-1]
}

// Explained reports whether every disagreement has a reason that names its
// cause (none says "not explained").
func (f *Row) Explained() bool {
	for _, r := range f.Reasons {
		if len(r) >= len("not explained") && r[len(r)-len("not explained"):] == "not explained" {
			return false
		}
	}
	return true
}

// Summary sums the fidelity rows of a set of sessions into the
// figures the fidelity issue measures.
type Summary struct {
	Sessions int `json:"sessions"`
	Calls    int `json:"calls"`
	// AutoCompacted counts the sessions that auto-compacted after their
	// first call; Exact and WithinOne, those whose first auto-compaction
	// claude-code placed at the real call, or one call off.
	AutoCompacted int `json:"auto_compacted"`
	Exact         int `json:"exact"`
	WithinOne     int `json:"within_one"`
	// FalseCompactions counts sessions that never auto-compacted but
	// compact under claude-code.
	FalseCompactions int `json:"false_compactions"`
	PromptMismatches int `json:"prompt_mismatches"`
	// Whole-set cache errors, in percent of the recorded.
	CacheReadErrorPct  *float64 `json:"cache_read_error_pct,omitempty"`
	CacheWriteErrorPct *float64 `json:"cache_write_error_pct,omitempty"`
	// CallWriteErrorPct is the sessions' CallWriteError summed, in
	// percent of their recorded writes.
	CallWriteErrorPct *float64 `json:"call_write_error_pct,omitempty"`
	// WritesChecked counts sessions that recorded cache writes;
	// WritesWithin, those whose predicted writes are within the write
	// tolerance.
	WritesChecked int `json:"writes_checked"`
	WritesWithin  int `json:"writes_within"`
	// Unexplained counts sessions with a disagreement without a reason.
	Unexplained int `json:"unexplained"`
	// CopiedCalls counts the calls the rows left out of their cache
	// figures, each measured in the session that recorded it first
	// (Row.CopiedCalls).
	CopiedCalls int `json:"copied_calls,omitempty"`
	// PostCompactionChecked counts the sessions with a
	// PostCompactionErrorPct; PostCompactionWithin, those within
	// ±PostCompactionPct; PostCompactionMedianErrorPct is the median of the
	// absolute errors (nil when none).
	PostCompactionChecked        int      `json:"post_compaction_checked"`
	PostCompactionWithin         int      `json:"post_compaction_within"`
	PostCompactionMedianErrorPct *float64 `json:"post_compaction_median_error_pct,omitempty"`
	// CacheCostChecked counts the sessions whose recorded cache cost
	// (Row.CacheCost) is at least Tolerances.CacheCostMin; CacheCostWithin,
	// those whose simulated cost is within ±CacheCostPct of it.
	CacheCostChecked int `json:"cache_cost_checked"`
	CacheCostWithin  int `json:"cache_cost_within"`
	// AutoBelowHalf counts the sessions whose first auto-compaction
	// followed a recorded usage total below half of claude-code's
	// threshold there: no Claude Code version compacts on its own so
	// early, so each is a /compact nothing in the transcript shows
	// (replay.Compaction.TriggerFrom: no boundary, no command lines, no
	// summary text Claude Code's versions tell apart), or a lowered
	// threshold (CLAUDE_AUTOCOMPACT_PCT_OVERRIDE).
	AutoBelowHalf int `json:"auto_below_half_threshold"`
}

// CacheCost returns a session's cache cost in tokens of input price, as
// recorded and as simulated: 0.1 × reads + 1.25 × writes, the cache read
// and 5-minute write prices of every Claude model relative to its input
// price (Anthropic's "Prompt caching").
func (f *Row) CacheCost() (recorded, simulated float64) {
	rec, sim := f.cacheCost20()
	return float64(rec) / 20, float64(sim) / 20
}

// cacheCost20 is CacheCost times 20, in whole tokens: 2 × reads + 25 ×
// writes, so that the bounds are checked exactly.
func (f *Row) cacheCost20() (recorded, simulated int64) {
	return 2*f.RecordedCacheRead + 25*f.RecordedCacheWrite, 2*f.SimulatedCacheRead + 25*f.SimulatedCacheWrite
}

// Summarize sums fidelity rows.
func Summarize(rows []Row, tol Tolerances) Summary {
	var s Summary
	var rr, sr, rw, sw, cw int64
	var post []float64
	for _, f := range rows {
		s.Sessions++
		s.Calls += f.Calls
		s.PromptMismatches += f.PromptMismatches
		s.CopiedCalls += f.CopiedCalls
		rr, sr, rw, sw = rr+f.RecordedCacheRead, sr+f.SimulatedCacheRead, rw+f.RecordedCacheWrite, sw+f.SimulatedCacheWrite
		cw += f.CallWriteError
		if f.RealAutoCompaction > 1 {
			s.AutoCompacted++
			d := f.SimulatedAutoCompaction - f.RealAutoCompaction
			if d == 0 {
				s.Exact++
			}
			if d >= -1 && d <= 1 {
				s.WithinOne++
			}
		}
		if f.RealAutoCompaction == 0 && f.SimulatedAutoCompaction > 0 {
			s.FalseCompactions++
		}
		if f.RealAutoCompaction > 1 && f.ClaudeCodeThreshold > 0 && 2*f.RealAutoCompactionTotal < f.ClaudeCodeThreshold {
			s.AutoBelowHalf++
		}
		if rec, sim := f.cacheCost20(); rec >= 20*tol.CacheCostMin && rec > 0 {
			s.CacheCostChecked++
			if 100*math.Abs(float64(sim-rec)) <= float64(rec)*tol.CacheCostPct {
				s.CacheCostWithin++
			}
		}
		if f.CacheWriteErrorPct != nil {
			s.WritesChecked++
			if math.Abs(*f.CacheWriteErrorPct) <= tol.WritePct {
				s.WritesWithin++
			}
		}
		if !f.Explained() {
			s.Unexplained++
		}
		if p := f.PostCompactionErrorPct; p != nil {
			post = append(post, math.Abs(*p))
			if math.Abs(*p) <= tol.PostCompactionPct {
				s.PostCompactionWithin++
			}
		}
	}
	s.PostCompactionChecked = len(post)
	if len(post) > 0 {
		sort.Float64s(post)
		m := post[len(post)/2]
		if len(post)%2 == 0 {
			m = (post[len(post)/2-1] + m) / 2
		}
		m = math.Round(m*100) / 100
		s.PostCompactionMedianErrorPct = &m
	}
	s.CacheReadErrorPct = errorPct(sr, rr)
	s.CacheWriteErrorPct = errorPct(sw, rw)
	s.CallWriteErrorPct = sharePct(cw, rw)
	return s
}

// Group is the summary of the rows that share a key: a Claude Code
// version or a project.
type Group struct {
	Key string `json:"key"`
	Summary
}

// The keys SummarizeBy groups rows by.
const (
	ByVersion = "version" // Row.Version, in version order, unknown last
	ByProject = "project" // Row.Project, in byte order
)

// SummarizeBy sums the rows of each key of by (ByVersion or ByProject),
// in that key's order; nil for another by.
func SummarizeBy(rows []Row, tol Tolerances, by string) []Group {
	var key func(*Row) string
	less := func(a, b string) int { return strings.Compare(a, b) }
	switch by {
	case ByVersion:
		key = func(f *Row) string { return f.Version }
		less = func(a, b string) int {
			if (a == "") != (b == "") {
				return strings.Compare(b, a) // the unknown version last
			}
			if c := claudecode.CompareVersions(a, b); c != 0 {
				return c
			}
			return strings.Compare(a, b)
		}
	case ByProject:
		key = func(f *Row) string { return f.Project }
	default:
		return nil
	}
	groups := map[string][]Row{}
	for i := range rows {
		k := key(&rows[i])
		groups[k] = append(groups[k], rows[i])
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, less)
	out := make([]Group, len(keys))
	for i, k := range keys {
		out[i] = Group{Key: k, Summary: Summarize(groups[k], tol)}
	}
	return out
}

func errorPct(sim, rec int64) *float64 {
	return sharePct(sim-rec, rec)
}

// sharePct is n in percent of rec, to two decimals; nil when rec is 0.
func sharePct(n, rec int64) *float64 {
	if rec == 0 {
		return nil
	}
	p := math.Round(100*float64(n)/float64(rec)*100) / 100
	return &p
}

// callText says where a compaction came: before a call, or after the last.
func (f *Row) callText(call int) string {
	if call == f.afterLast {
		return "after the last call"
	}
	return fmt.Sprintf("at call %d", call)
}

func pctText(p *float64) string {
	if p == nil {
		return "n/a"
	}
	return fmt.Sprintf("%+.1f%%", *p)
}

// followedText says, for the trace's call j when it is call sim, what
// Claude Code's estimate of what followed the last response came to, the
// item that weighed most in it, and how much the recorded prompt grew: a
// result the count weighs far above what the prompt grew by is one the
// transcript holds larger than it was sent (simulate.Trace.Followed,
// under the default parameters). Empty when the count adds no estimate
// there.
func followedText(tr *simulate.Trace, j, sim int) string {
	if j <= 0 || j >= len(tr.Calls) || tr.Calls[j].Index+1 != sim {
		return ""
	}
	est, most, w := tr.Followed(j, simulate.DefaultConfig())
	if est <= 0 {
		return ""
	}
	what := "an item"
	switch most.Kind {
	case simulate.KindToolResult:
		what = "a tool result"
		if most.Tool != "" {
			what = "a " + most.Tool + " result"
		}
	case simulate.KindUser:
		what = "user text"
	case simulate.KindAttachment:
		what = "an attachment"
	case simulate.KindImage:
		what = "an image or document"
	}
	line := ""
	if m := most.Msg; m >= 0 && m < len(tr.Thread.Messages) {
		line = " at line " + strconv.Itoa(tr.Thread.Messages[m].Line)
	}
	grew := "no usage to compare"
	if c, p := &tr.Calls[j], &tr.Calls[j-1]; c.Usage.Prompt() > 0 && p.Usage.Prompt() > 0 {
		grew = "the recorded prompt grew by " + numtext.Int(c.Usage.Prompt()-p.Usage.Prompt()) + " tokens"
	}
	return fmt.Sprintf(": the estimate of what followed is %s, %s of them %s%s; %s", numtext.Int(est), numtext.Int(w), what, line, grew)
}

// smallerAfterRestart explains a compaction claude-code decides at the
// first call of a restarted Claude Code (a resumed conversation, or a new
// version) where the session did not compact, when that call's recorded
// prompt is smaller than the previous call's usage total: the restarted
// process rebuilt the conversation smaller, and counted it in a way the
// transcript does not show, while the model counts from the last usage.
// Empty when that is not the case.
func (f *Row) smallerAfterRestart(tr *simulate.Trace, sim int) string {
	j := lastCallBefore(tr, sim+1) // the compacting call
	if j < 1 || tr.Calls[j].Index+1 != sim {
		return ""
	}
	c, prev := &tr.Calls[j], &tr.Calls[j-1]
	restart := c.Restarted || (c.Version != "" && prev.Version != "" && c.Version != prev.Version)
	before := prev.Usage.Prompt() + prev.Usage.Output
	if !restart || c.Usage.Prompt() <= 0 || c.Usage.Prompt() >= before {
		return ""
	}
	how := "a resumed conversation"
	if c.Version != "" && prev.Version != "" && c.Version != prev.Version {
		how = "Claude Code " + prev.Version + " → " + c.Version
	}
	return fmt.Sprintf("claude-code compacts at call %d where the session never compacted: the first call after a restart (%s), counting from call %d's usage total %s; "+
		"the restarted Claude Code sent a prompt %s tokens smaller (%s) and did not compact: what it counts after rebuilding a conversation is not in the transcript",
		sim, how, prev.Index+1, numtext.Int(before), numtext.Int(before-c.Usage.Prompt()), numtext.Int(c.Usage.Prompt()))
}

// failedCompaction explains a compaction claude-code decides at a call
// the session sent uncompacted, when the recorded response to that call
// came later after the message before it than the response to any call
// sent while Claude Code's count was below its warning level, where no
// compaction is tried: the time a compaction takes. Claude Code (1.0.x to
// 2.1.x) sends the request as it is when its auto-compaction fails or the
// user interrupts it, and the transcript records neither. Empty when that
// is not the case.
func failedCompaction(tr *simulate.Trace, sim int) string {
	j := lastCallBefore(tr, sim+1)
	if j < 1 || tr.Calls[j].Index+1 != sim || tr.Thread == nil {
		return ""
	}
	wait := responseWait(tr, j)
	var normal int64 = -1
	for k := 1; k < len(tr.Calls); k++ {
		c, prev := &tr.Calls[k], &tr.Calls[k-1]
		l := claudecode.LimitsFor(claudecode.LimitParams{}, prev.Model, prev.Version)
		if c.RealCompact != nil || c.RealMicro != nil || prev.Usage.Prompt() == 0 || prev.Usage.Prompt()+prev.Usage.Output >= l.Warning {
			continue
		}
		normal = max(normal, responseWait(tr, k))
	}
	if normal <= 0 || wait <= normal {
		return ""
	}
	u := tr.Calls[j-1].Usage
	return fmt.Sprintf("after call %d's recorded usage total of %s tokens the session sent call %d uncompacted %s after the message before it, later than any call it sent below the warning level (at most %s): "+
		"an auto-compaction tried there that failed or was interrupted (Claude Code then sends the request as it is, and the transcript records neither)",
		tr.Calls[j-1].Index+1, numtext.Int(u.Prompt()+u.Output), sim, secondsText(wait), secondsText(normal))
}

// responseWait is the time from the last message before trace call j's
// response to the response's first line, in ms; 0 when the transcript's
// clock does not show it.
func responseWait(tr *simulate.Trace, j int) int64 {
	th := tr.Thread
	c := &th.Calls[tr.Calls[j].Index]
	for m := c.Msg - 1; m >= 0; m-- {
		if t := th.Messages[m].Time; t > 0 {
			return max(c.Time-t, 0)
		}
	}
	return 0
}

func secondsText(ms int64) string {
	return (time.Duration(ms) * time.Millisecond).Round(time.Second).String()
}

// lastCallBefore returns the index in tr.Calls of the last call numbered
// (Index + 1, the numbering of the thread's calls) below call, or -1. The
// trace leaves out calls that sent nothing (synthetic responses), so a
// call's number is not its position.
func lastCallBefore(tr *simulate.Trace, call int) int {
	return sort.Search(len(tr.Calls), func(i int) bool { return tr.Calls[i].Index+1 >= call }) - 1
}
