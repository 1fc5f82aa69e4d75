package policies

import "testing"

func TestSummaryNM(t *testing.T) {
	// n=2, m=1: a summary when more than 3 turns are unsummarised. Turns:
	// call 0 (the prompt, 500), then one Read (1,050) per call.
	//   call 3: turns 0–3 (4 > 3): turns 0 and 1 (500 + 1,050 = 1,550)
	//           become 1,200 + 12 = 1,212: 5,650 − 1,550 + 1,212 = 5,312.
	//   call 4: turns 2–4 (3): nothing; 6,362.
	//   call 5: turns 2–5 (4): the summary and turns 2, 3 (1,212 + 2,100 =
	//           3,312) become 1,200 + 26 = 1,226: 7,412 − 3,312 + 1,226 = 5,326.
	//   call 6: turns 4–6 (3): nothing; 6,376.
	res := run(t, "summary-nm:n=2,m=1", reads(1000, 1000, 1000, 1000, 1000, 1000))
	expect{
		prompts: []int64{2500, 3550, 4600, 5312, 6362, 5326, 6376},
		actions: map[int][]string{
			3: {"compact (summary-nm): 1550 → 1212"},
			5: {"compact (summary-nm): 3312 → 1226"},
		},
	}.check(t, res)
	// Call 3's compaction edits from 2,000: read the overhead's entry, write
	// 5,302 − 2,000 = 3,302. Call 4 reads that and writes its 1,050.
	checkCache(t, res, map[int]cacheIO{3: {2000, 3302}, 4: {5302, 1050}})
	if len(res.Summaries) != 2 || res.Metrics.Compactions != 2 {
		t.Errorf("summaries %d, compactions %d", len(res.Summaries), res.Metrics.Compactions)
	}

	// The defaults (21/10) wait for 32 turns.
	res = run(t, "summary-nm", reads(1000, 1000, 1000, 1000, 1000, 1000))
	if res.Metrics.Compactions != 0 {
		t.Errorf("default: %d compactions", res.Metrics.Compactions)
	}
}

// A turn another policy summarised is no longer counted.
func TestSummaryNMForgetsSummarisedTurns(t *testing.T) {
	// threshold (10,000 × 50% = 5,000) runs first. Call 3 (5,650): it
	// compacts 3,650 → 1,229, context 3,229, and turns 0–3 are gone; without
	// forgetting them summary-nm would count 4 turns (> 3) and compact the
	// summary again. Call 4: 4,279, one turn. Call 5: 5,329 ≥ 5,000,
	// threshold again: 3,329 → 1,200 + 26 = 1,226, context 3,226. Call 6:
	// 4,276, one turn.
	res := run(t, "threshold:pct=50,window=10000+summary-nm:n=2,m=1", reads(1000, 1000, 1000, 1000, 1000, 1000))
	expect{
		prompts: []int64{2500, 3550, 4600, 3229, 4279, 3226, 4276},
		actions: map[int][]string{
			3: {"compact (threshold): 3650 → 1229"},
			5: {"compact (threshold): 3329 → 1226"},
		},
	}.check(t, res)
}

// A turn another policy dropped is no longer counted, though the next
// turn is still there.
func TestSummaryNMForgetsDroppedTurns(t *testing.T) {
	// budget (5,150, mode=drop) runs first. Call 3 (5,650): it drops the
	// prompt (500), turn 0: turns 1–3 are left, 3, not more than n+m = 3:
	// nothing. Call 4 (6,200): it drops f1.go's call and result (1,050),
	// turn 1: turns 2–4, nothing again.
	res := run(t, "budget:tokens=5150,mode=drop+summary-nm:n=2,m=1", reads(1000, 1000, 1000, 1000))
	expect{
		prompts: []int64{2500, 3550, 4600, 5150, 5150},
		actions: map[int][]string{
			3: {"budget (drop): dropped 1 items, freed 500"},
			4: {"budget (drop): dropped 2 items, freed 1050"},
		},
	}.check(t, res)
}
