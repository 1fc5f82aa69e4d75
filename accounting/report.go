package accounting

import (
	"sort"
	"time"

	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/replay"
)

// Config holds every constant the reports use. Fields default to the
// values of DefaultConfig; each names its source.
type Config struct {
	Prices *prices.Table
	// BreakRule detects cache breaks (BreakMinFraction, BreakMinTokens), as
	// Claude Code's own cache-break detection does
	// (claudecode.DefaultBreakRule).
	claudecode.BreakRule
	// TurnRules name the rules by which Claude Code, or the API, rewrites
	// the cached conversation when a user turn begins, as break causes.
	claudecode.TurnRules
	// TTL5m and TTL1h are the prompt-cache lifetimes (claudecode.CacheTTL5m,
	// claudecode.CacheTTL1h).
	TTL5m time.Duration
	TTL1h time.Duration
	// SpiralCalls: a full compaction that follows the previous one within
	// this many API calls (DefaultSpiralCalls; negative: never) is part of
	// a compaction spiral: a session that compacts again and again without
	// freeing much.
	SpiralCalls int
}

// DefaultSpiralCalls is Config.SpiralCalls's default.
const DefaultSpiralCalls = 5

// DefaultConfig returns the documented defaults, every field set.
func DefaultConfig() Config { return Config{}.withDefaults() }

// withDefaults returns the config with every zero field set to its
// default: the zero Config is DefaultConfig.
func (cfg Config) withDefaults() Config {
	if cfg.Prices == nil {
		cfg.Prices = prices.Default()
	}
	if cfg.BreakRule == (claudecode.BreakRule{}) {
		cfg.BreakRule = claudecode.DefaultBreakRule()
	}
	cfg.TurnRules = cfg.TurnRules.WithDefaults()
	if cfg.TTL5m <= 0 {
		cfg.TTL5m = claudecode.CacheTTL5m.Value
	}
	if cfg.TTL1h <= 0 {
		cfg.TTL1h = claudecode.CacheTTL1h.Value
	}
	if cfg.SpiralCalls == 0 {
		cfg.SpiralCalls = DefaultSpiralCalls
	}
	return cfg
}

// Report is what happened in one session (or, from Merge, in a corpus).
type Report struct {
	Summary     Summary         `json:"summary"`
	Tokens      Tokens          `json:"tokens"`
	Usage       UsageReport     `json:"usage"`
	Duplicates  []DuplicateRead `json:"duplicate_reads"`
	CacheBreaks []CacheBreak    `json:"cache_breaks"`
	// BreakCauses totals CacheBreaks by cause.
	BreakCauses []BreakCause      `json:"cache_break_causes"`
	TTLChanges  []TTLChange       `json:"ttl_changes"`
	Compactions []CompactionEvent `json:"compactions"`
	Spirals     []Spiral          `json:"spirals"`
	Warnings    []string          `json:"warnings"`

	// calls feeds Merge's cross-session deduplication: a session's log,
	// or what a merged report kept of its sessions' logs.
	calls *callLog
	kept  *keptCalls
}

// Summary describes the input.
type Summary struct {
	Sessions   int         `json:"sessions"`
	ID         string      `json:"id,omitempty"`
	Path       string      `json:"path,omitempty"`
	Project    string      `json:"project,omitempty"`
	SessionIDs []string    `json:"session_ids,omitempty"`
	Agents     int         `json:"agents"`
	Calls      int         `json:"calls"`
	Start      replay.Time `json:"start,omitempty"`
	End        replay.Time `json:"end,omitempty"`
	Seconds    int64       `json:"span_seconds"`
	Models     []string    `json:"models"`
	Versions   []string    `json:"versions"`
	Lines      int         `json:"lines"`
	BadLines   int         `json:"bad_lines"`
	Replayed   int         `json:"replayed_lines"`
	Resumes    int         `json:"resumes"`
	// CrossSessionDuplicates counts calls (corpus only) already counted in
	// another session: resumed sessions copy history into new files.
	CrossSessionDuplicates int     `json:"cross_session_duplicates"`
	Unknown                []Count `json:"unknown,omitempty"` // unknown line types and fields
	Cost                   float64 `json:"cost_usd"`
	// CostComplete is false when some calls had no price (unknown model).
	CostComplete bool `json:"cost_complete"`
}

// Count is a name with a count.
type Count struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// Analyze builds the four reports for one session. A zero field of cfg
// means its default.
func Analyze(s *replay.Session, cfg Config) *Report {
	cfg = cfg.withDefaults()
	r := &Report{Warnings: []string{}}
	r.Usage, r.calls = usage(s, cfg.Prices)
	r.Tokens = tokens(s)
	r.Duplicates = duplicateReads(s)
	r.CacheBreaks, r.TTLChanges = cacheBreaks(s, cfg)
	r.BreakCauses = breakCauses(r.CacheBreaks)
	r.Compactions, r.Spirals = compactions(s, cfg)
	for _, w := range s.Warnings {
		r.Warnings = append(r.Warnings, w.Error())
	}
	r.Summary = summarize(s, r)
	return r
}

func summarize(s *replay.Session, r *Report) Summary {
	sum := Summary{
		Sessions: 1, ID: s.ID, Path: s.Path, Project: s.Project, SessionIDs: s.SessionIDs,
		Agents: len(s.Agents), Calls: r.Usage.Total.Calls,
		Models: nonNil(s.Models), Versions: nonNil(s.Versions),
		Lines: s.Stats.Lines, BadLines: s.Stats.Bad, Replayed: s.ReplayedLines, Resumes: len(s.Resumes),
		Cost: r.Usage.Total.Cost, CostComplete: r.Usage.Total.Unpriced == 0,
	}
	sum.Start, sum.End, sum.Seconds = span(s.Start(), s.End())
	for k, v := range s.Stats.Unknown {
		sum.Unknown = append(sum.Unknown, Count{Name: k, Count: v})
	}
	sortCounts(sum.Unknown)
	return sum
}

func span(start, end int64) (replay.Time, replay.Time, int64) {
	if start == 0 {
		return 0, 0, 0
	}
	return replay.Time(start), replay.Time(end), (end - start) / 1000
}

// SortedCounts turns counts by name into a list, most first, then by
// name; never nil.
func SortedCounts(m map[string]int) []Count {
	out := make([]Count, 0, len(m))
	for k, v := range m {
		out = append(out, Count{Name: k, Count: v})
	}
	sortCounts(out)
	return out
}

func sortCounts(c []Count) {
	sort.Slice(c, func(i, j int) bool {
		if c[i].Count != c[j].Count {
			return c[i].Count > c[j].Count
		}
		return c[i].Name < c[j].Name
	})
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// ThreadName labels a thread in reports: "main" or the agent id.
func ThreadName(th *replay.Thread) string {
	if th.Kind == replay.KindMain {
		return "main"
	}
	return th.AgentID
}
