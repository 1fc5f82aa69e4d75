// Package export turns sessions into the flat tables of `ctxlab export`:
// one row per API call, message, session, cache break, compaction and,
// with policies, simulated call, written as Parquet or NDJSON files
// partitioned by project and date (docs/export.md). Rows carries the
// columns; Writer buffers them per partition and writes each partition
// file atomically. The figures come from accounting and simulate: a
// column means what the JSON report's field of the same name means.
package export

import (
	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/accounting/sizing"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate"
)

// SchemaVersion is the version of the export's tables, in every row's
// schema_version column and in the manifest. It changes only when a column
// is removed or changes type or meaning; new columns may appear at any
// time.
const SchemaVersion = 1

// Millis is a time in Unix milliseconds: a Parquet TIMESTAMP (UTC,
// milliseconds), an RFC 3339 string in NDJSON.
type Millis int64

// MarshalJSON writes the time as RFC 3339 in UTC, with milliseconds when
// it has them.
func (m Millis) MarshalJSON() ([]byte, error) {
	b := replay.Time(m).AppendRFC3339([]byte{'"'}, true)
	return append(b, '"'), nil
}

// at is a row's time: nil for 0, a time the transcript does not give.
func at(ms int64) *Millis {
	if ms == 0 {
		return nil
	}
	m := Millis(ms)
	return &m
}

// stamped is a report's time at the whole second it shows (nil: none).
func stamped(t replay.Time) *Millis {
	if t == 0 {
		return nil
	}
	return at(int64(t.Second()))
}

// Call is one API response of a thread (table calls): every call, counted
// or not; the report's usage sums the counted ones.
type Call struct {
	SchemaVersion int32   `parquet:"schema_version" json:"schema_version"`
	Session       string  `parquet:"session,dict" json:"session"`
	SessionIndex  int64   `parquet:"session_index" json:"session_index"`
	Thread        string  `parquet:"thread,dict" json:"thread"`
	ThreadKind    string  `parquet:"thread_kind,dict" json:"thread_kind"`
	ThreadIndex   int32   `parquet:"thread_index" json:"thread_index"`
	Call          int32   `parquet:"call" json:"call"`
	Line          int32   `parquet:"line" json:"line"`
	Time          *Millis `parquet:"time,optional,timestamp(millisecond)" json:"time"`
	Model         string  `parquet:"model,dict" json:"model"`
	Version       string  `parquet:"version,dict" json:"version"`
	SessionID     string  `parquet:"session_id,dict" json:"session_id"`
	MessageID     string  `parquet:"message_id" json:"message_id"`
	RequestID     string  `parquet:"request_id" json:"request_id"`
	DedupKey      *string `parquet:"dedup_key,optional" json:"dedup_key"`
	Counted       bool    `parquet:"counted" json:"counted"`
	HasUsage      bool    `parquet:"has_usage" json:"has_usage"`
	Synthetic     bool    `parquet:"synthetic" json:"synthetic"`
	APIError      bool    `parquet:"api_error" json:"api_error"`
	Duplicate     bool    `parquet:"duplicate" json:"duplicate"`
	Input         int64   `parquet:"input" json:"input"`
	CacheWrite5m  int64   `parquet:"cache_write_5m" json:"cache_write_5m"`
	CacheWrite1h  int64   `parquet:"cache_write_1h" json:"cache_write_1h"`
	CacheRead     int64   `parquet:"cache_read" json:"cache_read"`
	Output        int64   `parquet:"output" json:"output"`
	Prompt        int64   `parquet:"prompt" json:"prompt"`
	OutputLower   bool    `parquet:"output_lower_bound" json:"output_lower_bound"`
	Cost          float64 `parquet:"cost_usd" json:"cost_usd"`
	Priced        bool    `parquet:"priced" json:"priced"`
}

