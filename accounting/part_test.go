package accounting

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/ctxlab/ctxlab/replay"
)

// A report written for a part and read back merges, groups and encodes
// as the report Analyze made: the call logs, measured tokens and
// compaction keys the JSON leaves out come back.
func TestReportPart(t *testing.T) {
	srcs, errs := replay.Discover([]string{"../fixtures/testdata/projects"})
	if len(errs) > 0 || len(srcs) < 3 {
		t.Fatalf("Discover: %d sources, %v", len(srcs), errs)
	}
	var orig, back []*Report
	for _, src := range srcs {
		s, err := replay.Load(src, replay.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r := Analyze(s, Config{})
		b, err := r.MarshalPart()
		if err != nil {
			t.Fatal(err)
		}
		r2, err := UnmarshalPart(b)
		if err != nil {
			t.Fatal(err)
		}
		orig, back = append(orig, r), append(back, r2)
	}
	enc := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if a, b := enc(Merge(orig, nil)), enc(Merge(back, nil)); a != b {
		t.Errorf("merged reports differ:\n%s\n%s", a, b)
	}
	ga, ta := GroupsIn(orig, ByDay, time.UTC, nil, Window{})
	gb, tb := GroupsIn(back, ByDay, time.UTC, nil, Window{})
	if enc(ga)+enc(ta) != enc(gb)+enc(tb) {
		t.Errorf("groups differ")
	}
	if _, err := Merge(orig, nil).MarshalPart(); err == nil {
		t.Error("a merged report has a part")
	}
	for _, bad := range []string{`{}`, `{"report":{"compactions":[{}]}}`, `{"report":{},"calls":{"names":[],"records":"AAAA"}}`} {
		if _, err := UnmarshalPart([]byte(bad)); err == nil {
			t.Errorf("UnmarshalPart(%s): no error", bad)
		}
	}
}
