package report

import (
	"bytes"
	"encoding/json"
	"io"
	"time"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate"
)

// SchemaVersion is the version of the replay, policies and groups documents. A
// document's version changes only when a field is removed or changes
// meaning; new fields may appear at any time.
const SchemaVersion = 1

// CompareVersion and SweepVersion are the versions of compare's and
// sweep's documents: 2 since a comparison's `significant` says that the
// change's bootstrap interval excludes 0 (in version 1 it was the
// signed-rank test's verdict, now `wilcoxon_significant`).
const (
	CompareVersion = 2
	SweepVersion   = 2
)

// Version is the version this ctxlab writes of the document named schema
// (0 for a name it does not write).
func Version(schema string) int {
	switch schema {
	case SchemaReplay, SchemaPolicies, SchemaGroups:
		return SchemaVersion
	case SchemaCompare:
		return CompareVersion
	case SchemaSweep:
		return SweepVersion
	}
	return 0
}

// Schema names of the JSON documents.
const (
	SchemaReplay   = "ctxlab.replay"
	SchemaGroups   = "ctxlab.groups" // replay --by's JSON: GroupsDocument
	SchemaCompare  = "ctxlab.compare"
	SchemaPolicies = "ctxlab.policies"
)

// Document is everything `ctxlab replay` reports.
type Document struct {
	Schema   string             `json:"schema"`
	Version  int                `json:"version"`
	Prices   PriceInfo          `json:"prices"`
	Sessions []*Session         `json:"sessions"`
	Total    *accounting.Report `json:"total"`
	// Since and Until are the window of --since and --until (0: open):
	// the sessions are those whose activity overlaps it, and the grouped
	// view counts only its calls in it (accounting.GroupsIn).
	Since replay.Time `json:"since,omitempty"`
	Until replay.Time `json:"until,omitempty"`
	// By and Groups are the grouped view (replay --by): day, week, month,
	// project, model or session, and its rows; GroupsTotal is their total.
	// A grouped document's JSON is the grouped view alone (GroupsDocument).
	By          string             `json:"-"`
	Groups      []accounting.Group `json:"-"`
	GroupsTotal *accounting.Group  `json:"-"`
	// CostPartial is true when some calls had no price: every cost of
	// the document leaves them out. UnpricedModels names those models
	// with their calls (over the whole input), most calls first.
	CostPartial    bool               `json:"cost_partial"`
	UnpricedModels []accounting.Count `json:"unpriced_models"`
	Errors         []string           `json:"errors"`
}

// Session is one session's report and, under `replay --policy`, the
// simulated run of its main thread. In JSON the run is the session's
// "simulation" object.
type Session struct {
	*accounting.Report
	Simulation *simulate.Result `json:"simulation,omitempty"`
	// Recorded is the metrics of the same thread replayed as it happened
	// (policy observed), the baseline the text formats set the simulated
	// run against; absent when the policy is observed itself.
	Recorded *simulate.Metrics `json:"recorded,omitempty"`
}

// PriceInfo names the price table used.
type PriceInfo struct {
	Date   string `json:"date"`
	Source string `json:"source"`
}

// NewDocument assembles a document; Total is the merge of the sessions.
func NewDocument(sessions []*accounting.Report, prices *prices.Table, errs []string) *Document {
	if errs == nil {
		errs = []string{}
	}
	wrapped := make([]*Session, len(sessions))
	for i, r := range sessions {
		wrapped[i] = &Session{Report: r}
	}
	total := accounting.Merge(sessions, prices)
	unpriced := UnpricedModels(total.Usage)
	return &Document{
		Schema: SchemaReplay, Version: SchemaVersion,
		Prices:   PriceInfo{Date: prices.Date, Source: prices.Source},
		Sessions: wrapped, Total: total, CostPartial: len(unpriced) > 0, UnpricedModels: unpriced, Errors: errs,
	}
}

// UnpricedModels lists the models of u that have no price, with their
// calls, most calls first.
func UnpricedModels(u accounting.UsageReport) []accounting.Count {
	m := map[string]int{}
	for _, row := range u.ByModel {
		if row.Unpriced > 0 {
			m[row.Name] = row.Unpriced
		}
	}
	return accounting.SortedCounts(m)
}

