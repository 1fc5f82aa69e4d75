package sizing

import (
	"reflect"
	"testing"

	"github.com/ctxlab/ctxlab/replay"
)

func msg(role replay.Role, ests ...int) replay.Message {
	m := replay.Message{Role: role, Call: -1}
	for _, e := range ests {
		m.Blocks = append(m.Blocks, replay.Block{Kind: replay.BlockText, Est: e})
	}
	return m
}

func TestSizeThread(t *testing.T) {
	th := &replay.Thread{
		Messages: []replay.Message{
			msg(replay.RoleUser, 10),      // m0
			msg(replay.RoleAssistant, 5),  // m1: call 0
			msg(replay.RoleUser, 20),      // m2
			msg(replay.RoleAssistant, 4),  // m3: call 1
			msg(replay.RoleUser, 6, 2000), // m4: text and an image
			msg(replay.RoleAssistant, 7),  // m5: call 2
			msg(replay.RoleUser, 100),     // m6: compaction summary
			msg(replay.RoleAssistant, 3),  // m7: call 3
			msg(replay.RoleAssistant, 9),  // m8: a <synthetic> line, never sent
			msg(replay.RoleUser, 1),       // m9
			msg(replay.RoleAssistant, 2),  // m10: call 5
		},
		Calls: []replay.Call{
			{Msg: 1, HasUsage: true, Usage: promptUsage(1100)},
			{Msg: 3, HasUsage: true, Usage: promptUsage(1175)},
			{Msg: 5, HasUsage: true, Usage: promptUsage(5195)},
			{Msg: 7, HasUsage: true, Usage: promptUsage(3000)},
			{Msg: 8, Synthetic: true},
			{Msg: 10, HasUsage: true, Usage: promptUsage(2990)},
		},
		Compactions: []replay.Compaction{{Kind: replay.CompactFull, Msg: 6}},
	}
	sz := SizeThread(th)
	// Clean segments: call 1 grew 75 over m1, m2 (estimates 5 + 20 = 25);
	// call 2 grew 4,020 over m3, m4 (4 + 6 + 2,000 = 2,010). Call 3 follows
	// the compaction; call 5 shrank by 10 (3,000 → 2,990).
	// Ratio: (75 + 4,020) / (25 + 2,010) = 4,095 / 2,035.
	if want := 4095.0 / 2035.0; sz.Ratio != want {
		t.Errorf("ratio %v, want %v", sz.Ratio, want)
	}
	// Exact splits: 75 × 5/25 = 15, 75 × 20/25 = 60; 4,020 × 4/2,010 = 8,
	// × 6/2,010 = 12, × 2,000/2,010 = 4,000.
	// Estimated (ratio ≈ 2.0123): m0 10 → 20; m5 7 → 14; m6 100 → 201.
	// The shrinking segment's m7 and m9 cost nothing; m8 was never sent
	// (estimated: 9 → 18); m10 comes after the last call (2 → 4).
	want := [][]int64{{20}, {15}, {60}, {8}, {12, 4000}, {14}, {201}, {0}, {18}, {0}, {4}}
	if !reflect.DeepEqual(sz.Blocks, want) {
		t.Errorf("blocks %v, want %v", sz.Blocks, want)
	}
	if wantExact := []bool{false, true, true, true, true, false, false, true, false, true, false}; !reflect.DeepEqual(sz.Exact, wantExact) {
		t.Errorf("exact %v, want %v", sz.Exact, wantExact)
	}
	// The synthetic response m8 is the one message never sent.
	if wantUnsent := []bool{false, false, false, false, false, false, false, false, true, false, false}; !reflect.DeepEqual(sz.Unsent, wantUnsent) {
		t.Errorf("unsent %v, want %v", sz.Unsent, wantUnsent)
	}
	// Overhead: 1,100 − m0's 20 = 1,080.
	if sz.Overhead != 1080 || sz.Method != "usage" {
		t.Errorf("overhead %d method %s", sz.Overhead, sz.Method)
	}
	segs := []Segment{
		{Call: 0, From: 0, To: 1}, {Call: 1, From: 1, To: 3, Clean: true}, {Call: 2, From: 3, To: 5, Clean: true},
		{Call: 3, From: 5, To: 7, CompTo: 1}, {Call: 5, From: 7, To: 10, CompFrom: 1, CompTo: 1, Clean: true, Shrink: 10},
	}
	if !reflect.DeepEqual(sz.Segments, segs) {
		t.Errorf("segments %+v\nwant %+v", sz.Segments, segs)
	}
}

