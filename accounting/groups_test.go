package accounting

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/replay"
)

// groupSessions: sa calls at 2026-01-01T10:00Z (a Thursday) and
// 2026-01-02T00:00Z; sb, five days later (Tuesday 2026-01-06), repeats
// sa's first call (counted once, in sa) and makes one more, then
// compacts.
func groupSessions(t *testing.T) []*Report {
	sa := newTr("sa")
	sa.user("hi")
	sa.line("msg_X", "req_X", sonnet45, use{in: 100, out: 10}) // 100×3 + 10×15 = 450 µ$
	sa.after(14 * time.Hour)
	sa.call(opus45, use{in: 1000}) // 1000×5 = 5000 µ$
	sb := newTr("sb")
	sb.after(5 * 24 * time.Hour)
	sb.user("hi")
	sb.line("msg_X", "req_X", sonnet45, use{in: 100, out: 10})
	sb.call(haiku45, use{in: 1000, out: 100}) // 1000×1 + 100×5 = 1500 µ$
	sb.boundary(`{"trigger":"manual","preTokens":1000,"postTokens":100}`, "summary")
	return []*Report{analyze(t, sa, nil), analyze(t, sb, nil)}
}

type groupWant struct {
	key                   string
	sessions, calls, comp int
	cost                  float64
}

func checkGroups(t *testing.T, name string, got []Group, want []groupWant) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d groups %+v, want %d", name, len(got), got, len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Key != w.key || g.Sessions != w.sessions || g.Usage.Calls != w.calls || g.Compactions != w.comp {
			t.Errorf("%s[%d] = %s: %d sessions, %d calls, %d compactions; want %+v", name, i, g.Key, g.Sessions, g.Usage.Calls, g.Compactions, w)
		}
		usd(t, name+" "+w.key, g.Usage.Cost, w.cost)
	}
}

func TestGroups(t *testing.T) {
	reps := groupSessions(t)
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no tz database:", err)
	}
	checkGroups(t, "day UTC", Groups(reps, ByDay, nil, nil), []groupWant{
		{"2026-01-01", 1, 1, 0, 0.000450},
		{"2026-01-02", 1, 1, 0, 0.005000},
		{"2026-01-06", 1, 1, 1, 0.001500},
	})
	// 2026-01-02T00:00Z is 19:00 on the 1st in New York (UTC−5).
	checkGroups(t, "day New York", Groups(reps, ByDay, ny, nil), []groupWant{
		{"2026-01-01", 1, 2, 0, 0.005450},
		{"2026-01-06", 1, 1, 1, 0.001500},
	})
	// Weeks start on Monday: 2025-12-29 holds Thursday 1 and Friday 2.
	checkGroups(t, "week", Groups(reps, ByWeek, nil, nil), []groupWant{
		{"2025-12-29", 1, 2, 0, 0.005450},
		{"2026-01-05", 1, 1, 1, 0.001500},
	})
	checkGroups(t, "month", Groups(reps, ByMonth, nil, nil), []groupWant{{"2026-01", 2, 3, 1, 0.006950}})
	checkGroups(t, "project", Groups(reps, ByProject, nil, nil), []groupWant{{"proj", 2, 3, 1, 0.006950}})
	// Most expensive first; no compactions by model.
	checkGroups(t, "model", Groups(reps, ByModel, nil, nil), []groupWant{
		{opus45, 1, 1, 0, 0.005000},
		{haiku45, 1, 1, 0, 0.001500},
		{sonnet45, 1, 1, 0, 0.000450},
	})
	// By session: sb's first call repeats sa's and counts in sa only.
	checkGroups(t, "session", Groups(reps, BySession, nil, nil), []groupWant{
		{"sa", 1, 2, 0, 0.005450},
		{"sb", 1, 1, 1, 0.001500},
	})
	// The groups add up to Merge's total.
	total := Merge(reps, nil).Usage.Total
	var calls int
	var cost float64
	for _, g := range Groups(reps, ByDay, nil, nil) {
		calls += g.Usage.Calls
		cost += g.Usage.Cost
	}
	if calls != total.Calls {
		t.Errorf("day groups hold %d calls, Merge %d", calls, total.Calls)
	}
	usd(t, "sum of day groups", cost, total.Cost)
	// Each group's models add up to it; the view by model has none.
	for _, by := range GroupBys {
		for _, g := range Groups(reps, by, nil, nil) {
			if by == ByModel {
				if g.Models != nil {
					t.Errorf("by model: %s split by model", g.Key)
				}
				continue
			}
			var sum UsageRow
			for _, m := range g.Models {
				sum.Calls += m.Usage.Calls
				sum.Input += m.Usage.Input
				sum.CacheRead += m.Usage.CacheRead
				sum.Output += m.Usage.Output
				sum.Cost += m.Usage.Cost
				if m.Sessions < 1 || m.Sessions > g.Sessions || m.Model != m.Usage.Name {
					t.Errorf("by %s, %s: model %s in %d of %d sessions", by, g.Key, m.Model, m.Sessions, g.Sessions)
				}
			}
			if len(g.Models) == 0 || sum.Calls != g.Usage.Calls || sum.Input != g.Usage.Input || sum.CacheRead != g.Usage.CacheRead || sum.Output != g.Usage.Output {
				t.Errorf("by %s, %s: models sum to %+v, group %+v", by, g.Key, sum, g.Usage)
			}
			usd(t, "models of "+g.Key, sum.Cost, g.Usage.Cost)
		}
	}
}

