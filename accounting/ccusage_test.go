package accounting

import (
	"testing"
	"time"

	"github.com/ctxlab/ctxlab/accounting/prices"
)

// The rules where ctxlab's totals differ from ccusage's, each on a fixture
// written for it (docs/ccusage.md).

// A resumed 1.0.x session's file copies earlier messages, and 1.0.x wrote
// no requestId: the copy has the same message.id and no requestId. ctxlab
// keys a call by message.id when requestId is missing, so the copy counts
// once over the corpus; ccusage 20.0.24 keys by the pair and counts it in
// each file.
func TestCcusageCopiedMessageWithoutRequestID(t *testing.T) {
	first := newTr("s1")
	first.version = "1.0.80"
	first.user("go")
	first.line("msg_shared", "", sonnet4, use{in: 10, w5: 100, read: 5000, out: 20})
	resumed := newTr("s2")
	resumed.version = "1.0.80"
	resumed.raw(first.lines[1]) // the copy, as the resume writes it
	resumed.user("again")
	resumed.line("msg_new", "", sonnet4, use{in: 12, w5: 50, read: 5100, out: 30})
	a, b := analyze(t, first, nil), analyze(t, resumed, nil)
	total := Merge([]*Report{a, b}, prices.Default())
	if got := total.Usage.Total; got.Calls != 2 || got.CacheRead != 10_100 {
		t.Errorf("total: %d calls, %d cache reads; want 2 calls, 10,100 reads (the copy once)", got.Calls, got.CacheRead)
	}
	if got := a.Usage.Total.CacheRead + b.Usage.Total.CacheRead; got != 15_100 {
		t.Errorf("the sessions' own reports read %d, want 15,100: each file's report counts what it holds", got)
	}
}

// 1-hour cache writes (usage.cache_creation.ephemeral_1h_input_tokens)
// are priced at their own rate, 2× input; ccusage 18 priced every cache
// write at the 5-minute rate.
func TestCcusageOneHourWrites(t *testing.T) {
	x := newTr("s1")
	x.user("go")
	x.call(sonnet46, use{in: 0, w1: 100_000})
	r := analyze(t, x, nil)
	if got := r.Usage.Total.Cost; got != 0.6 { // $6 per million 1-hour writes, not $3.75
		t.Errorf("100,000 1-hour writes cost $%v, want $0.60", got)
	}
}

// 1.0.x wrote one API response as several lines whose output_tokens grow
// (the same message.id and requestId); ctxlab keeps the line with the
// most tokens, never sums; ccusage 18 kept the first line's, the
// smallest.
func TestCcusageSplitOutputs(t *testing.T) {
	x := newTr("s1")
	x.version = "1.0.80"
	x.user("go")
	for _, out := range []int64{4, 60, 133} {
		x.line("msg_1", "req_1", sonnet4, use{in: 10, w5: 100, read: 1000, out: out})
	}
	r := analyze(t, x, nil)
	if got := r.Usage.Total; got.Calls != 1 || got.Output != 133 {
		t.Errorf("%d calls, output %d; want 1 call, output 133", got.Calls, got.Output)
	}
}

// A 1.0.x response split over lines that straddle an hour: ccusage 20.0.24
// dates the call by the line whose usage it keeps (the last, with the
// most output), so its billing block starts at the later hour.
func TestCcusageSplitOutputsBlock(t *testing.T) {
	x := newTr("s1")
	x.version = "1.0.102"
	x.clock = time.Date(2025, 9, 3, 5, 59, 59, 0, time.UTC)
	x.user("go")
	x.line("msg_1", "req_1", sonnet4, use{in: 4, w5: 100, read: 1000, out: 5})
	x.after(3*time.Second).line("msg_1", "req_1", sonnet4, use{in: 4, w5: 100, read: 1000, out: 292})
	gs := Groups([]*Report{analyze(t, x, nil)}, ByBlock, nil, nil)
	if len(gs) != 1 || gs[0].Key != "2025-09-03 06:00" || gs[0].Usage.Output != 292 {
		t.Fatalf("blocks %+v; want one at 2025-09-03 06:00 with output 292", gs)
	}
	if got := time.UnixMilli(int64(gs[0].LastActivity)).UTC().Format(time.RFC3339); got != "2025-09-03T06:00:02Z" {
		t.Errorf("last activity %s, want 2025-09-03T06:00:02Z", got)
	}
}
