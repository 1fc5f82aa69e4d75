package html_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/internal/htmlcheck"
	"github.com/ctxlab/ctxlab/internal/testcorpus/corpusload"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/render"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/fidelity"
)

// replayDocument is what `ctxlab replay --format html` builds on path:
// each session's report and its observed run.
func replayDocument(t *testing.T, path string) *report.Document {
	t.Helper()
	cfg := accounting.DefaultConfig()
	sessions := corpusload.Path(t, path)
	var reps []*accounting.Report
	for _, s := range sessions {
		reps = append(reps, accounting.Analyze(s, cfg))
	}
	doc := report.NewDocument(reps, cfg.Prices, nil)
	for i, s := range sessions {
		doc.Sessions[i].Simulation = simulate.Run(simulate.Prepare(s), parsePolicy(t, "observed"), simulate.DefaultConfig())
	}
	return doc
}

func writeBoth(t *testing.T, write func(w *bytes.Buffer, format string) error) (html string, js map[string]any) {
	t.Helper()
	var h, j bytes.Buffer
	if err := write(&h, "html"); err != nil {
		t.Fatalf("html: %v", err)
	}
	if err := write(&j, "json"); err != nil {
		t.Fatalf("json: %v", err)
	}
	var again bytes.Buffer
	if err := write(&again, "html"); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(h.Bytes(), again.Bytes()) {
		t.Error("two renderings of the same document differ")
	}
	if err := json.Unmarshal(j.Bytes(), &js); err != nil {
		t.Fatal(err)
	}
	return h.String(), js
}

// checkPage runs the structural checks every report passes.
func checkPage(t *testing.T, page string) {
	t.Helper()
	if !strings.HasPrefix(page, "<!DOCTYPE html>\n") || !strings.HasSuffix(page, "</html>\n") {
		t.Errorf("not one HTML document: starts %.40q, ends %q", page, page[max(0, len(page)-20):])
	}
	if err := htmlcheck.SelfContained(page); err != nil {
		t.Error(err)
	}
	if _, err := htmlcheck.Anchors(page); err != nil {
		t.Error(err)
	}
}

// jsonNumber is a JSON value (float64 after Unmarshal) as the HTML's
// data-v prints it.
func jsonNumber(v any) string {
	return strconv.FormatFloat(v.(float64), 'f', -1, 64)
}

func path(v any, keys ...string) any {
	for _, k := range keys {
		v = v.(map[string]any)[k]
	}
	return v
}

func sumTokens(usage map[string]any) string {
	var n float64
	for _, k := range []string{"input", "cache_write_5m", "cache_write_1h", "cache_read", "output"} {
		n += usage[k].(float64)
	}
	return jsonNumber(n)
}