func TestSizeThreadRemainderAndHidden(t *testing.T) {
	th := &replay.Thread{
		Messages: []replay.Message{
			msg(replay.RoleUser, 1),
			msg(replay.RoleAssistant, 1), // call 0
			msg(replay.RoleUser, 1, 2),   // weights 1, 1, 2 with the response above
			msg(replay.RoleAssistant, 0), // call 1
			msg(replay.RoleUser, 0),      // no visible weight
			msg(replay.RoleAssistant, 0), // call 2
		},
		Calls: []replay.Call{
			{Msg: 1, HasUsage: true, Usage: promptUsage(100)},
			{Msg: 3, HasUsage: true, Usage: promptUsage(110)},
			{Msg: 5, HasUsage: true, Usage: promptUsage(117)},
		},
	}
	sz := SizeThread(th)
	// 10 over weights 1, 1, 2: 2.5, 2.5, 5 → 2, 2, 5 and the one left to
	// the largest remainder, the earlier of the tied: 3, 2, 5.
	if got := [][]int64{sz.Blocks[1], sz.Blocks[2]}; !reflect.DeepEqual(got, [][]int64{{3}, {2, 5}}) {
		t.Errorf("split %v, want [[3] [2 5]]", got)
	}
	// The 7 tokens of call 2's segment have no visible block to carry them.
	if sz.Segments[2].Hidden != 7 {
		t.Errorf("hidden %d, want 7", sz.Segments[2].Hidden)
	}
}

// A sent call without usage in a thread that has usage says nothing about
// sizes: neither its segment nor the next one is clean.
func TestSizeThreadCallWithoutUsage(t *testing.T) {
	th := &replay.Thread{
		Messages: []replay.Message{
			msg(replay.RoleUser, 10),     // m0
			msg(replay.RoleAssistant, 5), // m1: call 0
			msg(replay.RoleUser, 20),     // m2
			msg(replay.RoleAssistant, 4), // m3: call 1, no usage
			msg(replay.RoleUser, 30),     // m4
			msg(replay.RoleAssistant, 6), // m5: call 2
			msg(replay.RoleUser, 10),     // m6
			msg(replay.RoleAssistant, 2), // m7: call 3
		},
		Calls: []replay.Call{
			{Msg: 1, HasUsage: true, Usage: promptUsage(1100)},
			{Msg: 3},
			{Msg: 5, HasUsage: true, Usage: promptUsage(1300)},
			{Msg: 7, HasUsage: true, Usage: promptUsage(1332)},
		},
	}
	sz := SizeThread(th)
	// Only call 3's segment is clean: 32 tokens over m5 and m6 (6 + 10 =
	// 16), ratio 2: 12 and 20. The rest is estimated at ratio 2.
	if sz.Ratio != 2 {
		t.Errorf("ratio %v, want 2", sz.Ratio)
	}
	want := [][]int64{{20}, {10}, {40}, {8}, {60}, {12}, {20}, {4}}
	if !reflect.DeepEqual(sz.Blocks, want) {
		t.Errorf("blocks %v, want %v", sz.Blocks, want)
	}
	// Overhead: 1,100 − m0's 20.
	if sz.Overhead != 1080 {
		t.Errorf("overhead %d, want 1080", sz.Overhead)
	}
	for _, s := range sz.Segments {
		if s.Clean != (s.Call == 3) || s.Shrink != 0 {
			t.Errorf("segment %+v: only call 3's is clean, none shrinks", s)
		}
	}
}

// The response of a duplicate call (counted in another thread) is not sent
// with this thread's context, as for a synthetic one.
func TestSizeThreadDuplicateCall(t *testing.T) {
	th := &replay.Thread{
		Messages: []replay.Message{
			msg(replay.RoleUser, 10),     // m0
			msg(replay.RoleAssistant, 5), // m1: call 0
			msg(replay.RoleUser, 20),     // m2
			msg(replay.RoleAssistant, 4), // m3: call 1, a duplicate
			msg(replay.RoleUser, 6),      // m4
			msg(replay.RoleAssistant, 7), // m5: call 2
		},
		Calls: []replay.Call{
			{Msg: 1, HasUsage: true, Usage: promptUsage(1100)},
			{Msg: 3, HasUsage: true, Usage: promptUsage(1150), Duplicate: true},
			{Msg: 5, HasUsage: true, Usage: promptUsage(1162)},
		},
	}
	sz := SizeThread(th)
	// Call 2 grew 62 over m1, m2 and m4 (5 + 20 + 6 = 31): ratio 2; m3 is
	// estimated (4 → 8), m0 and m5 too.
	want := [][]int64{{20}, {10}, {40}, {8}, {12}, {14}}
	if sz.Ratio != 2 || !reflect.DeepEqual(sz.Blocks, want) {
		t.Errorf("ratio %v blocks %v, want 2 %v", sz.Ratio, sz.Blocks, want)
	}
	if !reflect.DeepEqual(sz.Unsent, []bool{false, false, false, true, false, false}) {
		t.Errorf("unsent %v: m3 was not sent with this thread", sz.Unsent)
	}
}

