package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/ctxlab/ctxlab/internal/htmlcheck"
	"github.com/ctxlab/ctxlab/internal/testcorpus"
)

// htmlPage is one command's HTML report and what a reader must find in
// it.
type htmlPage struct {
	name     string // the command
	on       string // the input, when not the fixtures
	args     []string
	code     int
	sessions []string // listed in the overview, in order
	charts   int
	sortable string // a table the test sorts by a click on a column
	sortCol  int    // that column (from 0), one of numbers (aligned right)
}

func (p htmlPage) label() string {
	if p.on == "" {
		return p.name
	}
	return p.name + "-" + p.on
}

// sessionIDs are the ids of the sessions replay reads in dir, in order.
func sessionIDs(t *testing.T, dir string) []string {
	t.Helper()
	out, _, code := ctxlab(t, "", nil, "replay", "--format", "json", dir)
	if code != exitOK {
		t.Fatalf("replay --format json %s: exit %d", dir, code)
	}
	var doc struct {
		Sessions []struct {
			Summary struct{ ID string } `json:"summary"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range doc.Sessions {
		ids = append(ids, s.Summary.ID)
	}
	return ids
}

// overviewIDs are the sessions of the terminal's overview of dir (its
// CSV stream), in its order: oldest first.
func overviewIDs(t *testing.T, dir string) []string {
	t.Helper()
	out, _, code := ctxlab(t, "", nil, "replay", "--format", "csv", dir)
	if code != exitOK {
		t.Fatalf("replay --format csv %s: exit %d", dir, code)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) == 0 {
		t.Fatalf("replay --format csv %s: %v", dir, err)
	}
	col := slices.Index(rows[0], "session")
	var ids []string
	for _, r := range rows[1:] {
		ids = append(ids, r[col])
	}
	return ids
}

// htmlPages runs every command that writes HTML on the fixtures and, when
// they are beside the project, on the real transcripts.
func htmlPages(t *testing.T) []htmlPage {
	t.Helper()
	ids := sessionIDs(t, fixtures)
	// replay's overview runs oldest first, as the terminal's; compare's
	// in input order, as the terminal's.
	byDate := overviewIDs(t, fixtures)
	budget, baseline := "../../docs/examples/budget.json", "../../docs/examples/gate-baseline.json"
	pages := []htmlPage{
		// Per session: context, cost, cache (the observed run), tokens and
		// duplicates; the total: tokens and duplicates.
		{name: "replay", args: []string{"replay", fixtures}, sessions: byDate, charts: 4*5 + 2, sortable: "overview-sessions", sortCol: 3},
		// Per session: context, cost, a cache plot per policy; the total:
		// the cost by policy.
		{name: "compare", args: []string{"compare", fixtures}, sessions: ids, charts: 4*4 + 1, sortable: "overview-sessions", sortCol: 4},
		{name: "gate", args: []string{"gate", "--budget", budget, "--baseline", baseline, fixtures}, code: exitInput, sortable: "gate-gate", sortCol: 8},
		// One swept parameter: one chart.
		{name: "sweep", args: []string{"sweep", "--policy", "keep-last-n", "--vary", "n=2,4,8", fixtures}, charts: 1, sortable: "points-sweep", sortCol: 3},
		{name: "policies", args: []string{"policies"}},
		// One session, three policies: context, cost, three cache plots;
		// no total section. --calls adds the folded per-call tables.
		{name: "compare", on: "demo", args: []string{"compare", "--fidelity", "--calls", "--policy", "observed,claude-code,keep-last-n:n=3", demo},
			sessions: ids[:1], charts: 5, sortable: "overview-sessions", sortCol: 4},
	}
	if real, ok := testcorpus.Path(testcorpus.Realdata); ok {
		ids := sessionIDs(t, real)
		pages = append(pages,
			htmlPage{name: "replay", on: "realdata", args: []string{"replay", real}, sessions: overviewIDs(t, real), charts: len(ids)*5 + 2, sortable: "overview-sessions", sortCol: 5},
			htmlPage{name: "compare", on: "realdata", args: []string{"compare", real}, sessions: ids, charts: len(ids)*4 + 1, sortable: "overview-sessions", sortCol: 4})
	}
	return pages
}

func renderHTML(t *testing.T, p htmlPage) string {
	t.Helper()
	out, errOut, code := ctxlab(t, "", nil, append(p.args, "--format", "html")...)
	if code != p.code {
		t.Fatalf("%s --format html: exit %d, want %d: %s", p.name, code, p.code, errOut)
	}
	return out
}

// TestHTMLReports checks each command's HTML report as text: one
// self-contained document whose links resolve, every session listed and
// linked, as many charts as expected, the same bytes on a second run.
func TestHTMLReports(t *testing.T) {
	for _, p := range htmlPages(t) {
		t.Run(p.label(), func(t *testing.T) {
			page := renderHTML(t, p)
			if again := renderHTML(t, p); again != page {
				t.Error("a second run writes different bytes")
			}
			if !strings.HasPrefix(page, "<!DOCTYPE html>") || !strings.HasSuffix(page, "</html>\n") {
				t.Error("not one HTML document")
			}
			if err := htmlcheck.SelfContained(page); err != nil {
				t.Error(err)
			}
			if _, err := htmlcheck.Anchors(page); err != nil {
				t.Error(err)
			}
			if n := strings.Count(page, "<svg"); n != p.charts {
				t.Errorf("%d charts, want %d", n, p.charts)
			}
			if p.sessions == nil {
				return
			}
			rows, _, err := htmlcheck.Table(page, "overview-sessions")
			if err != nil {
				t.Fatal(err)
			}
			var listed []string
			for _, r := range rows {
				listed = append(listed, r[0].Text)
			}
			if !slices.Equal(listed, p.sessions) {
				t.Errorf("overview lists %q, want %q", listed, p.sessions)
			}
		})
	}
}

// TestHTMLFormatErrors: html is one of the formats, and a typo names it.
func TestHTMLFormatErrors(t *testing.T) {
	_, errOut, code := ctxlab(t, "", nil, "replay", "--format", "htm", fixtures)
	if code != exitUsage || !strings.Contains(errOut, "want one of table, json, csv, markdown, html") {
		t.Errorf("--format htm: exit %d, %q", code, errOut)
	}
}

// browserTestsEnv, set to 1 (as .ci/run does), makes the browser test
// fail instead of skip when Chromium is missing.
const browserTestsEnv = "CTXLAB_BROWSER_TESTS"

// chromium finds headless Chromium (Debian's chromium package).
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "chromium not found on PATH: the HTML report's browser test needs Debian's chromium package (apt-get install chromium)"
	if os.Getenv(browserTestsEnv) == "1" {
		t.Fatalf("%s; %s=1 requires it", msg, browserTestsEnv)
	}
	t.Skip(msg + "; skipped (CI installs it and sets " + browserTestsEnv + "=1)")
	return ""
}

// seen is what a page showed a reader in the browser.
type seen struct {
	Title    string `json:"title"`
	Sessions []struct {
		Text, Href string
		Target     bool
		Height     float64
	} `json:"sessions"`
	Charts []struct {
		Width, Height float64
		Marks         int
	} `json:"charts"`
}

const seeJS = `(() => {
  const sessions = [...document.querySelectorAll("#overview-sessions tbody tr")].map(r => {
    const a = r.cells[0].querySelector("a");
    const href = a ? a.getAttribute("href") : "";
    return { Text: r.cells[0].textContent, Href: href,
      Target: href.startsWith("#") && document.getElementById(href.slice(1)) !== null,
      Height: r.getBoundingClientRect().height };
  });
  const charts = [...document.querySelectorAll("svg")].map(s => {
    const b = s.getBoundingClientRect();
    return { Width: b.width, Height: b.height, Marks: s.querySelectorAll("path, text").length };
  });
  return { title: document.title, sessions, charts };
})()`

// column reads the sort values (data-v, else the text) of a table's
// column and its header's aria-sort.
func column(id string, col int) string {
	return fmt.Sprintf(`(() => {
  const t = document.getElementById(%q).querySelector("table");
  return { sort: t.tHead.rows[0].cells[%d].getAttribute("aria-sort") || "",
    values: [...t.tBodies[0].rows].map(r => { const c = r.cells[%d]; return c.dataset.v !== undefined ? c.dataset.v : c.textContent; }) };
})()`, id, col, col)
}

type sorted struct {
	Sort   string   `json:"sort"`
	Values []string `json:"values"`
}

// ordered reports whether the values of a number column are in order,
// the cells without a number (unpriced, —) after every number.
func ordered(values []string, desc bool) bool {
	var prev float64
	for i, v := range values {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return !slices.ContainsFunc(values[i:], func(v string) bool {
				_, err := strconv.ParseFloat(v, 64)
				return err == nil
			})
		}
		if i > 0 && (desc && x > prev || !desc && x < prev) {
			return false
		}
		prev = x
	}
	return true
}

// TestHTMLInBrowser opens each command's HTML report in headless Chromium
// and checks what a reader sees: every session listed and its link
// leading to its section, every chart drawn at a nonzero size, no console
// error, no request leaving the file, and a click on a number column's
// header sorting the table by it, largest first (again: the other way).
func TestHTMLInBrowser(t *testing.T) {
	exe := chromium(t)
	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]),
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.WindowSize(1280, 1024))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	browser, cancelBrowser := chromedp.NewContext(allocCtx)
	defer cancelBrowser()
	if err := chromedp.Do(browser); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	dir := t.TempDir()
	for _, p := range htmlPages(t) {
		t.Run(p.label(), func(t *testing.T) {
			file := filepath.Join(dir, p.label()+".html")
			if err := os.WriteFile(file, []byte(renderHTML(t, p)), 0o644); err != nil {
				t.Fatal(err)
			}
			tab, cancel := chromedp.NewContext(browser)
			defer cancel()
			var mu sync.Mutex
			var problems []string
			report := func(format string, a ...any) {
				mu.Lock()
				problems = append(problems, fmt.Sprintf(format, a...))
				mu.Unlock()
			}
			err := chromedp.Listen(tab, func(ev any) {
				switch ev := ev.(type) {
				case *runtime.EventConsoleAPICalled:
					if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
						var args []string
						for _, a := range ev.Args {
							args = append(args, string(a.Value)+a.Description)
						}
						report("console %s: %s", ev.Type, strings.Join(args, " "))
					}
				case *runtime.EventExceptionThrown:
					report("exception: %s", ev.ExceptionDetails.Text)
				case *cdplog.EventEntryAdded:
					if ev.Entry.Level == cdplog.EntryLevelError {
						report("log %s: %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL)
					}
				case *network.EventRequestWillBeSent:
					if u := ev.Request.URL; !strings.HasPrefix(u, "file://") && !strings.HasPrefix(u, "data:") {
						report("request to %s", u)
					}
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancelTimeout := context.WithTimeout(tab, 90*time.Second)
			defer cancelTimeout()
			err = firstErr(
				call(ctx, network.Enable, network.EnableParams{}),
				call(ctx, cdplog.Enable, cdp.Empty{}),
				call(ctx, runtime.Enable, cdp.Empty{}),
				chromedp.Do(ctx, chromedp.Navigate("file://"+file), chromedp.WaitReady(chromedp.CSS("body"))),
			)
			if err != nil {
				t.Fatal(err)
			}
			got, err := chromedp.Run(ctx, chromedp.Evaluate[seen](seeJS))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(got.Title, "ctxlab "+p.name) {
				t.Errorf("title %q", got.Title)
			}
			if p.sessions != nil {
				var listed []string
				for i, s := range got.Sessions {
					listed = append(listed, s.Text)
					if !s.Target || s.Height <= 0 {
						t.Errorf("session %s: link %q resolves %v, row height %v", s.Text, s.Href, s.Target, s.Height)
					}
					if want := "#session-" + strconv.Itoa(i+1); s.Href != want {
						t.Errorf("session %s links to %q, want %q", s.Text, s.Href, want)
					}
				}
				if !slices.Equal(listed, p.sessions) {
					t.Errorf("the reader sees sessions %q, want %q", listed, p.sessions)
				}
			}
			if len(got.Charts) != p.charts {
				t.Errorf("%d charts drawn, want %d", len(got.Charts), p.charts)
			}
			for i, c := range got.Charts {
				if c.Width <= 0 || c.Height <= 0 || c.Marks == 0 {
					t.Errorf("chart %d: %v×%v px, %d marks", i+1, c.Width, c.Height, c.Marks)
				}
			}
			if p.sortable != "" {
				checkSort(t, ctx, p.sortable, p.sortCol)
			}
			// Let late events (a failed load, a script error) arrive.
			_ = chromedp.Do(ctx, chromedp.Sleep(100*time.Millisecond))
			mu.Lock()
			defer mu.Unlock()
			for _, pr := range problems {
				t.Error(pr)
			}
		})
	}
}

// call runs a protocol command whose result the test does not need.
func call[P, R any](ctx context.Context, cmd cdp.Command[P, R], params P) error {
	_, err := chromedp.Call(ctx, cmd, params)
	return err
}

// checkSort clicks the header of column col (of numbers) of the table in
// element id twice: largest first, then smallest first.
func checkSort(t *testing.T, ctx context.Context, id string, col int) {
	t.Helper()
	header := fmt.Sprintf("#%s thead th:nth-child(%d)", id, col+1)
	for _, dir := range []string{"descending", "ascending"} {
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(header))); err != nil {
			t.Fatalf("clicking %s: %v", header, err)
		}
		s, err := chromedp.Run(ctx, chromedp.Evaluate[sorted](column(id, col)))
		if err != nil {
			t.Fatalf("reading %s: %v", id, err)
		}
		if s.Sort != dir || !ordered(s.Values, dir == "descending") {
			t.Errorf("%s after a click: aria-sort %q, values %q; want %s", id, s.Sort, s.Values, dir)
		}
	}
}
