package policies

import (
	"fmt"
	"testing"

	"github.com/ctxlab/ctxlab/simulate"
)

func TestKeepLastN(t *testing.T) {
	tests := []struct {
		spec  string
		want  expect
		cache map[int]cacheIO
	}{
		{
			// Results of 1,000 tokens at calls 1–4. n=2: at call 3 the first
			// result is the third from the end and becomes the placeholder
			// (1,000 − 8 = 992 freed): 5,650 − 992 = 4,658. Call 4: the second
			// goes: 4,658 + 1,050 − 992 = 4,716.
			spec: "keep-last-n:n=2",
			want: expect{
				prompts: []int64{2500, 3550, 4600, 4658, 4716},
				actions: map[int][]string{
					3: {"keep-last-n: cleared 1 results, freed 992"},
					4: {"keep-last-n: cleared 1 results, freed 992"},
				},
			},
			// Call 3 clears the result at 2,000 + 500 + 50 = 2,550: the 3,540
			// and 4,590 prefixes die, 2,490 survives and is read; write
			// 4,648 − 2,490 = 2,158. Call 4 clears at 2,550 + 8 + 50 = 2,608:
			// call 3's 4,648 dies; read 2,490, write 4,706 − 2,490 = 2,216.
			cache: map[int]cacheIO{2: {3540, 1050}, 3: {2490, 2158}, 4: {2490, 2216}},
		},
		{
			// polling=2: the boundary moves on calls 0, 2, 4 only. Call 3 keeps
			// all three results (5,650) and reads call 2's prefix; call 4
			// clears the first two at once (1,984): 5,650 + 1,050 − 1,984 = 4,716.
			spec: "keep-last-n:n=2,polling=2",
			want: expect{
				prompts: []int64{2500, 3550, 4600, 5650, 4716},
				actions: map[int][]string{4: {"keep-last-n: cleared 2 results, freed 1984"}},
			},
			// Call 3: read 4,590, write 1,050. Call 4: the edit at 2,550 leaves
			// 2,490: write 4,706 − 2,490 = 2,216.
			cache: map[int]cacheIO{3: {4590, 1050}, 4: {2490, 2216}},
		},
		{
			// n=0 masks every result, the newest included: each call frees 992.
			spec: "keep-last-n:n=0",
			want: expect{
				prompts: []int64{2500, 2558, 2616, 2674, 2732},
				actions: map[int][]string{
					1: {"keep-last-n: cleared 1 results, freed 992"}, 2: {"keep-last-n: cleared 1 results, freed 992"},
					3: {"keep-last-n: cleared 1 results, freed 992"}, 4: {"keep-last-n: cleared 1 results, freed 992"},
				},
			},
		},
		{
			// The default n=10 never fires on four results.
			spec: "keep-last-n",
			want: expect{prompts: []int64{2500, 3550, 4600, 5650, 6700}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			res := run(t, tt.spec, reads(1000, 1000, 1000, 1000))
			tt.want.check(t, res)
			checkCache(t, res, tt.cache)
		})
	}
}

// naiveKeepLastN is keep-last-n's rule read literally: on every
// polling-th call, clear each result older than the last n that is not
// cleared yet.
type naiveKeepLastN struct{ n, polling int }

func (naiveKeepLastN) Name() string { return "naive" }
func (p naiveKeepLastN) Before(s *simulate.State) {
	if s.Call%p.polling != 0 {
		return
	}
	var all []int
	for j, it := range s.Items {
		if it.Kind == simulate.KindToolResult {
			all = append(all, j)
		}
	}
	var idx []int
	for _, j := range all[:max(0, len(all)-p.n)] {
		if !s.Items[j].Cleared {
			idx = append(idx, j)
		}
	}
	if len(idx) > 0 {
		s.Clear(idx, "keep-last-n")
	}
}

// clearAt clears one result at one call: another policy in a composition
// clearing a result the boundary has not reached yet.
type clearAt struct {
	call int
	id   string
}

func (clearAt) Name() string { return "clear-at" }
func (c clearAt) Before(s *simulate.State) {
	if s.Call != c.call {
		return
	}
	for j, it := range s.Items {
		if it.Kind == simulate.KindToolResult && it.ToolID == c.id {
			s.Clear([]int{j}, "clear-at")
		}
	}
}

// keep-last-n walks back only to where it stopped last time; when
// another policy cleared a result just past the old boundary, it still
// clears the older ones beyond it, as the literal rule does.
func TestKeepLastNLikeTheLiteralRule(t *testing.T) {
	tr := func() *simulate.Trace { return reads(1000, 1000, 1000, 1000, 1000, 1000, 1000) }
	for _, n := range []int{0, 1, 3} {
		for _, polling := range []int{1, 3} {
			for call := 1; call <= 7; call++ {
				for id := 1; id <= 7; id++ {
					kln, err := Parse(fmt.Sprintf("keep-last-n:n=%d,polling=%d", n, polling))
					if err != nil {
						t.Fatal(err)
					}
					other := clearAt{call, fmt.Sprintf("t%d", id)}
					got := simulate.Run(tr(), &composite{parts: []simulate.Policy{other, kln}}, simulate.DefaultConfig())
					want := simulate.Run(tr(), &composite{parts: []simulate.Policy{other, naiveKeepLastN{n, polling}}}, simulate.DefaultConfig())
					for i := range want.Calls {
						if got.Calls[i].Prompt != want.Calls[i].Prompt {
							t.Errorf("n=%d polling=%d, t%d cleared at call %d: call %d prompt %d, literal rule %d", n, polling, id, call, i, got.Calls[i].Prompt, want.Calls[i].Prompt)
						}
					}
				}
			}
		}
	}
}

// A tool result without an id (a transcript block lacking tool_use_id) is
// masked like any other, and the walk goes on past it to the older ones.
func TestKeepLastNResultWithoutID(t *testing.T) {
	// polling=3: the first walk is at call 3. f2.go's result has no id.
	// n=1 keeps f3.go's; f2.go's and f1.go's go: 5,650 − 1,984 = 3,666.
	tr := reads(1000, 1000, 1000)
	for j, it := range tr.Calls[2].Items {
		if it.Kind == simulate.KindToolResult {
			tr.Calls[2].Items[j].ToolID = ""
		}
	}
	expect{
		prompts: []int64{2500, 3550, 4600, 3666},
		actions: map[int][]string{3: {"keep-last-n: cleared 2 results, freed 1984"}},
	}.check(t, run(t, "keep-last-n:n=1,polling=3", tr))
}
