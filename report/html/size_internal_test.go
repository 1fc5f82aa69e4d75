package html

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/fixtures/synth"
	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/internal/testcorpus/corpusload"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/metric"
	"github.com/ctxlab/ctxlab/simulate/sweep"
)

// TestHTMLPageSizeBound: a page of many sessions stays a page a browser
// opens. The corpus is the one go run ./fixtures/gen -size writes (its
// large sessions, hundreds of calls each) and 600 more sessions (the
// fixtures' under other ids): drawn whole, the page would be about 40 MB.
// It holds the overview of every session, folded, and the sections of
// the 50 heaviest, the heaviest first; the others have a row without a
// link, and the page says so. Its size is the sections' budget and a
// little per session (its overview row and, for the kept ones, its
// contents entry), whatever the number of sessions.
func TestHTMLPageSizeBound(t *testing.T) {
	dir := t.TempDir()
	if _, err := synth.WriteCorpus(dir, 6<<20, 1, nil); err != nil {
		t.Fatal(err)
	}
	generated := corpusload.Path(t, dir)
	fixtures := corpusload.Path(t, "../../fixtures/testdata/projects")
	obs, err := policies.Parse("observed")
	if err != nil {
		t.Fatal(err)
	}
	var reps []*accounting.Report
	var sims []*simulate.Result
	add := func(rep *accounting.Report, sim *simulate.Result) {
		reps, sims = append(reps, rep), append(sims, sim)
	}
	for _, s := range generated {
		add(accounting.Analyze(s, accounting.DefaultConfig()), simulate.Run(simulate.Prepare(s), obs, simulate.DefaultConfig()))
	}
	const copies = 150
	for _, s := range fixtures {
		rep := accounting.Analyze(s, accounting.DefaultConfig())
		sim := simulate.Run(simulate.Prepare(s), obs, simulate.DefaultConfig())
		for i := range copies {
			r := *rep
			r.Summary.ID = fmt.Sprintf("%s-copy%03d", rep.Summary.ID, i)
			add(&r, sim)
		}
	}
	doc := report.NewDocument(reps, accounting.DefaultConfig().Prices, nil)
	heaviest := ""
	var most int64
	for i, s := range doc.Sessions {
		s.Simulation = sims[i]
		if n := reportTokens(s.Report); n > most {
			heaviest, most = s.Summary.ID, n
		}
	}
	var w bytes.Buffer
	if err := Write(&w, doc, report.Options{Format: report.HTML}); err != nil {
		t.Fatal(err)
	}
	page := w.String()
	n := len(doc.Sessions)
	if bound := sectionBudget + 2<<10*n + 256<<10; len(page) > bound {
		t.Errorf("%d sessions: a page of %.1f MB, more than the %.1f MB bound", n, float64(len(page))/(1<<20), float64(bound)/(1<<20))
	}
	sections := regexp.MustCompile(`<section class="detail" id="(session-\d+|total)">\n<h2>([^<]*)</h2>`).FindAllStringSubmatch(page, -1)
	if len(sections) != maxSections+1 || sections[len(sections)-1][1] != "total" {
		t.Fatalf("%d sections, want %d sessions' and the total", len(sections), maxSections)
	}
	if !slices.ContainsFunc(sections, func(s []string) bool { return strings.Contains(s[2], heaviest) }) {
		t.Errorf("the heaviest session, %s, has no section", heaviest)
	}
	left := fmt.Sprintf("sections for %d of the %d sessions, those with the most tokens; the other %d are only in the overview, without a link", maxSections, n, n-maxSections)
	if strings.Count(page, left) != 2 { // the head and the contents
		t.Errorf("the page does not say what it left out (%q)", left)
	}
	links := regexp.MustCompile(`<td><a href="#session-\d+">`).FindAllString(page, -1)
	if len(links) != maxSections || !strings.Contains(page, `<table class="sortable folded">`) || !strings.Contains(page, fmt.Sprintf("show all %d rows", n)) {
		t.Errorf("the overview: %d links, folded %v", len(links), strings.Contains(page, fmt.Sprintf("show all %d rows", n)))
	}
}

