package accounting

import (
	"sort"

	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/accounting/sizing"
	"github.com/ctxlab/ctxlab/internal/claudecode"
)

// Merge combines per-session reports into one for the whole input. Usage is
// deduplicated across sessions by (message.id, requestId), keeping the
// record with the most tokens (resumed sessions repeat calls in other
// files, under the same message.id and requestId), so the corpus total can be less than the sum of
// the sessions; compactions are deduplicated by the uuid of their line
// (dedupeCompactions). Row lists gain the session they came from.
func Merge(reports []*Report, table *prices.Table) *Report {
	m := NewMerger(table)
	for _, r := range reports {
		m.Add(r)
	}
	return m.Report()
}

// Merger is Merge one report at a time, for a caller that drops each
// session's report once it is added: Add keeps only copies of the report's
// rows and the compact log of its calls.
type Merger struct {
	m     merger
	table *prices.Table
}

// NewMerger starts a merge priced with table (nil: the built-in one).
func NewMerger(table *prices.Table) *Merger {
	if table == nil {
		table = prices.Default()
	}
	return &Merger{table: table, m: merger{
		out: &Report{
			Duplicates: []DuplicateRead{}, CacheBreaks: []CacheBreak{}, TTLChanges: []TTLChange{},
			Compactions: []CompactionEvent{}, Spirals: []Spiral{}, Warnings: []string{},
		},
		models: map[string]bool{}, versions: map[string]bool{}, unknown: map[string]int{},
		tokens: map[tokenKey]*TokenRow{},
	}}
}

// Add merges r, which it does not change.
func (m *Merger) Add(r *Report) {
	m.m.addSummary(r.Summary)
	m.m.addTokens(r.Tokens)
	m.m.addCalls(r)
	m.m.addRows(r)
}

// Report returns the merged report of the reports added; call it once,
// after the last Add.
func (m *Merger) Report() *Report {
	return m.m.finish(m.table)
}

// merger accumulates the reports Merge combines.
type merger struct {
	out              *Report
	models, versions map[string]bool
	unknown          map[string]int
	tokens           map[tokenKey]*TokenRow
	exact            int64
	logs             callLogs
}

// addSummary adds a session's counts and widens the time span.
func (m *merger) addSummary(s Summary) {
	sum := &m.out.Summary
	sum.Sessions += s.Sessions
	sum.Agents += s.Agents
	sum.Lines += s.Lines
	sum.BadLines += s.BadLines
	sum.Replayed += s.Replayed
	sum.Resumes += s.Resumes
	if s.Start != 0 && (sum.Start == 0 || s.Start < sum.Start) {
		sum.Start = s.Start
	}
	if s.End > sum.End {
		sum.End = s.End
	}
	for _, x := range s.Models {
		m.models[x] = true
	}
	for _, v := range s.Versions {
		m.versions[v] = true
	}
	for _, u := range s.Unknown {
		m.unknown[u.Name] += u.Count
	}
}

// addTokens adds a session's token rows to the rows of the same category
// and name.
func (m *merger) addTokens(t Tokens) {
	m.exact += t.exact
	for _, row := range t.Rows {
		k := tokenKey{row.Category, row.Name}
		if m.tokens[k] == nil {
			m.tokens[k] = &TokenRow{Category: row.Category, Name: row.Name}
		}
		m.tokens[k].Count += row.Count
		m.tokens[k].Tokens += row.Tokens
		m.tokens[k].Measured += row.Measured
	}
}

// addCalls takes the calls of a report, in order; finish deduplicates
// them. A merged report's kept calls are copied into one log.
func (m *merger) addCalls(r *Report) {
	switch {
	case r.kept != nil:
		l := &callLog{}
		seq := 0
		for _, from := range r.kept.logs {
			for i := range from.recs {
				u := int(r.kept.use[seq])
				seq++
				if u < 0 {
					continue
				}
				wl, wi := from, i
				if u != seq-1 {
					wl, wi = r.kept.at(u)
				}
				l.appendCall(wl.call(wi), wl.recs[wi])
			}
		}
		m.logs.add(l)
	case r.calls != nil:
		m.logs.add(r.calls)
	}
}

// addRows appends a session's row lists, each row marked with the session;
// spirals point at compactions by index, so they move with them.
func (m *merger) addRows(r *Report) {
	out, id := m.out, r.Summary.ID
	for _, d := range r.Duplicates {
		d.Session = id
		out.Duplicates = append(out.Duplicates, d)
	}
	for _, b := range r.CacheBreaks {
		b.Session = id
		out.CacheBreaks = append(out.CacheBreaks, b)
	}
	for _, t := range r.TTLChanges {
		t.Session = id
		out.TTLChanges = append(out.TTLChanges, t)
	}
	base := len(out.Compactions)
	for _, c := range r.Compactions {
		c.Session = id
		out.Compactions = append(out.Compactions, c)
	}
	for _, sp := range r.Spirals {
		sp.Session = id
		sp.First += base
		out.Spirals = append(out.Spirals, sp)
	}
	out.Warnings = append(out.Warnings, r.Warnings...)
}

// finish prices the kept calls and puts every list in its order.
func (m *merger) finish(table *prices.Table) *Report {
	out := m.out
	sum := &out.Summary
	kept, dropped := dedupe(m.logs)
	out.kept = kept
	sum.CrossSessionDuplicates += dropped
	out.Usage = usageOf(out.kept.calls(), table)
	sum.Calls = out.Usage.Total.Calls
	sum.Cost = out.Usage.Total.Cost
	sum.CostComplete = out.Usage.Total.Unpriced == 0
	sum.Models, sum.Versions = setKeys(m.models), setKeys(m.versions)
	sort.Slice(sum.Versions, func(i, j int) bool { return claudecode.CompareVersions(sum.Versions[i], sum.Versions[j]) < 0 })
	if sum.Start != 0 {
		// Between the whole seconds the report shows.
		sum.Seconds = int64(sum.End/1000 - sum.Start/1000)
	}
	for k, v := range m.unknown {
		sum.Unknown = append(sum.Unknown, Count{Name: k, Count: v})
	}
	sortCounts(sum.Unknown)
	out.Tokens = Tokens{Method: sizing.MethodEstimate, Rows: []TokenRow{}, exact: m.exact}
	for _, row := range m.tokens {
		out.Tokens.Rows = append(out.Tokens.Rows, *row)
	}
	finishTokens(&out.Tokens)
	// A compaction two files show is one, as a call two files repeat is.
	out.Compactions, out.Spirals = dropCompactionCopies(out.Compactions, out.Spirals)
	SortDuplicates(out.Duplicates)
	sort.SliceStable(out.CacheBreaks, func(i, j int) bool { return out.CacheBreaks[i].Cost > out.CacheBreaks[j].Cost })
	out.BreakCauses = breakCauses(out.CacheBreaks)
	return out
}

func setKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
