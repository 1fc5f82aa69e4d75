package simulate

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/replay"
)

// TestEdgeCacheInferLimits pins what the recorded prompt sizes prove. On
// 2.1.19 a 200K-window model's auto-compact threshold is 200,000 − 32,000
// − 13,000 = 155,000. A prompt above the window proves the long window; a
// call sent, without a compaction and on the same model, after a usage
// total (prompt and output) at or above the threshold proves the long
// window where the model offers one, else auto-compaction off, unless the
// session auto-compacted (a compaction not marked manual, after a measured
// call): that proves auto-compaction on at the model's own window, and the
// call above the threshold one whose compaction failed. A prompt above the
// window still proves the long window.
func TestEdgeCacheInferLimits(t *testing.T) {
	const (
		sonnet = "claude-sonnet-4-5-20250929"
		haiku  = "claude-haiku-4-5-20251001"
		long   = "claude-sonnet-4-5[1m]"
		ver    = "2.1.19"
	)
	call := func(index int, model string, read, output int64) TraceCall {
		return TraceCall{Index: index, Model: model, Version: ver, Usage: replay.Usage{CacheRead: read, Output: output}}
	}
	compacted := call(5, sonnet, 20_000, 0)
	compacted.RealCompact = &replay.Compaction{Kind: replay.CompactFull}
	after := "call 6 was sent without a compaction after call 5's usage total of 155,000 tokens, at or above the 155,000-token auto-compact threshold"
	compactedAt := func(index int, kind replay.CompactionKind, trigger string) TraceCall {
		c := call(index, sonnet, 20_000, 0)
		c.RealCompact = &replay.Compaction{Kind: kind, Trigger: trigger, CallsBefore: index}
		return c
	}
	autoAt := func(index int) TraceCall { return compactedAt(index, replay.CompactFull, "auto") }
	manualAt := func(index int) TraceCall { return compactedAt(index, replay.CompactFull, "manual") }
	summaryAt := func(index int) TraceCall { return compactedAt(index, replay.CompactSummaryOnly, "") }
	microAt := func(index int) TraceCall {
		c := call(index, sonnet, 20_000, 0)
		c.RealMicro = &replay.Compaction{Kind: replay.CompactMicro, CallsBefore: index}
		return c
	}
	for _, tc := range []struct {
		name  string
		calls []TraceCall
		want  Inferred
	}{
		{"prompt above the window", []TraceCall{call(4, sonnet, 200_001, 0)},
			Inferred{Window: 1_000_000, Reason: "call 5's recorded prompt of 200,001 tokens passed the 200,000-token window"}},
		{"prompt at the window", []TraceCall{call(4, sonnet, 200_000, 0)}, Inferred{}},
		{"already the long window", []TraceCall{call(4, long, 1_000_001, 0)}, Inferred{}},
		{"total at the threshold", []TraceCall{call(4, sonnet, 150_000, 5_000), call(5, sonnet, 20_000, 0)},
			Inferred{Window: 1_000_000, Reason: after}},
		{"total at the threshold, no long window", []TraceCall{call(4, haiku, 150_000, 5_000), call(5, haiku, 20_000, 0)},
			Inferred{AutoCompactOff: true, Reason: after}},
		{"total under the threshold", []TraceCall{call(4, sonnet, 150_000, 4_999), call(5, sonnet, 20_000, 0)}, Inferred{}},
		{"compaction before the next call", []TraceCall{call(4, sonnet, 150_000, 5_000), compacted}, Inferred{}},
		{"next call on another model", []TraceCall{call(4, sonnet, 150_000, 5_000), call(5, haiku, 20_000, 0)}, Inferred{}},
		{"no recorded prompt", []TraceCall{call(4, sonnet, 0, 155_000), call(5, sonnet, 20_000, 0)}, Inferred{}},
		{"an auto-compaction earlier", []TraceCall{call(2, sonnet, 150_000, 5_000), autoAt(3), call(4, sonnet, 150_000, 5_000), call(5, sonnet, 20_000, 0)}, Inferred{}},
		{"an auto-compaction later", []TraceCall{call(2, sonnet, 150_000, 5_000), call(3, sonnet, 20_000, 0), call(4, sonnet, 150_000, 5_000), autoAt(5)}, Inferred{}},
		{"a 1.0.x compaction (no trigger)", []TraceCall{call(2, sonnet, 150_000, 5_000), summaryAt(3), call(4, sonnet, 150_000, 5_000), call(5, sonnet, 20_000, 0)}, Inferred{}},
		{"a manual compaction only", []TraceCall{call(2, sonnet, 150_000, 5_000), manualAt(3), call(4, sonnet, 150_000, 5_000), call(5, sonnet, 20_000, 0)},
			Inferred{Window: 1_000_000, Reason: after}},
		{"a continued file's summary only", []TraceCall{summaryAt(3), call(4, sonnet, 150_000, 5_000), call(5, sonnet, 20_000, 0)},
			Inferred{Window: 1_000_000, Reason: after}},
		{"a micro-compaction only", []TraceCall{call(2, sonnet, 20_000, 0), microAt(3), call(4, sonnet, 150_000, 5_000), call(5, sonnet, 20_000, 0)},
			Inferred{Window: 1_000_000, Reason: after}},
		{"an auto-compaction and a prompt above the window", []TraceCall{call(2, sonnet, 150_000, 5_000), autoAt(3), call(4, sonnet, 200_001, 0)},
			Inferred{Window: 1_000_000, Reason: "call 5's recorded prompt of 200,001 tokens passed the 200,000-token window"}},
	} {
		if got := inferLimits(tc.calls); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
	// With fills in only a window left to the default.
	in := Inferred{Window: 1_000_000}
	if got := in.With(claudecode.LimitParams{}).Window; got != 1_000_000 {
		t.Errorf("With, no window set: %d, want 1000000", got)
	}
	if got := in.With(claudecode.LimitParams{Window: 500_000}).Window; got != 500_000 {
		t.Errorf("With, window set: %d, want 500000", got)
	}
}

// edgeCacheResults are n compactable (Read) results of est tokens each
// in message msg, ids prefixed by id.
func edgeCacheResults(id string, msg, n, est int) []Item {
	var items []Item
	for k := range n {
		items = append(items, Item{Kind: KindToolResult, Tool: "Read", ToolID: fmt.Sprintf("%s%d", id, k), Est: est, Msg: msg})
	}
	return items
}

// TestEdgeCacheInferMicro pins which results and counts the size rule's
// evidence uses. On 2.1.19 the warning level is 155,000 − 20,000 =
// 135,000. Claude Code's count before a call is the previous call's usage
// total (prompt and output) and the estimate appended since; the size rule
// keeps the last 3 compactable results and clears the oldest while the
// rest exceed 40,000, which must free at least 20,000. Ten 7,000-token
// results clear five: 35,000.
func TestEdgeCacheInferMicro(t *testing.T) {
	const model, ver = "claude-sonnet-4-5-20250929", "2.1.19"
	call := func(index int, read, output int64, items ...[]Item) TraceCall {
		return TraceCall{Index: index, Model: model, Version: ver, Usage: replay.Usage{CacheRead: read, Output: output}, Items: slices.Concat(items...)}
	}
	user := func(msg, est int) []Item { return []Item{{Kind: KindUser, Est: est, Msg: msg}} }
	reason := func(index int, count, saved string) string {
		return fmt.Sprintf("call %d", index+1) + " was sent with its tool results whole although Claude Code's count (at least " + count +
			" tokens) was past the 135,000-token warning level and micro-compaction would have cleared " + saved + " tokens of them (by Claude Code's estimate)"
	}
	compacted := call(1, 100_000, 0, edgeCacheResults("old", 4, 2, 7_000), edgeCacheResults("new", 5, 10, 7_000))
	compacted.RealCompact = &replay.Compaction{Kind: replay.CompactFull, Msg: 5}
	for _, tc := range []struct {
		name  string
		calls []TraceCall
		want  MicroEvidence
	}{
		// Five results in each of two calls: the ten count together. Before
		// call 3: 100,000 + 35,000 = 135,000.
		{"results from earlier calls", []TraceCall{
			call(0, 10_000, 0),
			call(1, 100_000, 0, edgeCacheResults("a", 2, 5, 7_000)),
			call(2, 20_000, 0, edgeCacheResults("b", 4, 5, 7_000)),
		}, MicroEvidence{Off: true, Reason: reason(2, "135,000", "35,000")}},
		// A compaction before call 2 (its first message is message 5): the
		// two results before it are gone, the ten from message 5 on count.
		// Before call 3: 100,000 + 35,000 of user text.
		{"results from a compaction's first message on", []TraceCall{
			call(0, 10_000, 0),
			compacted,
			call(2, 20_000, 0, user(7, 35_000)),
		}, MicroEvidence{Off: true, Reason: reason(2, "135,000", "35,000")}},
		// The thread's first message (0) holds the results.
		{"results in the first message", []TraceCall{
			call(0, 100_000, 0, edgeCacheResults("a", 0, 10, 7_000)),
			call(1, 20_000, 0, user(1, 35_000)),
		}, MicroEvidence{Off: true, Reason: reason(1, "135,000", "35,000")}},
		// The output counts: 55,000 + 10,000 + 70,000 = 135,000.
		{"output counts", []TraceCall{
			call(0, 55_000, 10_000),
			call(1, 20_000, 0, edgeCacheResults("a", 1, 10, 7_000)),
		}, MicroEvidence{Off: true, Reason: reason(1, "135,000", "35,000")}},
		// 20,000, 10,000 ×4: clearing the 20,000 leaves 40,000, not above
		// the target: exactly the minimum saving.
		{"exactly the minimum saving", []TraceCall{
			call(0, 100_000, 0),
			call(1, 20_000, 0, edgeCacheResults("a", 1, 1, 20_000), edgeCacheResults("b", 1, 4, 10_000)),
		}, MicroEvidence{Off: true, Reason: reason(1, "160,000", "20,000")}},
	} {
		if got := inferMicro(tc.calls); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
