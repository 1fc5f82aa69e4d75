package accounting

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/replay"
)

// SessionLine is one session in the one-line-per-session overview.
type SessionLine struct {
	// Index is the session's place among the reports Overview was given,
	// so that a view can follow the overview's order with its own data.
	Index   int    `json:"-"`
	ID      string `json:"id"`
	Project string `json:"project"`
	// Date is the day of the session's first timestamp in the overview's
	// time zone (YYYY-MM-DD), "" when the session has none.
	Date        string      `json:"date"`
	Start       replay.Time `json:"start,omitempty"`
	Calls       int         `json:"calls"`
	Tokens      int64       `json:"tokens"` // input + cache writes + cache reads + output
	Cost        float64     `json:"cost_usd"`
	Unpriced    int         `json:"unpriced_calls"`
	Compactions int         `json:"compactions"`
	HitRatio    float64     `json:"cache_hit_ratio"`
	// OutputLowerBound: some output counts are placeholders, so Tokens
	// and Cost are lower bounds.
	OutputLowerBound bool `json:"output_lower_bound"`
}

// Overview is one line per session, oldest first (sessions without a
// timestamp last, then by id); Date is taken in loc (nil: UTC).
func Overview(reports []*Report, loc *time.Location) []SessionLine {
	if loc == nil {
		loc = time.UTC
	}
	out := make([]SessionLine, 0, len(reports))
	for i, r := range reports {
		s, u := r.Summary, r.Usage.Total
		l := SessionLine{
			Index: i, ID: s.ID, Project: s.Project, Start: s.Start, Calls: u.Calls, Tokens: u.Usage().Total(),
			Cost: u.Cost, Unpriced: u.Unpriced, Compactions: len(r.Compactions), HitRatio: r.Usage.HitRatio,
			OutputLowerBound: u.OutputLowerBound,
		}
		if s.Start != 0 {
			l.Date = s.Start.UTC().In(loc).Format(time.DateOnly)
		}
		out = append(out, l)
	}
	slices.SortStableFunc(out, func(a, b SessionLine) int {
		if (a.Start == 0) != (b.Start == 0) {
			if a.Start == 0 {
				return 1
			}
			return -1
		}
		// By the whole second the line shows, then by id.
		return cmp.Or(cmp.Compare(a.Start/1000, b.Start/1000), strings.Compare(a.ID, b.ID))
	})
	return out
}

// GroupBy names a grouped view: calls by the day, week or month they were
// made in, by project, by model, or by session.
type GroupBy string

// The grouped views.
const (
	ByDay     GroupBy = "day"
	ByWeek    GroupBy = "week"
	ByMonth   GroupBy = "month"
	ByProject GroupBy = "project"
	ByModel   GroupBy = "model"
	BySession GroupBy = "session"
	// ByBlock is ccusage's blocks report: Anthropic's 5-hour billing
	// windows (Blocks).
	ByBlock GroupBy = "block"
)

// GroupBys lists the grouped views, in the order the docs give them.
var GroupBys = []GroupBy{ByDay, ByWeek, ByMonth, ByBlock, ByProject, ByModel, BySession}

// ParseGroupBy reads a --by value.
func ParseGroupBy(s string) (GroupBy, error) {
	if slices.Contains(GroupBys, GroupBy(s)) {
		return GroupBy(s), nil
	}
	names := make([]string, len(GroupBys))
	for i, g := range GroupBys {
		names[i] = string(g)
	}
	return "", fmt.Errorf("%q: want one of %s", s, strings.Join(names, ", "))
}

// IsTime reports whether the view groups by period: calendar periods
// and billing blocks.
func (g GroupBy) IsTime() bool { return g == ByDay || g == ByWeek || g == ByMonth || g == ByBlock }

// BlockLength is a billing block's span, as ccusage's blocks report cuts
// them: a block starts at the hour of its first call (floored) and holds
// the calls of the next 5 hours; a call 5 hours or more after the block's
// start, or after the call before it, starts the next block.
const BlockLength = 5 * time.Hour

// Blocks returns the starts of the billing blocks of calls at the given
// Unix ms times (sorted, none 0), in time order.
func Blocks(times []int64) []int64 {
	var starts []int64
	var start, last int64
	span := BlockLength.Milliseconds()
	for i, at := range times {
		if i == 0 || at-start >= span || at-last >= span {
			start = at - at%time.Hour.Milliseconds()
			starts = append(starts, start)
		}
		last = at
	}
	return starts
}

// ActiveBlock reports whether a block (its group, by block) is still open
// at now, Unix ms: its last call less than 5 hours before now and its 5
// hours not over, as ccusage marks the active block.
func ActiveBlock(g Group, now int64) bool {
	span := BlockLength.Milliseconds()
	return g.Start != 0 && g.LastActivity != 0 && now >= int64(g.LastActivity) &&
		now-int64(g.LastActivity) < span && now < int64(g.Start)+span
}