func TestHTMLReplay(t *testing.T) {
	doc := replayDocument(t, corpusFixtures)
	page, js := writeBoth(t, func(w *bytes.Buffer, format string) error {
		return render.Write(w, doc, report.Options{Format: report.Format(format)})
	})
	checkPage(t, page)
	body, foot, err := htmlcheck.Table(page, "overview-sessions")
	if err != nil {
		t.Fatal(err)
	}
	sessions := js["sessions"].([]any)
	if len(sessions) != 4 || len(body) != 4 || len(foot) != 1 {
		t.Fatalf("%d sessions in JSON, %d overview rows and %d total rows; want 4, 4 and 1", len(sessions), len(body), len(foot))
	}
	// Each row: session, date, project, calls, tokens, cost, compactions, cache hit.
	check := func(what string, row []htmlcheck.Cell, rep map[string]any) {
		t.Helper()
		sum := rep["summary"].(map[string]any)
		usage := path(rep, "usage", "total").(map[string]any)
		want := []string{"", "", "", jsonNumber(sum["calls"]), sumTokens(usage), jsonNumber(sum["cost_usd"]),
			strconv.Itoa(len(rep["compactions"].([]any))), jsonNumber(path(rep, "usage", "cache_hit_ratio"))}
		if s, ok := sum["start"].(string); ok {
			want[1] = s
		}
		for i := 1; i < len(want); i++ {
			if row[i].Value != want[i] {
				t.Errorf("%s, column %d: data-v %q, JSON %q", what, i+1, row[i].Value, want[i])
			}
		}
		if p, _ := sum["project"].(string); row[2].Text != p {
			t.Errorf("%s: project %q, JSON %q", what, row[2].Text, p)
		}
	}
	// The overview runs oldest first, as the terminal's (hand-checked on
	// the fixtures: 2025-08-20, 2025-12-30, 2026-01-26, 2026-05-19), and
	// the sections follow it.
	order := []string{"3f2a9c10-7d4e-4b6a-8c21-5e9f0a1b2c3d", "8c4e2b71-1a3f-4d5e-9b6c-7f8a9b0c1d2e",
		"5a1b3c4d-2e6f-4a7b-8c9d-0e1f2a3b4c5d", "d3e4f5a6-b7c8-4d9e-a0f1-b2c3d4e5f6a7"}
	if got := terminalOrder(t, doc); strings.Join(got, " ") != strings.Join(order, " ") {
		t.Fatalf("the terminal's overview lists %q, want %q", got, order)
	}
	byID := map[string]map[string]any{}
	for _, s := range sessions {
		rep := s.(map[string]any)
		byID[path(rep, "summary", "id").(string)] = rep
	}
	for i, id := range order {
		rep := byID[id]
		row := body[i]
		if row[0].Text != id || row[0].Href != "#session-"+strconv.Itoa(i+1) {
			t.Errorf("overview row %d: %q → %q, want %s → #session-%d", i+1, row[0].Text, row[0].Href, id, i+1)
		}
		if !strings.Contains(page, `<section class="detail" id="session-`+strconv.Itoa(i+1)+`">`+"\n<h2>Session "+id) {
			t.Errorf("no detail section for session %s", id)
		}
		check("session "+id, row, rep)
	}
	check("total", foot[0], js["total"].(map[string]any))
	if foot[0][0].Href != "#total" {
		t.Errorf("total row links to %q, want #total", foot[0][0].Href)
	}
	// Hand-checked on the fixtures: 97 calls, 1,719,759 tokens, $1.50, 4
	// compactions, 95.5% over the four sessions. The tokens and the cost are
	// lower bounds: one session records placeholder output counts (Claude
	// Code 2.1.9–2.1.41).
	if got := []string{foot[0][3].Text, foot[0][4].Text, foot[0][5].Text, foot[0][6].Text, foot[0][7].Text}; strings.Join(got, " ") != "97 ≥1,719,759 ≥$1.50 4 95.5%" {
		t.Errorf("total row prints %q", got)
	}
	if !strings.Contains(page, "≥: a lower bound: output counts are Claude Code 2.1.9–2.1.41 placeholders") {
		t.Error("the overview's note does not say what ≥ stands for")
	}
	// Per session: context, cost, cache of the observed run, tokens and
	// duplicates; for the total: tokens and duplicates.
	if n := strings.Count(page, "<svg"); n != 4*5+2 {
		t.Errorf("%d charts, want 22", n)
	}
	for _, h := range []string{"Usage by model", "Token accounting", "Duplicate reads", "Cache rebuilds", "Compaction timeline", "Simulation: observed"} {
		if n := strings.Count(page, "<h3>"+h+"</h3>"); n != 5 && !(h == "Simulation: observed" && n == 4) {
			t.Errorf("%d tables %q, want one per session and the total's", n, h)
		}
	}
}

// terminalOrder is the session column of the terminal's overview (its
// CSV stream), in order.
func terminalOrder(t *testing.T, doc *report.Document) []string {
	t.Helper()
	var b bytes.Buffer
	if err := render.Write(&b, doc, report.Options{Format: report.CSV}); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil || len(rows) == 0 {
		t.Fatalf("overview CSV: %v", err)
	}
	col := slices.Index(rows[0], "session")
	var ids []string
	for _, r := range rows[1:] {
		ids = append(ids, r[col])
	}
	return ids
}