// promptUsage is a call's usage with the given prompt: 10 tokens of input,
// the rest read from the cache. Sizes look only at the prompt.
func promptUsage(prompt int64) replay.Usage {
	return replay.Usage{Input: 10, CacheRead: prompt - 10}
}

// TestSizeThreadMicroFit: the results a real micro-compaction cleared are
// sized by what clearing them freed, and the rest of their segment takes
// up the difference. Ratio 2: each clean segment grew 2,020 over a
// 10-unit response and a 1,000-unit result (20 and 2,000). Before call 3
// the micro-compaction cleared result a; the prompt went from 5,240 by
// the 100 tokens appended since (m5, m6 at the ratio) less what clearing
// a freed, 1,500 less the 16-token placeholder (8 units): 3,856. So a
// cost 1,500 (of its segment's 2,020; the response m1 takes the other
// 520), and b, not cleared, keeps its 2,000.
func TestSizeThreadMicroFit(t *testing.T) {
	result := func(id string, est int) replay.Message {
		return replay.Message{Role: replay.RoleUser, Call: -1, Blocks: []replay.Block{{Kind: replay.BlockToolResult, ToolID: id, Est: est}}}
	}
	th := func(ids []string, after int64) *replay.Thread {
		return &replay.Thread{
			Messages: []replay.Message{
				msg(replay.RoleUser, 100), msg(replay.RoleAssistant, 10), result("a", 1000),
				msg(replay.RoleAssistant, 10), result("b", 1000), msg(replay.RoleAssistant, 10),
				msg(replay.RoleUser, 40), msg(replay.RoleAssistant, 10),
			},
			Calls: []replay.Call{
				{Msg: 1, HasUsage: true, Usage: promptUsage(1200)},
				{Msg: 3, HasUsage: true, Usage: promptUsage(3220)},
				{Msg: 5, HasUsage: true, Usage: promptUsage(5240)},
				{Msg: 7, HasUsage: true, Usage: promptUsage(after)},
			},
			Compactions: []replay.Compaction{{Kind: replay.CompactMicro, Msg: 6, CompactedToolIDs: ids}},
		}
	}
	sz := SizeThread(th([]string{"a"}, 3856))
	if sz.Ratio != 2 {
		t.Fatalf("ratio %v, want 2", sz.Ratio)
	}
	want := [][]int64{{200}, {520}, {1500}, {20}, {2000}, {20}, {80}, {20}}
	if !reflect.DeepEqual(sz.Blocks, want) {
		t.Errorf("blocks %v, want %v", sz.Blocks, want)
	}
	// An earlier compaction (here 2.1.41's image clearing, between calls
	// 1 and 2) leaves call 2's segment estimated and the fit as it was.
	x := th([]string{"a"}, 3856)
	x.Compactions = append([]replay.Compaction{{Kind: replay.CompactMicro, Msg: 4}}, x.Compactions...)
	if sz = SizeThread(x); !reflect.DeepEqual(sz.Blocks, want) {
		t.Errorf("after another compaction: blocks %v, want %v", sz.Blocks, want)
	}
	// More freed than a's segment holds: a takes the whole segment.
	if sz = SizeThread(th([]string{"a"}, 2856)); sz.Blocks[1][0] != 0 || sz.Blocks[2][0] != 2020 {
		t.Errorf("freed 2,484: m1 %d, a %d; want 0, 2020", sz.Blocks[1][0], sz.Blocks[2][0])
	}
	// A micro-compaction that names no results (2.1.41's image clearing)
	// leaves the split alone.
	sz = SizeThread(th(nil, 3856))
	if want[1][0], want[2][0] = 20, 2000; !reflect.DeepEqual(sz.Blocks, want) {
		t.Errorf("without ids: blocks %v, want %v", sz.Blocks, want)
	}
}
