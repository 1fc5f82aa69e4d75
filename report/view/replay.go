package view

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/table"
	"github.com/ctxlab/ctxlab/simulate"
)

// writeReplay draws replay's document. Several sessions open with the
// one-line-per-session overview, then (with PerSession) each session, then
// the total; a grouped document (doc.By) is its grouped view alone. CSV is
// one table (CSVTable).
func writeReplay(w io.Writer, doc *report.Document, opt report.Options, l layout) error {
	if doc.By != "" {
		return l.write(w, []section{{tables: []*table.Table{groupTable(doc, opt, false)}}}, opt.Width)
	}
	var secs []section
	if len(doc.Sessions) > 1 {
		secs = append(secs, section{tables: []*table.Table{overviewTable(doc, opt.Location, false)}})
	}
	for _, sc := range scopes(doc, opt) {
		secs = append(secs, section{name: sc.name, title: sc.title, tables: scopeTables(sc, opt)})
	}
	return l.write(w, secs, opt.Width)
}

// scopeTables are the selected tables of one session or the total.
func scopeTables(sc scope, opt report.Options) []*table.Table {
	return SessionTables(sc.rep, sc.sim, sc.rec, opt)
}

// SessionTables are the selected tables of a report (a session's, or the
// total's) and, with its simulated run (sim) and the recorded run's
// metrics (rec), the simulation's.
func SessionTables(rep *accounting.Report, sim *simulate.Result, rec *simulate.Metrics, opt report.Options) []*table.Table {
	ts := tables(rep, opt)
	if sim != nil && opt.Wants("simulation") {
		ts = append(ts, simulationTables(sim, rec, opt.Calls)...)
	}
	return ts
}

// CSVTables lists the tables replay's CSV can write, one per stream; a
// report section's name stands for its first table.
var CSVTables = []string{"sessions", "summary", "usage_by_model", "usage_by_thread", "tokens", "duplicate_reads",
	"cache_break_causes", "cache_breaks", "ttl_changes", "compactions", "simulation", "simulated_calls", "summarizer_calls", "groups"}

var sectionTable = map[string]string{
	"usage": "usage_by_model", "duplicates": "duplicate_reads", "breaks": "cache_breaks",
}

// CSVTable returns the table a CSV stream holds for --section values
// (at most one): by default the grouped view (doc.By), else the overview;
// ok is false for an unknown name.
func CSVTable(sections []string, grouped bool) (string, bool) {
	if len(sections) == 0 {
		if grouped {
			return "groups", true
		}
		return "sessions", true
	}
	name := sections[0]
	if t, ok := sectionTable[name]; ok {
		name = t
	}
	return name, slices.Contains(CSVTables, name)
}

// listTables are the tables whose total repeats the sessions' rows, each
// with its session: in CSV, only the total's rows are written.
var listTables = []string{"duplicate_reads", "cache_breaks", "ttl_changes", "compactions"}

// writeCSV writes one table: its header, then its rows; a table of every
// scope starts with a scope column (the session id, or total).
func writeCSV(w io.Writer, doc *report.Document, opt report.Options) error {
	name, ok := CSVTable(opt.Sections, doc.By != "")
	if !ok {
		return fmt.Errorf("no CSV table %q (want one of %s)", name, strings.Join(CSVTables, ", "))
	}
	cw := csv.NewWriter(w)
	switch name {
	case "sessions":
		if err := overviewTable(doc, opt.Location, true).WriteCSVRows(cw, "", true); err != nil {
			return err
		}
	case "groups":
		if doc.By == "" {
			return fmt.Errorf("CSV table groups needs --by")
		}
		if err := groupTable(doc, opt, true).WriteCSVRows(cw, "", true); err != nil {
			return err
		}
	default:
		all := opt
		all.Sections, all.Calls, all.PerSession = nil, true, true
		header := true
		for _, sc := range scopes(doc, all) {
			if sc.name != "total" && len(doc.Sessions) > 1 && slices.Contains(listTables, name) {
				continue
			}
			for _, t := range scopeTables(sc, all) {
				if t.Name != name {
					continue
				}
				if err := t.WriteCSVRows(cw, sc.name, header); err != nil {
					return err
				}
				header = false
			}
		}
		if header { // no scope had the table: its header alone
			return fmt.Errorf("no %s table in this report (simulation tables need --policy)", name)
		}
	}
	cw.Flush()
	return cw.Error()
}

