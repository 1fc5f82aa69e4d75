package accounting

import (
	"reflect"
	"testing"
	"time"
)

// usageSession is a main thread and one agent with every kind of call the
// usage report must sort out:
//
//	A  sonnet 4.5, two sibling lines (output 5, then 100): counted once, with 100
//	B  opus 4.6, 1h writes
//	S  <synthetic>, with a usage record: not counted
//	D  deepseek-v4-pro, no requestId: unpriced
//	E  sonnet 4.5 written by 2.1.20: placeholder output, a lower bound
//	F  claude-opus-4.9-preview: unpriced
//	G  haiku 4.5 in agent a1
//	B' a copy of B in agent a1 (same message.id and requestId): Duplicate
func usageSession() (*tr, map[string]*tr) {
	m := newTr("s1")
	m.user("hi")
	m.after(time.Minute)
	m.line("msg_A", "req_A", sonnet45, use{in: 10, w5: 1000, out: 5}, text("a"))
	m.line("msg_A", "req_A", sonnet45, use{in: 10, w5: 1000, out: 100}, toolUse("t1", "Bash", `{"command":"ls"}`))
	m.after(time.Minute)
	m.user([]any{result("t1", "ok")})
	m.after(time.Minute)
	m.line("msg_B", "req_B", opus46, use{in: 20, w1: 2000, read: 5000, out: 200}, text("b"))
	m.after(time.Minute)
	m.line("msg_S", "", synthetic, use{in: 7, out: 7}, text("API Error"))
	m.after(time.Minute)
	m.line("msg_D", "", deepseek, use{in: 300, out: 30}, text("d"))
	m.after(time.Minute)
	m.version = "2.1.20"
	m.line("msg_E", "req_E", sonnet45, use{in: 1, read: 1000, out: 3}, text("e"))
	m.version = "2.1.100"
	m.after(time.Minute)
	m.line("msg_F", "req_F", opusFast, use{in: 40, out: 4}, text("f"))

	a := agentTr("s1", "a1")
	a.after(90 * time.Second)
	a.user("task")
	a.line("msg_G", "req_G", haiku45, use{in: 5, w5: 500, read: 2000, out: 50}, text("g"))
	a.line("msg_B", "req_B", opus46, use{in: 20, w1: 2000, read: 5000, out: 200}, text("b"))
	return m, map[string]*tr{"a1": a}
}

// checkRow compares a row, its cost to within a nano-dollar.
func checkRow(t *testing.T, what string, got, want UsageRow) {
	t.Helper()
	usd(t, what+" cost", got.Cost, want.Cost)
	got.Cost, want.Cost = 0, 0
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s =\n  %+v\nwant\n  %+v", what, got, want)
	}
}

func checkRows(t *testing.T, what string, got, want []UsageRow) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d rows, want %d: %+v", what, len(got), len(want), got)
		return
	}
	for i := range want {
		checkRow(t, what+"["+want[i].Name+"]", got[i], want[i])
	}
}

