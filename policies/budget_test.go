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
