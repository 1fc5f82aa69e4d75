package policies

import (
	"testing"

	"github.com/ctxlab/ctxlab/simulate"
)

// The threshold in these tests: pct=3 of the 180,000 available
// (Sonnet, 2.1.146) is 5,400, below the default 167,000.
func TestPartial(t *testing.T) {
	// Items of reads(1000, …): [overhead, prompt (msg 0), call (1), result
	// (2), call (3), result (4), …], a call and its result being two messages.
	tests := []struct {
		name, spec string
		results    []int64
		want       expect
	}{
		{
			// Call 3 (5,650 ≥ 5,400): the last 4 messages (3–6) stay; the
			// prompt and the first Read (1,550) become 1,200 + 12 = 1,212:
			// 5,312. Call 4 (6,362): messages 5–8 stay; the summary and the
			// second Read (2,262) become 1,200 + 18 = 1,218: 5,318.
			name: "keep 4", spec: "partial:keep=4,pct=3", results: []int64{1000, 1000, 1000, 1000},
			want: expect{
				prompts: []int64{2500, 3550, 4600, 5312, 5318},
				actions: map[int][]string{
					3: {"compact (partial): 1550 → 1212"},
					4: {"compact (partial): 2262 → 1218"},
				},
			},
		},
		{
			// keep=3 would keep the second result (message 4) without its
			// call (message 3): the pivot moves back to the call, as keep=4.
			name: "pair kept whole", spec: "partial:keep=3,pct=3", results: []int64{1000, 1000, 1000, 1000},
			want: expect{
				prompts: []int64{2500, 3550, 4600, 5312, 5318},
				actions: map[int][]string{
					3: {"compact (partial): 1550 → 1212"},
					4: {"compact (partial): 2262 → 1218"},
				},
			},
		},
		{
			// A 4,000-token result at call 3 (8,650): the partial compaction
			// leaves 8,312, still ≥ 5,400, so a full one follows: 6,312 →
			// 1,200 + 50 = 1,250 plus the files Claude Code keeps, f1.go's
			// too (the partial compaction leaves them): f3.go (4,000),
			// f2.go and f1.go (1,000), each with 44 of Claude Code's notes
			// around it: 9,382.
			name: "fallback", spec: "partial:keep=4,pct=3", results: []int64{1000, 1000, 4000},
			want: expect{
				prompts: []int64{2500, 3550, 4600, 9382},
				actions: map[int][]string{3: {"compact (partial): 1550 → 1212", "compact (auto): 6312 → 7382"}},
			},
		},
		{
			// The fallback at the threshold exactly: f3.go's result is 1,088,
			// call 3 is 5,738, and the partial compaction leaves 5,738 − 1,550
			// + 1,212 = 5,400 ≥ 5,400: a full one follows, 3,400 → 1,200 + 27 =
			// 1,227 plus f3.go (1,132 with Claude Code's notes), f2.go and
			// f1.go (1,044 each) restored: 6,447.
			name: "fallback at the threshold", spec: "partial:keep=4,pct=3", results: []int64{1000, 1000, 1088},
			want: expect{
				prompts: []int64{2500, 3550, 4600, 6447},
				actions: map[int][]string{3: {"compact (partial): 1550 → 1212", "compact (auto): 3400 → 4447"}},
			},
		},
		{
			// One token less (1,087): 5,399 after the partial compaction stays.
			name: "just below after", spec: "partial:keep=4,pct=3", results: []int64{1000, 1000, 1087},
			want: expect{
				prompts: []int64{2500, 3550, 4600, 5399},
				actions: map[int][]string{3: {"compact (partial): 1550 → 1212"}},
			},
		},
		{
			// keep=0 keeps no message: everything after the overhead (3,650)
			// becomes 1,200 + 29 = 1,229, without restored files: 3,229.
			name: "keep none", spec: "partial:keep=0,pct=3", results: []int64{1000, 1000, 1000},
			want: expect{
				prompts: []int64{2500, 3550, 4600, 3229},
				actions: map[int][]string{3: {"compact (partial): 3650 → 1229"}},
			},
		},
		{
			// Only 7 messages, keep=10: no pivot, so the full compaction:
			// 3,650 → 1,200 + 29 = 1,229 plus the three Reads restored
			// (1,044 each with Claude Code's notes): 2,000 + 4,361 = 6,361.
			name: "few messages", spec: "partial:keep=10,pct=3", results: []int64{1000, 1000, 1000},
			want: expect{
				prompts: []int64{2500, 3550, 4600, 6361},
				actions: map[int][]string{3: {"compact (auto): 3650 → 4361"}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.check(t, run(t, tt.spec, reads(tt.results...)))
		})
	}
}

// Partial compaction counts messages, not items, and keeps a message
// whole. The threshold is 5,400 as above.
func TestPartialMessages(t *testing.T) {
	// A 2,000-token prompt (message 0), then Reads of 1,000 (messages 1–4):
	// calls 4,000, 5,050, 6,100.
	twoReads := func() *simulate.Trace {
		return session(turn{user: 2000}, turn{tools: []tool{read("f1.go", 1000)}}, turn{tools: []tool{read("f2.go", 1000)}})
	}
	tests := []struct {
		name, spec string
		tr         *simulate.Trace
		want       expect
	}{
		{
			// keep=4 of 5 messages: only the prompt goes, 2,000 → 1,200 + 16
			// = 1,216: 6,100 − 2,000 + 1,216 = 5,316.
			name: "all but the first", spec: "partial:keep=4,pct=3", tr: twoReads(),
			want: expect{
				prompts: []int64{4000, 5050, 5316},
				actions: map[int][]string{2: {"compact (partial): 2000 → 1216"}},
			},
		},
		{
			// keep=5 keeps them all: nothing to summarise, so the full
			// compaction: 4,100 → 1,200 + 32 = 1,232 plus f2.go and f1.go
			// restored (1,044 each with Claude Code's notes): 5,320.
			name: "all", spec: "partial:keep=5,pct=3", tr: twoReads(),
			want: expect{
				prompts: []int64{4000, 5050, 5320},
				actions: map[int][]string{2: {"compact (auto): 4100 → 3320"}},
			},
		},
		{
			// The context ends with message 1 (a response, 1,500): 5,500 at
			// call 1. keep=1 keeps it and summarises the prompt: 2,000 →
			// 1,216: 4,716.
			name: "newest is message 1", spec: "partial:keep=1,pct=3", tr: session(turn{user: 2000}, turn{text: 1500}),
			want: expect{
				prompts: []int64{4000, 4716},
				actions: map[int][]string{1: {"compact (partial): 2000 → 1216"}},
			},
		},
		{
			// The second response has 100 tokens of text before its Read
			// (message 3 = [text, call]); f3.go's result is 900. Calls 2,500,
			// 3,550, 4,700, 5,650. keep=3 keeps messages 4–6, but message 4
			// is f2.go's result: the pivot moves back to its call, then to
			// the text, the start of message 3. The prompt and the first Read
			// (1,550) become 1,212: 5,312.
			name: "whole message", spec: "partial:keep=3,pct=3",
			tr: session(turn{user: 500}, turn{tools: []tool{read("f1.go", 1000)}},
				turn{text: 100, tools: []tool{read("f2.go", 1000)}}, turn{tools: []tool{read("f3.go", 900)}}),
			want: expect{
				prompts: []int64{2500, 3550, 4700, 5312},
				actions: map[int][]string{3: {"compact (partial): 1550 → 1212"}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.check(t, run(t, tt.spec, tt.tr))
		})
	}
}