func TestUsageReport(t *testing.T) {
	m, agents := usageSession()
	r := analyze(t, m, agents)
	u := r.Usage

	// Counted: A B D E F G. Per call, in µ$:
	//   A sonnet 4.5: 10×3 + 1000×3.75 + 100×15          = 30+3750+1500         = 5280
	//   B opus 4.6:   20×5 + 2000×10 + 5000×0.5 + 200×25 = 100+20000+2500+5000  = 27600
	//   E sonnet 4.5: 1×3 + 1000×0.3 + 3×15              = 3+300+45             = 348
	//   G haiku 4.5:  5×1 + 500×1.25 + 2000×0.1 + 50×5   = 5+625+200+250        = 1080
	//   D, F unpriced.
	checkRow(t, "total", u.Total, UsageRow{
		Calls:            6,
		Input:            376,  // 10+20+300+1+40+5
		CacheWrite5m:     1500, // 1000+500
		CacheWrite1h:     2000,
		CacheRead:        8000,     // 5000+1000+2000
		Output:           387,      // 100+200+30+3+4+50
		OutputLowerBound: true,     // E
		Cost:             0.034308, // 5280+27600+348+1080 = 34308 µ$
		Unpriced:         2,
		UnpricedModels:   []string{opusFast, deepseek},
	})
	checkRows(t, "by model", u.ByModel, []UsageRow{
		{Name: opus46, Calls: 1, Input: 20, CacheWrite1h: 2000, CacheRead: 5000, Output: 200, Cost: 0.0276},
		// A+E: 5280+348 = 5628 µ$
		{Name: sonnet45, Calls: 2, Input: 11, CacheWrite5m: 1000, CacheRead: 1000, Output: 103, OutputLowerBound: true, Cost: 0.005628},
		{Name: haiku45, Calls: 1, Input: 5, CacheWrite5m: 500, CacheRead: 2000, Output: 50, Cost: 0.00108},
		// Unpriced rows cost 0 and sort by tokens: 300+30 = 330 before 40+4 = 44.
		{Name: deepseek, Calls: 1, Input: 300, Output: 30, Unpriced: 1, UnpricedModels: []string{deepseek}},
		{Name: opusFast, Calls: 1, Input: 40, Output: 4, Unpriced: 1, UnpricedModels: []string{opusFast}},
	})
	checkRows(t, "by thread", u.ByThread, []UsageRow{
		// A B D E F: 5280+27600+348 = 33228 µ$
		{Name: "main", Kind: "main", Calls: 5, Input: 371, CacheWrite5m: 1000, CacheWrite1h: 2000, CacheRead: 6000, Output: 337,
			OutputLowerBound: true, Cost: 0.033228, Unpriced: 2, UnpricedModels: []string{opusFast, deepseek}},
		{Name: "a1", Kind: "agent", Calls: 1, Input: 5, CacheWrite5m: 500, CacheRead: 2000, Output: 50, Cost: 0.00108},
	})
	// 8000 / (376 + 1500 + 2000 + 8000)
	if want := 8000.0 / 11876; u.HitRatio != want {
		t.Errorf("HitRatio = %v, want 8000/11876 = %v", u.HitRatio, want)
	}
	if u.PriceDate != "2026-06-09" {
		t.Errorf("PriceDate = %q", u.PriceDate)
	}

	s := r.Summary
	usd(t, "summary cost", s.Cost, 0.034308)
	s.Cost = 0
	want := Summary{
		Sessions: 1, ID: "s1", Path: s.Path, Project: "proj", SessionIDs: []string{"s1"},
		Agents: 1, Calls: 6,
		// main: 10:00 → 10:07 (seven 1-minute steps); the agent starts at 10:01:30.
		Start: stamp("2026-01-01T10:00:00Z"), End: stamp("2026-01-01T10:07:00Z"), Seconds: 420,
		Models:   []string{haiku45, opus46, opusFast, sonnet45, deepseek},
		Versions: []string{"2.1.20", "2.1.100"}, // version order, as Merge sorts them
		Lines:    12,                            // 9 main + 3 agent
		Unknown:  nil,
	}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("Summary =\n  %+v\nwant\n  %+v", s, want)
	}
}

func TestUsageEmpty(t *testing.T) {
	m := newTr("e")
	m.user("hello")
	r := analyze(t, m, nil)
	u := r.Usage
	if u.ByModel == nil || u.ByThread == nil || len(u.ByModel) != 0 || len(u.ByThread) != 0 {
		t.Errorf("rows = %#v, %#v; want empty, not nil", u.ByModel, u.ByThread)
	}
	if u.HitRatio != 0 || u.Total.Calls != 0 || !r.Summary.CostComplete || r.Summary.Cost != 0 {
		t.Errorf("empty usage = %+v, summary %+v", u, r.Summary)
	}
}

// TestOutputLowerBound: only 2.1.9–2.1.41 wrote placeholder output counts.
func TestOutputLowerBound(t *testing.T) {
	for _, tc := range []struct {
		version string
		want    bool
	}{
		{"2.1.8", false}, {"2.1.9", true}, {"2.1.20", true}, {"2.1.41", true}, {"2.1.42", false}, {"1.0.69", false},
	} {
		m := newTr("v")
		m.version = tc.version
		m.call(sonnet45, use{in: 1, out: 1}, text("x"))
		u := analyze(t, m, nil).Usage
		if u.Total.OutputLowerBound != tc.want || u.ByModel[0].OutputLowerBound != tc.want || u.ByThread[0].OutputLowerBound != tc.want {
			t.Errorf("version %s: OutputLowerBound = %v/%v/%v, want %v", tc.version,
				u.Total.OutputLowerBound, u.ByModel[0].OutputLowerBound, u.ByThread[0].OutputLowerBound, tc.want)
		}
	}
}

