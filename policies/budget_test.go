package policies

import "testing"

func TestBudget(t *testing.T) {
	tests := []struct {
		spec  string
		tr    func() []int64 // results of calls 1–4
		want  expect
		cache map[int]cacheIO
	}{
		{
			// Budget 5,000. Call 3 (5,650) is 650 over: this call's result is
			// protected, the oldest (1,000 → 8, −992) suffices: 4,658. Call 4:
			// 4,658 + 2,050 = 6,708, 1,708 over: the next two (−1,984) give 4,724.
			spec: "budget:tokens=5000",
			tr:   func() []int64 { return []int64{1000, 1000, 1000, 2000} },
			want: expect{
				prompts: []int64{2500, 3550, 4600, 4658, 4724},
				actions: map[int][]string{
					3: {"budget (mask): cleared 1 results, freed 992"},
					4: {"budget (mask): cleared 2 results, freed 1984"},
				},
			},
		},
		{
			// Call 4 brings 2,750: 7,408, 2,408 over. Clearing the two older
			// live results frees 1,984: 5,424, still 424 over, and none is
			// left but this call's; so the oldest item goes, the 500-token
			// prompt: 4,924.
			spec: "budget:tokens=5000",
			tr:   func() []int64 { return []int64{1000, 1000, 1000, 2700} },
			want: expect{
				prompts: []int64{2500, 3550, 4600, 4658, 4924},
				actions: map[int][]string{
					3: {"budget (mask): cleared 1 results, freed 992"},
					4: {"budget (mask): cleared 2 results, freed 1984", "budget (drop): dropped 1 items, freed 500"},
				},
			},
			// Call 3 clears at 2,550 (2,000 + 500 + 50): read 2,490, write
			// 4,648 − 2,490 = 2,158. Call 4 drops at 2,000: only the overhead's
			// entry is left; read 2,000, write 4,914 − 2,000 = 2,914.
			cache: map[int]cacheIO{3: {2490, 2158}, 4: {2000, 2914}},
		},
		{
			// mode=drop, call 3 650 over: the prompt (500), then the first
			// Read with its result (1,050): 5,650 − 1,550 = 4,100. Call 4:
			// 4,100 + 2,050 = 6,150, 1,150 over: the second Read (1,050), then
			// the third's call (50) and, with it, its result: 6,150 − 2,100 = 4,050.
			spec: "budget:tokens=5000,mode=drop",
			tr:   func() []int64 { return []int64{1000, 1000, 1000, 2000} },
			want: expect{
				prompts: []int64{2500, 3550, 4600, 4100, 4050},
				actions: map[int][]string{
					3: {"budget (drop): dropped 3 items, freed 1550"},
					4: {"budget (drop): dropped 4 items, freed 2100"},
				},
			},
		},
		{
			// A turn larger than the budget: everything older goes (the
			// 500-token prompt), and the context stays over it at 6,550 − 500
			// = 6,050, because what this call appended is never touched.
			spec: "budget:tokens=3000,mode=drop",
			tr:   func() []int64 { return []int64{4000} },
			want: expect{
				prompts: []int64{2500, 6050},
				actions: map[int][]string{1: {"budget (drop): dropped 1 items, freed 500"}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			res := run(t, tt.spec, reads(tt.tr()...))
			tt.want.check(t, res)
			checkCache(t, res, tt.cache)
		})
	}
}

// At ratio 2 a cleared 1,000-token result frees 984 (the placeholder is
// round(8 × 2) = 16): budget picks what to clear with that size, in one
// clearing.
func TestBudgetRatio(t *testing.T) {
	// Budget 6,725. Calls 0–3 (2,500 … 5,650) fit. Call 4 (8,700) is 1,975
	// over: f1.go and f2.go free 1,968, 7 short, so f3.go goes too (f4.go's
	// result is this call's): 3 × 984 = 2,952 freed, 5,748.
	tr := reads(1000, 1000, 1000, 3000)
	tr.Ratio = 2
	res := run(t, "budget:tokens=6725", tr)
	expect{
		prompts: []int64{2500, 3550, 4600, 5650, 5748},
		actions: map[int][]string{4: {"budget (mask): cleared 3 results, freed 2952"}},
	}.check(t, res)
}

// The budget holds at its exact value: a clearing or a drop that brings
// the context to the budget stops there, and one token less takes the next.
// Calls 0–3 of reads(1000, 1000, 1000): 2,500, 3,550, 4,600, 5,650.
func TestBudgetAtItsLimit(t *testing.T) {
	for _, c := range []struct {
		spec string
		want expect
	}{
		{
			// 992 over: f1.go's result (−992) brings it to 4,658 exactly.
			spec: "budget:tokens=4658",
			want: expect{
				prompts: []int64{2500, 3550, 4600, 4658},
				actions: map[int][]string{3: {"budget (mask): cleared 1 results, freed 992"}},
			},
		},
		{
			// 993 over: f1.go's leaves 1 over, so f2.go's goes too (f3.go's is
			// this call's): 5,650 − 1,984 = 3,666.
			spec: "budget:tokens=4657",
			want: expect{
				prompts: []int64{2500, 3550, 4600, 3666},
				actions: map[int][]string{3: {"budget (mask): cleared 2 results, freed 1984"}},
			},
		},
		{
			// 500 over: the 500-token prompt brings it to 5,150 exactly.
			spec: "budget:tokens=5150,mode=drop",
			want: expect{
				prompts: []int64{2500, 3550, 4600, 5150},
				actions: map[int][]string{3: {"budget (drop): dropped 1 items, freed 500"}},
			},
		},
		{
			// 501 over: the prompt, then f1.go's call with its result:
			// 5,650 − 1,550 = 4,100.
			spec: "budget:tokens=5149,mode=drop",
			want: expect{
				prompts: []int64{2500, 3550, 4600, 4100},
				actions: map[int][]string{3: {"budget (drop): dropped 3 items, freed 1550"}},
			},
		},
	} {
		t.Run(c.spec, func(t *testing.T) {
			c.want.check(t, run(t, c.spec, reads(1000, 1000, 1000)))
		})
	}
}

// A tool call is dropped with its result even when other items lie
// between them: one response with two Reads appends [call a, call b,
// result a, result b].
func TestBudgetDropsACallWithItsResult(t *testing.T) {
	// Calls: 2,500; 2,500 + 100 + 2,000 = 4,600; + 50 + 1,000 = 5,650,
	// 501 over 5,149: the prompt (500), then a.go's call (50) and, with it,
	// its result (1,000), two items further: 4,100. Dropping in order
	// instead would stop after b.go's call and leave a.go's result without
	// its call.
	tr := session(
		turn{user: 500},
		turn{tools: []tool{read("a.go", 1000), read("b.go", 1000)}},
		turn{tools: []tool{read("c.go", 1000)}},
	)
	expect{
		prompts: []int64{2500, 4600, 4100},
		actions: map[int][]string{2: {"budget (drop): dropped 3 items, freed 1550"}},
	}.check(t, run(t, "budget:tokens=5149,mode=drop", tr))
}

// A call that appends nothing protects nothing: budget may clear and drop
// up to the end of the context, and no further.
func TestBudgetCallAppendingNothing(t *testing.T) {
	// Budget 2,000. Call 0 (2,500): the prompt is this call's: nothing.
	// Call 1 (3,550): f1.go's result is this call's; the prompt goes:
	// 3,050. Call 2 appends nothing: f1.go's result is cleared (−992),
	// 58 over, then its call (50) goes, and with it the cleared result
	// (8): 2,000.
	tr := session(turn{user: 500}, turn{tools: []tool{read("f1.go", 1000)}}, turn{})
	expect{
		prompts: []int64{2500, 3050, 2000},
		actions: map[int][]string{
			1: {"budget (drop): dropped 1 items, freed 500"},
			2: {"budget (mask): cleared 1 results, freed 992", "budget (drop): dropped 2 items, freed 58"},
		},
	}.check(t, run(t, "budget:tokens=2000", tr))
}
