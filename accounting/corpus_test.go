package accounting

import (
	"reflect"
	"slices"
	"testing"
	"time"
)

// mergeSessions returns two sessions: sb was resumed from sa and repeats
// its call msg_X with the final usage (output 50 where sa has 10).
func mergeSessions(t *testing.T) (a, b *Report) {
	sa := newTr("sa")
	sa.user("abcdef") // human 2
	// 1: 1h write.
	sa.line("msg_X", "req_X", sonnet45, use{in: 100, w1: 1000, out: 10})
	// 2: 5m write (a TTL change), reads /a.go.
	sa.call(sonnet45, use{in: 1, w5: 1000, read: 50_000}, toolUse("r1", "Read", fp("/a.go"))) // 21 chars → 5
	sa.user([]any{result("r1", rep("a", 40))})                                                // 10
	// 3: 50,000 → 10,000, a break; reads /a.go again, unchanged.
	sa.call(sonnet45, use{in: 1, read: 10_000}, toolUse("r2", "Read", fp("/a.go")))
	sa.user([]any{result("r2", rep("a", 40))})
	sa.boundary(`{"trigger":"auto","preTokens":100000,"postTokens":10000}`, rep("s", 40)) // summary 10
	// 4: 10,000 → 5,000 after the compaction.
	sa.call(sonnet45, use{in: 1, read: 5000})

	sb := newTr("sb")
	sb.version = "2.1.90"
	sb.after(time.Hour)
	sb.user("abcdefgh") // human 2
	sb.line("msg_X", "req_X", sonnet45, use{in: 100, w1: 1000, out: 50})
	sb.call(sonnet45, use{in: 1, read: 1000})
	sb.boundary(`{"trigger":"auto","preTokens":100000,"postTokens":20000}`, rep("s", 40))
	sb.call(sonnet45, use{in: 1, read: 1000})
	sb.boundary(`{"trigger":"auto","preTokens":90000,"postTokens":20000}`, rep("s", 40))
	sb.after(time.Hour)
	sb.call(sonnet45, use{in: 1, read: 1000})
	return analyze(t, sa, nil), analyze(t, sb, nil)
}

