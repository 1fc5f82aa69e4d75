package view

import (
	"fmt"
	"strconv"
	"time"

	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/table"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/internal/numtext"
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
		t.Columns = csvColumns("date", "project", "session", "start", "calls", "tokens", "cost", "unpriced_calls", "compactions", "cache_hit_ratio")
		for _, l := range lines {
			t.AddRow(l.Date, l.Project, l.ID, l.Start.String(), raw(l.Calls), raw(l.Tokens), rawCost(l.Cost, l.Unpriced, l.Calls), raw(l.Unpriced), raw(l.Compactions), ratio(l.HitRatio))
		}
		return t
	}
	zone := "UTC"
	if loc != nil {
		zone = loc.String()
	}
	t.Note = fmt.Sprintf("date: of the first message (%s); tokens: input + cache writes + cache reads + output; "+
		"cache hit: read / (input + write + read); total: each call once (a resumed session repeats calls)", zone)
	t.Note = withNote(t.Note, LowerBoundNote(doc.Total.Usage.Total.OutputLowerBound, doc.Total.Usage.Total.Unpriced))
	t.Columns = []table.Column{
		{Name: "Date"},
		{Name: "Project", Kind: table.Text, Distinct: true},
		{Name: "Session", Kind: table.ID},
		{Name: "Calls", Right: true},
		{Name: "Tokens", Right: true, Drop: 2},
		{Name: "Cost", Right: true},
		{Name: "Compactions", Right: true, Short: "Compact.", Drop: 1},
		{Name: "Cache hit", Right: true},
	}
	for _, l := range lines {
		t.Add(
			[]string{l.Date, l.Project, l.ID, numtext.Int(l.Calls), numtext.Int(l.Tokens), CostText(l.Cost, l.Unpriced, l.Calls, l.OutputLowerBound), numtext.Int(l.Compactions), numtext.Pct(l.HitRatio * 100)},
			[]string{l.Date, l.Project, l.ID, raw(l.Calls), raw(l.Tokens), rawCost(l.Cost, l.Unpriced, l.Calls), raw(l.Compactions), ratio(l.HitRatio)},
		)
	}
	tot := doc.Total
	u := tot.Usage.Total
	t.AddRow("total", "", numtext.Int(tot.Summary.Sessions)+" sessions", numtext.Int(u.Calls), numtext.Int(u.Usage().Total()),
		CostText(u.Cost, u.Unpriced, u.Calls, u.OutputLowerBound), numtext.Int(len(tot.Compactions)), numtext.Pct(tot.Usage.HitRatio*100))
	return t
}

// GroupTable is the grouped view (--by) as people read it: a row per
// period, project, model or session, and the total.
func GroupTable(doc *report.Document, loc *time.Location) *table.Table {
	return groupTable(doc, loc, false)
}

// groupTable is the grouped view (--by): one row per period, project or
// model, and the total; machine: the groups alone, with every CSV column.
func groupTable(doc *report.Document, loc *time.Location, machine bool) *table.Table {
	by := accounting.GroupBy(doc.By)
	byModel := by == accounting.ByModel // compactions are not a model's
	t := &table.Table{Name: "by_" + string(by), Title: "Usage by " + string(by)}
	if machine {
		t.Columns = csvColumns(string(by), "sessions", "calls", "input", "cache_write_5m", "cache_write_1h", "cache_read", "output", "tokens",
			"cost", "unpriced_calls", "compactions", "cache_hit_ratio")
		if byModel {
			t.RemoveColumn(11)
		}
		defer dropSessionsColumn(t, by)
		for _, g := range doc.Groups {
			u := g.Usage
			row := []string{g.Key, raw(g.Sessions), raw(u.Calls), raw(u.Input), raw(u.CacheWrite5m), raw(u.CacheWrite1h), raw(u.CacheRead), raw(u.Output),
				raw(u.Usage().Total()), rawCost(u.Cost, u.Unpriced, u.Calls), raw(u.Unpriced)}
			if !byModel {
				row = append(row, raw(g.Compactions))
			}
			t.AddRow(append(row, ratio(g.HitRatio))...)
		}
		return t
	}
	key := map[accounting.GroupBy]string{
		accounting.ByDay: "Day", accounting.ByWeek: "Week", accounting.ByMonth: "Month",
		accounting.ByProject: "Project", accounting.ByModel: "Model", accounting.BySession: "Session",
	}[by]
	t.Note = "tokens: input + cache writes + cache reads + output; cache hit: read / (input + write + read); each call counted once, in the group of its own time or model"
	if by.IsTime() {
		zone := "UTC"
		if loc != nil {
			zone = loc.String()
		}
		t.Note = fmt.Sprintf("calls by the %s they were made in (%s)", by, zone)
		if by == accounting.ByWeek {
			t.Note += "; a week runs Monday to Sunday and is named by its Monday"
		}
		t.Note += "; tokens: input + cache writes + cache reads + output; cache hit: read / (input + write + read)"
	}
	t.Note = withNote(t.Note, LowerBoundNote(doc.Total.Usage.Total.OutputLowerBound, doc.Total.Usage.Total.Unpriced))
	keyKind := table.Fixed
	switch by {
	case accounting.ByProject, accounting.ByModel:
		keyKind = table.Text
	case accounting.BySession:
		keyKind = table.ID
	}
	t.Columns = []table.Column{
		{Name: key, Kind: keyKind, Distinct: true},
		{Name: "Sessions", Right: true, Short: "Sess.", Drop: 3},
		{Name: "Calls", Right: true},
		{Name: "Input", Right: true, Drop: 1},
		{Name: "Cache write", Right: true, Short: "Write"},
		{Name: "Cache read", Right: true, Short: "Read"},
		{Name: "Output", Right: true, Drop: 2},
		{Name: "Tokens", Right: true},
		{Name: "Cost", Right: true},
		{Name: "Compactions", Right: true, Short: "Compact.", Drop: 4},
		{Name: "Cache hit", Right: true},
	}
	if byModel {
		t.RemoveColumn(9)
	}
	defer dropSessionsColumn(t, by)
	row := func(name string, sessions int, u accounting.UsageRow, hit float64, compactions int) {
		text := []string{name, numtext.Int(sessions), numtext.Int(u.Calls), numtext.Int(u.Input), numtext.Int(u.CacheWrite5m + u.CacheWrite1h), numtext.Int(u.CacheRead), numtext.Int(u.Output),
			numtext.Int(u.Usage().Total()), CostText(u.Cost, u.Unpriced, u.Calls, u.OutputLowerBound)}
		rawRow := []string{name, raw(sessions), raw(u.Calls), raw(u.Input), raw(u.CacheWrite5m + u.CacheWrite1h), raw(u.CacheRead), raw(u.Output),
			raw(u.Usage().Total()), rawCost(u.Cost, u.Unpriced, u.Calls)}
		if !byModel {
			text, rawRow = append(text, numtext.Int(compactions)), append(rawRow, raw(compactions))
		}
		t.Add(append(text, numtext.Pct(hit*100)), append(rawRow, ratio(hit)))
	}
	for _, g := range doc.Groups {
		row(g.Key, g.Sessions, g.Usage, g.HitRatio, g.Compactions)
	}
	tot := doc.Total
	row("total", tot.Summary.Sessions, tot.Usage.Total, tot.Usage.HitRatio, len(tot.Compactions))
	return t
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
	if by == accounting.BySession {
		t.RemoveColumn(1)
	}
}
