package view

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/table"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/replay"
)

// overviewTable is one line per session and the total: the view people
// open first; machine: the sessions alone, with every CSV column.
func overviewTable(doc *report.Document, loc *time.Location, machine bool) *table.Table {
	reps := make([]*accounting.Report, len(doc.Sessions))
	for i, s := range doc.Sessions {
		reps[i] = s.Report
	}
	lines := accounting.Overview(reps, loc)
	t := &table.Table{Name: "sessions", Title: "Sessions"}
	if machine {
		t.Columns = csvColumns("date", "project", "session", "start", "calls", "tokens", "output_lower_bound", "cost", "unpriced_calls", "compactions", "cache_hit_ratio")
		for _, l := range lines {
			t.AddRow(l.Date, l.Project, l.ID, l.Start.String(), raw(l.Calls), raw(l.Tokens), strconv.FormatBool(l.OutputLowerBound),
				rawCost(l.Cost, l.Unpriced, l.Calls), raw(l.Unpriced), raw(l.Compactions), orBlank(l.Calls > 0, ratio(l.HitRatio)))
		}
		return t
	}
	zone := "UTC"
	if loc != nil {
		zone = loc.String()
	}
	t.Note = fmt.Sprintf("date: of the first message (%s); "+
		"cache hit: read / (input + write + read); total: each call once (a resumed session repeats calls)", zone)
	if w := windowText(doc); w != "" {
		t.Note += "; sessions active " + w + ", each whole"
	}
	t.Note = withNote(t.Note, LowerBoundNote(doc.Total.Usage.Total.OutputLowerBound, doc.Total.Usage.Total.Unpriced))
	t.Columns = []table.Column{
		{Name: "Date"},
		{Name: "Project", Kind: table.Text, Distinct: true},
		{Name: "Session", Kind: table.ID},
		{Name: "Calls", Right: true},
		{Name: "Tokens", Right: true, Drop: 2, Note: "tokens: input + cache writes + cache reads + output"},
		{Name: "Cost", Right: true},
		{Name: "Compactions", Right: true, Short: "Compact.", Drop: 1},
		{Name: "Cache hit", Right: true},
	}
	for _, l := range lines {
		t.Add(
			[]string{l.Date, l.Project, l.ID, numtext.Int(l.Calls), atLeast(l.Tokens, l.OutputLowerBound), CostText(l.Cost, l.Unpriced, l.Calls, l.OutputLowerBound), numtext.Int(l.Compactions), orBlank(l.Calls > 0, numtext.Pct(l.HitRatio*100))},
			[]string{l.Date, l.Project, l.ID, raw(l.Calls), raw(l.Tokens), rawCost(l.Cost, l.Unpriced, l.Calls), raw(l.Compactions), orBlank(l.Calls > 0, ratio(l.HitRatio))},
		)
	}
	tot := doc.Total
	u := tot.Usage.Total
	t.AddRow("total", "", numtext.Int(tot.Summary.Sessions)+" sessions", numtext.Int(u.Calls), atLeast(u.Usage().Total(), u.OutputLowerBound),
		CostText(u.Cost, u.Unpriced, u.Calls, u.OutputLowerBound), numtext.Int(len(tot.Compactions)), numtext.Pct(tot.Usage.HitRatio*100))
	return t
}

// GroupTable is the grouped view (--by) as people read it: a row per
// period, project, model or session, and the total.
func GroupTable(doc *report.Document, opt report.Options) *table.Table {
	return groupTable(doc, opt, false)
}