// Message is one message of a thread (table messages): a user line, an API
// response or an attachment, with its tokens as the report's tokens
// section counts them.
type Message struct {
	SchemaVersion  int32   `parquet:"schema_version" json:"schema_version"`
	Session        string  `parquet:"session,dict" json:"session"`
	SessionIndex   int64   `parquet:"session_index" json:"session_index"`
	Thread         string  `parquet:"thread,dict" json:"thread"`
	ThreadKind     string  `parquet:"thread_kind,dict" json:"thread_kind"`
	ThreadIndex    int32   `parquet:"thread_index" json:"thread_index"`
	Message        int32   `parquet:"message" json:"message"`
	Line           int32   `parquet:"line" json:"line"`
	Time           *Millis `parquet:"time,optional,timestamp(millisecond)" json:"time"`
	Role           string  `parquet:"role,dict" json:"role"`
	Call           int32   `parquet:"call" json:"call"`
	Blocks         int32   `parquet:"blocks" json:"blocks"`
	Tokens         int64   `parquet:"tokens" json:"tokens"`
	Measured       int64   `parquet:"measured" json:"measured"`
	Exact          bool    `parquet:"exact" json:"exact"`
	Meta           bool    `parquet:"meta" json:"meta"`
	CompactSummary bool    `parquet:"compact_summary" json:"compact_summary"`
	AttachmentType string  `parquet:"attachment_type,dict" json:"attachment_type"`
}

// Session is one session's summary and usage total (table sessions), as
// the report's summary and usage.total give them.
type Session struct {
	SchemaVersion int32    `parquet:"schema_version" json:"schema_version"`
	Session       string   `parquet:"session" json:"session"`
	SessionIndex  int64    `parquet:"session_index" json:"session_index"`
	Path          string   `parquet:"path" json:"path"`
	SessionIDs    []string `parquet:"session_ids,list" json:"session_ids"`
	Agents        int32    `parquet:"agents" json:"agents"`
	Calls         int32    `parquet:"calls" json:"calls"`
	Start         *Millis  `parquet:"start,optional,timestamp(millisecond)" json:"start"`
	End           *Millis  `parquet:"end,optional,timestamp(millisecond)" json:"end"`
	Seconds       int64    `parquet:"span_seconds" json:"span_seconds"`
	Models        []string `parquet:"models,list" json:"models"`
	Versions      []string `parquet:"versions,list" json:"versions"`
	Lines         int32    `parquet:"lines" json:"lines"`
	BadLines      int32    `parquet:"bad_lines" json:"bad_lines"`
	Replayed      int32    `parquet:"replayed_lines" json:"replayed_lines"`
	Resumes       int32    `parquet:"resumes" json:"resumes"`
	Warnings      int32    `parquet:"warnings" json:"warnings"`
	Input         int64    `parquet:"input" json:"input"`
	CacheWrite5m  int64    `parquet:"cache_write_5m" json:"cache_write_5m"`
	CacheWrite1h  int64    `parquet:"cache_write_1h" json:"cache_write_1h"`
	CacheRead     int64    `parquet:"cache_read" json:"cache_read"`
	Output        int64    `parquet:"output" json:"output"`
	OutputLower   bool     `parquet:"output_lower_bound" json:"output_lower_bound"`
	Cost          float64  `parquet:"cost_usd" json:"cost_usd"`
	CostComplete  bool     `parquet:"cost_complete" json:"cost_complete"`
	Unpriced      int32    `parquet:"unpriced_calls" json:"unpriced_calls"`
	HitRatio      float64  `parquet:"cache_hit_ratio" json:"cache_hit_ratio"`
	TokensTotal   int64    `parquet:"tokens_total" json:"tokens_total"`
	MeasuredTotal int64    `parquet:"measured_total" json:"measured_total"`
}