// TestGroupsWindow: with --since and --until, a view by period, project
// or model counts only the calls and compactions in the window, and its
// total is theirs; by session each row is its whole session.
func TestGroupsWindow(t *testing.T) {
	reps := groupSessions(t)
	jan := func(d int) int64 { return time.Date(2026, 1, d, 0, 0, 0, 0, time.UTC).UnixMilli() }
	jan2, jan3, jan7 := jan(2), jan(3), jan(7)
	day2 := Window{Since: jan2, Until: jan3}
	groups, total := GroupsIn(reps, ByDay, nil, nil, day2)
	checkGroups(t, "day 2", groups, []groupWant{{"2026-01-02", 1, 1, 0, 0.005000}})
	checkGroups(t, "day 2 total", []Group{total}, []groupWant{{"total", 1, 1, 0, 0.005000}})
	for _, by := range []GroupBy{ByWeek, ByMonth, ByProject, ByModel} {
		groups, total := GroupsIn(reps, by, nil, nil, day2)
		if len(groups) != 1 || groups[0].Usage.Calls != 1 || total.Usage.Calls != 1 {
			t.Errorf("by %s in 2026-01-02: %+v, total %+v; want the one call of that day", by, groups, total)
		}
	}
	groups, total = GroupsIn(reps, BySession, nil, nil, day2)
	checkGroups(t, "session, window ignored", groups, []groupWant{{"sa", 1, 2, 0, 0.005450}, {"sb", 1, 1, 1, 0.001500}})
	checkGroups(t, "session total", []Group{total}, []groupWant{{"total", 2, 3, 1, 0.006950}})
	// From the 2nd to the 7th: sa's second call, sb's call and compaction.
	groups, total = GroupsIn(reps, ByProject, nil, nil, Window{Since: jan2, Until: jan7})
	checkGroups(t, "project", groups, []groupWant{{"proj", 2, 2, 1, 0.006500}})
	checkGroups(t, "project total", []Group{total}, []groupWant{{"total", 2, 2, 1, 0.006500}})
	// Only an open window holds a call without a time.
	if (Window{}).Holds(0) != true || (Window{Since: 1}).Holds(0) || (Window{Until: 1}).Holds(0) {
		t.Error("Holds(0): want true only for the open window")
	}
	// Open, the total is Merge's.
	_, total = GroupsIn(reps, ByDay, nil, nil, Window{})
	if m := Merge(reps, nil); total.Usage.Calls != m.Usage.Total.Calls || total.Compactions != len(m.Compactions) {
		t.Errorf("open window: total %+v, Merge %+v", total, m.Usage.Total)
	}
}

