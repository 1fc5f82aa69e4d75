package html

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/internal/testcorpus/corpusload"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/table"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/budget"
)

// These tests open pages in headless Chromium and measure what a reader
// sees: the layout, the folding, the sorting and the colours. They skip
// without Debian's chromium package, unless CTXLAB_BROWSER_TESTS=1 (as
// in CI), which makes its absence a failure.

type browser struct {
	t   *testing.T
	ctx context.Context
	dir string
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	exe := ""
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			exe = p
			break
		}
	}
	if exe == "" {
		if os.Getenv("CTXLAB_BROWSER_TESTS") == "1" {
			t.Fatal("chromium not found on PATH; CTXLAB_BROWSER_TESTS=1 requires it")
		}
		t.Skip("chromium not found on PATH (apt-get install chromium)")
	}
	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]),
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.Flag("disable-dev-shm-usage", true))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(cancelTimeout)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	return &browser{t: t, ctx: ctx, dir: t.TempDir()}
}

// open loads a page at a window width (CSS pixels).
func (b *browser) open(name, page string, width int64) {
	b.t.Helper()
	file := filepath.Join(b.dir, name+".html")
	if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
		b.t.Fatal(err)
	}
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(width, 900), chromedp.Navigate("file://"+file),
		chromedp.WaitReady(chromedp.CSS("body"))); err != nil {
		b.t.Fatal(err)
	}
}

func eval[T any](b *browser, js string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](js))
	if err != nil {
		b.t.Fatalf("%.60s: %v", js, err)
	}
	return v
}

func (b *browser) click(css string) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(css))); err != nil {
		b.t.Fatalf("click %s: %v", css, err)
	}
}

// replayPage is replay's page on the fixtures (or path), each session
// replayed under observed, with errs under "Could not be read".
func replayPage(t *testing.T, path string, errs ...string) string {
	t.Helper()
	sessions := corpusload.Path(t, path)
	var reps []*accounting.Report
	for _, s := range sessions {
		reps = append(reps, accounting.Analyze(s, accounting.DefaultConfig()))
	}
	doc := report.NewDocument(reps, accounting.DefaultConfig().Prices, errs)
	p, err := policies.Parse("observed")
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range sessions {
		doc.Sessions[i].Simulation = simulate.Run(simulate.Prepare(s), p, simulate.DefaultConfig())
	}
	var w bytes.Buffer
	if err := Write(&w, doc, report.Options{Format: report.HTML}); err != nil {
		t.Fatal(err)
	}
	return w.String()
}