// TestHTMLCompareSections: compare's page keeps the sections of the
// sessions with the most tokens under its first policy, as replay's does,
// and says so; every session keeps its overview row.
func TestHTMLCompareSections(t *testing.T) {
	specs := []string{"observed", "none"}
	var runs []*report.Compared
	for _, s := range corpusload.Path(t, "../../fixtures/testdata/projects") {
		tr := simulate.Prepare(s)
		var res []*simulate.Result
		for _, spec := range specs {
			p, err := policies.Parse(spec)
			if err != nil {
				t.Fatal(err)
			}
			res = append(res, simulate.Run(tr, p, simulate.DefaultConfig()))
		}
		c := report.NewCompared(s, res, false)
		for i := range 15 {
			cc := *c
			cc.ID = fmt.Sprintf("%s-copy%02d", c.ID, i)
			runs = append(runs, &cc)
		}
	}
	doc := report.NewCompareDocument(specs, runs, nil, accounting.DefaultConfig().Prices, nil)
	var w bytes.Buffer
	if err := Write(&w, doc, report.Options{Format: report.HTML}); err != nil {
		t.Fatal(err)
	}
	page := w.String()
	n := len(runs)
	if got := strings.Count(page, `<section class="detail" id="session-`); got != maxSections {
		t.Errorf("%d session sections of %d sessions, want %d", got, n, maxSections)
	}
	left := fmt.Sprintf("sections for %d of the %d sessions, those with the most tokens under observed; the other %d are only in the overview", maxSections, n, n-maxSections)
	if strings.Count(page, left) != 2 || !strings.Contains(page, "ctxlab compare --session ID --format html with the same policies") {
		t.Errorf("the page does not say what it left out (%q)", left)
	}
	if !strings.Contains(page, fmt.Sprintf("show all %d rows", n)) {
		t.Error("the overview is not folded")
	}
}

// TestHTMLSweepRowsBound: sweep's table of every point and session
// holds its first maxSweepRows rows and says how many there are.
func TestHTMLSweepRowsBound(t *testing.T) {
	points := []sweep.Point{{Spec: "keep-last-n:n=2", Base: "keep-last-n", Values: map[string]string{"n": "2"}}, {Spec: "keep-last-n:n=8", Base: "keep-last-n", Values: map[string]string{"n": "8"}}}
	var rows []sweep.Row
	var inputs []report.SweepInput
	const copies = maxSweepRows/8 + 1
	for _, s := range corpusload.Path(t, "../../fixtures/testdata/projects") {
		tr := simulate.Prepare(s)
		var ms []simulate.Metrics
		for _, pt := range points {
			c, err := policies.Compile(pt.Spec)
			if err != nil {
				t.Fatal(err)
			}
			ms = append(ms, c.Run(tr, simulate.DefaultConfig()).Metrics)
		}
		for i := range copies {
			id := fmt.Sprintf("%s-copy%04d", s.ID, i)
			inputs = append(inputs, report.SweepInput{Path: id + ".jsonl"})
			for p, m := range ms {
				rows = append(rows, sweep.Row{Point: p, Session: id, Project: s.Project, Metrics: m})
			}
		}
	}
	obj, _ := metric.Lookup("total_cost_usd")
	grid := report.SweepGrid{Policies: []string{"keep-last-n"}, Vary: []sweep.Vary{{Param: "n", Values: []string{"2", "8"}}}, Points: points}
	doc := report.NewSweepDocument("test", grid, obj, nil, nil, inputs, rows, nil)
	var w bytes.Buffer
	if err := Write(&w, doc, report.Options{Format: report.HTML}); err != nil {
		t.Fatal(err)
	}
	page := w.String()
	i := strings.Index(page, `id="rows-sweep_rows"`)
	if i < 0 {
		t.Fatal("no table of every point and session")
	}
	if n := strings.Count(page[i:], "<tr>") - 1; n != maxSweepRows {
		t.Errorf("%d rows shown of %d, want %d", n, len(rows), maxSweepRows)
	}
	if want := fmt.Sprintf("the first %s of the %s rows", numtext.Int(maxSweepRows), numtext.Int(len(rows))); !strings.Contains(page, want) {
		t.Errorf("the page does not say %q", want)
	}
}
