package accounting

import (
	"slices"
	"sort"

	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/replay"
)

// Cache-break causes, most certain first.
const (
	CauseCompaction      = "compaction"
	CauseMicrocompaction = "microcompaction"
	CauseModelChange     = "model_change"
	CauseResume          = "resume"
	CauseVersionChange   = "version_change"
	CauseCwdChange       = "cwd_change"
	CauseSkillsChange    = "skills_change"
	CauseTTL5m           = "ttl_5m"
	CauseTTL1h           = "ttl_1h"
	// The turn rules (claudecode.TurnRules), in the order claudecode.Turns
	// checks them: where Claude Code or the API rewrites the cached
	// conversation as a turn begins, which no line of the transcript
	// records. They explain a fallback within the cache lifetime, so they
	// come after the TTLs.
	CauseModelNamed      = "model_named"
	CauseThinkingBudget  = "thinking_budget"
	CauseSecondTurn      = "second_turn"
	CauseThinkingDropped = "thinking_dropped"
	CausePostCompaction  = "post_compaction_turn"
	// The prompt is smaller than the previous call's: Claude Code removed
	// or rewrote part of the conversation and recorded nothing of it.
	CausePromptShrank = "prompt_shrank"
	CauseUnexplained  = "unexplained" // no cause the transcript shows: a change it does not record, or the server side
)

// CacheBreak is a call whose cache read fell sharply below the previous
// call's in the same thread.
type CacheBreak struct {
	Session    string      `json:"session,omitempty"` // corpus reports only
	Thread     string      `json:"thread"`
	Call       int         `json:"call"` // 1-based number of the call among the thread's calls
	Line       int         `json:"line"`
	Time       replay.Time `json:"time,omitempty"`
	Model      string      `json:"model"`
	PrevRead   int64       `json:"prev_cache_read"`
	Read       int64       `json:"cache_read"`
	GapSeconds int64       `json:"gap_seconds"`
	Cause      string      `json:"cause"`
	// Expected is set for causes Claude Code itself does not flag
	// (compaction, micro-compaction: the baseline resets).
	Expected bool `json:"expected"`
	// Rewritten is the call's cache write: the prefix paid for again.
	Rewritten int64 `json:"rewritten"`
	// Cost is what the rewrite cost; ExtraCost is that minus what reading
	// the same tokens from cache would have cost.
	Cost      float64 `json:"cost_usd"`
	ExtraCost float64 `json:"extra_cost_usd"`
	Priced    bool    `json:"priced"`
}

// Causes lists the cache-break causes in the order a break is given the
// first that applies.
var Causes = []string{
	CauseCompaction, CauseMicrocompaction, CauseModelChange, CauseResume, CauseVersionChange, CauseCwdChange,
	CauseSkillsChange, CauseTTL5m, CauseTTL1h, CauseModelNamed, CauseThinkingBudget, CauseSecondTurn, CauseThinkingDropped,
	CausePostCompaction, CausePromptShrank, CauseUnexplained,
}

// ExpectedCause reports whether Claude Code expects a break of that cause
// (CacheBreak.Expected): a compaction resets its baseline.
func ExpectedCause(cause string) bool {
	return cause == CauseCompaction || cause == CauseMicrocompaction
}

// BreakCause totals the cache breaks of one cause.
type BreakCause struct {
	Cause     string `json:"cause"`
	Breaks    int    `json:"breaks"`
	Rewritten int64  `json:"rewritten"`
	// Cost and ExtraCost sum the priced breaks' (CacheBreak.Cost,
	// ExtraCost); Unpriced counts the breaks on models without a price.
	Cost      float64 `json:"cost_usd"`
	ExtraCost float64 `json:"extra_cost_usd"`
	Unpriced  int     `json:"unpriced"`
}

// breakCauses totals breaks by cause: the costliest (ExtraCost) first,
// then in the order of Causes.
func breakCauses(breaks []CacheBreak) []BreakCause {
	out := []BreakCause{}
	at := map[string]int{}
	for _, b := range breaks {
		i, ok := at[b.Cause]
		if !ok {
			i = len(out)
			at[b.Cause] = i
			out = append(out, BreakCause{Cause: b.Cause})
		}
		c := &out[i]
		c.Breaks++
		c.Rewritten += b.Rewritten
		if !b.Priced {
			c.Unpriced++
		}
		c.Cost += b.Cost
		c.ExtraCost += b.ExtraCost
	}
	for i := range out {
		out[i].Cost, out[i].ExtraCost = prices.RoundUSD(out[i].Cost), prices.RoundUSD(out[i].ExtraCost)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].ExtraCost != out[j].ExtraCost {
			return out[i].ExtraCost > out[j].ExtraCost
		}
		return slices.Index(Causes, out[i].Cause) < slices.Index(Causes, out[j].Cause)
	})
	return out
}

