package view_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/render"
	"github.com/ctxlab/ctxlab/report/table"
	"github.com/ctxlab/ctxlab/report/view"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/metric"
	"github.com/ctxlab/ctxlab/simulate/paired"
	"github.com/ctxlab/ctxlab/simulate/sweep"
)

// TestLowerBoundsMarked: one fixture session (5a1b3c4d, Claude Code
// 2.1.19) records placeholder output counts. Every figure that counts its
// output is a lower bound: marked ≥ where people read it (outputs, tokens
// and costs, in the overview, the grouped views, the usage tables, a
// run's figures, its calls, compare's, gate's and sweep's), and said in a
// column of every CSV table that carries such a figure, true on its rows.
func TestLowerBoundsMarked(t *testing.T) {
	const queue = "5a1b3c4d-2e6f-4a7b-8c9d-0e1f2a3b4c5d"
	byDay := replayDoc(t, corpus, "")
	var reps []*accounting.Report
	for _, s := range byDay.Sessions {
		reps = append(reps, s.Report)
	}
	byDay.By = "day"
	var total accounting.Group
	byDay.Groups, total = accounting.GroupsIn(reps, accounting.ByDay, nil, prices.Default(), accounting.Window{})
	byDay.GroupsTotal = &total

	// The text tables: the queue's day, and the total, mark output,
	// tokens and cost; the other days mark nothing.
	g := view.GroupTable(byDay, report.Options{})
	col := func(name string) int {
		return slices.IndexFunc(g.Columns, func(c table.Column) bool { return c.Name == name })
	}
	for _, r := range g.Rows {
		lower := r[0].Text == "2026-01-26" || r[0].Text == "total"
		for _, name := range []string{"Output", "Tokens", "Cost"} {
			if got := strings.HasPrefix(r[col(name)].Text, "≥"); got != lower {
				t.Errorf("by day, %s, %s %q: marked %v, want %v", r[0].Text, name, r[col(name)].Text, got, lower)
			}
		}
	}

	// Each CSV table: its lower-bound column, true where a figure is one.
	csvOf := func(doc report.Doc, opt report.Options) (header []string, rows [][]string) {
		t.Helper()
		opt.Format = report.CSV
		var b bytes.Buffer
		if err := render.Write(&b, doc, opt); err != nil {
			t.Fatal(err)
		}
		all, err := csv.NewReader(&b).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		return all[0], all[1:]
	}
	replayOne := replayDoc(t, corpus, "claude-code")
	compared := compareDoc(t, corpus, false)
	cost, _ := metric.LookupMeasure("total_cost_usd")
	peak, _ := metric.LookupMeasure("peak_context")
	compared.Compare(0, []metric.Metric{cost, peak}, paired.Options{Resamples: -1})
	for _, c := range []struct {
		name   string
		doc    report.Doc
		opt    report.Options
		column string
		key    func(row []string, header []string) bool // the rows that must say true
	}{
		{"sessions", byDay, report.Options{Sections: []string{"sessions"}}, "output_lower_bound", has("session", queue)},
		{"groups", byDay, report.Options{}, "output_lower_bound", has("day", "2026-01-26")},
		{"usage", replayOne, report.Options{Sections: []string{"usage"}}, "output_lower_bound", func(row, header []string) bool {
			// The queue's models (Claude Opus 4.5, Sonnet 4.5, Haiku 4.5)
			// in its scope and in the total's.
			scope, name := row[slices.Index(header, "scope")], row[slices.Index(header, "name")]
			return scope == queue || scope == "total" && (name == "total" || strings.HasSuffix(name, "-4-5-20251101") ||
				strings.HasSuffix(name, "-4-5-20250929") || strings.HasSuffix(name, "-4-5-20251001"))
		}},
		{"simulated calls", replayOne, report.Options{Sections: []string{"simulated_calls"}}, "output_lower_bound", has("scope", queue)},
		{"compare", compareDoc(t, corpus, false), report.Options{}, "output_lower_bound", either(has("scope", queue), has("scope", "total"))},
		{"compare, sub-agents", compareDoc(t, corpus, false), report.Options{}, "agents_output_lower_bound", either(has("scope", queue), has("scope", "total"))},
		{"comparisons", compared, report.Options{Sections: []string{"comparisons"}}, "lower_bound", has("metric", "total_cost_usd")},
		{"gate", gateDoc(t, false), report.Options{}, "lower_bound", has("limit", "cost")},
		{"sweep totals", sweepStatsDoc(t), report.Options{Sections: []string{"totals"}}, "lower_bound", has("objective", "total_cost_usd")},
		{"sweep pareto", sweepStatsDoc(t), report.Options{Sections: []string{"pareto"}}, "lower_bound", has("metric", "total_cost_usd")},
	} {
		header, rows := csvOf(c.doc, c.opt)
		i := slices.Index(header, c.column)
		if i < 0 {
			t.Errorf("%s: no %s column in %q", c.name, c.column, header)
			continue
		}
		trues := 0
		for _, r := range rows {
			want := c.key(r, header)
			if got := r[i] == "true"; got != want {
				t.Errorf("%s: %s %q on %q, want %v", c.name, c.column, r[i], r, want)
			}
			if want {
				trues++
			}
		}
		if trues == 0 {
			t.Errorf("%s: no row is a lower bound", c.name)
		}
	}

	// JSON says it of each comparison as CSV does: compare's comparisons,
	// sweep's steps along the front and each point's comparison.
	jsonOf := func(doc report.Doc) map[string]json.RawMessage {
		t.Helper()
		var b bytes.Buffer
		if err := render.Write(&b, doc, report.Options{Format: report.JSON}); err != nil {
			t.Fatal(err)
		}
		var d map[string]json.RawMessage
		if err := json.Unmarshal(b.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		return d
	}
	type comparison struct {
		Metric     string
		LowerBound *bool `json:"lower_bound"`
	}
	checkJSON := func(what string, raw json.RawMessage) {
		t.Helper()
		var cs []comparison
		if err := json.Unmarshal(raw, &cs); err != nil || len(cs) == 0 {
			t.Fatalf("%s: %v (%d comparisons)", what, err, len(cs))
		}
		for _, c := range cs {
			if c.LowerBound == nil || *c.LowerBound != (c.Metric == "total_cost_usd") {
				t.Errorf("%s: %s lower_bound %v, want %v", what, c.Metric, c.LowerBound, c.Metric == "total_cost_usd")
			}
		}
	}
	checkJSON("compare comparisons", jsonOf(compared)["comparisons"])
	sw := jsonOf(sweepStatsDoc(t))
	checkJSON("sweep pareto_comparisons", sw["pareto_comparisons"])
	var totals []struct{ Comparison comparison }
	if err := json.Unmarshal(sw["totals"], &totals); err != nil {
		t.Fatal(err)
	}
	for _, tot := range totals {
		if c := tot.Comparison; c.LowerBound == nil || !*c.LowerBound {
			t.Errorf("sweep totals: %s lower_bound %v, want true", c.Metric, c.LowerBound)
		}
	}
}

// has selects the CSV rows whose column name holds value.
func has(name, value string) func(row, header []string) bool {
	return func(row, header []string) bool {
		i := slices.Index(header, name)
		return i >= 0 && row[i] == value
	}
}

func either(a, b func(row, header []string) bool) func(row, header []string) bool {
	return func(row, header []string) bool { return a(row, header) || b(row, header) }
}

// TestSweepUnpricedMarked: a sweep whose costs leave out calls of a model
// without a price says so, as compare's and replay's tables do: its cost
// totals are marked ≥ and the note counts the calls. No placeholders
// here, so nothing else could mark them. The spread is over the sessions
// whose cost is known, exact for them, and the note says so; the peak
// context is not a cost and stays unmarked.
func TestSweepUnpricedMarked(t *testing.T) {
	points := []sweep.Point{{Spec: "keep-last-n:n=2", Base: "keep-last-n", Values: map[string]string{"n": "2"}}}
	rows := []sweep.Row{
		{Point: 0, Session: "a", Metrics: simulate.Metrics{Calls: 4, TotalCost: 2, Cost: 2, PeakContext: 9000}},
		{Point: 0, Session: "b", Metrics: simulate.Metrics{Calls: 3, Unpriced: 3, PeakContext: 7000}},
	}
	cost, _ := metric.Lookup("total_cost_usd")
	peak, _ := metric.Lookup("peak_context")
	grid := report.SweepGrid{Policies: []string{"keep-last-n"}, Vary: []sweep.Vary{{Param: "n", Values: []string{"2"}}},
		Defaults: map[string]map[string]string{"keep-last-n": {"n": "10"}}, Points: points}
	doc := report.NewSweepDocument("test", grid, cost, nil, []metric.Metric{cost, peak}, nil, rows, nil)
	for _, tab := range []*table.Table{view.SweepTotals(doc), view.ParetoTable(doc)} {
		if !strings.Contains(tab.Note, "the cost leaves out 3 calls of models without a price") {
			t.Errorf("%s: note %q says nothing of the unpriced calls", tab.Name, tab.Note)
		}
		if i := slices.IndexFunc(tab.Columns, func(c table.Column) bool { return c.Name == "Median" }); tab.Name == "sweep" &&
			(i < 0 || tab.Columns[i].Note != "median: the median of total_cost_usd across the sessions whose cost is known") {
			t.Errorf("%s: the median's note does not say which sessions the spread covers: %+v", tab.Name, tab.Columns)
		}
		for i, c := range tab.Columns {
			want := c.Name == "total_cost_usd"
			if got := strings.HasPrefix(tab.Rows[0][i].Text, "≥"); got != want {
				t.Errorf("%s, %s %q: marked %v, want %v", tab.Name, c.Name, tab.Rows[0][i].Text, got, want)
			}
		}
	}
}
