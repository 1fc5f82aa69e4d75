package view

import (
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/table"

	"github.com/sergi/go-diff/diffmatchpatch"

	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/simulate/budget"
	"github.com/ctxlab/ctxlab/simulate/metric"
)

// writeGate draws a budget's evaluation: failing limits first, then the
// others in the budget's order; with a baseline, the text diff of the two
// evaluations follows (table and markdown). Text tables are fitted to
// opt.Width (0: no limit).
func writeGate(w io.Writer, d *report.GateDocument, opt report.Options, l layout) error {
	res, base := d.Result, d.Baseline
	secs := []section{{name: "gate", tables: []*table.Table{GateTable(res), GateReasons(res)}}}
	if err := l.write(w, secs, opt.Width); err != nil {
		return err
	}
	if base != nil {
		d := GateDiff(base, res)
		if l.markdown {
			_, err := fmt.Fprintf(w, "### Against the baseline\n\n```diff\n%s```\n", d)
			return err
		}
		_, err := fmt.Fprintf(w, "Against the baseline (- baseline, + now)\n%s", diffLines(d, opt.Width))
		return err
	}
	return nil
}

// order returns the outcomes' indexes, failing limits first.
func order(res *budget.Result) []int {
	idx := make([]int, len(res.Limits))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return !res.Limits[idx[a]].Pass && res.Limits[idx[b]].Pass })
	return idx
}

// GateTable is a row per limit, broken ones first.
func GateTable(res *budget.Result) *table.Table {
	verdict := "every limit holds"
	if !res.Pass {
		verdict = fmt.Sprintf("%d of %d limits broken", res.Failed, len(res.Limits))
	}
	t := &table.Table{
		Name: "gate", Title: "Budget " + res.Budget,
		Note: fmt.Sprintf("%s, over %s; headroom: distance to the nearest bound (negative: broken); top: the sessions that weigh most", verdict, numtext.Count(res.Sessions, "session", "sessions")),
		Columns: []table.Column{
			{Name: "Status"},
			{Name: "Limit", Kind: table.Prose}, // a name of a few words: wrapped, not cut
			{Name: "Policy", Kind: table.Text},
			{Name: "Value", Right: true},
			{Name: "Lower bound", CSV: "lower_bound", MachineOnly: true}, // ≥ on Value
			{Name: "Bound"},
			{Name: "Headroom", Right: true, Drop: 3},
			{Name: "Baseline", Right: true, Drop: 4},
			{Name: "Change", Right: true},
			{Name: "Sessions", Right: true, Drop: 1},
			{Name: "Top sessions", Drop: 2},
		},
	}
	for _, i := range order(res) {
		o := &res.Limits[i]
		status := "pass"
		if !o.Pass {
			status = "FAIL"
		}
		policy := o.Policy
		if policy == "" {
			policy = "recorded"
		}
		var top, topRaw []string
		for _, c := range o.Top {
			v := o.Unit.Text(c.Value)
			if c.LowerBound {
				v = "≥" + v
			}
			top = append(top, fmt.Sprintf("%s (%s)", numtext.ShortID(c.Session), v))
			topRaw = append(topRaw, c.Session+"="+rawFloat(c.Value))
		}
		change, changeRaw := "", ""
		if o.Change != nil {
			change, changeRaw = signedValue(o.Unit, *o.Change), rawFloat(*o.Change)
			if o.ChangePct != nil {
				change += " (" + signedPct(*o.ChangePct) + ")"
			}
		}
		t.Add(
			[]string{status, o.Limit, policy, valueText(o), "", bound(o, false), optSigned(o.Unit, o.Headroom), optValue(o.Unit, o.Baseline), change, numtext.Int(o.Sessions), strings.Join(top, "\n")},
			[]string{status, o.Limit, o.Policy, optRaw(o.Value), strconv.FormatBool(o.LowerBound), bound(o, true), optRaw(o.Headroom), optRaw(o.Baseline), changeRaw, raw(o.Sessions), strings.Join(topRaw, ";")},
		)
	}
	if slices.ContainsFunc(res.Limits, func(o budget.Outcome) bool { return o.LowerBound }) {
		t.Note = withNote(t.Note, LowerBoundNote(true, 0))
	}
	if res.Baseline == "" {
		t.RemoveColumn(8) // change
		t.RemoveColumn(7) // baseline
	}
	return t
}

// GateReasons says why each broken limit broke.
func GateReasons(res *budget.Result) *table.Table {
	t := &table.Table{Name: "gate_reasons", Title: "Why", Columns: []table.Column{{Name: "Limit", Kind: table.Text}, {Name: "Reason", Kind: table.Prose}}, Empty: "every limit holds"}
	for _, i := range order(res) {
		for _, r := range res.Limits[i].Reasons {
			t.AddRow(res.Limits[i].Limit, r)
		}
	}
	return t
}