// Group is one row of a grouped view: the calls of one period, project
// or model, their usage and cost, the sessions they came from and, except
// by model, the compactions in it.
type Group struct {
	Key      string   `json:"key"`
	Sessions int      `json:"sessions"`
	Usage    UsageRow `json:"usage"`
	HitRatio float64  `json:"cache_hit_ratio"`
	// Compactions counts compaction events by their time (by period) or
	// session (by project); 0 by model.
	Compactions int `json:"compactions"`
	// Models splits the group by model, most expensive first (replay
	// --breakdown shows them, as ccusage's does); they add up to Usage.
	// None by model.
	Models []ModelShare `json:"models,omitempty"`
	// Project and LastActivity are a session's, by session (ccusage's
	// session report shows both): its project and its last timestamp; by
	// block, LastActivity is the block's last call, Start its start and
	// Active whether it is still open (ActiveBlock, against a given time).
	Project      string      `json:"project,omitempty"`
	LastActivity replay.Time `json:"last_activity,omitempty"`
	Start        replay.Time `json:"start,omitempty"`
	Active       bool        `json:"active,omitempty"`
}

// ModelShare is one model's calls within a group.
type ModelShare struct {
	Model    string   `json:"model"`
	Sessions int      `json:"sessions"`
	Usage    UsageRow `json:"usage"`
	HitRatio float64  `json:"cache_hit_ratio"`
}

// UnknownKey is the group of calls without a timestamp in a view by period.
const UnknownKey = "unknown"

// Window is a span of time, [Since, Until) in Unix ms; 0 leaves a side
// open. The zero Window holds every call, those without a time too.
type Window struct{ Since, Until int64 }

// Open reports whether neither side is bounded.
func (w Window) Open() bool { return w.Since == 0 && w.Until == 0 }

// Holds reports whether a call or event at Unix ms at falls in the window;
// one without a time (0) falls only in an open window.
func (w Window) Holds(at int64) bool {
	if w.Open() {
		return true
	}
	return at != 0 && (w.Since == 0 || at >= w.Since) && (w.Until == 0 || at < w.Until)
}

// Groups is GroupsIn over every call, without the total.
func Groups(reports []*Report, by GroupBy, loc *time.Location, table *prices.Table) []Group {
	out, _ := GroupsIn(reports, by, loc, table, Window{})
	return out
}

// GroupsIn splits the calls of reports into the view's groups, counting
// each call once across sessions as Merge does, and returns them with
// their total (key "total", without models). Periods are calendar days,
// weeks (Monday to Sunday; the key is the Monday) or months in loc (nil:
// UTC), in time order; projects and models come most expensive first.
// Each group but a model's is split by model too (Group.Models).
//
// Every view but the one by session counts only the calls and
// compactions in win: a period, project or model of a time span is what
// was spent in it, not all of every session that overlaps it. By session
// a row is the whole session, as the session's own report is. With an
// open window the groups add up to Merge's total.
func GroupsIn(reports []*Report, by GroupBy, loc *time.Location, table *prices.Table, win Window) ([]Group, Group) {
	if loc == nil {
		loc = time.UTC
	}
	if table == nil {
		table = prices.Default()
	}
	if by == BySession {
		win = Window{}
	}
	var logs callLogs
	bySession := map[string]*Report{}
	for _, r := range reports {
		if r.calls != nil {
			logs.add(r.calls)
		}
		if _, ok := bySession[r.Summary.ID]; !ok {
			bySession[r.Summary.ID] = r
		}
	}
	kept, _ := dedupe(logs)
	g := grouping{by: by, loc: loc, recs: map[string][]call{}, sessions: map[string]map[string]bool{},
		modelSessions: map[[2]string]map[string]bool{}, allSessions: map[string]bool{}, lastAt: map[string]int64{}, bySession: bySession}
	if by == ByBlock {
		var times []int64
		for l, i := range kept.records() {
			if at := l.recs[i].at; at != 0 && win.Holds(at) {
				times = append(times, at)
			}
		}
		slices.Sort(times)
		g.starts = Blocks(times)
	}
	for l, i := range kept.records() {
		if win.Holds(l.recs[i].at) {
			g.add(l, i)
		}
	}
	compactions, total := g.compactions(reports, win)
	out := make([]Group, 0, len(g.keys))
	for _, k := range g.keys {
		out = append(out, g.group(k, table, compactions[k]))
	}
	slices.SortStableFunc(out, func(a, b Group) int { return compareGroups(by, a, b) })
	u := usageOf(slices.Values(g.all), table)
	return out, Group{Key: "total", Sessions: len(g.allSessions), Usage: u.Total, HitRatio: u.HitRatio, Compactions: total}
}

