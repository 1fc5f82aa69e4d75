package main

import (
	"encoding/csv"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// TestSignificanceMatchesInterval: in every format, the mark of
// significance is the verdict of the interval printed with it. compare's
// comparisons and sweep's points and front steps, in JSON and CSV
// (significant ⇔ the interval excludes 0) and in the text and Markdown
// tables (Differs yes ⇔ the Interval cell excludes 0, or the baseline's
// total in sweep's unit). The four fixture sessions make many intervals
// exclude 0 while the signed-rank test, whose smallest p for four
// sessions is 0.125, finds nothing: the contradiction ~ beside
// [+36.3%, +64.6%] was printed there.
func TestSignificanceMatchesInterval(t *testing.T) {
	run := func(args ...string) string {
		t.Helper()
		out, errOut, code := ctxlab(t, "", nil, append(args, fixtures)...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		return out
	}
	type cmp struct {
		Metric, Policy string
		Low            *float64 `json:"total_change_ci_low_pct"`
		High           *float64 `json:"total_change_ci_high_pct"`
		Significant    bool
	}
	check := func(where string, c cmp) {
		t.Helper()
		excludes := c.Low != nil && c.High != nil && (*c.Low > 0 || *c.High < 0)
		if c.Significant != excludes {
			t.Errorf("%s: %s %s significant %v beside [%v, %v]", where, c.Metric, c.Policy, c.Significant, c.Low, c.High)
		}
	}
	compare := []string{"compare", "--policy", "observed,claude-code,claude-code:window=55000,keep-last-n:n=3,none"}
	var cd struct{ Comparisons []cmp }
	if err := json.Unmarshal([]byte(run(append(compare, "--format", "json")...)), &cd); err != nil {
		t.Fatal(err)
	}
	yes := 0
	for _, c := range cd.Comparisons {
		check("compare JSON", c)
		if c.Significant {
			yes++
		}
	}
	if yes == 0 || yes == len(cd.Comparisons) {
		t.Errorf("%d of %d comparisons significant: want some of each", yes, len(cd.Comparisons))
	}
	checkCSV := func(where, out string) {
		t.Helper()
		rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil || len(rows) < 2 {
			t.Fatalf("%s: %v", where, err)
		}
		col := map[string]int{}
		for i, h := range rows[0] {
			col[h] = i
		}
		lowName, highName := "total_change_ci_low_pct", "total_change_ci_high_pct"
		if _, ok := col[lowName]; !ok {
			lowName, highName = "change_ci_low_pct", "change_ci_high_pct"
		}
		for _, r := range rows[1:] {
			c := cmp{Metric: r[col["metric"]] + r[col["objective"]], Policy: r[col["policy"]], Significant: r[col["significant"]] == "true"}
			if lo, err := strconv.ParseFloat(r[col[lowName]], 64); err == nil {
				c.Low = &lo
			}
			if hi, err := strconv.ParseFloat(r[col[highName]], 64); err == nil {
				c.High = &hi
			}
			check(where, c)
		}
	}
	checkCSV("compare CSV", run(append(compare, "--format", "csv", "--section", "comparisons")...))
	checkTables(t, "compare table", run(append(compare, "--wide")...))
	checkTables(t, "compare Markdown", run(append(compare, "--format", "markdown")...))

	sweep := []string{"sweep", "--policy", "keep-last-n,claude-code:window=60000", "--vary", "n=2,3,8", "--vary", "pct=40,80", "--pareto", "total_cost_usd,clearings"}
	var sd struct {
		Totals []struct{ Comparison cmp }
		Pareto []cmp `json:"pareto_comparisons"`
	}
	if err := json.Unmarshal([]byte(run(append(sweep, "--format", "json")...)), &sd); err != nil {
		t.Fatal(err)
	}
	for _, tot := range sd.Totals {
		check("sweep JSON", tot.Comparison)
	}
	for _, c := range sd.Pareto {
		check("sweep front JSON", c)
	}
	checkCSV("sweep totals CSV", run(append(sweep, "--format", "csv", "--section", "totals")...))
	checkCSV("sweep front CSV", run(append(sweep, "--format", "csv", "--section", "pareto")...))
	checkTables(t, "sweep table", run(append(sweep, "--wide")...))
	checkTables(t, "sweep Markdown", run(append(sweep, "--format", "markdown")...))
	// A peak's total is not the sessions' sum: its interval is the
	// change's, in percent, and still decides.
	checkTables(t, "sweep table, peak", run(append(sweep, "--wide", "--objective", "peak_context")...))
}

// checkTables finds each text or Markdown table with an Interval and a
// Differs column and checks that Differs says yes exactly where the
// interval, a change in percent, leaves out 0 (beside a sweep's interval
// in the objective's unit, only that it says yes or no: its JSON is
// checked).
func checkTables(t *testing.T, where, out string) {
	t.Helper()
	var header []string
	found := 0
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "+") || strings.HasPrefix(line, "|-") || strings.HasPrefix(line, "|:") || strings.HasPrefix(line, "| -"):
			continue // a rule
		case !strings.HasPrefix(line, "|"):
			header = nil // between tables
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if header == nil {
			header = cells
			continue
		}
		col := map[string]int{}
		for i, h := range header {
			col[h] = i
		}
		iv, okI := col["Interval"]
		df, okD := col["Differs"]
		ch, okC := col["Change"]
		if !okI || !okD || !okC {
			continue
		}
		found++
		interval, differs, change := cells[iv], cells[df], cells[ch]
		if interval == "" || change == "baseline" {
			if differs != "" && change != "baseline" {
				t.Errorf("%s: differs %q without an interval: %s", where, differs, line)
			}
			continue
		}
		lo, hi, ok := strings.Cut(strings.Trim(interval, "[]"), ", ")
		if !ok {
			t.Fatalf("%s: interval %q", where, interval)
		}
		if !strings.HasSuffix(lo, "%") {
			// A sweep's interval in the objective's unit: JSON checks its
			// verdict; here only that one stands beside it.
			if differs != "yes" && differs != "no" {
				t.Errorf("%s: Differs %q beside %s: %s", where, differs, interval, line)
			}
			continue
		}
		l, h := pctValue(t, lo), pctValue(t, hi)
		excludes := l > 0 || h < 0
		if (differs == "yes") != excludes {
			t.Errorf("%s: Differs %q beside %s: %s", where, differs, interval, line)
		}
	}
	if found == 0 {
		t.Errorf("%s: no table with Interval and Differs:\n%s", where, out)
	}
}

func pctValue(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimPrefix(s, "+"), "%"), 64)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}