// TestUsageCostComplete: a session of priced calls only is complete.
func TestUsageCostComplete(t *testing.T) {
	m := newTr("c")
	m.call(opus46, use{in: 1000, out: 1000}, text("x")) // 1000×5 + 1000×25 = 30000 µ$
	r := analyze(t, m, nil)
	if !r.Summary.CostComplete || r.Usage.Total.Unpriced != 0 || r.Usage.Total.UnpricedModels != nil {
		t.Errorf("summary %+v, total %+v", r.Summary, r.Usage.Total)
	}
	usd(t, "cost", r.Summary.Cost, 0.03)
}

// TestSummaryCounts: the line counts, resumes and unknown fields of the
// summary.
func TestSummaryCounts(t *testing.T) {
	m := newTr("s1")
	m.user("hi")                             // line 1
	m.call(sonnet45, use{in: 1}, text("x"))  // 2
	m.raw(`{"type":"user",`)                 // 3: bad
	m.put(map[string]any{"type": "mystery"}) // 4: an unknown type
	// 5: an unknown field.
	m.put(map[string]any{"type": "user", "newField": 1, "message": map[string]any{"role": "user", "content": "x"}})
	// 6: line 1's uuid again: replayed.
	m.put(map[string]any{"type": "user", "uuid": "s1-u1", "message": map[string]any{"role": "user", "content": "hi"}})
	m.sid = "s2"
	m.after(90 * time.Second)
	m.call(sonnet45, use{in: 1}, text("x"))  // 7: resumed as s2
	m.put(map[string]any{"type": "mystery"}) // 8
	r := Analyze(loadLax(t, m, nil), DefaultConfig())
	s := r.Summary
	if s.Lines != 8 || s.BadLines != 1 || s.Replayed != 1 || s.Resumes != 1 || s.Calls != 2 || s.Seconds != 90 ||
		!reflect.DeepEqual(s.SessionIDs, []string{"s1", "s2"}) ||
		!reflect.DeepEqual(s.Unknown, []Count{{"mystery", 2}, {"user.newField", 1}}) {
		t.Errorf("Summary = %+v", s)
	}
	if len(r.Warnings) != 1 {
		t.Errorf("Warnings = %q, want the bad line", r.Warnings)
	}
}

// TestUsageSidechain: 1.0.x sub-agents written inline are threads of their own.
func TestUsageSidechain(t *testing.T) {
	m := newTr("sc")
	m.version = "1.0.70"
	m.user("hi")
	m.call(opus41, use{in: 10, out: 10}, text("x")) // 10×15 + 10×75 = 900 µ$
	m.put(map[string]any{"type": "user", "isSidechain": true, "parentUuid": nil, "uuid": "side-1",
		"message": map[string]any{"role": "user", "content": "task"}})
	m.put(map[string]any{"type": "assistant", "isSidechain": true, "parentUuid": "side-1", "requestId": "req_side",
		"message": map[string]any{"id": "msg_side", "role": "assistant", "model": sonnet4, "content": []any{text("y")},
			"usage": use{in: 100, read: 1000}.json()}}) // 100×3 + 1000×0.3 = 600 µ$
	r := analyze(t, m, nil)
	checkRows(t, "by thread", r.Usage.ByThread, []UsageRow{
		{Name: "main", Kind: "main", Calls: 1, Input: 10, Output: 10, Cost: 0.0009},
		{Name: "sidechain-1", Kind: "sidechain", Calls: 1, Input: 100, CacheRead: 1000, Cost: 0.0006},
	})
	if r.Summary.Agents != 1 {
		t.Errorf("Agents = %d, want 1", r.Summary.Agents)
	}
}
