package policies

import "testing"

func TestThreshold(t *testing.T) {
	t.Run("fires at pct of window", func(t *testing.T) {
		// window 10,000 × 50% = 5,000. Calls: 2,500, 3,550, 4,600, then 5,650
		// ≥ 5,000: items 1… (3,650 tokens) become a summary of 1,200 +
		// ⌊3,650 × 8 / 1,000⌋ = 1,229: 2,000 + 1,229 = 3,229. Call 4: 4,279 <
		// 5,000, nothing.
		res := run(t, "threshold:pct=50,window=10000", reads(1000, 1000, 1000, 1000))
		expect{
			prompts: []int64{2500, 3550, 4600, 3229, 4279},
			actions: map[int][]string{3: {"compact (threshold): 3650 → 1229"}},
		}.check(t, res)
		if !res.Calls[3].Compacted || res.Calls[4].Compacted {
			t.Errorf("compacted flags: %v %v", res.Calls[3].Compacted, res.Calls[4].Compacted)
		}
		// The compaction edits from 2,000 on: only the overhead's entry
		// survives. Call 3 reads 2,000 and writes 3,219 − 2,000 = 1,219; call
		// 4 reads that 3,219 and writes its 1,050.
		checkCache(t, res, map[int]cacheIO{3: {2000, 1219}, 4: {3219, 1050}})
		// The summarizer forks the 5,650-token context before the edit: it
		// reads call 2's 4,590 prefix and writes 5,650 − 4,590 + 1,000 (its
		// prompt) = 2,060.
		if len(res.Summaries) != 1 {
			t.Fatalf("summaries %+v", res.Summaries)
		}
		if s := res.Summaries[0]; s.Read != 4590 || s.Write != 2060 || s.Output != 1229 || s.BeforeCall != 4 || s.Label != "summary" {
			t.Errorf("summary call %+v", s)
		}
		if m := res.Metrics; m.Compactions != 1 || m.FirstCompaction != 4 {
			t.Errorf("metrics %+v", m)
		}
	})
	t.Run("restore", func(t *testing.T) {
		// With restore the three Read results come back (1,000 each, newest
		// first, and 44 of Claude Code's notes around each): 2,000 + 1,229
		// + 3,132 = 6,361, still ≥ 5,000, so call 4 compacts again:
		// summary 1,229 + restored 3,132 + 1,050 = 5,411 → 1,200 + 43 =
		// 1,243, and the files Claude Code keeps come back: f4.go's Read
		// and the three files restored before (4,176): 2,000 + 1,243 +
		// 4,176 = 7,419.
		res := run(t, "threshold:pct=50,window=10000,restore=true", reads(1000, 1000, 1000, 1000))
		expect{
			prompts: []int64{2500, 3550, 4600, 6361, 7419},
			actions: map[int][]string{
				3: {"compact (threshold): 3650 → 4361"},
				4: {"compact (threshold): 5411 → 5419"},
			},
		}.check(t, res)
	})
	t.Run("default window", func(t *testing.T) {
		// 80% of Sonnet's 200,000 is 160,000: call 1's 2,500 + 50 + 159,950 =
		// 162,500 fires; 160,500 replaced → 1,200 + ⌊1,284⌋ = 2,484.
		res := run(t, "threshold", reads(160_000-50))
		expect{
			prompts: []int64{2500, 4484},
			actions: map[int][]string{1: {"compact (threshold): 160500 → 2484"}},
		}.check(t, res)
	})
}
