package policies

import (
	"reflect"
	"testing"

	"github.com/ctxlab/ctxlab/internal/testcorpus"
	"github.com/ctxlab/ctxlab/internal/testcorpus/corpusload"
	"github.com/ctxlab/ctxlab/simulate"
)

// freshEditing and freshBudget are context-editing and budget without
// what they keep between calls: they index the whole context at every
// call, as the policies did before they kept their indexes.
type freshEditing struct{ *contextEditing }

func (f freshEditing) Before(s *simulate.State) {
	f.uses, f.firstOf, f.done, f.results = nil, nil, 0, resultIndex{}
	f.contextEditing.Before(s)
}

type freshBudget struct{ *budget }

func (f freshBudget) Before(s *simulate.State) {
	f.cleared, f.clearedIn, f.results = 0, 0, resultIndex{}
	f.budget.Before(s)
}

// TestKeptIndexes: what context-editing and budget keep between calls
// changes no call of any run, on the fixtures and the real transcripts
// (when present); for context-editing with parameters that clear inputs,
// keep none, exclude a tool or wait for a minimum; alone, composed, and
// after a policy that drops items (a new layout at every drop); and on a
// session whose first tool result comes two calls after its use, when
// the use was already counted spent.
func TestKeptIndexes(t *testing.T) {
	var traces []*simulate.Trace
	sessions := corpusload.Path(t, "../fixtures")
	if _, ok := testcorpus.Path(testcorpus.Realdata); ok {
		sessions = append(sessions, corpusload.Sessions(t, testcorpus.Realdata)...)
	}
	for _, s := range sessions {
		traces = append(traces, simulate.Prepare(s))
	}
	traces = append(traces, lateResult())
	specs := []string{
		"context-editing:trigger=20000",
		"context-editing:trigger=30000,keep=0,clear_tool_inputs=true",
		"context-editing:trigger=30000,exclude_tools=Read,clear_at_least=20000",
		"context-editing:trigger=1,keep=1",
		"budget:tokens=40000",
		"budget:tokens=40000+context-editing:trigger=30000",
	}
	for _, tr := range traces {
		for _, spec := range specs {
			for _, before := range []string{"", "budget:tokens=60000,mode=drop+"} {
				got := simulate.Run(tr, parsed(t, before+spec), simulate.DefaultConfig())
				want := simulate.Run(tr, withFresh(parsed(t, before+spec)), simulate.DefaultConfig())
				if !reflect.DeepEqual(got.Calls, want.Calls) {
					t.Errorf("%s, %s%s: the kept index changes the run", tr.Session, before, spec)
				}
			}
		}
	}
	// With keep=1, call 2 finds f1.go's use old and without a result:
	// spent. Its result comes at call 3 (3,600 + f3.go's 50 + 1,000 and
	// f1.go's 1,000 = 5,650): both older results go (2 × 992), 3,666.
	expect{
		prompts: []int64{2500, 2550, 3600, 3666},
		actions: map[int][]string{3: {"context editing: cleared 2 results, freed 1984"}},
	}.check(t, run(t, "context-editing:trigger=1,keep=1", lateResult()))
}

// lateResult is reads(1000, 1000, 1000) with f1.go's result moved from
// call 1 to the end of call 3.
func lateResult() *simulate.Trace {
	tr := reads(1000, 1000, 1000)
	tr.Session = "late result"
	first := tr.Calls[1].Items
	res := first[len(first)-1]
	tr.Calls[1].Items = first[:len(first)-1]
	tr.Calls[3].Items = append(tr.Calls[3].Items, res)
	return tr
}

// withFresh returns p with its context-editing and budget parts made
// fresh.
func withFresh(p simulate.Policy) simulate.Policy {
	switch p := p.(type) {
	case *contextEditing:
		return freshEditing{p}
	case *budget:
		return freshBudget{p}
	case *composite:
		for i, part := range p.parts {
			p.parts[i] = withFresh(part)
		}
	}
	return p
}

func parsed(t *testing.T, spec string) simulate.Policy {
	t.Helper()
	p, err := Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