// section is a titled group of tables: one session, or the total.
type section struct {
	name, title string // name is the CSV scope
	tables      []*table.Table
}

// writeText writes sections as text tables fitted to width (0: no
// limit).
func writeText(w io.Writer, secs []section, width int) error { return render(w, false, width, secs) }

// writeMarkdown writes sections as Markdown.
func writeMarkdown(w io.Writer, secs []section, _ int) error { return render(w, true, 0, secs) }

// render writes sections as text tables or Markdown (md).
func render(w io.Writer, md bool, width int, secs []section) error {
	for _, sec := range secs {
		switch {
		case sec.title == "":
		case md:
			fmt.Fprintf(w, "## %s\n\n", sec.title)
		default:
			fmt.Fprintf(w, "%s\n\n", table.Wrap("== "+sec.title+" ==", width))
		}
		for _, t := range sec.tables {
			var err error
			if md {
				err = table.WriteMarkdown(w, t)
			} else {
				t.ShortText = shortModels
				err = table.WriteText(w, t, width)
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}

type scope struct {
	name, title string
	rep         *accounting.Report
	sim         *simulate.Result
	rec         *simulate.Metrics
}

func scopes(doc *report.Document, opt report.Options) []scope {
	var out []scope
	if len(doc.Sessions) == 1 {
		r := doc.Sessions[0]
		return []scope{{name: r.Summary.ID, title: "session " + r.Summary.ID, rep: r.Report, sim: r.Simulation, rec: r.Recorded}}
	}
	if opt.PerSession {
		for _, r := range doc.Sessions {
			out = append(out, scope{name: r.Summary.ID, title: "session " + r.Summary.ID, rep: r.Report, sim: r.Simulation, rec: r.Recorded})
		}
	}
	title := "all " + numtext.Count(doc.Total.Summary.Sessions, "session", "sessions")
	return append(out, scope{name: "total", title: title, rep: doc.Total})
}

// tables builds the selected reports of r.
func tables(r *accounting.Report, opt report.Options) []*table.Table {
	var out []*table.Table
	corpus := r.Summary.Sessions > 1
	if opt.Wants("summary") {
		out = append(out, summaryTable(r))
	}
	if opt.Wants("usage") {
		out = append(out, usageTables(r, corpus)...)
	}
	if opt.Wants("tokens") {
		out = append(out, tokensTable(r).Cut(opt.Top))
	}
	if opt.Wants("duplicates") {
		out = append(out, duplicatesTable(r, corpus).Cut(opt.Top))
	}
	if opt.Wants("breaks") {
		out = append(out, causesTable(r), breaksTable(r, corpus).Cut(opt.Top), ttlTable(r, corpus))
	}
	if opt.Wants("compactions") {
		out = append(out, compactionsTable(r, corpus))
	}
	return out
}

func summaryTable(r *accounting.Report) *table.Table {
	s := r.Summary
	t := &table.Table{Name: "summary", Title: "Summary", KeyValue: true, Columns: []table.Column{{Name: "Field", Kind: table.Prose}, {Name: "Value", Kind: table.Prose}}}
	kv := func(k, pretty, raw string) { t.Add([]string{k, pretty}, []string{k, raw}) }
	if s.Sessions == 1 {
		kv("session", s.ID, s.ID)
		kv("project", s.Project, s.Project)
		t.Rows = append(t.Rows, []table.Cell{table.Same("path"), {Text: s.Path, Raw: s.Path, Path: true}})
		if len(s.SessionIDs) > 1 {
			v := strings.Join(s.SessionIDs, " ")
			kv("session ids", v, v)
		}
	} else {
		kv("sessions", numtext.Int(s.Sessions), raw(s.Sessions))
	}
	kv("agents", numtext.Int(s.Agents), raw(s.Agents))
	kv("api calls", numtext.Int(s.Calls), raw(s.Calls))
	if s.Start != 0 {
		kv("span", fmt.Sprintf("%s → %s (%s)", s.Start, s.End, duration(s.Seconds)), s.Start.String()+"/"+s.End.String())
	}
	// One model per line keeps the table narrow for corpora of many models.
	kv("models", strings.Join(s.Models, "\n"), strings.Join(s.Models, " "))
	kv("versions", strings.Join(s.Versions, ", "), strings.Join(s.Versions, " "))
	cost := numtext.USD(s.Cost)
	lower := r.Usage.Total.OutputLowerBound
	if lower {
		cost = "≥" + cost
	}
	if !s.CostComplete {
		cost += " + unpriced calls"
	}
	kv("cost", cost, rawUSD(s.Cost))
	if lower {
		t.Add([]string{"output lower bound", "yes: output counts are Claude Code 2.1.9–2.1.41 placeholders"}, []string{"output lower bound", "true"})
	}
	kv("lines", numtext.Int(s.Lines), raw(s.Lines))
	if s.BadLines > 0 {
		kv("bad lines", numtext.Int(s.BadLines), raw(s.BadLines))
	}
	if s.Replayed > 0 {
		kv("replayed lines", numtext.Int(s.Replayed), raw(s.Replayed))
	}
	if s.Resumes > 0 {
		kv("resumes", numtext.Int(s.Resumes), raw(s.Resumes))
	}
	if s.CrossSessionDuplicates > 0 {
		kv("calls repeated across sessions", numtext.Int(s.CrossSessionDuplicates), raw(s.CrossSessionDuplicates))
	}
	if len(s.Unknown) > 0 {
		var parts []string
		for _, u := range s.Unknown {
			parts = append(parts, u.Name+"×"+strconv.Itoa(u.Count))
		}
		v := strings.Join(parts, ", ")
		kv("unknown types/fields", v, v)
	}
	return t
}

func duration(sec int64) string {
	d, h, m := sec/86400, sec%86400/3600, sec%3600/60
	switch {
	case d > 0:
		return fmt.Sprintf("%dd %dh %dm", d, h, m)
	case h > 0:
		return fmt.Sprintf("%dh %dm", h, m)
	}
	return fmt.Sprintf("%dm %ds", m, sec%60)
}

func usageTables(r *accounting.Report, corpus bool) []*table.Table {
	u := r.Usage
	note := fmt.Sprintf("cache hit ratio %s (read / (input + write + read)); prices of %s",
		numtext.Pct(u.HitRatio*100), u.PriceDate)
	note = withNote(note, LowerBoundNote(u.Total.OutputLowerBound, u.Total.Unpriced))
	byModel := &table.Table{Name: "usage_by_model", Title: "Usage by model", Note: note,
		Columns: append([]table.Column{{Name: "Name", Kind: table.Text}}, usageColumns...)}
	for _, row := range u.ByModel {
		usageRow(byModel, nil, row.Name, row)
	}
	usageRow(byModel, nil, "total", u.Total)
	if corpus {
		byThread := &table.Table{Name: "usage_by_thread", Title: "Usage by thread kind",
			Columns: append([]table.Column{{Name: "Kind", Kind: table.Text}}, usageColumns...)}
		for _, row := range u.ByThread {
			usageRow(byThread, nil, row.Name, row)
		}
		return []*table.Table{byModel, byThread}
	}
	byThread := &table.Table{Name: "usage_by_thread", Title: "Usage by thread",
		Columns: append([]table.Column{{Name: "Thread", Kind: table.Text}, {Name: "Kind", Kind: table.Text, Drop: 2}}, usageColumns...)}
	for _, row := range u.ByThread {
		usageRow(byThread, []string{row.Name}, row.Kind, row)
	}
	return []*table.Table{byModel, byThread}
}

// usageColumns are the usage tables' columns after their names.
var usageColumns = []table.Column{
	{Name: "Calls", Right: true},
	{Name: "Input", Right: true, Drop: 1},
	{Name: "Cache write 5m", Right: true, Short: "Write 5m"},
	{Name: "Cache write 1h", Right: true, Short: "Write 1h"},
	{Name: "Cache read", Right: true, Short: "Read"},
	{Name: "Output", Right: true, Drop: 3},
	{Name: "Output lower bound", CSV: "output_lower_bound", MachineOnly: true}, // ≥ on Output and Cost
	{Name: "Cost", Right: true},
}

// usageRow adds a usage row: the cells lead, then name, then the figures.
func usageRow(t *table.Table, lead []string, name string, u accounting.UsageRow) {
	cost := CostText(u.Cost, u.Unpriced, u.Calls, u.OutputLowerBound)
	rawCost := rawUSD(u.Cost)
	if u.Unpriced == u.Calls && u.Calls > 0 {
		rawCost = ""
	}
	t.Add(
		append(lead[:len(lead):len(lead)], name, numtext.Int(u.Calls), numtext.Int(u.Input), numtext.Int(u.CacheWrite5m), numtext.Int(u.CacheWrite1h), numtext.Int(u.CacheRead),
			atLeast(u.Output, u.OutputLowerBound), "", cost),
		append(lead[:len(lead):len(lead)], name, raw(u.Calls), raw(u.Input), raw(u.CacheWrite5m), raw(u.CacheWrite1h), raw(u.CacheRead), raw(u.Output),
			strconv.FormatBool(u.OutputLowerBound), rawCost),
	)
}

func tokensTable(r *accounting.Report) *table.Table {
	t := &table.Table{
		Name: "tokens", Title: "Token accounting",
		Note: fmt.Sprintf("estimate: %s tokens in all messages as Claude Code counts them (length/4, images 2000), of which Share is each row's part; "+
			"measured: %s tokens as the API counted them, from usage deltas (%s exact, the rest at the calibrated ratio)",
			numtext.Int(r.Tokens.Total), numtext.Int(r.Tokens.MeasuredTotal), numtext.Pct(r.Tokens.MeasuredExact*100)),
		Columns: []table.Column{{Name: "Category"}, {Name: "Name", Kind: table.Text},
			{Name: "Count", Right: true}, {Name: "Estimate", Right: true}, {Name: "Share", Right: true}, {Name: "Measured", Right: true}},
	}
	for _, row := range r.Tokens.Rows {
		t.Add(
			[]string{string(row.Category), row.Name, numtext.Int(row.Count), numtext.Int(row.Tokens), numtext.Pct(row.Percent), numtext.Int(row.Measured)},
			[]string{string(row.Category), row.Name, raw(row.Count), raw(row.Tokens), strconv.FormatFloat(row.Percent, 'f', 1, 64), raw(row.Measured)},
		)
	}
	return t
}

// withSession leads a list table's columns with the session's, in a
// report of several sessions.
func withSession(corpus bool, cols []table.Column) []table.Column {
	if !corpus {
		return cols
	}
	return append([]table.Column{{Name: "Session", Kind: table.ID}}, cols...)
}

func prefix(corpus bool, session string, row []string) []string {
	if !corpus {
		return row
	}
	return append([]string{session}, row...)
}

func duplicatesTable(r *accounting.Report, corpus bool) *table.Table {
	t := &table.Table{
		Name: "duplicate_reads", Title: "Duplicate reads",
		Note: "re-reads after an edit are justified, after a compaction forced, otherwise waste",
		Columns: withSession(corpus, []table.Column{
			{Name: "File", Kind: table.Path},
			{Name: "Range"},
			{Name: "Reads", Right: true},
			{Name: "Tokens", Right: true, Drop: 4},
			{Name: "Overhead", Right: true, Drop: 1, Note: "overhead = floor(tokens/reads)×(reads−1) as Claude Code computes it"},
			{Name: "Justified", Right: true, Short: "Just.", Drop: 2},
			{Name: "Forced", Right: true, Drop: 3},
			{Name: "Waste", Right: true},
			{Name: "Waste tokens", Right: true, Short: "Waste tok"},
		}),
	}
	for _, d := range r.Duplicates {
		rng := ""
		if d.Offset != 0 || d.Limit != 0 {
			rng = fmt.Sprintf("offset %d limit %d", d.Offset, d.Limit)
		}
		t.Add(
			prefix(corpus, d.Session, []string{d.Path, rng, numtext.Int(d.Reads), numtext.Int(d.Tokens), numtext.Int(d.Overhead), numtext.Int(d.Justified), numtext.Int(d.Forced), numtext.Int(d.Waste), numtext.Int(d.WasteTokens)}),
			prefix(corpus, d.Session, []string{d.Path, rng, raw(d.Reads), raw(d.Tokens), raw(d.Overhead), raw(d.Justified), raw(d.Forced), raw(d.Waste), raw(d.WasteTokens)}),
		)
	}
	return t
}

func breaksTable(r *accounting.Report, corpus bool) *table.Table {
	t := &table.Table{
		Name: "cache_breaks", Title: "Cache rebuilds",
		Note: "calls whose cache read fell >5% and >2,000 tokens below the previous call of the same thread (Claude Code's \"cache break\" rule); Haiku excluded",
		Columns: withSession(corpus, []table.Column{
			{Name: "Thread", Kind: table.Text},
			{Name: "Call", Right: true},
			{Name: "Line", Right: true, Drop: 1},
			{Name: "Time", Kind: table.Time, Drop: 5},
			{Name: "Cause", Kind: table.Prose},
			{Name: "Prev read", Right: true, Short: "Prev", Drop: 2},
			{Name: "Read", Right: true},
			{Name: "Gap", Right: true},
			{Name: "Rewritten", Right: true, Short: "Rewrote", Drop: 3},
			{Name: "Cost", Right: true, Drop: 4},
			{Name: "Extra", Right: true},
		}),
		Legend: "cache rebuild: the cached prompt was lost (expired, or changed) and re-written at the write price; cause: the first that applies (docs/reports.md says when each does); extra: what that cost beyond reading it from the cache",
	}
	for _, b := range r.CacheBreaks {
		cause := b.Cause
		if b.Expected {
			cause += " (expected)"
		}
		cost, extra := numtext.USD(b.Cost), numtext.USD(b.ExtraCost)
		rc, re := rawUSD(b.Cost), rawUSD(b.ExtraCost)
		if !b.Priced {
			cost, extra, rc, re = "unpriced", "", "", ""
		}
		t.Add(
			prefix(corpus, b.Session, []string{b.Thread, numtext.Int(b.Call), numtext.Int(b.Line), b.Time.String(), cause, numtext.Int(b.PrevRead), numtext.Int(b.Read), duration(b.GapSeconds), numtext.Int(b.Rewritten), cost, extra}),
			prefix(corpus, b.Session, []string{b.Thread, raw(b.Call), raw(b.Line), b.Time.String(), b.Cause, raw(b.PrevRead), raw(b.Read), raw(b.GapSeconds), raw(b.Rewritten), rc, re}),
		)
	}
	return t
}

// causesTable totals the cache rebuilds by cause, the costliest first.
func causesTable(r *accounting.Report) *table.Table {
	t := &table.Table{
		Name: "cache_break_causes", Title: "Cache rebuilds by cause",
		Note: "every cache rebuild by its cause, the most extra cost first: where the cache's money went",
		Columns: []table.Column{
			{Name: "Cause", Kind: table.Prose},
			{Name: "Rebuilds", Right: true},
			{Name: "Rewritten", Right: true, Short: "Rewrote"},
			{Name: "Cost", Right: true, Drop: 2},
			{Name: "Extra", Right: true},
			{Name: "Unpriced", Right: true, Drop: 1},
		},
	}
	for _, c := range r.BreakCauses {
		cause := c.Cause
		if accounting.ExpectedCause(c.Cause) {
			cause += " (expected)"
		}
		t.Add(
			[]string{cause, numtext.Int(c.Breaks), numtext.Int(c.Rewritten), numtext.USD(c.Cost), numtext.USD(c.ExtraCost), numtext.Int(c.Unpriced)},
			[]string{c.Cause, raw(c.Breaks), raw(c.Rewritten), rawUSD(c.Cost), rawUSD(c.ExtraCost), raw(c.Unpriced)},
		)
	}
	return t
}

func ttlTable(r *accounting.Report, corpus bool) *table.Table {
	t := &table.Table{Name: "ttl_changes", Title: "Cache TTL changes",
		Note: "calls whose cache writes switched between the 1 h and 5 min TTL",
		Columns: withSession(corpus, []table.Column{
			{Name: "Thread", Kind: table.Text}, {Name: "Call", Right: true}, {Name: "Line", Right: true, Drop: 1},
			{Name: "Time", Kind: table.Time}, {Name: "From"}, {Name: "To"},
		})}
	for _, c := range r.TTLChanges {
		t.Add(
			prefix(corpus, c.Session, []string{c.Thread, numtext.Int(c.Call), numtext.Int(c.Line), c.Time.String(), c.From, c.To}),
			prefix(corpus, c.Session, []string{c.Thread, raw(c.Call), raw(c.Line), c.Time.String(), c.From, c.To}),
		)
	}
	return t
}

func compactionsTable(r *accounting.Report, corpus bool) *table.Table {
	note := "before: compactMetadata.preTokens, else the last prompt; after: postTokens, else the next call's prompt"
	if n := len(r.Spirals); n > 0 {
		note += fmt.Sprintf("\nWARNING: %d compaction spiral(s): compactions repeating within a few calls", n)
	}
	t := &table.Table{Name: "compactions", Title: "Compaction timeline", Note: note,
		Columns: withSession(corpus, []table.Column{
			{Name: "Thread", Kind: table.Text},
			{Name: "Kind", Kind: table.Text},
			{Name: "Trigger", Drop: 4},
			{Name: "After call", Right: true, Short: "Call"},
			{Name: "Line", Right: true, Drop: 1},
			{Name: "Time", Kind: table.Time, Drop: 5},
			{Name: "Last prompt", Right: true, Short: "Prompt", Drop: 2},
			{Name: "Before", Right: true},
			{Name: "After", Right: true},
			{Name: "Freed", Right: true},
			{Name: "Summary", Right: true, Drop: 3},
			{Name: "Spiral"},
		})}
	for _, c := range r.Compactions {
		before, after, freed := numtext.Int(c.Before), numtext.Int(c.After), numtext.Int(c.Freed)
		if c.BeforeSource == "none" {
			before, freed = "", ""
		}
		if c.AfterSource == "none" {
			after, freed = "", ""
		}
		spiral := ""
		if c.Spiral {
			spiral = "yes"
		}
		trig := c.Trigger
		if trig == "" {
			trig = "-"
		}
		if c.Continued {
			trig += " (continued)" // the summary the thread goes on from
		}
		t.Add(
			prefix(corpus, c.Session, []string{c.Thread, c.Kind, trig, numtext.Int(c.AfterCall), numtext.Int(c.Line), c.Time.String(), numtext.Int(c.LastPrompt), before, after, freed, numtext.Int(c.SummaryTokens), spiral}),
			prefix(corpus, c.Session, []string{c.Thread, c.Kind, c.Trigger, raw(c.AfterCall), raw(c.Line), c.Time.String(), raw(c.LastPrompt), raw(c.Before), raw(c.After), raw(c.Freed), raw(c.SummaryTokens), strconv.FormatBool(c.Spiral)}),
		)
	}
	return t
}
