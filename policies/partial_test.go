package policies

import "testing"

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
			// 1,200 + 50 = 1,250 plus the restored f3.go (4,000) and f2.go
			// (1,000): 8,250.
			name: "fallback", spec: "partial:keep=4,pct=3", results: []int64{1000, 1000, 4000},
			want: expect{
				prompts: []int64{2500, 3550, 4600, 8250},
				actions: map[int][]string{3: {"compact (partial): 1550 → 1212", "compact (auto): 6312 → 6250"}},
			},
		},
		{
			// Only 7 messages, keep=10: no pivot, so the full compaction:
			// 3,650 → 1,200 + 29 = 1,229 plus the three Reads restored
			// (3,000): 2,000 + 4,229 = 6,229.
			name: "few messages", spec: "partial:keep=10,pct=3", results: []int64{1000, 1000, 1000},
			want: expect{
				prompts: []int64{2500, 3550, 4600, 6229},
				actions: map[int][]string{3: {"compact (auto): 3650 → 4229"}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.check(t, run(t, tt.spec, reads(tt.results...)))
		})
	}
}