// groupTable is the grouped view (--by): one row per period, project or
// model, and the total; with opt.Breakdown each group's models follow it.
// machine: the groups alone, with every CSV column; with opt.Breakdown one
// row per group and model instead (the groups are their sums).
func groupTable(doc *report.Document, opt report.Options, machine bool) *table.Table {
	by := accounting.GroupBy(doc.By)
	byModel := by == accounting.ByModel // compactions are not a model's
	breakdown := opt.Breakdown && !byModel
	if machine {
		return groupCSV(doc, by, breakdown)
	}
	t := &table.Table{Name: "by_" + string(by), Title: "Usage by " + string(by)}
	key := map[accounting.GroupBy]string{
		accounting.ByDay: "Day", accounting.ByWeek: "Week", accounting.ByMonth: "Month",
		accounting.ByProject: "Project", accounting.ByModel: "Model", accounting.BySession: "Session", accounting.ByBlock: "Block",
	}[by]
	tot := groupsTotal(doc)
	t.Note = groupNote(doc, by, opt.Location, tot, breakdown)
	keyKind := table.Fixed
	switch {
	case breakdown:
		keyKind = table.Text // the models' rows
	case by == accounting.ByProject || by == accounting.ByModel:
		keyKind = table.Text
	case by == accounting.BySession:
		keyKind = table.ID
	}
	t.Columns = []table.Column{
		{Name: key, Kind: keyKind, Distinct: true},
		{Name: "Sessions", Right: true, Short: "Sess.", Drop: 3},
		{Name: "Calls", Right: true},
		{Name: "Input", Right: true, Drop: 1},
		{Name: "Cache write", Right: true, Short: "Write"},
		{Name: "Cache read", Right: true, Short: "Read", Drop: 5},
		{Name: "Output", Right: true, Drop: 2},
		{Name: "Tokens", Right: true},
		{Name: "Cost", Right: true},
		{Name: "Compactions", Right: true, Short: "Compact.", Drop: 4},
		{Name: "Cache hit", Right: true},
	}
	if byModel {
		t.RemoveColumn(9)
	}
	t.Columns = slices.Insert(t.Columns, 1, extraColumns(by)...)
	defer dropSessionsColumn(t, by)
	groupOf := map[string]accounting.Group{}
	for _, g := range doc.Groups {
		groupOf[g.Key] = g
	}
	// row adds a group, or one of its models (compactions -1: the cell
	// stays empty, or is not there by model).
	row := func(name string, sessions int, u accounting.UsageRow, hit float64, compactions int) {
		text := []string{name, numtext.Int(sessions), numtext.Int(u.Calls), numtext.Int(u.Input), numtext.Int(u.CacheWrite5m + u.CacheWrite1h), numtext.Int(u.CacheRead),
			atLeast(u.Output, u.OutputLowerBound), atLeast(u.Usage().Total(), u.OutputLowerBound), CostText(u.Cost, u.Unpriced, u.Calls, u.OutputLowerBound)}
		rawRow := []string{name, raw(sessions), raw(u.Calls), raw(u.Input), raw(u.CacheWrite5m + u.CacheWrite1h), raw(u.CacheRead), raw(u.Output),
			raw(u.Usage().Total()), rawCost(u.Cost, u.Unpriced, u.Calls)}
		g, ok := groupOf[name]
		more, moreRaw := extraCells(by, g, ok, opt.Location)
		if ok && g.Active {
			text[0] += " active"
		}
		text, rawRow = slices.Insert(text, 1, more...), slices.Insert(rawRow, 1, moreRaw...)
		switch {
		case compactions >= 0:
			text, rawRow = append(text, numtext.Int(compactions)), append(rawRow, raw(compactions))
		case !byModel:
			text, rawRow = append(text, ""), append(rawRow, "")
		}
		t.Add(append(text, orBlank(u.Calls > 0, numtext.Pct(hit*100))), append(rawRow, orBlank(u.Calls > 0, ratio(hit))))
	}
	compactions := func(n int) int {
		if byModel {
			return -1
		}
		return n
	}
	for _, g := range doc.Groups {
		row(g.Key, g.Sessions, g.Usage, g.HitRatio, compactions(g.Compactions))
		if breakdown {
			for _, m := range g.Models {
				row("└ "+m.Model, m.Sessions, m.Usage, m.HitRatio, -1)
			}
		}
	}
	row("total", tot.Sessions, tot.Usage, tot.HitRatio, compactions(tot.Compactions))
	return t
}

// groupCSV is the grouped view for machines: the groups alone, with
// every CSV column; with breakdown one row per group and model instead
// (the groups are their sums).
func groupCSV(doc *report.Document, by accounting.GroupBy, breakdown bool) *table.Table {
	byModel := by == accounting.ByModel
	t := &table.Table{Name: "by_" + string(by), Title: "Usage by " + string(by)}
	t.Columns = csvColumns(string(by), "sessions", "calls", "input", "cache_write_5m", "cache_write_1h", "cache_read", "output", "output_lower_bound", "tokens",
		"cost", "unpriced_calls", "compactions", "cache_hit_ratio")
	if byModel {
		t.RemoveColumn(12)
	}
	defer dropSessionsColumn(t, by)
	bySession := by == accounting.BySession // and its project and last activity
	if bySession {
		t.Columns = slices.Insert(t.Columns, 1, csvColumns("project", "last_activity")...)
	}
	rawRow := func(g accounting.Group, sessions int, u accounting.UsageRow) []string {
		key := []string{g.Key}
		if bySession {
			key = append(key, g.Project, g.LastActivity.String())
		}
		return append(key, raw(sessions), raw(u.Calls), raw(u.Input), raw(u.CacheWrite5m), raw(u.CacheWrite1h), raw(u.CacheRead), raw(u.Output),
			strconv.FormatBool(u.OutputLowerBound), raw(u.Usage().Total()), rawCost(u.Cost, u.Unpriced, u.Calls), raw(u.Unpriced))
	}
	if breakdown {
		at := len(t.Columns) - 13 // after the key and the session's columns
		t.Columns = slices.Insert(t.Columns, at, csvColumns("model")...)
		t.RemoveColumn(13 + at - 1) // a compaction is not a model's
		for _, g := range doc.Groups {
			for _, m := range g.Models {
				row := rawRow(g, m.Sessions, m.Usage)
				t.AddRow(append(slices.Insert(row, at, m.Model), ratio(m.HitRatio))...)
			}
		}
		return t
	}
	for _, g := range doc.Groups {
		row := rawRow(g, g.Sessions, g.Usage)
		if !byModel {
			row = append(row, raw(g.Compactions))
		}
		t.AddRow(append(row, ratio(g.HitRatio))...)
	}
	return t
}

