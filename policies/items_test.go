package policies

import (
	"testing"

	"github.com/ctxlab/ctxlab/simulate"
)

// msgs returns items with the given message indexes.
func msgs(ms ...int) []simulate.Item {
	out := make([]simulate.Item, len(ms))
	for i, m := range ms {
		out[i].Msg = m
	}
	return out
}

func TestFirstMsg(t *testing.T) {
	for _, c := range []struct {
		items []simulate.Item
		want  int
	}{
		{msgs(-1, 0, 1), 0}, // the first call may append several messages
		{msgs(-1, 5, 3), 3}, // the lowest, wherever it is
		{msgs(-1, -1), -1},
		{nil, -1},
	} {
		s := &simulate.State{Recorded: &simulate.TraceCall{Items: c.items}}
		if got := firstMsg(s); got != c.want {
			t.Errorf("firstMsg(%v) = %d, want %d", c.items, got, c.want)
		}
	}
	// A compaction artifact is not appended.
	s := &simulate.State{Recorded: &simulate.TraceCall{Items: []simulate.Item{{Msg: 2, Artifact: true}, {Msg: 4}}}}
	if got := firstMsg(s); got != 4 {
		t.Errorf("firstMsg with an artifact = %d, want 4", got)
	}
	if got := firstMsg(&simulate.State{}); got != -1 {
		t.Errorf("firstMsg without a recorded call = %d, want -1", got)
	}
}

func TestFromMsg(t *testing.T) {
	items := msgs(-1, 0, 1, -1, 3)
	for _, c := range []struct{ msg, want int }{
		{0, 1},
		{2, 4}, // message 2 is gone: the first item after it
		{3, 4},
		{4, 5}, // none: len(items)
	} {
		if got := fromMsg(items, c.msg); got != c.want {
			t.Errorf("fromMsg(%d) = %d, want %d", c.msg, got, c.want)
		}
	}
}

// emptyActions asks for nothing at every call: no result cleared, no
// input, no item dropped, an empty range compacted.
type emptyActions struct{}

func (emptyActions) Name() string { return "empty" }
func (emptyActions) Before(s *simulate.State) {
	s.Clear(nil, "empty")
	s.ClearInputs(nil, "empty")
	s.Drop(nil, "empty")
	s.Compact(simulate.Compaction{From: 1, To: 1, Label: "empty"})
}

// The policies hand the engine what they picked without checking that it
// is not empty: an empty clearing, drop or compaction changes nothing, the
// cache included.
func TestEmptyActionsChangeNothing(t *testing.T) {
	tr := func() *simulate.Trace { return reads(1000, 1000, 1000) }
	got := simulate.Run(tr(), emptyActions{}, simulate.DefaultConfig())
	want := run(t, "none", tr())
	expect{prompts: []int64{2500, 3550, 4600, 5650}}.check(t, got)
	for i, c := range got.Calls {
		w := want.Calls[i]
		if c.Prompt != w.Prompt || c.Read != w.Read || c.Write5m != w.Write5m || c.Input != w.Input || c.Compacted {
			t.Errorf("call %d: %+v, want %+v", i, c, w)
		}
	}
	if len(got.Summaries) != 0 || got.Metrics != want.Metrics {
		t.Errorf("summaries %d, metrics %+v, want %+v", len(got.Summaries), got.Metrics, want.Metrics)
	}
}
