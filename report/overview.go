package report

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/internal/numtext"
)

// overviewTable is one line per session and the total: the view people
// open first.
func overviewTable(doc *Document, loc *time.Location) *Table {
	reps := make([]*accounting.Report, len(doc.Sessions))
	for i, s := range doc.Sessions {
		reps[i] = s.Report
	}
	zone := "UTC"
	if loc != nil {
		zone = loc.String()
	}
	t := &Table{
		Name: "sessions", Title: "Sessions",
		Note: fmt.Sprintf("date: of the first message (%s); tokens: input + cache writes + cache reads + output; "+
			"cache hit: read / (input + write + read); total: each call once (a resumed session repeats calls)", zone),
		Columns:    []string{"Date", "Project", "Session", "Calls", "Tokens", "Cost", "Compactions", "Cache hit"},
		CSVColumns: []string{"date", "project", "session", "start", "calls", "tokens", "cost", "unpriced_calls", "compactions", "cache_hit_ratio"},
		Right:      []bool{false, false, false, true, true, true, true, true},
		Short:      map[string]string{"Compactions": "Compact."},
		Drop:       []string{"Compactions", "Tokens"},
	}
	for _, l := range accounting.Overview(reps, loc) {
		t.add(
			[]string{l.Date, l.Project, l.ID, numtext.Int(l.Calls), numtext.Int(l.Tokens), costText(l.Cost, l.Unpriced, l.Calls), numtext.Int(l.Compactions), pct(l.HitRatio * 100)},
			[]string{l.Date, l.Project, l.ID, l.Start, raw(l.Calls), raw(l.Tokens), rawCost(l.Cost, l.Unpriced, l.Calls), raw(l.Unpriced), raw(l.Compactions), ratio(l.HitRatio)},
		)
	}
	tot := doc.Total
	u := tot.Usage.Total
	t.Rows = append(t.Rows, []string{"total", "", numtext.Int(tot.Summary.Sessions) + " sessions", numtext.Int(u.Calls), numtext.Int(u.Usage().Total()),
		costText(u.Cost, u.Unpriced, u.Calls), numtext.Int(len(tot.Compactions)), pct(tot.Usage.HitRatio * 100)})
	return t
}

// groupTable is the grouped view (--by): one row per period, project or
// model, and the total.
func groupTable(doc *Document, loc *time.Location) *Table {
	by := accounting.GroupBy(doc.By)
	key := map[accounting.GroupBy]string{
		accounting.ByDay: "Day", accounting.ByWeek: "Week", accounting.ByMonth: "Month",
		accounting.ByProject: "Project", accounting.ByModel: "Model",
	}[by]
	note := "tokens: input + cache writes + cache reads + output; cache hit: read / (input + write + read); each call counted once, in the group of its own time or model"
	if by.IsTime() {
		zone := "UTC"
		if loc != nil {
			zone = loc.String()
		}
		note = fmt.Sprintf("calls by the %s they were made in (%s)", by, zone)
		if by == accounting.ByWeek {
			note += "; a week runs Monday to Sunday and is named by its Monday"
		}
		note += "; tokens: input + cache writes + cache reads + output; cache hit: read / (input + write + read)"
	}
	t := &Table{
		Name: "by_" + string(by), Title: "Usage by " + string(by), Note: note,
		Columns: []string{key, "Sessions", "Calls", "Input", "Cache write", "Cache read", "Output", "Tokens", "Cost", "Compactions", "Cache hit"},
		CSVColumns: []string{string(by), "sessions", "calls", "input", "cache_write_5m", "cache_write_1h", "cache_read", "output", "tokens",
			"cost", "unpriced_calls", "compactions", "cache_hit_ratio"},
		Right: []bool{false, true, true, true, true, true, true, true, true, true, true},
		Short: map[string]string{"Sessions": "Sess.", "Cache write": "Write", "Cache read": "Read", "Compactions": "Compact."},
		Drop:  []string{"Input", "Output", "Sessions", "Compactions"},
	}
	byModel := by == accounting.ByModel
	if byModel { // compactions are not a model's
		t.Columns = slices.DeleteFunc(t.Columns, func(c string) bool { return c == "Compactions" })
		t.CSVColumns = slices.DeleteFunc(t.CSVColumns, func(c string) bool { return c == "compactions" })
		t.Right = slices.Delete(t.Right, 9, 10)
	}
	row := func(name string, sessions int, u accounting.UsageRow, hit float64, compactions int) ([]string, []string) {
		pretty := []string{name, numtext.Int(sessions), numtext.Int(u.Calls), numtext.Int(u.Input), numtext.Int(u.CacheWrite5m + u.CacheWrite1h), numtext.Int(u.CacheRead), numtext.Int(u.Output),
			numtext.Int(u.Usage().Total()), costText(u.Cost, u.Unpriced, u.Calls)}
		rawRow := []string{name, raw(sessions), raw(u.Calls), raw(u.Input), raw(u.CacheWrite5m), raw(u.CacheWrite1h), raw(u.CacheRead), raw(u.Output),
			raw(u.Usage().Total()), rawCost(u.Cost, u.Unpriced, u.Calls), raw(u.Unpriced)}
		if !byModel {
			pretty, rawRow = append(pretty, numtext.Int(compactions)), append(rawRow, raw(compactions))
		}
		return append(pretty, pct(hit*100)), append(rawRow, ratio(hit))
	}
	for _, g := range doc.Groups {
		t.add(row(g.Key, g.Sessions, g.Usage, g.HitRatio, g.Compactions))
	}
	// The total is for the text formats: CSV holds the groups only.
	tot := doc.Total
	last, _ := row("total", tot.Summary.Sessions, tot.Usage.Total, tot.Usage.HitRatio, len(tot.Compactions))
	t.Rows = append(t.Rows, last)
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