func TestOverview(t *testing.T) {
	reps := groupSessions(t)
	kiri, err := time.LoadLocation("Pacific/Kiritimati")
	if err != nil {
		t.Skip("no tz database:", err)
	}
	lines := Overview(reps, nil)
	// sa: 2 calls, 100+10+1000 tokens, 450+5000 µ$; sb: its own copy of
	// msg_X too (a session counts its own calls), 1000+100 more.
	if l := lines[0]; l.ID != "sa" || l.Date != "2026-01-01" || l.Calls != 2 || l.Tokens != 1110 || l.Compactions != 0 {
		t.Errorf("sa: %+v", l)
	}
	usd(t, "sa", lines[0].Cost, 0.005450)
	if l := lines[1]; l.ID != "sb" || l.Date != "2026-01-06" || l.Calls != 2 || l.Tokens != 1210 || l.Compactions != 1 || l.Project != "proj" {
		t.Errorf("sb: %+v", l)
	}
	usd(t, "sb", lines[1].Cost, 0.001950)
	// 10:00Z is midnight of the next day at UTC+14.
	if d := Overview(reps, kiri)[0].Date; d != "2026-01-02" {
		t.Errorf("Kiritimati date %s, want 2026-01-02", d)
	}
	// Given newest first, the lines still run oldest first and each
	// names its report's place in the input.
	rev := Overview([]*Report{reps[1], reps[0]}, nil)
	if rev[0].ID != "sa" || rev[0].Index != 1 || rev[1].ID != "sb" || rev[1].Index != 0 {
		t.Errorf("reversed input: %s at %d, %s at %d; want sa at 1, sb at 0", rev[0].ID, rev[0].Index, rev[1].ID, rev[1].Index)
	}
}

func TestParseGroupBy(t *testing.T) {
	for _, g := range GroupBys {
		if got, err := ParseGroupBy(string(g)); err != nil || got != g {
			t.Errorf("ParseGroupBy(%q) = %q, %v", g, got, err)
		}
	}
	if _, err := ParseGroupBy("year"); err == nil {
		t.Error("year accepted")
	}
}

func TestUnpriced(t *testing.T) {
	x := newTr("gw")
	x.user("hi")
	x.call(deepseek, use{in: 10, out: 1})
	x.call(sonnet46, use{in: 10, out: 1})
	x.call(deepseek, use{in: 10, out: 1})
	x.call(opusFast, use{in: 10, out: 1})
	s := load(t, x, nil)
	got := SortedCounts(Unpriced(s, prices.Default()))
	want := []Count{{deepseek, 2}, {opusFast, 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("unpriced = %v, want %v", got, want)
	}
	// The session's report agrees.
	if r := analyze(t, x, nil); r.Usage.Total.Unpriced != 3 || r.Summary.CostComplete {
		t.Errorf("report: %d unpriced, complete %v", r.Usage.Total.Unpriced, r.Summary.CostComplete)
	}
	if got := SortedCounts(nil); got == nil || len(got) != 0 {
		t.Errorf("SortedCounts(nil) = %#v, want empty", got)
	}
}

// Billing blocks are cut as ccusage's blocks report cuts them: a block
// starts at its first call's hour and holds 5 hours; a call 5 hours after
// the block's start, or after the call before it, starts the next.
func TestBlocks(t *testing.T) {
	at := func(s string) int64 {
		tm, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm.UnixMilli()
	}
	times := []int64{
		at("2026-05-19T09:40:00Z"), // block 1 at 09:00
		at("2026-05-19T13:59:00Z"), // still block 1 (09:00 + 5 h = 14:00)
		at("2026-05-19T14:00:00Z"), // block 2 at 14:00: 5 hours after block 1's start
		at("2026-05-19T16:30:00Z"),
		at("2026-05-19T21:31:00Z"), // block 3 at 21:00: 5 h 1 min without a call
	}
	var got []string
	for _, s := range Blocks(times) {
		got = append(got, time.UnixMilli(s).UTC().Format("15:04"))
	}
	if want := []string{"09:00", "14:00", "21:00"}; !slices.Equal(got, want) {
		t.Errorf("blocks start at %v, want %v", got, want)
	}
	g := Group{Start: replay.Time(at("2026-05-19T21:00:00Z")), LastActivity: replay.Time(at("2026-05-19T21:31:00Z"))}
	for now, want := range map[string]bool{
		"2026-05-19T22:00:00Z": true,
		"2026-05-20T01:59:00Z": true,  // 4 h 28 min after the last call, the block's 5 hours not over
		"2026-05-20T02:00:00Z": false, // the block's 5 hours are over
		"2026-05-19T21:00:00Z": false, // before its last call
	} {
		if ActiveBlock(g, at(now)) != want {
			t.Errorf("active at %s: %v, want %v", now, !want, want)
		}
	}
}
