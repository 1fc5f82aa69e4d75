// Package html writes a document as one self-contained HTML page: its
// styles, its sorting script and its charts (inline SVG from report/plots)
// are all inside, so that nothing is fetched when it is opened. It draws
// the same tables as the text formats (report/view); html/template escapes
// every text taken from the transcripts.
package html

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/table"
	"github.com/ctxlab/ctxlab/report/view"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/report/plots"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/budget"
	"github.com/ctxlab/ctxlab/simulate/metric"
)

// Write writes a document's page.
func Write(w io.Writer, d report.Doc, opt report.Options) error {
	switch d := d.(type) {
	case *report.Document:
		return writeHTML(w, d, opt)
	case *report.CompareDocument:
		return writeCompareHTML(w, d, opt)
	case *report.GateDocument:
		return writeGateHTML(w, d.Result, d.Baseline)
	case *report.SweepDocument:
		return writeSweepHTML(w, d)
	case *report.PolicyList:
		return writePoliciesHTML(w, d)
	}
	return fmt.Errorf("html: unknown document %T", d)
}

//go:embed html.tmpl
var htmlSource string

var htmlTemplate = template.Must(template.New("html").Parse(htmlSource))

// Folding, one rule for every table: a table with more than foldRows
// rows shows its first foldShow (after a sort, the first of the new
// order) and a button that shows them all. Printed, or without scripts,
// every row shows.
const (
	foldRows = 20
	foldShow = 10
)

// A page of many sessions holds the sections of the heaviest only, so
// that a browser opens it whatever the input: at most maxSections
// sessions, the heaviest first, while their sections add up to at most
// sectionBudget bytes (the heaviest is always there). Every session keeps
// its row in the overview; the page says how many have no section.
const (
	maxSections   = 50
	sectionBudget = 8 << 20
	// maxSweepRows bounds sweep's table of every point and session (a
	// grid of 100 points over 5,000 sessions has 500,000; 2,000 rows of its
	// 40 columns, a cell and its sort key each, are about 3 MB).
	maxSweepRows = 2000
)

// htmlPage is the head of a report: its title, what it covers, the
// overview and the table of contents. The sections follow it one by one.
type htmlPage struct {
	Title    string
	Lines    []string
	Verdict  *htmlVerdict
	Errors   []string
	Overview *htmlTable
	Links    []htmlLink
	// LeftOut says which sessions have no section, under the contents.
	LeftOut string
}

// FoldShow is the number of rows a folded table shows, and FoldFrom the
// first row it hides, for the style sheet and the script.
func (*htmlPage) FoldShow() int { return foldShow }
func (*htmlPage) FoldFrom() int { return foldShow + 1 }

type htmlVerdict struct {
	Pass bool
	Text string
}

type htmlLink struct{ Href, Text string }

// htmlSection is one part of the report: a session, the total, a study's
// totals. Its id is the anchor the overview and contents link to.
type htmlSection struct {
	ID, Title string
	Lines     []string
	Tables    []htmlTable
	Diff      []htmlDiffLine
	Charts    []htmlChart
}

type htmlDiffLine struct{ Class, Text string }

type htmlTable struct {
	ID, Title, Note string
	Columns         []htmlColumn
	Rows, Foot      [][]htmlCell
	Empty           string
	Fold            bool
}

type htmlColumn struct {
	Name  string
	Right bool
}

// htmlCell is a cell as printed; Value, when set, is the number it sorts
// by (the raw value of the CSV output); Class styles it: "path" (a file
// path, which may wrap anywhere), or a gate status ("fail", "pass").
type htmlCell struct {
	Text, Value, Href, Class string
	Right                    bool
}

type htmlChart struct {
	ID, Title string
	SVG       template.HTML
}

// writeHTMLPage writes the page's head, then each of n sections as
// section(i) builds it, so that only one section's charts are held at a
// time, then the end of the page.
func writeHTMLPage(w io.Writer, page *htmlPage, n int, section func(i int) (*htmlSection, error)) error {
	return writeHTMLParts(w, page, n, func(w io.Writer, i int) error {
		sec, err := section(i)
		if err != nil {
			return err
		}
		return htmlTemplate.ExecuteTemplate(w, "section", sec)
	})
}

