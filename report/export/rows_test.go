package export_test

import (
	"math"
	"testing"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/report/export"
	"github.com/ctxlab/ctxlab/simulate"
)

// Build's rows add up to the session's report: its counted calls' usage
// and cost are the report's totals, its session row is the report's
// summary, one row per cache break, compaction and message, and each run's
// calls, stamped with the whole second the report shows.
func TestBuildMatchesReport(t *testing.T) {
	srcs, errs := replay.Discover([]string{"../../fixtures/testdata/projects"})
	if len(errs) > 0 || len(srcs) < 2 {
		t.Fatalf("fixtures: %d, %v", len(srcs), errs)
	}
	table := prices.Default()
	for i, src := range srcs {
		s, err := replay.Load(src, replay.Options{})
		if err != nil {
			t.Fatal(err)
		}
		rep := accounting.Analyze(s, accounting.DefaultConfig())
		cs, err := policies.CompileList("observed,keep-last-n:n=3")
		if err != nil {
			t.Fatal(err)
		}
		tr := simulate.Prepare(s)
		runs := []*simulate.Result{cs[0].Run(tr, simulate.DefaultConfig()), cs[1].Run(tr, simulate.DefaultConfig())}
		r := export.Build(i, s, rep, runs, table)
		var calls, input, read, output int64
		var cost float64
		for _, c := range r.Calls {
			if c.Session != s.ID || c.SessionIndex != int64(i) {
				t.Fatalf("%s: call row of %s/%d", s.ID, c.Session, c.SessionIndex)
			}
			if c.Counted {
				calls++
				input, read, output, cost = input+c.Input, read+c.CacheRead, output+c.Output, cost+c.Cost
			}
		}
		u := rep.Usage.Total
		if calls != int64(u.Calls) || input != u.Input || read != u.CacheRead || output != u.Output || math.Abs(cost-u.Cost) > 1e-6 {
			t.Errorf("%s: counted calls %d, input %d, read %d, output %d, cost %.6f; report %d, %d, %d, %d, %.6f",
				s.ID, calls, input, read, output, cost, u.Calls, u.Input, u.CacheRead, u.Output, u.Cost)
		}
		if len(r.Sessions) != 1 {
			t.Fatalf("%s: %d session rows", s.ID, len(r.Sessions))
		}
		sr := r.Sessions[0]
		if sr.Calls != int32(rep.Summary.Calls) || sr.Cost != rep.Summary.Cost || sr.Seconds != rep.Summary.Seconds || r.Project != s.Project {
			t.Errorf("%s: session row %+v, summary %+v", s.ID, sr, rep.Summary)
		}
		if sr.Start == nil || int64(*sr.Start) != int64(rep.Summary.Start.Second()) {
			t.Errorf("%s: start %v, report %v", s.ID, sr.Start, rep.Summary.Start)
		}
		if len(r.CacheBreaks) != len(rep.CacheBreaks) || len(r.Compactions) != len(rep.Compactions) {
			t.Errorf("%s: %d breaks, %d compactions; report %d, %d", s.ID, len(r.CacheBreaks), len(r.Compactions), len(rep.CacheBreaks), len(rep.Compactions))
		}
		msgs := 0
		for _, th := range s.Threads() {
			msgs += len(th.Messages)
		}
		if len(r.Messages) != msgs {
			t.Errorf("%s: %d message rows, %d messages", s.ID, len(r.Messages), msgs)
		}
		if want := len(runs[0].Calls) + len(runs[1].Calls); len(r.SimCalls) != want {
			t.Errorf("%s: %d simulated call rows, want %d", s.ID, len(r.SimCalls), want)
		}
	}
}

// Build's rows point at each other as the docs say: a thread's calls are
// numbered from 1 in order, a counted call with a message id carries its
// deduplication key, an assistant message names its call's number in its
// thread, an attachment counts its estimate, and a simulated call is
// stamped with the recorded call's time and lists its actions (none: an
// empty list, not null).
func TestBuildRowsLink(t *testing.T) {
	srcs, errs := replay.Discover([]string{"../../fixtures/testdata/projects"})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var dedup, linked, attachments, stamped int
	for i, src := range srcs {
		s, err := replay.Load(src, replay.Options{})
		if err != nil {
			t.Fatal(err)
		}
		cs, err := policies.CompileList("keep-last-n:n=3")
		if err != nil {
			t.Fatal(err)
		}
		runs := []*simulate.Result{cs[0].Run(simulate.Prepare(s), simulate.DefaultConfig())}
		r := export.Build(i, s, accounting.Analyze(s, accounting.DefaultConfig()), runs, prices.Default())
		calls := map[int32]int32{} // calls seen per thread index
		for _, c := range r.Calls {
			calls[c.ThreadIndex]++
			if c.Call != calls[c.ThreadIndex] {
				t.Errorf("%s: thread %d's call %d numbered %d", s.ID, c.ThreadIndex, calls[c.ThreadIndex], c.Call)
			}
			switch want := c.MessageID + ":" + c.RequestID; {
			case c.Counted && c.MessageID != "":
				if c.DedupKey == nil || *c.DedupKey != want {
					t.Errorf("%s: call %d: dedup key %v, want %s", s.ID, c.Call, c.DedupKey, want)
				}
				dedup++
			case c.DedupKey != nil:
				t.Errorf("%s: call %d (counted %v, message id %q) has dedup key %s", s.ID, c.Call, c.Counted, c.MessageID, *c.DedupKey)
			}
		}
		k := 0
		for ti, th := range s.Threads() {
			for mi, m := range th.Messages {
				row := r.Messages[k]
				k++
				want := int32(0)
				if m.Role == replay.RoleAssistant && m.Call >= 0 {
					want = int32(m.Call + 1)
					linked++
				}
				if row.Message != int32(mi+1) || row.ThreadIndex != int32(ti) || row.Call != want {
					t.Errorf("%s: thread %d message %d: row message %d, call %d; want %d, %d", s.ID, ti, mi, row.Message, row.Call, mi+1, want)
				}
				if m.Role == replay.RoleAttachment && m.AttachmentEst > 0 {
					if row.Tokens < int64(m.AttachmentEst) {
						t.Errorf("%s: attachment message %d: %d tokens, its estimate %d", s.ID, mi, row.Tokens, m.AttachmentEst)
					}
					attachments++
				}
			}
		}
		for _, c := range r.SimCalls {
			if c.Actions == nil {
				t.Errorf("%s: simulated call %d: actions null", s.ID, c.Call)
			}
			if n := int(c.Call) - 1; n >= 0 && n < len(s.Main.Calls) && s.Main.Calls[n].Time > 0 {
				if c.Time == nil || int64(*c.Time) != s.Main.Calls[n].Time {
					t.Errorf("%s: simulated call %d stamped %v, recorded %d", s.ID, c.Call, c.Time, s.Main.Calls[n].Time)
				}
				stamped++
			}
		}
	}
	if dedup == 0 || linked == 0 || attachments == 0 || stamped == 0 {
		t.Errorf("fixtures exercise too little: %d dedup keys, %d linked messages, %d attachments, %d stamped simulated calls", dedup, linked, attachments, stamped)
	}
}
