package plots

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/report/plots/plotdata"
	"github.com/ctxlab/ctxlab/report/plots/plotdata/plotdatatest"
	"github.com/ctxlab/ctxlab/simulate"
)

func TestFileName(t *testing.T) {
	for _, c := range []struct{ session, kind, policy, format, want string }{
		{"4a5c6ea5-9101", KindContext, "", "png", "4a5c6ea5-9101-context.png"},
		{"4a5c6ea5-9101", KindCache, "claude-code", "svg", "4a5c6ea5-9101-cache-claude-code.svg"},
		{"s", KindCache, "keep-last-n:n=10", "png", "s-cache-keep-last-n_n_10.png"},
		{Total, KindTokens, "", "png", "total-tokens.png"},
		{"a/b c", KindCost, "", "png", "a_b_c-cost.png"},
	} {
		if got := fileName(c.session, c.kind, c.policy, c.format); got != c.want {
			t.Errorf("fileName(%q, %q, %q, %q) = %q, want %q", c.session, c.kind, c.policy, c.format, got, c.want)
		}
	}
}

func TestSessionFiles(t *testing.T) {
	rep := &accounting.Report{Tokens: plotdatatest.Accounting(), Duplicates: plotdatatest.Dups()}
	var names []string
	for _, f := range SessionFiles("d3e4f5a6", plotdatatest.Synthetic(), rep, "png", Options{}) {
		names = append(names, f.Name)
		if f.Figure == nil || !strings.Contains(f.Figure.Title, "d3e4f5a6") {
			t.Errorf("%s: title %q does not name the session", f.Name, f.Figure.Title)
		}
	}
	want := []string{
		"d3e4f5a6-context.png", "d3e4f5a6-cost.png", "d3e4f5a6-cache-observed.png",
		"d3e4f5a6-cache-claude-code.png", "d3e4f5a6-tokens.png", "d3e4f5a6-duplicates.png",
	}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("SessionFiles names %q, want %q", names, want)
	}
	runs := plotdatatest.Synthetic()
	var twice []string
	for _, f := range SessionFiles("s", []*simulate.Result{runs[0], runs[0]}, nil, "svg", Options{}) {
		twice = append(twice, f.Name)
	}
	if want := []string{"s-context.svg", "s-cost.svg", "s-cache-observed.svg", "s-cache-observed_2.svg"}; !reflect.DeepEqual(twice, want) {
		t.Errorf("a policy run twice: %q, want %q", twice, want)
	}
	if n := len(SessionFiles("s", nil, nil, "svg", Options{})); n != 0 {
		t.Errorf("SessionFiles(no runs, no report): %d files", n)
	}
	// A session without a call (a file with only a summary): its runs
	// replay nothing, its report counts no call; no plot, not six blank
	// ones. A report of a call with no run draws its two.
	empty := []*simulate.Result{{Policy: "observed"}, {Policy: "claude-code"}}
	if n := len(SessionFiles("s", empty, &accounting.Report{}, "svg", Options{})); n != 0 || HasCalls(empty, nil) {
		t.Errorf("SessionFiles(a session without calls): %d files", n)
	}
	withCall := &accounting.Report{Summary: accounting.Summary{Calls: 1}, Tokens: plotdatatest.Accounting()}
	if n := len(SessionFiles("s", nil, withCall, "svg", Options{})); n != 2 {
		t.Errorf("SessionFiles(a report with a call, no run): %d files, want 2", n)
	}
	names = nil
	corpus := *rep
	corpus.Summary.Sessions = 3
	var titles []string
	for _, f := range TotalFiles(&corpus, "svg", Options{}) {
		names = append(names, f.Name)
		titles = append(titles, f.Figure.Title)
	}
	if want := []string{"total-tokens.svg", "total-duplicates.svg"}; !reflect.DeepEqual(names, want) {
		t.Errorf("TotalFiles names %q, want %q", names, want)
	}
	if want := []string{"Token accounting — all 3 sessions — 1,925 tokens", "Duplicate reads — all 3 sessions"}; !reflect.DeepEqual(titles, want) {
		t.Errorf("TotalFiles titles %q, want %q", titles, want)
	}
	pols, ms := plotdatatest.Policies()
	files := CompareTotalFiles(pols, ms, 7, CostIntervals{}, "png", Options{})
	if len(files) != 1 || files[0].Name != "total-cost.png" || files[0].Figure == nil {
		t.Fatalf("CompareTotalFiles = %+v, want one file total-cost.png", files)
	}
	if got, want := files[0].Figure.Title, "Cost by policy — all 7 sessions"; got != want {
		t.Errorf("CompareTotalFiles title %q, want %q", got, want)
	}
}

// The cost figure notes 100 against 103.749 as +3.8%: PolicyCosts rounds
// the change to 3.75, as compare's table does, and the note to a tenth.
func TestPolicyDeltaNote(t *testing.T) {
	got := plotdata.PolicyCosts([]string{"a", "b"}, []simulate.Metrics{{TotalCost: 100}, {TotalCost: 103.749}}, 2)
	if d := got.Bars[1].DeltaPct; d == nil || deltaNote(*d) != "+3.8%" {
		t.Errorf("100 → 103.749: delta %v", d)
	}
}

// The context figure over a night's gap names the cut and the axis's
// meaning (plotdata's TestContextSeriesIdleGapsCut pins the series).
func TestContextIdleGapsNamed(t *testing.T) {
	r := &simulate.Result{Policy: "observed", Calls: []simulate.CallResult{
		{Call: 1, Time: plotdatatest.Stamp("2026-01-02T22:00:00Z"), Prompt: 1000},
		{Call: 2, Time: plotdatatest.Stamp("2026-01-02T23:00:00Z"), Prompt: 2000},
		{Call: 3, Time: plotdatatest.Stamp("2026-01-03T09:00:00Z"), Prompt: 3000},
		{Call: 4, Time: plotdatatest.Stamp("2026-01-03T09:30:00Z"), Prompt: 4000},
	}}
	var b bytes.Buffer
	if err := Context([]*simulate.Result{r}, Options{XTime: true}).Write(&b, "svg"); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"active hours since the first call (idle gaps over 1 h cut)", "1 idle gap cut (10.0 h idle)"} {
		if !bytes.Contains(b.Bytes(), []byte(s)) {
			t.Errorf("the figure does not say %q", s)
		}
	}
}