// bound writes a limit's bounds: "≤ 5", "≥ 0.9", "+≤ 10%".
func bound(o *budget.Outcome, machine bool) string {
	var parts []string
	f := func(u metric.Unit, v float64) string {
		if machine {
			return rawFloat(v)
		}
		return u.Text(v)
	}
	if o.Min != nil {
		parts = append(parts, "min "+f(o.Unit, *o.Min))
	}
	if o.Max != nil {
		parts = append(parts, "max "+f(o.Unit, *o.Max))
	}
	if o.MaxIncrease != nil {
		parts = append(parts, "increase ≤ "+f(o.Unit, *o.MaxIncrease))
	}
	if o.MaxIncreasePct != nil {
		parts = append(parts, "increase ≤ "+rawFloat(*o.MaxIncreasePct)+"%")
	}
	sep := ", "
	if machine {
		sep = ";"
	}
	return strings.Join(parts, sep)
}

func signedValue(u metric.Unit, v float64) string {
	s := u.Text(v)
	if u == metric.Ratio {
		s = numtext.Float(100*v, 1) + " pt" // a change of a ratio is in points
	}
	if v > 0 {
		return "+" + s
	}
	return s
}

// valueText is a limit's value, ≥ when it is a lower bound.
func valueText(o *budget.Outcome) string {
	if o.LowerBound && o.Value != nil {
		return "≥" + optValue(o.Unit, o.Value)
	}
	return optValue(o.Unit, o.Value)
}

func optValue(u metric.Unit, v *float64) string {
	if v == nil {
		return "—"
	}
	return u.Text(*v)
}

func optSigned(u metric.Unit, v *float64) string {
	if v == nil {
		return ""
	}
	return signedValue(u, *v)
}

func optRaw(v *float64) string {
	if v == nil {
		return ""
	}
	return rawFloat(*v)
}

func rawFloat(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// GateText is an evaluation as plain lines, one a limit, for a diff: the
// limit, its value and its verdict.
func GateText(res *budget.Result) string {
	var b strings.Builder
	for _, o := range res.Limits {
		verdict := "pass"
		if !o.Pass {
			verdict = "FAIL"
		}
		fmt.Fprintf(&b, "%s: %s (%s)\n", o.Limit, valueText(&o), verdict)
	}
	return b.String()
}

// GateDiff is the line diff of two evaluations' GateText: "-" lines are the
// baseline's, "+" lines now, "  " unchanged.
func GateDiff(base, cur *budget.Result) string {
	dmp := diffmatchpatch.New()
	a, b, lines := dmp.DiffLinesToChars(GateText(base), GateText(cur))
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(a, b, false), lines)
	var out strings.Builder
	for _, d := range diffs {
		prefix := "  "
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			prefix = "- "
		case diffmatchpatch.DiffInsert:
			prefix = "+ "
		}
		for _, l := range strings.SplitAfter(d.Text, "\n") {
			if l != "" {
				out.WriteString(prefix + l)
			}
		}
	}
	return out.String()
}

// diffLines fits a diff's lines to width (0: as they are), a long line
// going on under its mark.
func diffLines(d string, width int) string {
	if d == "" {
		return ""
	}
	var out []string
	for _, l := range strings.Split(strings.TrimSuffix(d, "\n"), "\n") {
		mark, rest := l[:min(2, len(l))], l[min(2, len(l)):]
		out = append(out, mark+strings.ReplaceAll(table.Wrap(rest, max(0, width-2)), "\n", "\n"+strings.Repeat(" ", len(mark))))
	}
	return strings.Join(out, "\n") + "\n"
}

// GitHubAnnotations are the workflow commands that mark each broken limit
// as an error in a GitHub Actions run.
func GitHubAnnotations(res *budget.Result) []string {
	var out []string
	for _, i := range order(res) {
		o := &res.Limits[i]
		if o.Pass {
			continue
		}
		msg := strings.Join(o.Reasons, "; ")
		out = append(out, fmt.Sprintf("::error title=%s::%s: %s", escapeProperty("ctxlab gate: "+res.Budget), escapeData(o.Limit), escapeData(msg)))
	}
	return out
}

// GitHub's workflow command escaping: data escapes %, CR and LF;
// properties also : and ,.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Output    string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// writeJUnit writes one test case per limit, as CI systems read test
// results (JUnit XML).
func writeJUnit(w io.Writer, res *budget.Result) error {
	s := junitSuite{Name: "ctxlab gate " + res.Budget, Tests: len(res.Limits), Failures: res.Failed}
	for _, o := range res.Limits {
		c := junitCase{Name: o.Limit, Classname: "ctxlab.gate", Output: fmt.Sprintf("value %s; bound %s; sessions %d", valueText(&o), bound(&o, false), o.Sessions)}
		if !o.Pass {
			c.Failure = &junitFailure{Message: strings.Join(o.Reasons, "; "), Text: strings.Join(o.Reasons, "\n")}
		}
		s.Cases = append(s.Cases, c)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(junitSuites{Suites: []junitSuite{s}}); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