// TestHTMLPageHead: the page says its encoding, and its fonts fall back
// to ones that draw Chinese, Japanese and Korean file names; a long table
// shows its first rows and a button, not a closed <details>.
func TestHTMLPageHead(t *testing.T) {
	var b bytes.Buffer
	if err := render.Write(&b, replayDocument(t, corpusFixtures), report.Options{Format: report.HTML}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{`<meta charset="utf-8">`, `"Noto Sans CJK SC"`, `"PingFang SC"`, `"Hiragino Sans"`, `"Microsoft YaHei"`,
		"table.folded > tbody > tr:nth-child(n+11) { display: none; }", `<table class="sortable folded">`,
		`<button type="button" class="more" aria-expanded="false">show all 26 rows</button>`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if strings.Contains(page, "<details") {
		t.Error("a table is folded in <details>, which hides every row")
	}
}

func TestHTMLReplaySections(t *testing.T) {
	doc := replayDocument(t, demoFixture)
	var b bytes.Buffer
	if err := render.Write(&b, doc, report.Options{Format: report.HTML, Sections: []string{"summary"}}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	checkPage(t, page)
	if strings.Contains(page, "<svg") || strings.Contains(page, "Usage by model") || !strings.Contains(page, "<h3>Summary</h3>") {
		t.Error("--section summary: want the summary alone, no chart")
	}
	if strings.Contains(page, `id="total"`) {
		t.Error("one session: no total section")
	}
}

// TestHTMLEscapes puts markup into every text a transcript supplies: the
// session id (also in chart titles), the project, a file path.
func TestHTMLEscapes(t *testing.T) {
	doc := replayDocument(t, demoFixture)
	evil := `<img src=x onerror="alert(1)">&</script>`
	s := doc.Sessions[0]
	s.Summary.ID, s.Summary.Project, s.Simulation.Session = evil, evil, evil
	for i := range s.Duplicates {
		s.Duplicates[i].Path = evil
	}
	var b bytes.Buffer
	if err := render.Write(&b, doc, report.Options{Format: report.HTML}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if strings.Contains(page, "<img") || strings.Count(page, "</script>") != 1 {
		t.Fatal("transcript text reached the page unescaped")
	}
	if !strings.Contains(page, "&lt;img src=x onerror=") {
		t.Error("the escaped id is missing")
	}
	// In an SVG title, escaped by the SVG backend.
	if !strings.Contains(page, "Context per call — &lt;img src=x") {
		t.Error("the chart title does not show the escaped id")
	}
	if _, err := htmlcheck.Anchors(page); err != nil {
		t.Error(err)
	}
}

func TestHTMLCompare(t *testing.T) {
	specs := []string{"observed", "claude-code"}
	var runs []*report.Compared
	var fid []report.Fidelity
	for _, s := range corpusload.Path(t, corpusFixtures) {
		tr := simulate.Prepare(s)
		var res []*simulate.Result
		for _, spec := range specs {
			res = append(res, simulate.Run(tr, parsePolicy(t, spec), simulate.DefaultConfig()))
		}
		runs = append(runs, report.NewCompared(s, res, true))
		fid = append(fid, fidelity.New(s, tr, res[0], res[1], fidelity.DefaultTolerances()))
	}
	doc := report.NewCompareDocument(specs, runs, fid, prices.Default(), nil)
	page, js := writeBoth(t, func(w *bytes.Buffer, format string) error {
		return render.Write(w, doc, report.Options{Format: report.Format(format)})
	})
	checkPage(t, page)
	body, foot, err := htmlcheck.Table(page, "overview-sessions")
	if err != nil {
		t.Fatal(err)
	}
	sessions := js["sessions"].([]any)
	if len(body) != len(sessions) || len(sessions) != 4 || len(foot) != 1 {
		t.Fatalf("%d overview rows, %d total rows for %d sessions", len(body), len(foot), len(sessions))
	}
	// Each row: session, project, then per policy calls, tokens, total
	// cost, compactions, cache hit.
	check := func(what string, row []htmlcheck.Cell, c map[string]any) {
		t.Helper()
		for p, r := range c["runs"].([]any) {
			m := r.(map[string]any)["metrics"].(map[string]any)
			want := []string{jsonNumber(m["calls"]), sumTokens(m), jsonNumber(m["total_cost_usd"]), jsonNumber(m["compactions"]), jsonNumber(m["cache_hit_ratio"])}
			for i, w := range want {
				if got := row[2+5*p+i].Value; got != w {
					t.Errorf("%s, policy %s, value %d: data-v %q, JSON %q", what, specs[p], i+1, got, w)
				}
			}
		}
	}
	for i, s := range sessions {
		c := s.(map[string]any)
		if body[i][0].Text != c["id"] || body[i][0].Href != "#session-"+strconv.Itoa(i+1) {
			t.Errorf("overview row %d: %q → %q", i+1, body[i][0].Text, body[i][0].Href)
		}
		check(c["id"].(string), body[i], c)
	}
	check("total", foot[0], js["total"].(map[string]any))
	// Per session: context, cost and one cache plot per policy; the total:
	// the cost by policy.
	if n := strings.Count(page, "<svg"); n != 4*(2+2)+1 {
		t.Errorf("%d charts, want 17", n)
	}
	if !strings.Contains(page, `<section class="detail" id="fidelity">`) || !strings.Contains(page, `<a href="#fidelity">`) {
		t.Error("no fidelity section linked")
	}
}

func parsePolicy(t *testing.T, spec string) simulate.Policy {
	t.Helper()
	p, err := policies.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const (
	demoFixture    = "../../fixtures/testdata/projects/-home-dev-demo/d3e4f5a6-b7c8-4d9e-a0f1-b2c3d4e5f6a7.jsonl"
	corpusFixtures = "../../fixtures/testdata/projects"
)
