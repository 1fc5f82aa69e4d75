package accounting

import (
	"sort"
	"time"

	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/replay"
)

// Merge combines per-session reports into one for the whole input. Usage is
// deduplicated across sessions by (message.id, requestId), keeping the
// record with the most tokens (resumed sessions repeat calls in other
// files, under the same message.id and requestId), so the corpus total can be less than the sum of
// the sessions. Row lists gain the session they came from.
func Merge(reports []*Report, table *prices.Table) *Report {
	if table == nil {
		table = prices.Default()
	}
	out := &Report{
		Duplicates: []DuplicateRead{}, CacheBreaks: []CacheBreak{}, TTLChanges: []TTLChange{},
		Compactions: []CompactionEvent{}, Spirals: []Spiral{}, Warnings: []string{},
	}
	sum := &out.Summary
	models, versions := map[string]bool{}, map[string]bool{}
	unknown := map[string]int{}
	tok := map[tokenKey]*TokenRow{}
	var exact int64
	var recs []callRecord
	best := map[string]int{} // call key → index in recs
	for _, r := range reports {
		id := r.Summary.ID
		s := r.Summary
		sum.Sessions += s.Sessions
		sum.Agents += s.Agents
		sum.Lines += s.Lines
		sum.BadLines += s.BadLines
		sum.Replayed += s.Replayed
		sum.Resumes += s.Resumes
		if s.Start != "" && (sum.Start == "" || s.Start < sum.Start) {
			sum.Start = s.Start
		}
		if s.End > sum.End {
			sum.End = s.End
		}
		for _, m := range s.Models {
			models[m] = true
		}
		for _, v := range s.Versions {
			versions[v] = true
		}
		for _, u := range s.Unknown {
			unknown[u.Name] += u.Count
		}
		exact += r.Tokens.exact
		for _, row := range r.Tokens.Rows {
			k := tokenKey{row.Category, row.Name}
			if tok[k] == nil {
				tok[k] = &TokenRow{Category: row.Category, Name: row.Name}
			}
			tok[k].Count += row.Count
			tok[k].Tokens += row.Tokens
			tok[k].Measured += row.Measured
		}
		for _, c := range r.calls {
			c.thread = c.kind // corpus rows group threads by kind
			if c.key == "" {
				recs = append(recs, c)
				continue
			}
			if i, ok := best[c.key]; ok {
				sum.CrossSessionDuplicates++
				if c.usage.Total() > recs[i].usage.Total() {
					recs[i] = c
				}
				continue
			}
			best[c.key] = len(recs)
			recs = append(recs, c)
		}
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
	out.calls = recs
	out.Usage = usageOf(recs, table)
	sum.Calls = out.Usage.Total.Calls
	sum.Cost = out.Usage.Total.Cost
	sum.CostComplete = out.Usage.Total.Unpriced == 0
	sum.Models, sum.Versions = setKeys(models), setKeys(versions)
	sort.Slice(sum.Versions, func(i, j int) bool { return replay.CompareVersions(sum.Versions[i], sum.Versions[j]) < 0 })
	if sum.Start != "" {
		sum.Seconds = seconds(sum.Start, sum.End)
	}
	for k, v := range unknown {
		sum.Unknown = append(sum.Unknown, Count{Name: k, Count: v})
	}
	sortCounts(sum.Unknown)
	out.Tokens = Tokens{Method: MethodEstimate, Rows: []TokenRow{}, exact: exact}
	for _, row := range tok {
		out.Tokens.Rows = append(out.Tokens.Rows, *row)
	}
	finishTokens(&out.Tokens)
	SortDuplicates(out.Duplicates)
	sort.SliceStable(out.CacheBreaks, func(i, j int) bool { return out.CacheBreaks[i].Cost > out.CacheBreaks[j].Cost })
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

func seconds(start, end string) int64 {
	a, err1 := time.Parse(time.RFC3339, start)
	b, err2 := time.Parse(time.RFC3339, end)
	if err1 != nil || err2 != nil {
		return 0
	}
	return int64(b.Sub(a) / time.Second)
}