// Sections lists the report sections, in output order. "simulation" is
// printed only for a session replayed under a policy.
var Sections = []string{"summary", "usage", "tokens", "duplicates", "breaks", "compactions", "simulation"}

// Options select what Write prints.
type Options struct {
	Format Format // Table when empty
	// Top caps the rows of each list report (0: all). JSON is never cut.
	Top int
	// Sections to print (nil: all); JSON always has every section.
	Sections []string
	// PerSession prints each session before the total; with one session
	// only that session is printed. replay prints, with several sessions,
	// the one-line-per-session overview first.
	PerSession bool
	// Calls adds the per-call tables of a simulated run (table, markdown
	// and CSV). Replay's JSON always has the calls; compare's has them
	// only when its runs were built with them (NewCompared).
	Calls bool
	// Width fits text tables to this many columns (0: no limit); see fit.
	Width int
	// Location is the time zone of the overview's dates (nil: UTC).
	Location *time.Location
	// Breakdown shows a grouped view's groups split by model (replay
	// --by … --breakdown); JSON always has the split.
	Breakdown bool
}

// Wants reports whether the options select a report section (no
// Sections: all of them).
func (o Options) Wants(section string) bool {
	if len(o.Sections) == 0 {
		return true
	}
	for _, s := range o.Sections {
		if s == section || s == "all" {
			return true
		}
	}
	return false
}

// windowMembers are the members since and until, those that are set.
func windowMembers(since, until replay.Time) []member {
	var ms []member
	if since != 0 {
		ms = append(ms, member{name: "since", value: since})
	}
	if until != 0 {
		ms = append(ms, member{name: "until", value: until})
	}
	return ms
}

// writeJSON writes v as JSON indented by two spaces, with a final newline.
func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	out := indentJSON(make([]byte, 0, 2*buf.Len()), bytes.TrimSuffix(buf.Bytes(), []byte("\n")), "", "  ")
	_, err := w.Write(append(out, '\n'))
	return err
}

// members are the document's JSON members in field order (writeObject),
// the sessions written one at a time.
func (doc *Document) members() []member {
	ms := []member{
		{name: "schema", value: doc.Schema},
		{name: "version", value: doc.Version},
		{name: "prices", value: doc.Prices},
		list("sessions", doc.Sessions, len(doc.Sessions), func(i int) any { return doc.Sessions[i] }),
		{name: "total", value: doc.Total},
	}
	if doc.Total != nil {
		ms[len(ms)-1].fields = reportMembers(doc.Total)
	}
	ms = append(ms, windowMembers(doc.Since, doc.Until)...)
	return append(ms,
		member{name: "cost_partial", value: doc.CostPartial},
		member{name: "unpriced_models", value: doc.UnpricedModels},
		member{name: "errors", value: doc.Errors})
}

// GroupsDocument is the JSON of replay --by (SchemaGroups): the grouped
// view's rows and their total, not every session's report, which a
// table of a few periods, projects or models does not need.
type GroupsDocument struct {
	Schema         string             `json:"schema"`
	Version        int                `json:"version"`
	Prices         PriceInfo          `json:"prices"`
	By             string             `json:"by"`
	Since          replay.Time        `json:"since,omitempty"`
	Until          replay.Time        `json:"until,omitempty"`
	Groups         []accounting.Group `json:"groups"`
	GroupsTotal    *accounting.Group  `json:"groups_total"`
	CostPartial    bool               `json:"cost_partial"`
	UnpricedModels []accounting.Count `json:"unpriced_models"`
	Errors         []string           `json:"errors"`
}

// GroupsDocument is a grouped document's JSON (doc.By set).
func (doc *Document) GroupsDocument() *GroupsDocument {
	g := &GroupsDocument{
		Schema: SchemaGroups, Version: SchemaVersion, Prices: doc.Prices, By: doc.By,
		Since: doc.Since, Until: doc.Until, Groups: doc.Groups, GroupsTotal: doc.GroupsTotal,
		CostPartial: doc.CostPartial, UnpricedModels: doc.UnpricedModels, Errors: doc.Errors,
	}
	if g.Groups == nil {
		g.Groups = []accounting.Group{}
	}
	if g.GroupsTotal == nil {
		g.GroupsTotal = &accounting.Group{Key: "total"}
	}
	return g
}
