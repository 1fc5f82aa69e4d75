package policies

import "testing"

// TestComposition runs keep-last-n:n=2 then threshold:pct=50 (100,000 of
// Sonnet's 200,000) before every call.
func TestComposition(t *testing.T) {
	// Reads of 45,000 each, and 20,000 of user text at call 3.
	tr := session(
		turn{user: 500},
		turn{tools: []tool{read("a.go", 45_000)}},
		turn{tools: []tool{read("b.go", 45_000)}},
		turn{tools: []tool{read("c.go", 45_000)}, user: 20_000},
		turn{tools: []tool{read("d.go", 45_000)}},
	)
	// call 1: 47,550; call 2: 92,600 (two results: nothing to mask, below
	// 100,000). Call 3: 92,600 + 45,050 + 20,000 = 157,650; keep-last-n
	// masks a.go's result (−44,992): 112,658, still ≥ 100,000, so
	// threshold compacts the 110,658 after the overhead into 1,200 +
	// ⌊885.264⌋ = 2,085: 4,085. Call 4: 4,085 + 45,050 = 49,135, one result
	// in the context: nothing.
	res := run(t, "keep-last-n:n=2+threshold:pct=50", tr)
	if res.Policy != "keep-last-n:n=2+threshold:pct=50" {
		t.Errorf("policy name %q", res.Policy)
	}
	expect{
		prompts: []int64{2500, 47_550, 92_600, 4085, 49_135},
		actions: map[int][]string{3: {
			"keep-last-n: cleared 1 results, freed 44992",
			"compact (threshold): 110658 → 2085",
		}},
	}.check(t, res)
	// Alone, threshold compacts the unmasked 155,650 at call 3 instead:
	// 1,200 + 1,245 = 2,445.
	expect{
		prompts: []int64{2500, 47_550, 92_600, 4445, 49_495},
		actions: map[int][]string{3: {"compact (threshold): 155650 → 2445"}},
	}.check(t, run(t, "threshold:pct=50", tr))
}