func TestMerge(t *testing.T) {
	a, b := mergeSessions(t)
	// Per call, sonnet 4.5, µ$:
	//   X in sa: 100×3 + 1000×6 + 10×15          = 300+6000+150    = 6450
	//   X in sb: 100×3 + 1000×6 + 50×15          = 300+6000+750    = 7050
	//   sa 2:    1×3 + 1000×3.75 + 50,000×0.3    = 3+3750+15000    = 18753
	//   sa 3:    1×3 + 10,000×0.3                = 3+3000          = 3003
	//   sa 4:    1×3 + 5,000×0.3                 = 3+1500          = 1503
	//   sb 2–4:  1×3 + 1,000×0.3 = 303, three times                = 909
	usd(t, "sa cost", a.Usage.Total.Cost, 0.029709) // 6450+18753+3003+1503 = 29709
	usd(t, "sb cost", b.Usage.Total.Cost, 0.007959) // 7050+909 = 7959

	for _, order := range [][]*Report{{a, b}, {b, a}} {
		r := Merge(order, nil)
		// X once, with sb's record (1150 tokens against 1110):
		// 7050+18753+3003+1503+909 = 31218 µ$ < 29709+7959 = 37668.
		want := UsageRow{
			Name: "", Calls: 7, // 4 + 4 − 1
			Input:        106,    // 100+1+1+1 + 1+1+1
			CacheWrite5m: 1000,   // sa 2
			CacheWrite1h: 1000,   // X once
			CacheRead:    68_000, // 50,000+10,000+5,000 + 3×1,000
			Output:       50,     // X from sb
			Cost:         0.031218,
		}
		checkRow(t, "corpus total", r.Usage.Total, want)
		want.Name = sonnet45
		checkRows(t, "corpus by model", r.Usage.ByModel, []UsageRow{want})
		want.Name, want.Kind = "main", "main" // corpus rows group threads by kind
		checkRows(t, "corpus by thread", r.Usage.ByThread, []UsageRow{want})
		// 68,000 / (106 + 2,000 + 68,000)
		if w := 68000.0 / 70106; r.Usage.HitRatio != w {
			t.Errorf("HitRatio = %v, want %v", r.Usage.HitRatio, w)
		}
		if r.Summary.CrossSessionDuplicates != 1 || r.Summary.Calls != 7 {
			t.Errorf("CrossSessionDuplicates, Calls = %d, %d; want 1, 7", r.Summary.CrossSessionDuplicates, r.Summary.Calls)
		}
	}

	r := Merge([]*Report{a, b}, nil)
	s := r.Summary
	usd(t, "summary cost", s.Cost, 0.031218)
	s.Cost = 0
	wantSum := Summary{
		Sessions: 2, Calls: 7, CrossSessionDuplicates: 1,
		Start: stamp("2026-01-01T10:00:00Z"), End: stamp("2026-01-01T12:00:00Z"), Seconds: 7200,
		Models:       []string{sonnet45},
		Versions:     []string{"2.1.90", "2.1.100"}, // version order
		Lines:        18,                            // 9 + 9
		CostComplete: true,
	}
	if !reflect.DeepEqual(s, wantSum) {
		t.Errorf("Summary =\n  %+v\nwant\n  %+v", s, wantSum)
	}

	// Token rows are summed and their shares recomputed over 64 tokens:
	// compact_summary 10+10+10 = 30, tool_result Read 10+10 = 20,
	// tool_request Read 5+5 = 10, human 2+2 = 4.
	wantTok := Tokens{Method: "estimate", Total: 64, Rows: []TokenRow{
		{Category: CategoryCompactSummary, Count: 3, Tokens: 30, Percent: 46.9},            // 46.875
		{Category: CategoryToolResult, Name: "Read", Count: 2, Tokens: 20, Percent: 31.3},  // 31.25, half up
		{Category: CategoryToolRequest, Name: "Read", Count: 2, Tokens: 10, Percent: 15.6}, // 15.625
		{Category: CategoryHuman, Count: 2, Tokens: 4, Percent: 6.3},                       // 6.25, half up
	}}
	if !reflect.DeepEqual(estimates(r.Tokens), wantTok) {
		t.Errorf("Tokens = %+v\nwant %+v", r.Tokens, wantTok)
	}

	wantDup := []DuplicateRead{{Session: "sa", Path: "/a.go", Reads: 2, Tokens: 20, Overhead: 10, Waste: 1, WasteTokens: 10}}
	if !reflect.DeepEqual(r.Duplicates, wantDup) {
		t.Errorf("Duplicates = %+v, want %+v", r.Duplicates, wantDup)
	}
	// Both breaks rewrite nothing (cost 0) and keep their order.
	if got := brks(r.CacheBreaks); !reflect.DeepEqual(got, []brk{
		{3, CausePromptShrank, false, 50_000, 10_000, 0}, // 51,001 → 10,001 tokens
		{4, CauseCompaction, true, 10_000, 5000, 0},
	}) || r.CacheBreaks[0].Session != "sa" || r.CacheBreaks[1].Session != "sa" {
		t.Errorf("CacheBreaks = %+v", r.CacheBreaks)
	}
	wantTTL := []TTLChange{{Session: "sa", Thread: "main", Call: 2, Line: 3, Time: stamp("2026-01-01T10:00:00Z"), From: "1h", To: "5m"}}
	if !reflect.DeepEqual(r.TTLChanges, wantTTL) {
		t.Errorf("TTLChanges = %+v, want %+v", r.TTLChanges, wantTTL)
	}
	at := stamp("2026-01-01T11:00:00Z")
	checkEvents(t, r.Compactions, []CompactionEvent{
		// 100,000 − 10,000 = 90,000.
		{Session: "sa", Thread: "main", Kind: "compact", Trigger: "auto", Line: 7, Time: stamp("2026-01-01T10:00:00Z"), AfterCall: 3,
			LastPrompt: 10_001, Before: 100_000, BeforeSource: "pre_tokens", After: 10_000, AfterSource: "post_tokens",
			Freed: 90_000, SummaryTokens: 10},
		// 100,000 − 20,000 = 80,000 and 90,000 − 20,000 = 70,000: a spiral.
		{Session: "sb", Thread: "main", Kind: "compact", Trigger: "auto", Line: 4, Time: at, AfterCall: 2,
			LastPrompt: 1001, Before: 100_000, BeforeSource: "pre_tokens", After: 20_000, AfterSource: "post_tokens",
			Freed: 80_000, SummaryTokens: 10, Spiral: true},
		{Session: "sb", Thread: "main", Kind: "compact", Trigger: "auto", Line: 7, Time: at, AfterCall: 3,
			LastPrompt: 1001, Before: 90_000, BeforeSource: "pre_tokens", After: 20_000, AfterSource: "post_tokens",
			Freed: 70_000, SummaryTokens: 10, Spiral: true},
	})
	// sb's spiral starts at its event 0, which is event 1 of the corpus;
	// 80,000 + 70,000 = 150,000 over 3 − 2 = 1 call.
	wantSp := []Spiral{{Session: "sb", Thread: "main", First: 1, Count: 2, Calls: 1, Freed: 150_000}}
	if !reflect.DeepEqual(r.Spirals, wantSp) {
		t.Errorf("Spirals = %+v, want %+v", r.Spirals, wantSp)
	}
	if b.Spirals[0].First != 0 {
		t.Errorf("Merge changed its input: sb spiral First = %d", b.Spirals[0].First)
	}
}