// TTLChange is a switch of a thread's cache writes between 1 h and 5 min,
// which users rarely notice: the two are priced apart (a 1-hour write costs 2×
// input, a 5-minute one 1.25×, Anthropic's prompt-caching pricing).
type TTLChange struct {
	Session string      `json:"session,omitempty"` // corpus reports only
	Thread  string      `json:"thread"`
	Call    int         `json:"call"`
	Line    int         `json:"line"`
	Time    replay.Time `json:"time,omitempty"`
	From    string      `json:"from"`
	To      string      `json:"to"`
}

func cacheBreaks(s *replay.Session, cfg Config) ([]CacheBreak, []TTLChange) {
	breaks := []CacheBreak{}
	changes := []TTLChange{}
	for _, th := range s.Threads() {
		w := breakWalk{th: th, cfg: cfg, name: ThreadName(th), turns: claudecode.NewTurns(cfg.TurnRules, th.Continues())}
		w.run()
		breaks, changes = append(breaks, w.breaks...), append(changes, w.changes...)
	}
	// Most expensive first; the sort is stable, so equal costs stay in order.
	sort.SliceStable(breaks, func(i, j int) bool { return breaks[i].Cost > breaks[j].Cost })
	return breaks, changes
}

// breakWalk follows one thread's counted calls: the turn rules, the
// compactions and the TTL of its cache writes since the previous call
// checked, to name the cause of each break.
type breakWalk struct {
	th    *replay.Thread
	cfg   Config
	name  string
	turns claudecode.Turns
	// Since the previous call checked: the turn rules that applied, and
	// whether a compaction (full, micro) came.
	rw          claudecode.Rewrite
	full, micro bool
	budget      int64  // the thinking budget the latest prompt asked for
	m, ci       int    // next message and compaction to look at
	ttl         string // TTL of the thread's latest cache write
	breaks      []CacheBreak
	changes     []TTLChange
}

func (w *breakWalk) run() {
	prev := -1
	for i := range w.th.Calls {
		c := &w.th.Calls[i]
		if !c.Counted() {
			continue
		}
		w.follow(i, c)
		// The TTL the cached prefix was written with, before this call's
		// own write, decides whether a gap expired it.
		prevTTL := w.ttl
		w.noteTTL(i, c)
		if claudecode.BreakExcluded(c.Model) {
			continue
		}
		if prev >= 0 && w.cfg.IsBreak(w.th.Calls[prev].Usage.CacheRead, c.Usage.CacheRead) {
			w.breaks = append(w.breaks, w.newBreak(prev, i, prevTTL))
		}
		prev, w.rw, w.full, w.micro = i, 0, false, false
	}
}

// follow applies the turn rules to call i: the prompts typed since the
// previous counted call, the response's thinking, and the compactions
// before it.
func (w *breakWalk) follow(i int, c *replay.Call) {
	tc := claudecode.TurnCall{Model: c.Model, Version: c.Version}
	if c.Msg >= 0 {
		for ; w.m < c.Msg; w.m++ {
			if w.th.Messages[w.m].Typed() {
				tc.NewTurn, w.budget = true, 0
				if w.turns.Keywords(c.Version) { // only then does the budget count
					w.budget, _ = w.th.Messages[w.m].PromptBudget()
				}
			}
		}
		w.m = max(w.m, c.Msg+1)
		tc.Thought = w.th.Messages[c.Msg].HasThinking()
	}
	tc.Budget = w.budget
	w.rw |= w.turns.Next(tc)
	for ; w.ci < len(w.th.Compactions) && w.th.Compactions[w.ci].CallsBefore <= i; w.ci++ {
		if w.th.Compactions[w.ci].Kind == replay.CompactMicro {
			w.micro = true
		} else {
			w.full = true
			w.turns.Compacted()
		}
	}
}

// noteTTL records a call whose cache writes switched TTL.
func (w *breakWalk) noteTTL(i int, c *replay.Call) {
	t := writeTTL(c.Usage)
	if t == "" {
		return
	}
	if w.ttl != "" && t != w.ttl {
		w.changes = append(w.changes, TTLChange{
			Thread: w.name, Call: i + 1, Line: c.Line, Time: replay.Time(c.Time), From: w.ttl, To: t,
		})
	}
	w.ttl = t
}