// cjkTranscript is the demo fixture with the file it reads three times
// renamed to a path in Chinese, Japanese and Korean, long enough to be
// wider than a phone.
func cjkTranscript(t *testing.T) (dir, path string) {
	t.Helper()
	src, err := os.ReadFile("../../fixtures/testdata/projects/-home-dev-demo/d3e4f5a6-b7c8-4d9e-a0f1-b2c3d4e5f6a7.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	path = "/home/dev/demo/服务器/健康检查_ヘルスチェック_상태확인/" + strings.Repeat("非常に長いファイル名", 4) + ".go"
	dir = filepath.Join(t.TempDir(), "-home-dev-demo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	out := bytes.ReplaceAll(src, []byte("/home/dev/demo/server/health.go"), []byte(path))
	if bytes.Equal(out, src) {
		t.Fatal("the demo fixture no longer reads /home/dev/demo/server/health.go")
	}
	if err := os.WriteFile(filepath.Join(dir, "d3e4f5a6-b7c8-4d9e-a0f1-b2c3d4e5f6a7.jsonl"), out, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

// Charts keep their natural size or less, and all at one scale: a chart
// alone on its row is not stretched (its text would be larger than its
// neighbours').
func TestBrowserChartsOneScale(t *testing.T) {
	b := newBrowser(t)
	b.open("replay", replayPage(t, "../../fixtures/testdata/projects"), 1280)
	type chart struct{ Width, Natural float64 }
	for _, width := range []int64{1280, 900, 500} {
		if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(width, 900)); err != nil {
			t.Fatal(err)
		}
		cs := eval[[]chart](b, `[...document.querySelectorAll("figure svg")].map(s => ({
			Width: s.getBoundingClientRect().width, Natural: parseFloat(s.getAttribute("width")) * 4 / 3 }))`)
		if len(cs) != 22 {
			t.Fatalf("%d charts, want 22", len(cs))
		}
		scale := cs[0].Width / cs[0].Natural
		for i, c := range cs {
			if c.Width > c.Natural+0.5 || c.Width > float64(width) {
				t.Errorf("window %d: chart %d is %.0f px wide, above its natural %.0f px", width, i+1, c.Width, c.Natural)
			}
			if s := c.Width / c.Natural; s < scale-0.005 || s > scale+0.005 {
				t.Errorf("window %d: chart %d drawn at scale %.3f, chart 1 at %.3f", width, i+1, s, scale)
			}
		}
	}
}

// Nothing makes the page wider than the window: not a long budget name
// in the title, not a table of long file paths (which wrap rather than
// widen even their own table), not a long path under "Could not be
// read", whatever the width.
func TestBrowserNeverWiderThanWindow(t *testing.T) {
	b := newBrowser(t)
	dir, path := cjkTranscript(t)
	replay := replayPage(t, dir, "/home/dev/.claude/projects/"+strings.Repeat("a_long_project_folder_", 4)+"/session.jsonl: permission denied")
	f, err := budget.Parse(strings.NewReader(`{"version": 1, "limits": [{"name": "cost", "measure": "total_cost_usd", "max": 0.01}]}`),
		"/ci/budgets/"+strings.Repeat("a_very_long_budget_file_name_", 4)+".json", time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), nil)
	if err != nil {
		t.Fatal(err)
	}
	var samples []budget.Sample
	for _, s := range corpusload.Path(t, dir) {
		samples = append(samples, budget.SampleFromReport(accounting.Analyze(s, accounting.DefaultConfig())))
	}
	var gate bytes.Buffer
	if err := Write(&gate, &report.GateDocument{Result: budget.Evaluate(f, "/ci/budgets/"+strings.Repeat("a_very_long_budget_file_name_", 4)+".json", samples, nil)}, report.Options{}); err != nil {
		t.Fatal(err)
	}
	type widths struct{ Page, Window, Table, Box float64 }
	for _, p := range []struct{ name, page string }{{"gate", gate.String()}, {"replay", replay}} {
		for _, width := range []int64{1280, 400} {
			b.open(p.name, p.page, width)
			w := eval[widths](b, `(() => {
				const box = document.querySelector("[id$='-duplicate_reads'] .scroll");
				return { Page: document.documentElement.scrollWidth, Window: window.innerWidth,
					Table: box ? box.scrollWidth : 0, Box: box ? box.clientWidth : 0 }; })()`)
			if w.Page > w.Window {
				t.Errorf("%s at %d px: the page is %.0f px wide", p.name, width, w.Page)
			}
			if p.name == "replay" && width == 1280 && w.Table > w.Box {
				t.Errorf("the duplicate reads table is %.0f px wide in a %.0f px box: its path does not wrap", w.Table, w.Box)
			}
		}
	}
	// The path reaches the page as it is, in UTF-8.
	if !strings.Contains(replay, path) || !strings.Contains(replay, `<meta charset="utf-8">`) {
		t.Error("the CJK path or the charset is missing")
	}
	b.open("replay", replay, 1280)
	if got := eval[string](b, `[...document.querySelectorAll("[id$='-duplicate_reads'] td.path")].map(td => td.textContent).join("\n")`); !strings.Contains(got, path) {
		t.Errorf("the reader sees paths %q, want %q", got, path)
	}
}

// One folding rule: a table of more than 20 rows shows its first 10 and
// a button that shows them all (and folds them again); any other shows
// every row.
func TestBrowserFolding(t *testing.T) {
	b := newBrowser(t)
	sizes := []int{0, 1, foldShow, foldShow + 1, 30, foldRows, foldRows + 1, 143}
	var w bytes.Buffer
	err := writeHTMLPage(&w, &htmlPage{Title: "ctxlab test"}, len(sizes), func(i int) (*htmlSection, error) {
		tb := &table.Table{Name: "t", Columns: []table.Column{{Name: "N", Right: true}}}
		for r := range sizes[i] {
			tb.Add([]string{strconv.Itoa(r)}, []string{strconv.Itoa(r)})
		}
		id := "s" + strconv.Itoa(sizes[i])
		return &htmlSection{ID: id, Title: id, Tables: htmlTables(&ids{prefix: id}, []*table.Table{tb})}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	b.open("fold", w.String(), 1280)
	type tbl struct {
		ID            string
		Rows, Visible int
		Button        string
	}
	ts := eval[[]tbl](b, `[...document.querySelectorAll("div.report")].filter(d => d.querySelector("table")).map(d => {
		const rows = [...d.querySelector("table").tBodies[0].rows];
		const button = d.querySelector("button.more");
		return { ID: d.id, Rows: rows.length, Visible: rows.filter(r => r.getBoundingClientRect().height > 0).length,
			Button: button ? button.textContent : "" }; })`)
	if len(ts) != len(sizes)-1 {
		t.Fatalf("%d tables, want %d", len(ts), len(sizes)-1)
	}
	for _, x := range ts {
		want, button := x.Rows, ""
		if x.Rows > foldRows {
			want, button = foldShow, "show all "+strconv.Itoa(x.Rows)+" rows"
		}
		if x.Visible != want || x.Button != button {
			t.Errorf("%s: %d rows, %d shown, button %q; want %d shown, button %q", x.ID, x.Rows, x.Visible, x.Button, want, button)
		}
	}
	shown := func() int {
		return eval[int](b, `[...document.querySelectorAll("#s143-t tbody tr")].filter(r => r.getBoundingClientRect().height > 0).length`)
	}
	b.click("#s143-t button.more")
	if n := shown(); n != 143 {
		t.Errorf("after a click: %d rows shown, want 143", n)
	}
	b.click("#s143-t button.more")
	if n := shown(); n != foldShow {
		t.Errorf("after a second click: %d rows shown, want %d", n, foldShow)
	}
}

// A number column (aligned right) sorts largest first on the first
// click, then smallest first; a cell without a number (unpriced, —,
// empty) is last both ways, in its order; another column sorts smallest
// first, numbers as numbers, text A to Z. A folded table shows the first
// rows of the new order.
func TestBrowserSort(t *testing.T) {
	b := newBrowser(t)
	tb := &table.Table{Name: "costs", Title: "Costs", Columns: []table.Column{{Name: "Name"}, {Name: "Cost", Right: true}, {Name: "Rank"}}}
	costs := []struct{ name, text, raw, rank string }{
		{"b", "$2.00", "2", "3"}, {"u1", "unpriced", "", "10"}, {"a", "$65.50", "65.5", "1"}, {"d", "—", "", "2"},
		{"c", "$100.25", "100.25", "20"}, {"", "", "", ""}, {"e", "$9.00", "9", "4"},
	}
	for _, c := range costs {
		tb.Add([]string{c.name, c.text, c.rank}, []string{c.name, c.raw, c.rank})
	}
	long := &table.Table{Name: "long", Columns: []table.Column{{Name: "N", Right: true}}}
	for i := range foldRows + 5 {
		long.Add([]string{strconv.Itoa(i)}, []string{strconv.Itoa(i)})
	}
	var w bytes.Buffer
	err := writeHTMLPage(&w, &htmlPage{Title: "ctxlab test"}, 1, func(int) (*htmlSection, error) {
		return &htmlSection{ID: "s", Title: "S", Tables: htmlTables(&ids{prefix: "s"}, []*table.Table{tb, long})}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	b.open("sort", w.String(), 1280)
	texts := func(id string, col int) string {
		return eval[string](b, `[...document.querySelectorAll("#`+id+` tbody tr")].map(r => r.cells[`+strconv.Itoa(col)+`].textContent).join("|")`)
	}
	visible := func(id string) string {
		return eval[string](b, `[...document.querySelectorAll("#`+id+` tbody tr")].filter(r => r.getBoundingClientRect().height > 0).map(r => r.cells[0].textContent).join("|")`)
	}
	for _, step := range []struct{ click, sort, want string }{
		{"#s-costs th:nth-child(2)", "descending", "$100.25|$65.50|$9.00|$2.00|unpriced|—|"},
		{"#s-costs th:nth-child(2)", "ascending", "$2.00|$9.00|$65.50|$100.25|unpriced|—|"},
		{"#s-costs th:nth-child(1)", "ascending", "$65.50|$2.00|$100.25|—|$9.00|unpriced|"},
		{"#s-costs th:nth-child(1)", "descending", "unpriced|$9.00|—|$100.25|$2.00|$65.50|"},
		// A column of ranks (not aligned right): smallest first, as numbers.
		{"#s-costs th:nth-child(3)", "ascending", "$65.50|—|$2.00|$9.00|unpriced|$100.25|"},
	} {
		b.click(step.click)
		if got := texts("s-costs", 1); got != step.want {
			t.Errorf("after a click on %s: %q, want %q", step.click, got, step.want)
		}
		if got := eval[string](b, `document.querySelector("`+step.click+`").getAttribute("aria-sort")`); got != step.sort {
			t.Errorf("%s: aria-sort %q, want %q", step.click, got, step.sort)
		}
	}
	if got := visible("s-long"); got != "0|1|2|3|4|5|6|7|8|9" {
		t.Errorf("folded table shows %q", got)
	}
	b.click("#s-long th")
	if got := visible("s-long"); got != "24|23|22|21|20|19|18|17|16|15" {
		t.Errorf("folded table sorted largest first shows %q", got)
	}
}

// The gate's statuses are coloured (FAIL red, pass green) and still
// spelled out.
func TestBrowserGateColours(t *testing.T) {
	b := newBrowser(t)
	f, err := budget.Parse(strings.NewReader(`{"version": 1, "limits": [
		{"name": "cost", "measure": "total_cost_usd", "max": 0.5},
		{"name": "hit", "measure": "cache_hit_ratio", "min": 0.5}]}`), "b.json", time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), nil)
	if err != nil {
		t.Fatal(err)
	}
	var samples []budget.Sample
	for _, s := range corpusload.Path(t, "../../fixtures/testdata/projects") {
		samples = append(samples, budget.SampleFromReport(accounting.Analyze(s, accounting.DefaultConfig())))
	}
	var w bytes.Buffer
	if err := Write(&w, &report.GateDocument{Result: budget.Evaluate(f, "b.json", samples, nil)}, report.Options{}); err != nil {
		t.Fatal(err)
	}
	b.open("gate", w.String(), 1280)
	type status struct{ Text, Color string }
	got := eval[[]status](b, `[...document.querySelectorAll("#gate-gate tbody tr")].map(r => ({
		Text: r.cells[0].textContent, Color: getComputedStyle(r.cells[0]).color }))`)
	want := []status{{"FAIL", "rgb(179, 38, 30)"}, {"pass", "rgb(30, 125, 50)"}}
	if !slices.Equal(got, want) {
		t.Errorf("statuses %+v, want %+v", got, want)
	}
	if font := eval[string](b, `getComputedStyle(document.body).fontFamily`); !strings.Contains(font, `"Noto Sans CJK SC"`) || !strings.Contains(font, `"Microsoft YaHei"`) {
		t.Errorf("font stack %s names no CJK font", font)
	}
}