// groupNote is the grouped view's note: what a group counts, in which
// zone and window, and what its marks mean.
func groupNote(doc *report.Document, by accounting.GroupBy, loc *time.Location, tot accounting.Group, breakdown bool) string {
	note := "tokens: input + cache writes + cache reads + output; cache hit: read / (input + write + read); each call counted once, in the group of its own time or model"
	if by.IsTime() {
		zone := "UTC"
		if loc != nil {
			zone = loc.String()
		}
		note = fmt.Sprintf("calls by the %s they were made in (%s)", by, zone)
		if by == accounting.ByBlock {
			note = fmt.Sprintf("calls by 5-hour billing block (%s): a block starts at its first call's hour and ends 5 hours later, or where 5 hours pass without a call; last: its last call; active: open at --now", zone)
		}
		if by == accounting.ByWeek {
			note += "; a week runs Monday to Sunday and is named by its Monday"
		}
		note += "; tokens: input + cache writes + cache reads + output; cache hit: read / (input + write + read)"
	}
	if by == accounting.BySession {
		zone := "UTC"
		if loc != nil {
			zone = loc.String()
		}
		note += "; last: the session's last activity (" + zone + ")"
	}
	if w := windowText(doc); w != "" {
		if by == accounting.BySession {
			note += "; sessions active " + w + ", each whole"
		} else {
			note += "; only the calls and compactions " + w
		}
	}
	note = withNote(note, LowerBoundNote(tot.Usage.OutputLowerBound, tot.Usage.Unpriced))
	if breakdown {
		note += "; └: the group's calls of one model"
	}
	return note
}

// groupsTotal is the total row of the grouped view: the document's
// GroupsTotal, or for a document without one (read from an older
// report) its whole total.
func groupsTotal(doc *report.Document) accounting.Group {
	if doc.GroupsTotal != nil {
		return *doc.GroupsTotal
	}
	t := doc.Total
	return accounting.Group{Key: "total", Sessions: t.Summary.Sessions, Usage: t.Usage.Total, HitRatio: t.Usage.HitRatio, Compactions: len(t.Compactions)}
}

// windowText is the window of --since and --until as a note says it
// ("from 2026-05-20T00:00:00Z to 2026-05-21T00:00:00Z"), "" when open.
func windowText(doc *report.Document) string {
	switch {
	case doc.Since != 0 && doc.Until != 0:
		return "from " + doc.Since.String() + " to " + doc.Until.String()
	case doc.Since != 0:
		return "from " + doc.Since.String() + " on"
	case doc.Until != 0:
		return "before " + doc.Until.String()
	}
	return ""
}

// rawCost is a cost for CSV: empty when no call had a price.
func rawCost(cost float64, unpriced, calls int) string {
	if unpriced > 0 && unpriced == calls {
		return ""
	}
	return rawUSD(cost)
}

func ratio(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }

// dropSessionsColumn leaves out the count of sessions of a view by
// session, where it is always 1.
func dropSessionsColumn(t *table.Table, by accounting.GroupBy) {
	if by != accounting.BySession {
		return
	}
	if i := slices.IndexFunc(t.Columns, func(c table.Column) bool { return strings.EqualFold(c.Name, "sessions") }); i >= 0 {
		t.RemoveColumn(i)
	}
}

// extraColumns are the columns a view has after its key: by session the
// project and the last activity (ccusage's session report shows both), by
// block the last call.
func extraColumns(by accounting.GroupBy) []table.Column {
	switch by {
	case accounting.BySession:
		return []table.Column{{Name: "Project", Kind: table.Text, Distinct: true, Drop: 7}, {Name: "Last activity", Short: "Last", Drop: 6}}
	case accounting.ByBlock:
		return []table.Column{{Name: "Last", Drop: 6}}
	}
	return nil
}

// extraCells are a row's cells of extraColumns: g's when ok (a group's
// row), else empty (a model's row, the total).
func extraCells(by accounting.GroupBy, g accounting.Group, ok bool, loc *time.Location) (text, raw []string) {
	switch {
	case by == accounting.BySession && ok:
		return []string{g.Project, lastActivity(g.LastActivity, loc)}, []string{g.Project, g.LastActivity.String()}
	case by == accounting.BySession:
		return []string{"", ""}, []string{"", ""}
	case by == accounting.ByBlock && ok:
		return []string{lastActivity(g.LastActivity, loc)}, []string{g.LastActivity.String()}
	case by == accounting.ByBlock:
		return []string{""}, []string{""}
	}
	return nil, nil
}

// lastActivity is a session's last timestamp as the session view shows
// it, to the minute in loc; "" when it has none.
func lastActivity(t replay.Time, loc *time.Location) string {
	if t == 0 {
		return ""
	}
	if loc == nil {
		loc = time.UTC
	}
	return t.UTC().In(loc).Format("2006-01-02 15:04")
}