// grouping collects GroupsIn's calls by group key, in the order the keys
// first come.
type grouping struct {
	by       GroupBy
	loc      *time.Location
	keys     []string
	recs     map[string][]call
	sessions map[string]map[string]bool
	// modelSessions are each group's sessions by model (not by ByModel).
	modelSessions map[[2]string]map[string]bool
	all           []call
	allSessions   map[string]bool
	lastAt        map[string]int64   // each group's last call
	starts        []int64            // by block: the blocks' starts (Blocks)
	bySession     map[string]*Report // by session id
}

// blockOf is the start of the block a call at Unix ms at is in.
func (g *grouping) blockOf(at int64) int64 {
	i, found := slices.BinarySearch(g.starts, at)
	if !found {
		i--
	}
	return g.starts[max(i, 0)]
}

// key is the group of a call or compaction at Unix ms at.
func (g *grouping) key(at int64, project, model, session string) string {
	switch g.by {
	case ByBlock:
		if at == 0 || len(g.starts) == 0 {
			return UnknownKey
		}
		return time.UnixMilli(g.blockOf(at)).In(g.loc).Format("2006-01-02 15:04")
	case ByProject:
		return project
	case ByModel:
		return model
	case BySession:
		return session
	}
	return periodKey(at, g.by, g.loc)
}

// add counts record i of log l in its group.
func (g *grouping) add(l *callLog, i int) {
	c := l.call(i)
	k := g.key(l.recs[i].at, l.project, c.model, l.session)
	if g.recs[k] == nil {
		g.keys = append(g.keys, k)
		g.sessions[k] = map[string]bool{}
	}
	g.recs[k] = append(g.recs[k], c)
	g.lastAt[k] = max(g.lastAt[k], l.recs[i].at)
	g.all = append(g.all, c)
	g.sessions[k][l.session] = true
	g.allSessions[l.session] = true
	if g.by != ByModel {
		km := [2]string{k, c.model}
		if g.modelSessions[km] == nil {
			g.modelSessions[km] = map[string]bool{}
		}
		g.modelSessions[km][l.session] = true
	}
}

// compactions counts each group's compactions in win and their total:
// each once, as Merge counts it, in the group of the session whose copy
// Merge keeps. A group by model has none.
func (g *grouping) compactions(reports []*Report, win Window) (map[string]int, int) {
	counts := map[string]int{}
	total := 0
	if g.by == ByModel {
		return counts, 0
	}
	var events []CompactionEvent
	var of []*Report
	for _, r := range reports {
		for _, c := range r.Compactions {
			c.Session = r.Summary.ID
			events, of = append(events, c), append(of, r)
		}
	}
	for i, k := range dedupeCompactions(events) {
		// At the whole second the timeline shows.
		at := int64(events[i].Time.Second())
		if k >= 0 && win.Holds(at) {
			counts[g.key(at, of[i].Summary.Project, "", of[i].Summary.ID)]++
			total++
		}
	}
	return counts, total
}

// group is group k's row, split by model unless the groups are models.
func (g *grouping) group(k string, table *prices.Table, compactions int) Group {
	u := usageOf(slices.Values(g.recs[k]), table)
	out := Group{Key: k, Sessions: len(g.sessions[k]), Usage: u.Total, HitRatio: u.HitRatio, Compactions: compactions}
	if r := g.bySession[k]; g.by == BySession && r != nil {
		out.Project, out.LastActivity = r.Summary.Project, r.Summary.End
	}
	if g.by == ByBlock && k != UnknownKey {
		out.LastActivity, out.Start = replay.Time(g.lastAt[k]), replay.Time(g.blockOf(g.lastAt[k]))
	}
	if g.by != ByModel {
		for _, m := range u.ByModel {
			out.Models = append(out.Models, ModelShare{Model: m.Name, Sessions: len(g.modelSessions[[2]string{k, m.Name}]),
				Usage: m, HitRatio: m.Usage().HitRatio()})
		}
	}
	return out
}

// compareGroups orders groups: periods in time order, calls without a
// time last; the others most expensive first, then by key.
func compareGroups(by GroupBy, a, b Group) int {
	if by.IsTime() {
		if (a.Key == UnknownKey) != (b.Key == UnknownKey) {
			if a.Key == UnknownKey {
				return 1
			}
			return -1
		}
		return strings.Compare(a.Key, b.Key)
	}
	if a.Usage.Cost != b.Usage.Cost {
		if a.Usage.Cost > b.Usage.Cost {
			return -1
		}
		return 1
	}
	return strings.Compare(a.Key, b.Key)
}

// periodKey is the day (2026-05-19), week (its Monday, 2026-05-18) or
// month (2026-05) of a Unix ms time in loc.
func periodKey(at int64, by GroupBy, loc *time.Location) string {
	if at == 0 {
		return UnknownKey
	}
	t := time.UnixMilli(at).In(loc)
	switch by {
	case ByMonth:
		return t.Format("2006-01")
	case ByWeek:
		back := (int(t.Weekday()) + 6) % 7 // days since Monday
		return t.AddDate(0, 0, -back).Format(time.DateOnly)
	}
	return t.Format(time.DateOnly)
}