// newBreak is call i's break after call prev: its sizes, cause and price.
func (w *breakWalk) newBreak(prev, i int, prevTTL string) CacheBreak {
	p, c := &w.th.Calls[prev], &w.th.Calls[i]
	b := CacheBreak{
		Thread: w.name, Call: i + 1, Line: c.Line, Time: replay.Time(c.Time), Model: c.Model,
		PrevRead: p.Usage.CacheRead, Read: c.Usage.CacheRead,
		Rewritten: c.Usage.CacheWrite(),
	}
	// The gap on the Clock: a tool's recorded run time can show more idle
	// time than timestamps that stopped.
	if c.Clock > 0 && p.Clock > 0 {
		b.GapSeconds = (c.Clock - p.Clock) / 1000
	}
	b.Cause = w.cause(prev, i, prevTTL)
	b.Expected = ExpectedCause(b.Cause)
	if pr, ok := w.cfg.Prices.Lookup(c.Model); ok {
		// The whole request's prompt decides the long-context rate, not
		// the write alone.
		r := pr.Rates(c.Usage)
		cost := (float64(c.Usage.CacheWrite5m)*r.CacheWrite5m + float64(c.Usage.CacheWrite1h)*r.CacheWrite1h) / 1e6
		b.Cost = prices.RoundUSD(cost)
		b.ExtraCost = prices.RoundUSD(cost - float64(c.Usage.CacheWrite())*r.CacheRead/1e6)
		b.Priced = true
	}
	return b
}

// cause is the first cause that applies to call i's break after prev.
func (w *breakWalk) cause(prev, i int, prevTTL string) string {
	p, c := &w.th.Calls[prev], &w.th.Calls[i]
	// Marks on this call, or on calls not counted since p.
	restarted := w.th.Between(prev, i, func(c *replay.Call) bool { return c.Restart })
	cwdChanged := w.th.Between(prev, i, func(c *replay.Call) bool { return c.CwdChanged })
	skillsChanged := w.th.Between(prev, i, (*replay.Call).SkillListChanged)
	clocked := c.Clock > 0 && p.Clock > 0
	gap := c.Clock - p.Clock
	switch {
	case w.full:
		return CauseCompaction
	case w.micro:
		return CauseMicrocompaction
	case c.Model != p.Model:
		return CauseModelChange
	case c.SessionID != p.SessionID || restarted:
		return CauseResume
	case c.Version != p.Version && c.Version != "" && p.Version != "":
		return CauseVersionChange
	case cwdChanged:
		return CauseCwdChange
	case skillsChanged:
		return CauseSkillsChange
	case prevTTL == "1h" && clocked && gap > w.cfg.TTL1h.Milliseconds():
		return CauseTTL1h
	case prevTTL != "1h" && clocked && gap > w.cfg.TTL5m.Milliseconds():
		return CauseTTL5m
	case w.rw != 0:
		// After the TTLs: a turn rule explains a fallback within the cache
		// lifetime.
		return rewriteCause(w.rw)
	case claudecode.BillsCacheWrites(c.Model) && c.Usage.Prompt() > 0 && c.Usage.Prompt() < p.Usage.Prompt():
		// A call only appends to the conversation: a smaller prompt lost
		// part of it, which no line records. (Some compatible endpoints
		// count a read in the input too, so that their prompt falls with
		// the read.)
		return CausePromptShrank
	}
	return CauseUnexplained
}

// rewriteCause names the first turn rule of a set as a cache-break cause.
func rewriteCause(rw claudecode.Rewrite) string {
	switch {
	case rw&claudecode.RewriteModelNamed != 0:
		return CauseModelNamed
	case rw&claudecode.RewriteThinkingBudget != 0:
		return CauseThinkingBudget
	case rw&claudecode.RewriteSecondTurn != 0:
		return CauseSecondTurn
	case rw&claudecode.RewriteThinkingDropped != 0:
		return CauseThinkingDropped
	case rw&claudecode.RewritePostCompact != 0:
		return CausePostCompaction
	}
	return ""
}

// writeTTL names the TTL a call wrote its cache with: "1h", "5m", or ""
// when it wrote nothing or both.
func writeTTL(u replay.Usage) string {
	switch {
	case u.CacheWrite1h > 0 && u.CacheWrite5m == 0:
		return "1h"
	case u.CacheWrite5m > 0 && u.CacheWrite1h == 0:
		return "5m"
	}
	return ""
}