// writeHTMLParts writes the page's head, each of n parts of its body,
// then the end of the page.
func writeHTMLParts(w io.Writer, page *htmlPage, n int, part func(w io.Writer, i int) error) error {
	if err := htmlTemplate.ExecuteTemplate(w, "head", page); err != nil {
		return err
	}
	for i := range n {
		if err := part(w, i); err != nil {
			return err
		}
	}
	return htmlTemplate.ExecuteTemplate(w, "foot", page)
}

// pickSections chooses the sessions (0 to n-1, in the overview's order)
// that get a section: the heaviest first (weight, ties in that order), at
// most maxSections, while their sections, drawn by section, add up to at
// most sectionBudget bytes; the heaviest always gets one. It returns each
// chosen session's section, drawn (nil for the others), to be written in
// the overview's order: only the chosen sections' bytes are held.
func pickSections(n int, weight func(k int) int64, section func(k int) (*htmlSection, error)) ([][]byte, int, error) {
	order := make([]int, n)
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmpDesc(weight(a), weight(b)) })
	out := make([][]byte, n)
	kept, size := 0, 0
	for _, k := range order {
		if kept == maxSections {
			break
		}
		sec, err := section(k)
		if err != nil {
			return nil, 0, err
		}
		var b bytes.Buffer
		if err := htmlTemplate.ExecuteTemplate(&b, "section", sec); err != nil {
			return nil, 0, err
		}
		if kept > 0 && size+b.Len() > sectionBudget {
			break
		}
		out[k], kept, size = b.Bytes(), kept+1, size+b.Len()
	}
	return out, kept, nil
}

