package policies

import (
	"testing"

	"github.com/ctxlab/ctxlab/simulate"
)

// editingSession: Read f1.go, Bash, Read f3.go, Read f4.go, results of
// 1,000 each: prompts 2,500, 3,550, 4,600, 5,650, 6,700 unmanaged.
func editingSession() []turn {
	return []turn{
		{user: 500},
		{tools: []tool{read("f1.go", 1000)}},
		{tools: []tool{{"Bash", "", 50, 1000}}},
		{tools: []tool{read("f3.go", 1000)}},
		{tools: []tool{read("f4.go", 1000)}},
	}
}

func TestContextEditing(t *testing.T) {
	tests := []struct {
		spec  string
		want  expect
		cache map[int]cacheIO
	}{
		{
			// Trigger 4,000, keep the last tool use, Bash excluded. Call 2
			// (4,600): the first Read's result goes (−992): 3,608. Call 3
			// (4,658): the older uses are the cleared Read and Bash
			// (excluded): nothing to clear. Call 4 (5,708): the third use's
			// result goes: 4,716.
			spec: "context-editing:trigger=4000,keep=1,exclude_tools=Bash",
			want: expect{
				prompts: []int64{2500, 3550, 3608, 4658, 4716},
				actions: map[int][]string{
					2: {"context editing: cleared 1 results, freed 992"},
					4: {"context editing: cleared 1 results, freed 992"},
				},
			},
			// Call 2 clears at 2,550: read call 0's 2,490, write 3,598 − 2,490
			// = 1,108. Call 3 reads that 3,598 and writes its 1,050. Call 4
			// clears at 2,000 + 500 + 50 + 8 + 50 + 1,000 + 50 = 3,658: call
			// 2's 3,598 prefix survives (call 3's 4,648 does not); write 4,706 −
			// 3,598 = 1,108.
			cache: map[int]cacheIO{2: {2490, 1108}, 3: {3598, 1050}, 4: {3598, 1108}},
		},
		{
			// clear_at_least=1,500: one 992-token result is not worth the
			// cache; at call 4 the first and third results together (1,984) are.
			spec: "context-editing:trigger=4000,keep=1,exclude_tools=Bash,clear_at_least=1500",
			want: expect{
				prompts: []int64{2500, 3550, 4600, 5650, 4716},
				actions: map[int][]string{4: {"context editing: cleared 2 results, freed 1984"}},
			},
		},
		{
			// clear_at_least is a minimum reached at its value: 992 clears
			// one 992-token result as the first case does, 993 waits for
			// call 4's two (1,984).
			spec: "context-editing:trigger=4000,keep=1,exclude_tools=Bash,clear_at_least=992",
			want: expect{
				prompts: []int64{2500, 3550, 3608, 4658, 4716},
				actions: map[int][]string{
					2: {"context editing: cleared 1 results, freed 992"},
					4: {"context editing: cleared 1 results, freed 992"},
				},
			},
		},
		{
			spec: "context-editing:trigger=4000,keep=1,exclude_tools=Bash,clear_at_least=993",
			want: expect{
				prompts: []int64{2500, 3550, 4600, 5650, 4716},
				actions: map[int][]string{4: {"context editing: cleared 2 results, freed 1984"}},
			},
		},
		{
			// clear_tool_inputs: the call's 50-token input becomes the
			// placeholder too (−42). Call 2: 4,600 − 1,034 = 3,566; call 3
			// (4,616): the Bash use goes now, 4,616 − 1,034 = 3,582; call 4:
			// 4,632 − 1,034 = 3,598.
			spec: "context-editing:trigger=4000,keep=1,clear_tool_inputs=true",
			want: expect{
				prompts: []int64{2500, 3550, 3566, 3582, 3598},
				actions: map[int][]string{
					2: {"context editing: cleared 1 results, freed 992", "context editing: cleared 1 inputs, freed 42"},
					3: {"context editing: cleared 1 results, freed 992", "context editing: cleared 1 inputs, freed 42"},
					4: {"context editing: cleared 1 results, freed 992", "context editing: cleared 1 inputs, freed 42"},
				},
			},
		},
		{
			// The published defaults (trigger 100,000) never fire here.
			spec: "context-editing",
			want: expect{prompts: []int64{2500, 3550, 4600, 5650, 6700}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			res := run(t, tt.spec, session(editingSession()...))
			tt.want.check(t, res)
			checkCache(t, res, tt.cache)
		})
	}
}

// At ratio 2 the engine's placeholder is round(8 × 2) = 16 tokens, so
// clearing a 1,000-token result frees 984, not the 992 of ratio 1; the
// projection must use the engine's size.
func TestContextEditingRatio(t *testing.T) {
	// clear_at_least=990. Call 2 (4,600): f1.go's result would free 984 <
	// 990: skipped. Call 3 (5,650): still only f1.go (Bash is excluded):
	// skipped. Call 4 (6,700): f1.go and f3.go free 2 × 984 = 1,968 ≥ 990:
	// 6,700 − 1,968 = 4,732.
	tr := session(editingSession()...)
	tr.Ratio = 2
	res := run(t, "context-editing:trigger=4000,keep=1,exclude_tools=Bash,clear_at_least=990", tr)
	expect{
		prompts: []int64{2500, 3550, 4600, 5650, 4732},
		actions: map[int][]string{4: {"context editing: cleared 2 results, freed 1968"}},
	}.check(t, res)
}

// Two results carrying one tool use's id (a malformed transcript) are both
// that use's: clearing it clears both, and the use whose own id no result
// carries clears nothing.
func TestContextEditingSharedID(t *testing.T) {
	// f3.go's result carries f1.go's id, t1. Call 2 (4,600) is under the
	// trigger of 4,650. Call 3 (5,650): the uses before the last are t1
	// (two results) and Bash (excluded): 5,650 − 1,984 = 3,666. Call 4
	// (4,716): t3 has no result of its own, so nothing is left to clear.
	tr := session(editingSession()...)
	for j, it := range tr.Calls[3].Items {
		if it.Kind == simulate.KindToolResult {
			tr.Calls[3].Items[j].ToolID = "t1"
		}
	}
	expect{
		prompts: []int64{2500, 3550, 4600, 3666, 4716},
		actions: map[int][]string{3: {"context editing: cleared 2 results, freed 1984"}},
	}.check(t, run(t, "context-editing:trigger=4650,keep=1,exclude_tools=Bash", tr))
}
