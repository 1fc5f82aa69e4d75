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
	t := &table.Table{Name: "by_" + string(by), Title: "Usage by " + string(by)}
	if machine {
		t.Columns = csvColumns(string(by), "sessions", "calls", "input", "cache_write_5m", "cache_write_1h", "cache_read", "output", "output_lower_bound", "tokens",
			"cost", "unpriced_calls", "compactions", "cache_hit_ratio")
		if byModel {
			t.RemoveColumn(12)
		}
		defer dropSessionsColumn(t, by)
		rawRow := func(key string, sessions int, u accounting.UsageRow) []string {
			return []string{key, raw(sessions), raw(u.Calls), raw(u.Input), raw(u.CacheWrite5m), raw(u.CacheWrite1h), raw(u.CacheRead), raw(u.Output),
				strconv.FormatBool(u.OutputLowerBound), raw(u.Usage().Total()), rawCost(u.Cost, u.Unpriced, u.Calls), raw(u.Unpriced)}
		}
		if breakdown {
			t.Columns = slices.Insert(t.Columns, 1, csvColumns("model")...)
			t.RemoveColumn(13) // a compaction is not a model's
			for _, g := range doc.Groups {
				for _, m := range g.Models {
					row := rawRow(g.Key, m.Sessions, m.Usage)
					t.AddRow(append(slices.Insert(row, 1, m.Model), ratio(m.HitRatio))...)
				}
			}
			return t
		}
		for _, g := range doc.Groups {
			row := rawRow(g.Key, g.Sessions, g.Usage)
			if !byModel {
				row = append(row, raw(g.Compactions))
			}
			t.AddRow(append(row, ratio(g.HitRatio))...)
		}
		return t
	}
	loc := opt.Location
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
	tot := groupsTotal(doc)
	if w := windowText(doc); w != "" {
		if by == accounting.BySession {
			t.Note += "; sessions active " + w + ", each whole"
		} else {
			t.Note += "; only the calls and compactions " + w
		}
	}
	t.Note = withNote(t.Note, LowerBoundNote(tot.Usage.OutputLowerBound, tot.Usage.Unpriced))
	if breakdown {
		t.Note += "; └: the group's calls of one model"
	}
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
	defer dropSessionsColumn(t, by)
	// row adds a group, or one of its models (compactions -1: the cell
	// stays empty, or is not there by model).
	row := func(name string, sessions int, u accounting.UsageRow, hit float64, compactions int) {
		text := []string{name, numtext.Int(sessions), numtext.Int(u.Calls), numtext.Int(u.Input), numtext.Int(u.CacheWrite5m + u.CacheWrite1h), numtext.Int(u.CacheRead),
			atLeast(u.Output, u.OutputLowerBound), atLeast(u.Usage().Total(), u.OutputLowerBound), CostText(u.Cost, u.Unpriced, u.Calls, u.OutputLowerBound)}
		rawRow := []string{name, raw(sessions), raw(u.Calls), raw(u.Input), raw(u.CacheWrite5m + u.CacheWrite1h), raw(u.CacheRead), raw(u.Output),
			raw(u.Usage().Total()), rawCost(u.Cost, u.Unpriced, u.Calls)}
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