func cmpDesc(a, b int64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// leftOutText says which sessions have no section, when some have none:
// for the page's head and under its contents. heaviest says what made
// the kept ones heaviest; how, how to see any one in full.
func leftOutText(kept, n int, heaviest, how string) string {
	if kept == n {
		return ""
	}
	return fmt.Sprintf("sections for %s of the %s sessions, those with the most tokens%s; the other %s only in the overview, without a link "+
		"(a page holds at most %d sections and %d MB of them, so that a browser opens it): --format json has every session, and %s shows one in full",
		numtext.Int(kept), numtext.Int(n), heaviest, numtext.Count(n-kept, "is", "are"), maxSections, sectionBudget>>20, how)
}

// ids gives each table of a section a unique anchor.
type ids struct {
	prefix string
	used   map[string]int
}

func (d *ids) next(name string) string {
	if d.used == nil {
		d.used = map[string]int{}
	}
	d.used[name]++
	id := d.prefix + "-" + name
	if n := d.used[name]; n > 1 {
		id += "-" + strconv.Itoa(n)
	}
	return id
}

// htmlTables converts tables for HTML, each with its anchor.
func htmlTables(d *ids, ts []*table.Table) []htmlTable {
	out := make([]htmlTable, len(ts))
	for i, t := range ts {
		out[i] = htmlTableOf(t, d.next(t.Name))
	}
	return out
}

func htmlTableOf(t *table.Table, id string) htmlTable {
	t = t.Shown()
	h := htmlTable{ID: id, Title: t.Title, Note: t.NoteText(), Empty: t.Empty}
	if h.Empty == "" {
		h.Empty = "none"
	}
	for _, c := range t.Columns {
		h.Columns = append(h.Columns, htmlColumn{Name: c.Name, Right: c.Right})
	}
	for _, r := range t.Rows {
		row := make([]htmlCell, len(r))
		for j, c := range r {
			row[j] = htmlCell{Text: c.Text, Value: c.Number(), Right: j < len(t.Columns) && t.Columns[j].Right}
			if c.Path || j < len(t.Columns) && t.Columns[j].Kind == table.Path {
				row[j].Class = "path"
			}
		}
		h.Rows = append(h.Rows, row)
	}
	// Lists fold; a record's fields (a key/value table) never do: its
	// rows are one thing, the last as needed as the first.
	h.Fold = len(h.Rows) > foldRows && !t.KeyValue
	return h
}

// svgRoot matches the XML prologue before the <svg> element and the
// namespace declarations HTML does not need: an inline <svg> is in the SVG
// namespace by the HTML parser's rules.
var (
	svgProlog = regexp.MustCompile(`(?s)\A.*?(<svg\b)`)
	svgXmlns  = regexp.MustCompile(`\s+xmlns(:xlink)?="[^"]*"`)
)

// htmlCharts draws plot files as inline SVG, their anchors prefixed.
func htmlCharts(prefix string, files []plots.File) ([]htmlChart, error) {
	out := make([]htmlChart, 0, len(files))
	for i, f := range files {
		svg, err := inlineSVG(f.Figure)
		if err != nil {
			return nil, fmt.Errorf("chart %s: %w", f.Name, err)
		}
		out = append(out, htmlChart{ID: prefix + "-chart-" + strconv.Itoa(i+1), Title: f.Figure.Title, SVG: svg})
	}
	return out, nil
}

// inlineSVG is a figure as an <svg> element to put in an HTML document.
// gonum's SVG backend escapes every text it draws (xml.Escape), so the
// element is safe to insert as is.
func inlineSVG(f *plots.Figure) (template.HTML, error) {
	var b bytes.Buffer
	if err := f.Write(&b, "svg"); err != nil {
		return "", err
	}
	s := svgProlog.ReplaceAllString(b.String(), "$1")
	end := strings.IndexByte(s, '>')
	if !strings.HasPrefix(s, "<svg") || end < 0 {
		return "", fmt.Errorf("the SVG backend wrote no <svg> element")
	}
	open := svgXmlns.ReplaceAllString(s[:end], "")
	label := template.HTMLEscapeString(f.Title)
	return template.HTML(open + ` role="img" aria-label="` + label + `"` + strings.TrimRight(s[end:], "\n")), nil
}

// sessionAnchor is the anchor of the i-th session's section.
func sessionAnchor(i int) string { return "session-" + strconv.Itoa(i+1) }

func sessionTitle(id, project string) string {
	if project == "" {
		return "Session " + id
	}
	return "Session " + id + " (" + project + ")"
}

// dateText shows an RFC 3339 time as "2026-01-02 15:04" (UTC).
func dateText(stamp string) string {
	s := strings.Replace(stamp, "T", " ", 1)
	if len(s) > 16 {
		s = s[:16]
	}
	return s
}

func cell(text, value string) htmlCell {
	return htmlCell{Text: text, Value: value, Right: value != ""}
}

func intCell[T ~int | ~int64](n T) htmlCell {
	return cell(numtext.Int(n), strconv.FormatInt(int64(n), 10))
}

// lowerCell is a count that is a lower bound when lower (it rests on
// placeholder output counts): marked ≥, sorted by its number.
func lowerCell[T ~int | ~int64](n T, lower bool) htmlCell {
	c := intCell(n)
	if lower {
		c.Text = "≥" + c.Text
	}
	return c
}

// Overview columns shared by replay's and compare's.
var overviewColumns = []htmlColumn{{Name: "Session"}, {Name: "Date"}, {Name: "Project"},
	{Name: "Calls", Right: true}, {Name: "Tokens", Right: true}, {Name: "Cost", Right: true},
	{Name: "Compactions", Right: true}, {Name: "Cache hit", Right: true}}

// overviewRow is a report's line of the overview: its first call's date,
// API calls, tokens (input, cache writes, cache reads and output), cost,
// compaction events and cache hit ratio. Values are exactly the JSON
// document's (rawFloat prints a float as JSON does).
func overviewRow(r *accounting.Report, name, href, date, dateValue string) []htmlCell {
	u := r.Usage.Total
	tokens := reportTokens(r)
	cost := cell(view.CostText(r.Summary.Cost, u.Unpriced, u.Calls, u.OutputLowerBound), strconv.FormatFloat(r.Summary.Cost, 'f', -1, 64))
	if u.Unpriced > 0 && u.Unpriced == u.Calls {
		cost.Value = ""
	}
	return []htmlCell{
		{Text: name, Href: href}, {Text: date, Value: dateValue}, {Text: r.Summary.Project},
		intCell(r.Summary.Calls), lowerCell(tokens, u.OutputLowerBound), cost, intCell(len(r.Compactions)),
		hitCell(u.Calls, r.Usage.HitRatio),
	}
}

// hitCell is a cache hit ratio; blank for a session without a call (a
// ratio of nothing, not 0%).
func hitCell(calls int, hit float64) htmlCell {
	if calls == 0 {
		return cell("", "")
	}
	return cell(numtext.Pct(hit*100), strconv.FormatFloat(hit, 'f', -1, 64))
}

// writeHTML writes replay's report: the overview (oldest session first,
// as in the terminal), then each session's
// detail (the sections of opt.Sections, never cut by Top, and the charts
// of its run and accounting), then with several sessions the total. With
// many sessions only the heaviest have a section (pickSections).
func writeHTML(w io.Writer, doc *report.Document, opt report.Options) error {
	opt.Top = 0
	if doc.By != "" {
		return writeGroupsHTML(w, doc, opt)
	}
	page := &htmlPage{
		Title:  "ctxlab replay: " + numtext.Count(len(doc.Sessions), "session", "sessions"),
		Lines:  []string{"prices of " + doc.Prices.Date + " (" + doc.Prices.Source + ")"},
		Errors: doc.Errors,
	}
	order := overviewOrder(doc, opt)
	secs, kept, err := pickSections(len(order), func(k int) int64 { return reportTokens(doc.Sessions[order[k]].Report) }, func(k int) (*htmlSection, error) {
		s := doc.Sessions[order[k]]
		return replaySection(sessionAnchor(k), sessionTitle(s.Summary.ID, s.Summary.Project), s.Report, s.Simulation, s.Recorded, opt, func() []plots.File {
			var runs []*simulate.Result
			if s.Simulation != nil && opt.Wants("simulation") {
				runs = []*simulate.Result{s.Simulation}
			}
			rep := s.Report
			if !opt.Wants("tokens") && !opt.Wants("duplicates") {
				rep = nil
			}
			return plots.SessionFiles(s.Summary.ID, runs, rep, "svg", plots.Options{})
		})
	})
	if err != nil {
		return err
	}
	ov := &htmlTable{ID: "overview-sessions", Columns: overviewColumns, Empty: "no session could be read"}
	for k, i := range order {
		s := doc.Sessions[i]
		href := ""
		if secs[k] != nil {
			href = "#" + sessionAnchor(k)
			page.Links = append(page.Links, htmlLink{href, sessionTitle(s.Summary.ID, s.Summary.Project)})
		}
		ov.Rows = append(ov.Rows, overviewRow(s.Report, s.Summary.ID, href, dateText(s.Summary.Start.String()), s.Summary.Start.String()))
	}
	ov.Fold = len(ov.Rows) > foldRows
	page.LeftOut = leftOutText(kept, len(order), "", "ctxlab replay --session ID --format html")
	if page.LeftOut != "" {
		page.Lines = append(page.Lines, page.LeftOut)
	}
	multi := len(doc.Sessions) > 1
	if doc.Total != nil && len(doc.Sessions) > 0 {
		t := doc.Total.Summary
		span := ""
		if t.Start != 0 {
			span = t.Start.UTC().Format(time.DateOnly) + " – " + t.End.UTC().Format(time.DateOnly)
		}
		href := ""
		if multi {
			href = "#total"
			page.Links = append(page.Links, htmlLink{"#total", "All " + numtext.Int(t.Sessions) + " sessions"})
		}
		ov.Foot = [][]htmlCell{overviewRow(doc.Total, "all "+numtext.Count(t.Sessions, "session", "sessions"), href, span, t.Start.String())}
	}
	ov.Note = "tokens: input + cache writes + cache reads + output; compactions: the events of the compaction timeline; cache hit: read / (input + write + read)"
	if doc.Total != nil {
		if lb := view.LowerBoundNote(doc.Total.Usage.Total.OutputLowerBound, doc.Total.Usage.Total.Unpriced); lb != "" {
			ov.Note += "; " + lb
		}
	}
	page.Overview = ov
	return writeHTMLParts(w, page, len(secs)+1, func(w io.Writer, k int) error {
		if k < len(secs) {
			_, err := w.Write(secs[k]) // nothing for a session without a section
			return err
		}
		if !multi {
			return nil
		}
		sec, err := replaySection("total", "All "+numtext.Int(doc.Total.Summary.Sessions)+" sessions", doc.Total, nil, nil, opt, func() []plots.File {
			return plots.TotalFiles(doc.Total, "svg", plots.Options{})
		})
		if err != nil {
			return err
		}
		return htmlTemplate.ExecuteTemplate(w, "section", sec)
	})
}

// reportTokens is a session's tokens as the overview counts them: input,
// cache writes, cache reads and output.
func reportTokens(r *accounting.Report) int64 {
	return r.Usage.Total.Usage().Total()
}

// overviewOrder is the order of the terminal's overview (oldest first,
// accounting.Overview), as indexes into doc.Sessions: the overview, the
// contents and the sections follow it.
func overviewOrder(doc *report.Document, opt report.Options) []int {
	reps := make([]*accounting.Report, len(doc.Sessions))
	for i, s := range doc.Sessions {
		reps[i] = s.Report
	}
	lines := accounting.Overview(reps, opt.Location)
	order := make([]int, len(lines))
	for k, l := range lines {
		order[k] = l.Index
	}
	return order
}

func replaySection(id, title string, rep *accounting.Report, sim *simulate.Result, rec *simulate.Metrics, opt report.Options, files func() []plots.File) (*htmlSection, error) {
	ts := view.SessionTables(rep, sim, rec, opt)
	d := &ids{prefix: id}
	sec := &htmlSection{ID: id, Title: title, Tables: htmlTables(d, ts)}
	var err error
	if opt.Wants("tokens") || opt.Wants("duplicates") || (sim != nil && opt.Wants("simulation")) {
		sec.Charts, err = htmlCharts(id, files())
	}
	return sec, err
}

// writeGroupsHTML writes replay's grouped view (--by): its one table.
func writeGroupsHTML(w io.Writer, doc *report.Document, opt report.Options) error {
	page := &htmlPage{
		Title:  "ctxlab replay by " + doc.By + ": " + numtext.Count(len(doc.Groups), "group", "groups"),
		Lines:  []string{"prices of " + doc.Prices.Date + " (" + doc.Prices.Source + ")"},
		Errors: doc.Errors,
	}
	t := view.GroupTable(doc, opt)
	return writeHTMLPage(w, page, 1, func(int) (*htmlSection, error) {
		return &htmlSection{ID: "groups", Title: t.Title, Tables: htmlTables(&ids{prefix: "groups"}, []*table.Table{t})}, nil
	})
}

// writeCompareHTML writes compare's report: the overview (each session's
// calls, tokens, cost, compactions and cache hit ratio under each policy),
// then each session's runs with their charts (when the runs carry their
// calls), the total, and the fidelity tables.
func writeCompareHTML(w io.Writer, doc *report.CompareDocument, opt report.Options) error {
	page := &htmlPage{
		Title: "ctxlab compare: " + numtext.Count(len(doc.Sessions), "session", "sessions") + " under " + numtext.Count(len(doc.Policies), "policy", "policies"),
		Lines: []string{"policies: " + strings.Join(doc.Policies, ", ") + " (Δ against " + first(doc.Policies) + ")",
			"prices of " + doc.Prices.Date + " (" + doc.Prices.Source + ")"},
		Errors: doc.Errors,
	}
	ov := &htmlTable{ID: "overview-sessions", Empty: "no session could be read",
		Note: "calls and tokens (input + cache writes + cache reads + output) of each policy's main thread; cost: main thread, summarizer and sub-agents; cache hit: read / (input + write + read)"}
	if doc.Total != nil {
		if lb := view.RunsLowerBoundNote(doc.Total.Runs); lb != "" {
			ov.Note += "; " + lb
		}
	}
	ov.Columns = []htmlColumn{{Name: "Session"}, {Name: "Project"}}
	for _, p := range doc.Policies {
		ov.Columns = append(ov.Columns, htmlColumn{Name: p + ": calls", Right: true}, htmlColumn{Name: p + ": tokens", Right: true},
			htmlColumn{Name: p + ": cost", Right: true}, htmlColumn{Name: p + ": compactions", Right: true}, htmlColumn{Name: p + ": cache hit", Right: true})
	}
	secs, kept, err := pickSections(len(doc.Sessions), func(i int) int64 { return comparedTokens(doc.Sessions[i]) }, func(i int) (*htmlSection, error) {
		s := doc.Sessions[i]
		return compareSection(sessionAnchor(i), sessionTitle(s.ID, s.Project), s, opt, func(runs []*simulate.Result) []plots.File {
			return plots.SessionFiles(s.ID, runs, nil, "svg", plots.Options{})
		})
	})
	if err != nil {
		return err
	}
	for i, s := range doc.Sessions {
		href := ""
		if secs[i] != nil {
			href = "#" + sessionAnchor(i)
			page.Links = append(page.Links, htmlLink{href, sessionTitle(s.ID, s.Project)})
		}
		ov.Rows = append(ov.Rows, compareOverviewRow(s, s.ID, href))
	}
	ov.Fold = len(ov.Rows) > foldRows
	page.LeftOut = leftOutText(kept, len(doc.Sessions), " under "+first(doc.Policies), "ctxlab compare --session ID --format html with the same policies")
	if page.LeftOut != "" {
		page.Lines = append(page.Lines, page.LeftOut)
	}
	multi := len(doc.Sessions) > 1
	if len(doc.Sessions) > 0 {
		href := ""
		if multi {
			href = "#total"
			page.Links = append(page.Links, htmlLink{"#total", "All " + numtext.Int(doc.Total.Sessions) + " sessions"})
		}
		ov.Foot = [][]htmlCell{compareOverviewRow(doc.Total, "all "+numtext.Count(doc.Total.Sessions, "session", "sessions"), href)}
	}
	comparisons := view.ShowComparisons(doc)
	if comparisons {
		page.Links = append(page.Links, htmlLink{"#comparisons", "Is the difference real?"})
	}
	if doc.Fidelity != nil {
		page.Links = append(page.Links, htmlLink{"#fidelity", "Fidelity"})
	}
	page.Overview = ov
	rest := []func() (*htmlSection, error){}
	if multi {
		rest = append(rest, func() (*htmlSection, error) {
			return compareSection("total", "All "+numtext.Int(doc.Total.Sessions)+" sessions", doc.Total, opt, func([]*simulate.Result) []plots.File {
				ms := make([]simulate.Metrics, len(doc.Total.Runs))
				for i, r := range doc.Total.Runs {
					ms[i] = r.Metrics
				}
				var ivs plots.CostIntervals
				if set := doc.ComparisonSettings; set != nil && set.Resamples > 0 {
					ivs.Low, ivs.High = doc.TotalCostIntervals()
					ivs.Interval = plots.Interval{Confidence: set.Confidence, Baseline: set.Baseline}
				}
				return plots.CompareTotalFiles(doc.Policies, ms, doc.Total.Sessions, ivs, "svg", plots.Options{})
			})
		})
	}
	if comparisons {
		rest = append(rest, func() (*htmlSection, error) {
			return &htmlSection{ID: "comparisons", Title: "Is the difference real?",
				Tables: htmlTables(&ids{prefix: "comparisons"}, []*table.Table{view.ComparisonsTable(doc, false)})}, nil
		})
	}
	if doc.Fidelity != nil {
		rest = append(rest, func() (*htmlSection, error) {
			return &htmlSection{ID: "fidelity", Title: "Fidelity", Tables: htmlTables(&ids{prefix: "fidelity"}, view.FidelityTables(doc, false))}, nil
		})
	}
	return writeHTMLParts(w, page, len(secs)+len(rest), func(w io.Writer, i int) error {
		if i < len(secs) {
			_, err := w.Write(secs[i]) // nothing for a session without a section
			return err
		}
		sec, err := rest[i-len(secs)]()
		if err != nil {
			return err
		}
		return htmlTemplate.ExecuteTemplate(w, "section", sec)
	})
}

// comparedTokens is a session's tokens under the first policy, as the
// overview counts them: input, cache writes, cache reads and output.
func comparedTokens(c *report.Compared) int64 {
	if len(c.Runs) == 0 {
		return 0
	}
	m := c.Runs[0].Metrics
	return int64(m.Input + m.CacheWrite5m + m.CacheWrite1h + m.CacheRead + m.Output)
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

func compareOverviewRow(c *report.Compared, name, href string) []htmlCell {
	row := []htmlCell{{Text: name, Href: href}, {Text: c.Project}}
	for _, r := range c.Runs {
		m := r.Metrics
		tokens := m.Usage().Total()
		cost := cell(view.TotalText(m), strconv.FormatFloat(m.TotalCost, 'f', -1, 64))
		if m.Unpriced+m.AgentsUnpriced > 0 && m.TotalCost == 0 {
			cost.Value = ""
		}
		row = append(row, intCell(m.Calls), lowerCell(tokens, m.OutputLowerBound), cost, intCell(m.Compactions),
			cell(view.HitText(&m), view.HitRaw(&m)))
	}
	return row
}

// compareSection is one session's (or the total's) runs; its charts are
// drawn from the runs' calls, which compare keeps for an HTML report.
func compareSection(id, title string, c *report.Compared, opt report.Options, files func([]*simulate.Result) []plots.File) (*htmlSection, error) {
	ts := view.CompareTables(c, false)
	var runs []*simulate.Result
	for i := range c.Runs {
		if r := c.Runs[i].Result(c); r != nil {
			runs = append(runs, r)
			if opt.Calls {
				ts = append(ts, view.RunCallsTables(r)...)
			}
		}
	}
	d := &ids{prefix: id}
	sec := &htmlSection{ID: id, Title: title, Tables: htmlTables(d, ts)}
	if c.Sessions == 1 && len(runs) == 0 {
		return sec, nil // runs without their calls: nothing to draw
	}
	var err error
	sec.Charts, err = htmlCharts(id, files(runs))
	return sec, err
}

// writeGateHTML writes a budget's evaluation: the verdict, the limits
// (broken first) and why, and the diff against the baseline.
func writeGateHTML(w io.Writer, res *budget.Result, base *budget.Result) error {
	t := view.GateTable(res)
	v := &htmlVerdict{Pass: res.Pass, Text: "every limit holds"}
	if !res.Pass {
		v.Text = fmt.Sprintf("%d of %d limits broken", res.Failed, len(res.Limits))
	}
	page := &htmlPage{
		Title:   "ctxlab gate: budget " + res.Budget,
		Lines:   []string{numtext.Count(res.Sessions, "session", "sessions") + " measured"},
		Verdict: v,
	}
	if res.Baseline != "" {
		page.Lines = append(page.Lines, "against a baseline: an earlier evaluation of budget "+res.Baseline)
	}
	d := &ids{prefix: "gate"}
	sec := &htmlSection{ID: "limits", Title: "Limits", Tables: htmlTables(d, []*table.Table{t, view.GateReasons(res)})}
	markStatus(sec.Tables[0])
	if base != nil {
		for _, l := range strings.SplitAfter(view.GateDiff(base, res), "\n") {
			if l == "" {
				continue
			}
			class := "same"
			switch {
			case strings.HasPrefix(l, "- "):
				class = "del"
			case strings.HasPrefix(l, "+ "):
				class = "ins"
			}
			sec.Diff = append(sec.Diff, htmlDiffLine{Class: class, Text: strings.TrimSuffix(l, "\n")})
		}
	}
	return writeHTMLPage(w, page, 1, func(int) (*htmlSection, error) { return sec, nil })
}

// statusClass colours a gate status: a broken limit red, a kept one
// green; the cell still says FAIL or pass, for a reader who cannot tell
// the colours apart and for a printout in black and white.
var statusClass = map[string]string{"FAIL": "fail", "WARN": "warn", "pass": "pass", "PASS": "pass"}

// markStatus colours the Status column of the gate's table.
func markStatus(t htmlTable) {
	col := slices.IndexFunc(t.Columns, func(c htmlColumn) bool { return c.Name == "Status" })
	if col < 0 {
		return
	}
	for _, r := range t.Rows {
		if col < len(r) {
			r[col].Class = statusClass[r[col].Text]
		}
	}
}

// writeSweepHTML writes a study: the points best first (and the Pareto
// front), the charts of the objective against each parameter, the inputs
// and every point and session.
func writeSweepHTML(w io.Writer, doc *report.SweepDocument) error {
	obj, err := metric.Lookup(doc.Objective)
	if err != nil {
		return err
	}
	var pareto []metric.Metric
	for _, name := range doc.Pareto {
		m, err := metric.Lookup(name)
		if err != nil {
			return err
		}
		pareto = append(pareto, m)
	}
	page := &htmlPage{
		Title: fmt.Sprintf("ctxlab sweep: %s over %s", numtext.Count(len(doc.Totals), "point", "points"), numtext.Count(len(doc.Inputs), "session", "sessions")),
		Lines: []string{"policies: " + strings.Join(doc.Grid.Policies, ", ") + "; objective: " + obj.Name + " (" + view.Direction(obj) + ")",
			"run by ctxlab " + doc.Ctxlab},
		Errors: doc.Errors,
		Links: []htmlLink{{"#points", "Points, best first"}, {"#charts", "Charts"}, {"#inputs", "Inputs"},
			{"#rows", "Every point and session"}},
	}
	if len(doc.Constraints) > 0 {
		page.Lines = append(page.Lines, "constraints: "+strings.Join(doc.Constraints, " and "))
	}
	ts := []*table.Table{view.SweepTotals(doc)}
	if len(doc.Pareto) == 2 {
		ts = append(ts, view.ParetoTable(doc))
	}
	inputs := &table.Table{Name: "inputs", Title: "Inputs", Note: "each session file read, with the SHA-256 of its files (the transcript, then its agents)",
		Columns: []table.Column{{Name: "Path", Kind: table.Path}, {Name: "SHA-256"}}}
	for _, in := range doc.Inputs {
		inputs.AddRow(in.Path, in.SHA256)
	}
	inputs.AlignNumbers()
	rows := view.SweepRows(doc)
	if n := len(rows.Rows); n > maxSweepRows {
		// As the sessions' sections: the page stays one a browser opens.
		rows.Rows = rows.Rows[:maxSweepRows]
		rows.Note = fmt.Sprintf("the first %s of the %s rows, in point then input order (a page holds at most %s): --format csv or json has them all",
			numtext.Int(maxSweepRows), numtext.Int(n), numtext.Int(maxSweepRows))
	}
	rows.AlignNumbers()
	sections := []func() (*htmlSection, error){
		func() (*htmlSection, error) {
			return &htmlSection{ID: "points", Title: "Points, best first", Tables: htmlTables(&ids{prefix: "points"}, ts)}, nil
		},
		func() (*htmlSection, error) {
			var iv plots.Interval
			if set := doc.ComparisonSettings; set != nil && set.Resamples > 0 {
				iv = plots.Interval{Confidence: set.Confidence, Baseline: set.Baseline}
			}
			files := plots.SweepFiles(doc.Grid.Points, doc.Totals, doc.Params(), obj, pareto, doc.ParetoComparisons, len(doc.Inputs), iv, doc.References(), "svg", plots.Options{})
			charts, err := htmlCharts("charts", files)
			return &htmlSection{ID: "charts", Title: "Charts", Charts: charts}, err
		},
		func() (*htmlSection, error) {
			return &htmlSection{ID: "inputs", Title: "Inputs", Tables: htmlTables(&ids{prefix: "inputs"}, []*table.Table{inputs})}, nil
		},
		func() (*htmlSection, error) {
			return &htmlSection{ID: "rows", Title: "Every point and session", Tables: htmlTables(&ids{prefix: "rows"}, []*table.Table{rows})}, nil
		},
	}
	return writeHTMLPage(w, page, len(sections), func(i int) (*htmlSection, error) { return sections[i]() })
}

// writePoliciesHTML lists the policies, one table of parameters each.
func writePoliciesHTML(w io.Writer, doc *report.PolicyList) error {
	page := &htmlPage{Title: "ctxlab policies", Lines: []string{numtext.Count(len(doc.Policies), "policy", "policies")}}
	return writeHTMLPage(w, page, len(doc.Policies), func(i int) (*htmlSection, error) {
		p := doc.Policies[i]
		t := &table.Table{Name: "params", Title: "Parameters", Empty: "no parameters",
			Columns: []table.Column{{Name: "Parameter"}, {Name: "Default"}, {Name: "Takes"}, {Name: "Meaning"}}}
		for _, a := range p.Params {
			t.AddRow(a.Name, a.Default, a.Range, a.Doc)
		}
		t.AlignNumbers()
		id := "policy-" + strconv.Itoa(i+1)
		return &htmlSection{ID: id, Title: p.Name, Lines: []string{p.Doc, "source: " + p.Source}, Tables: htmlTables(&ids{prefix: id}, []*table.Table{t})}, nil
	})
}