func TestMergeEmpty(t *testing.T) {
	r := Merge(nil, nil)
	if r.Summary.Sessions != 0 || r.Usage.Total.Calls != 0 || !r.Summary.CostComplete ||
		r.Duplicates == nil || r.CacheBreaks == nil || r.TTLChanges == nil || r.Compactions == nil || r.Spirals == nil ||
		r.Tokens.Rows == nil || r.Usage.ByModel == nil {
		t.Errorf("Merge(nil) = %+v", r)
	}
}

// Counts past 32 bits are kept whole, a tie keeps the first record, and a
// merged report merges again with the calls it kept.
func TestMergeWideTiesAndRemerge(t *testing.T) {
	const big = 5_000_000_000 // > 2³²
	sa := newTr("sa")
	sa.line("msg_W", "req_W", sonnet45, use{in: 1, read: big, out: 7})
	sa.line("msg_T", "req_T", sonnet45, use{in: 10, out: 5})
	sb := newTr("sb")
	sb.after(time.Hour)
	sb.line("msg_W", "req_W", sonnet45, use{in: 1, read: big, out: 7}) // same tokens: not kept
	sb.line("msg_T", "req_T", opus45, use{in: 5, out: 10})             // tie (15 tokens): sa's stays
	sb.call(sonnet45, use{in: 2, out: 3})
	a, b := analyze(t, sa, nil), analyze(t, sb, nil)

	r := Merge([]*Report{a, b}, nil)
	want := UsageRow{Calls: 3, Input: 13, CacheRead: big, Output: 15}
	got := r.Usage.Total
	got.Cost, got.Name = 0, ""
	if got.Calls != want.Calls || got.Input != want.Input || got.CacheRead != want.CacheRead || got.Output != want.Output {
		t.Errorf("total = %+v, want %+v", got, want)
	}
	if r.Summary.CrossSessionDuplicates != 2 {
		t.Errorf("CrossSessionDuplicates = %d, want 2", r.Summary.CrossSessionDuplicates)
	}
	if len(r.Usage.ByModel) != 1 || r.Usage.ByModel[0].Name != sonnet45 {
		t.Errorf("by model = %+v, want sonnet only (the tie keeps sa's record)", r.Usage.ByModel)
	}
	// (a+b) merged with b again: b's three calls are all seen.
	again := Merge([]*Report{r, b}, nil)
	if again.Usage.Total.Calls != 3 || again.Usage.Total.CacheRead != big || again.Summary.CrossSessionDuplicates != 3 {
		t.Errorf("merged again: %+v, %d duplicates; want 3 calls, %d read, 3 duplicates",
			again.Usage.Total, again.Summary.CrossSessionDuplicates, int64(big))
	}
	if again.Usage.Total.Cost != r.Usage.Total.Cost {
		t.Errorf("merged again: cost %v, want %v", again.Usage.Total.Cost, r.Usage.Total.Cost)
	}
}

// TestDedupe checks dedupe on keys built by hand: keys that share their
// first half (or its upper bits) but not the rest are different calls, a
// repeat is dropped, and the kept place takes the later record only when
// it has strictly more tokens; an unkeyed call is never dropped.
func TestDedupe(t *testing.T) {
	rec := func(k0, k1 uint64, in uint32) callRecord {
		return callRecord{key: callKey{k0, k1}, usage: [5]uint32{in}, flags: keyed}
	}
	a := &callLog{recs: []callRecord{
		rec(7<<40|1, 1, 10),   // 0: first of key A
		rec(7<<40|1, 2, 10),   // 1: same first half, other key B
		rec(7<<40|2, 1, 10),   // 2: same upper bits, other key C
		{usage: [5]uint32{5}}, // 3: no key
	}}
	b := &callLog{recs: []callRecord{
		rec(7<<40|1, 1, 30),   // 4: A again, more tokens: kept at 0's place
		rec(7<<40|1, 2, 10),   // 5: B again, a tie: 1 stays
		rec(7<<40|1, 1, 20),   // 6: A again, fewer than 4
		{usage: [5]uint32{5}}, // 7: no key
	}}
	var ls callLogs
	ls.add(a)
	ls.add(b)
	k, dropped := dedupe(ls)
	if want := []int32{4, 1, 2, 3, -1, -1, -1, 7}; !slices.Equal(k.use, want) || dropped != 3 {
		t.Errorf("use = %v, dropped %d; want %v, 3", k.use, dropped, want)
	}
}
