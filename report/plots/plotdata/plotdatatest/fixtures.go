// Package plotdatatest holds the small, hand-computed inputs that
// plotdata's and plots' tests share: two runs over one session, a token
// accounting, duplicate reads and policy metrics.
package plotdatatest

import (
	"time"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate"
)

// Synthetic returns two small runs over one session, every number chosen
// so that the series can be computed by hand (see the tests' comments).
func Synthetic() []*simulate.Result {
	lim := claudecode.LimitsFor(claudecode.LimitParams{}, "claude-sonnet-4-5", "2.1.30")
	// observed: window 200,000, threshold 167,000, warning 147,000 (Sonnet
	// 4.5, CLI 2.1.30: 200,000 − 20,000 reserved − 13,000 buffer; − 20,000),
	// and one summarizer call before call 5 costing 0.15.
	//
	//	call time      prompt  input  write        read    cost  notes
	//	1    10:00:00  20,000  10     19,990       0       0.10
	//	2    10:30:00  60,000  10     40,000       19,990  0.20
	//	3    11:00:00  62,000  10     4,990        57,000  0.30  micro: cleared
	//	4    11:15:00  60,000  10     2,000+3,000  54,990  0.25  read −2,010: 3.5% < 5%, no break
	//	5    12:00:00  30,000  10     20,000       9,990   0.05  compacted; read −45,000: break
	//	6    (none)    33,000  10     3,000        29,990  0     unpriced; real microcompact
	//	7    12:30:00  34,000  10     5,500        28,490  0.04  read −1,500: 5% but ≤ 2,000, no break
	obs := &simulate.Result{
		Policy: "observed", Session: "synthetic", Method: "usage", Limits: lim, CompactAt: lim.Threshold,
		Calls: []simulate.CallResult{
			{Call: 1, Time: Stamp("2026-01-02T10:00:00Z"), Prompt: 20000, Input: 10, Write5m: 19990, Cost: 0.1, Priced: true},
			{Call: 2, Time: Stamp("2026-01-02T10:30:00Z"), Prompt: 60000, Input: 10, Write5m: 40000, Read: 19990, Cost: 0.2, Priced: true},
			{Call: 3, Time: Stamp("2026-01-02T11:00:00Z"), Prompt: 62000, Input: 10, Write5m: 4990, Read: 57000, Cost: 0.3, Priced: true,
				Cleared: true, Actions: []string{"micro: cleared 2 results, freed 5000"}},
			{Call: 4, Time: Stamp("2026-01-02T11:15:00Z"), Prompt: 60000, Input: 10, Write5m: 2000, Write1h: 3000, Read: 54990, Cost: 0.25, Priced: true},
			{Call: 5, Time: Stamp("2026-01-02T12:00:00Z"), Prompt: 30000, Input: 10, Write5m: 20000, Read: 9990, Cost: 0.05, Priced: true,
				Compacted: true, Actions: []string{"real compact (auto)"}},
			{Call: 6, Prompt: 33000, Input: 10, Write5m: 3000, Read: 29990, Cleared: true, Actions: []string{"real microcompact: 3 results"}},
			{Call: 7, Time: Stamp("2026-01-02T12:30:00Z"), Prompt: 34000, Input: 10, Write5m: 5500, Read: 28490, Cost: 0.04, Priced: true},
		},
		Summaries: []simulate.SummaryCall{{Label: "summary", BeforeCall: 5, Cost: 0.15}},
		// Calls 0.94 + summarizer 0.15.
		Metrics: simulate.Metrics{Cost: 1.09},
	}
	// claude-code: three calls at 10:00, 10:30, 11:00 with prompts 20,000,
	// 90,000, 25,000; call 3 compacted and dropped items; another window
	// (1,000,000) that the plot must not use; a threshold of its own,
	// 108,000 (as claude-code:pct=60's: ⌊180,000 × 60%⌋), where observed's
	// is Claude Code's 167,000.
	cc := &simulate.Result{
		Policy: "claude-code", Session: "synthetic", Method: "usage",
		Limits:    claudecode.LimitsFor(claudecode.LimitParams{Window: 1_000_000}, "claude-sonnet-4-5", "2.1.30"),
		CompactAt: 108_000,
		Calls: []simulate.CallResult{
			{Call: 1, Time: Stamp("2026-01-02T10:00:00Z"), Prompt: 20000, Write5m: 20000, Cost: 0.1, Priced: true},
			{Call: 2, Time: Stamp("2026-01-02T10:30:00Z"), Prompt: 90000, Write5m: 70000, Read: 20000, Cost: 0.3, Priced: true},
			{Call: 3, Time: Stamp("2026-01-02T11:00:00Z"), Prompt: 25000, Write5m: 25000, Cost: 0.1, Priced: true, Compacted: true,
				Cleared: true, Actions: []string{"compact (auto): 88000 → 3000", "budget: dropped 3 items, freed 400"}},
		},
		Summaries: []simulate.SummaryCall{{Label: "summary", BeforeCall: 3, Cost: 0.2}},
		// Calls 0.5 + summarizer 0.2.
		Metrics: simulate.Metrics{Cost: 0.7},
	}
	return []*simulate.Result{obs, cc}
}