// CacheBreak is one prompt-cache break (table cache_breaks): the report's
// cache_breaks row.
type CacheBreak struct {
	SchemaVersion int32   `parquet:"schema_version" json:"schema_version"`
	Session       string  `parquet:"session,dict" json:"session"`
	SessionIndex  int64   `parquet:"session_index" json:"session_index"`
	Thread        string  `parquet:"thread,dict" json:"thread"`
	Call          int32   `parquet:"call" json:"call"`
	Line          int32   `parquet:"line" json:"line"`
	Time          *Millis `parquet:"time,optional,timestamp(millisecond)" json:"time"`
	Model         string  `parquet:"model,dict" json:"model"`
	PrevRead      int64   `parquet:"prev_cache_read" json:"prev_cache_read"`
	Read          int64   `parquet:"cache_read" json:"cache_read"`
	GapSeconds    int64   `parquet:"gap_seconds" json:"gap_seconds"`
	Cause         string  `parquet:"cause,dict" json:"cause"`
	Expected      bool    `parquet:"expected" json:"expected"`
	Rewritten     int64   `parquet:"rewritten" json:"rewritten"`
	Cost          float64 `parquet:"cost_usd" json:"cost_usd"`
	ExtraCost     float64 `parquet:"extra_cost_usd" json:"extra_cost_usd"`
	Priced        bool    `parquet:"priced" json:"priced"`
}

// Compaction is one compaction (table compactions): the report's
// compactions row.
type Compaction struct {
	SchemaVersion int32   `parquet:"schema_version" json:"schema_version"`
	Session       string  `parquet:"session,dict" json:"session"`
	SessionIndex  int64   `parquet:"session_index" json:"session_index"`
	Thread        string  `parquet:"thread,dict" json:"thread"`
	Kind          string  `parquet:"kind,dict" json:"kind"`
	Trigger       string  `parquet:"trigger,dict" json:"trigger"`
	Line          int32   `parquet:"line" json:"line"`
	Time          *Millis `parquet:"time,optional,timestamp(millisecond)" json:"time"`
	AfterCall     int32   `parquet:"after_call" json:"after_call"`
	LastPrompt    int64   `parquet:"last_prompt" json:"last_prompt"`
	Before        int64   `parquet:"before" json:"before"`
	BeforeSource  string  `parquet:"before_source,dict" json:"before_source"`
	After         int64   `parquet:"after" json:"after"`
	AfterSource   string  `parquet:"after_source,dict" json:"after_source"`
	Freed         int64   `parquet:"freed" json:"freed"`
	SummaryTokens int32   `parquet:"summary_tokens" json:"summary_tokens"`
	DurationMs    int64   `parquet:"duration_ms" json:"duration_ms"`
	ClearedTools  int32   `parquet:"cleared_tools" json:"cleared_tools"`
	Spiral        bool    `parquet:"spiral" json:"spiral"`
	// DedupKey is the uuid of the compaction's line, which the copies of a
	// compaction in other files share; nil when the line has none.
	DedupKey *string `parquet:"dedup_key,optional" json:"dedup_key"`
}

// SimCall is one call of a simulated run (table simulated_calls, with
// --policy): the report's simulation.calls row, under the run's policy.
type SimCall struct {
	SchemaVersion int32    `parquet:"schema_version" json:"schema_version"`
	Session       string   `parquet:"session,dict" json:"session"`
	SessionIndex  int64    `parquet:"session_index" json:"session_index"`
	Policy        string   `parquet:"policy,dict" json:"policy"`
	Call          int32    `parquet:"call" json:"call"`
	Line          int32    `parquet:"line" json:"line"`
	Time          *Millis  `parquet:"time,optional,timestamp(millisecond)" json:"time"`
	Model         string   `parquet:"model,dict" json:"model"`
	Prompt        int64    `parquet:"prompt" json:"prompt"`
	Input         int64    `parquet:"input" json:"input"`
	CacheWrite5m  int64    `parquet:"cache_write_5m" json:"cache_write_5m"`
	CacheWrite1h  int64    `parquet:"cache_write_1h" json:"cache_write_1h"`
	CacheRead     int64    `parquet:"cache_read" json:"cache_read"`
	Output        int64    `parquet:"output" json:"output"`
	OutputLower   bool     `parquet:"output_lower_bound" json:"output_lower_bound"`
	Recorded      int64    `parquet:"recorded_prompt" json:"recorded_prompt"`
	State         string   `parquet:"state,dict" json:"state"`
	Actions       []string `parquet:"actions,list" json:"actions"`
	Compacted     bool     `parquet:"compacted" json:"compacted"`
	Cleared       bool     `parquet:"cleared" json:"cleared"`
	Cost          float64  `parquet:"cost_usd" json:"cost_usd"`
	Priced        bool     `parquet:"priced" json:"priced"`
	Estimated     bool     `parquet:"estimated" json:"estimated"`
}