// Accounting is a token accounting of 1,925 estimated tokens.
func Accounting() accounting.Tokens {
	return accounting.Tokens{Method: "estimate", Total: 1925, Rows: []accounting.TokenRow{
		{Category: "tool_result", Name: "Read", Tokens: 500},
		{Category: "tool_request", Name: "Edit", Tokens: 400},
		{Category: "tool_result", Name: "Bash", Tokens: 300},
		{Category: "assistant", Tokens: 250},
		{Category: "human", Tokens: 200},
		{Category: "tool_request", Name: "Bash", Tokens: 100},
		{Category: "attachment", Name: "hook", Tokens: 70},
		{Category: "tool_request", Name: "Read", Tokens: 50},
		{Category: "attachment", Name: "todo", Tokens: 30},
		{Category: "tool_result", Name: "Edit", Tokens: 20},
		{Category: "tool_result", Name: "unknown", Tokens: 5},
	}}
}

// LongPath is a path of 49 characters, longer than a bar label.
const LongPath = "/home/user/projects/ctxlab/report/plots/series.go"

// Dups are four duplicate reads, one of LongPath.
func Dups() []accounting.DuplicateRead {
	return []accounting.DuplicateRead{
		{Path: LongPath, Reads: 2, Tokens: 1000, Overhead: 500},
		{Path: "/x/b.go", Reads: 2, Tokens: 200, Overhead: 100, Waste: 1, WasteTokens: 100},
		{Path: "/home/dev/demo/server/health.go", Reads: 3, Tokens: 300, Overhead: 200, Waste: 2, WasteTokens: 200},
		{Path: "/x/a.go", Offset: 10, Limit: 20, Reads: 2, Tokens: 200, Overhead: 100, Waste: 1, WasteTokens: 100},
	}
}

// Policies: three policies' metrics summed over 7 sessions.
//
//	policy             cost  summarizer  main   agents  total    unpriced
//	observed           12.5  2.25        10.25  3.4567  15.9567  2 + 1
//	claude-code        13.1  3.0         10.1   3.4567  16.5567  0
//	keep-last-n:n=10   9.4   0           9.4    3.4567  12.8567  0 + 1
//
// claude-code: (16.5567 − 15.9567) / 15.9567 = +3.7602% → +3.76 (shown +3.8%);
// keep-last-n: (12.8567 − 15.9567) / 15.9567 = −19.4276% → −19.43 (shown −19.4%).
func Policies() ([]string, []simulate.Metrics) {
	return []string{"observed", "claude-code", "keep-last-n:n=10"}, []simulate.Metrics{
		{Cost: 12.5, SummarizerCost: 2.25, AgentsCost: 3.4567, TotalCost: 15.9567, Unpriced: 2, AgentsUnpriced: 1},
		{Cost: 13.1, SummarizerCost: 3.0, AgentsCost: 3.4567, TotalCost: 16.5567},
		{Cost: 9.4, AgentsCost: 3.4567, TotalCost: 12.8567, AgentsUnpriced: 1},
	}
}

// Stamp is an RFC 3339 time as results keep it.
func Stamp(s string) replay.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return replay.Time(t.UnixMilli())
}