// Rows are one session's rows of every table, with the session's project
// (the partition every row goes to with its own date).
type Rows struct {
	Project     string
	Calls       []Call
	Messages    []Message
	Sessions    []Session
	CacheBreaks []CacheBreak
	Compactions []Compaction
	SimCalls    []SimCall
}

// Build returns the rows of session s, the index-th of the export's input,
// from its report rep (accounting.Analyze with table's prices) and its
// simulated runs.
func Build(index int, s *replay.Session, rep *accounting.Report, runs []*simulate.Result, table *prices.Table) *Rows {
	r := &Rows{Project: s.Project}
	id, idx := s.ID, int64(index)
	for ti, th := range s.Threads() {
		name := accounting.ThreadName(th)
		for i := range th.Calls {
			c := &th.Calls[i]
			row := Call{
				SchemaVersion: SchemaVersion, Session: id, SessionIndex: idx, Thread: name, ThreadKind: string(th.Kind),
				ThreadIndex: int32(ti), Call: int32(i + 1), Line: int32(c.Line), Time: at(c.Time),
				Model: c.Model, Version: c.Version, SessionID: c.SessionID, MessageID: c.MessageID, RequestID: c.RequestID,
				Counted: c.Counted(), HasUsage: c.HasUsage, Synthetic: c.Synthetic, APIError: c.APIError, Duplicate: c.Duplicate,
				Input: c.Usage.Input, CacheWrite5m: c.Usage.CacheWrite5m, CacheWrite1h: c.Usage.CacheWrite1h,
				CacheRead: c.Usage.CacheRead, Output: c.Usage.Output, Prompt: c.Usage.Prompt(), OutputLower: c.OutputLowerBound,
			}
			if c.Counted() && c.MessageID != "" {
				// The key accounting.Merge deduplicates calls across
				// sessions by; a call without message id never is.
				k := c.MessageID + ":" + c.RequestID
				row.DedupKey = &k
			}
			if pr, ok := table.Lookup(c.Model); ok {
				row.Cost, row.Priced = pr.Cost(c.Usage), true
			}
			r.Calls = append(r.Calls, row)
		}
		sz := sizing.SizeThread(th)
		for mi := range th.Messages {
			m := &th.Messages[mi]
			row := Message{
				SchemaVersion: SchemaVersion, Session: id, SessionIndex: idx, Thread: name, ThreadKind: string(th.Kind),
				ThreadIndex: int32(ti), Message: int32(mi + 1), Line: int32(m.Line), Time: at(m.Time),
				Role: roleName(m.Role), Blocks: int32(len(m.Blocks)), Exact: sz.Exact[mi], Meta: m.Meta,
				CompactSummary: m.CompactSummary, AttachmentType: m.AttachmentType,
			}
			if m.Role == replay.RoleAssistant && m.Call >= 0 {
				row.Call = int32(m.Call + 1)
			}
			if m.Role == replay.RoleAttachment {
				row.Tokens = int64(m.AttachmentEst)
			}
			for _, b := range m.Blocks {
				row.Tokens += int64(b.Est)
			}
			for _, n := range sz.Blocks[mi] {
				row.Measured += n
			}
			r.Messages = append(r.Messages, row)
		}
	}
	sum, u := rep.Summary, rep.Usage.Total
	r.Sessions = []Session{{
		SchemaVersion: SchemaVersion, Session: id, SessionIndex: idx, Path: sum.Path, SessionIDs: nonNil(sum.SessionIDs),
		Agents: int32(sum.Agents), Calls: int32(sum.Calls), Start: stamped(sum.Start), End: stamped(sum.End),
		Seconds: sum.Seconds, Models: nonNil(sum.Models), Versions: nonNil(sum.Versions), Lines: int32(sum.Lines),
		BadLines: int32(sum.BadLines), Replayed: int32(sum.Replayed), Resumes: int32(sum.Resumes), Warnings: int32(len(rep.Warnings)),
		Input: u.Input, CacheWrite5m: u.CacheWrite5m, CacheWrite1h: u.CacheWrite1h, CacheRead: u.CacheRead, Output: u.Output,
		OutputLower: u.OutputLowerBound, Cost: sum.Cost, CostComplete: sum.CostComplete, Unpriced: int32(u.Unpriced),
		HitRatio: rep.Usage.HitRatio, TokensTotal: int64(rep.Tokens.Total), MeasuredTotal: rep.Tokens.MeasuredTotal,
	}}
	for _, b := range rep.CacheBreaks {
		r.CacheBreaks = append(r.CacheBreaks, CacheBreak{
			SchemaVersion: SchemaVersion, Session: id, SessionIndex: idx, Thread: b.Thread, Call: int32(b.Call), Line: int32(b.Line),
			Time: stamped(b.Time), Model: b.Model, PrevRead: b.PrevRead, Read: b.Read, GapSeconds: b.GapSeconds,
			Cause: b.Cause, Expected: b.Expected, Rewritten: b.Rewritten, Cost: b.Cost, ExtraCost: b.ExtraCost, Priced: b.Priced,
		})
	}
	for _, c := range rep.Compactions {
		row := Compaction{
			SchemaVersion: SchemaVersion, Session: id, SessionIndex: idx, Thread: c.Thread, Kind: c.Kind, Trigger: c.Trigger,
			Line: int32(c.Line), Time: stamped(c.Time), AfterCall: int32(c.AfterCall), LastPrompt: c.LastPrompt,
			Before: c.Before, BeforeSource: c.BeforeSource, After: c.After, AfterSource: c.AfterSource, Freed: c.Freed,
			SummaryTokens: int32(c.SummaryTokens), DurationMs: c.DurationMs, ClearedTools: int32(c.ClearedTools), Spiral: c.Spiral,
		}
		if c.DedupKey != "" {
			k := c.DedupKey
			row.DedupKey = &k
		}
		r.Compactions = append(r.Compactions, row)
	}
	for _, run := range runs {
		for _, c := range run.Calls {
			row := SimCall{
				SchemaVersion: SchemaVersion, Session: id, SessionIndex: idx, Policy: run.Policy, Call: int32(c.Call),
				Line: int32(c.Line), Model: c.Model, Prompt: c.Prompt, Input: c.Input, CacheWrite5m: c.Write5m,
				CacheWrite1h: c.Write1h, CacheRead: c.Read, Output: c.Output, OutputLower: c.OutputLowerBound, Recorded: c.Recorded, State: string(c.State),
				Actions: nonNil(c.Actions), Compacted: c.Compacted, Cleared: c.Cleared, Cost: c.Cost, Priced: c.Priced,
				Estimated: c.Estimated,
			}
			if n := c.Call - 1; n >= 0 && n < len(s.Main.Calls) {
				row.Time = at(s.Main.Calls[n].Time) // the recorded call's, to the millisecond
			}
			r.SimCalls = append(r.SimCalls, row)
		}
	}
	return r
}

func roleName(r replay.Role) string {
	switch r {
	case replay.RoleAssistant:
		return "assistant"
	case replay.RoleAttachment:
		return "attachment"
	}
	return "user"
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
