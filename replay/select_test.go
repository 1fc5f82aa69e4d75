package replay

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseWindowTime(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	ms := func(t time.Time) int64 { return t.UnixMilli() }
	tests := []struct {
		in   string
		want int64
	}{
		{"2026-11-01", ms(time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))},
		{"2026-11-01T09:30:00Z", ms(time.Date(2026, 11, 1, 9, 30, 0, 0, time.UTC))},
		{"2026-11-01T09:30:00+02:00", ms(time.Date(2026, 11, 1, 7, 30, 0, 0, time.UTC))},
		{"7d", ms(now.Add(-7 * 24 * time.Hour))},
		{"1.5d", ms(now.Add(-36 * time.Hour))},
		{"2w", ms(now.Add(-14 * 24 * time.Hour))},
		{"36h", ms(now.Add(-36 * time.Hour))},
		{"90m", ms(now.Add(-90 * time.Minute))},
	}
	for _, tt := range tests {
		if got, err := ParseSince(tt.in, now); err != nil || got != tt.want {
			t.Errorf("ParseSince(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
		// Until reads the same, except that a date includes its day.
		want := tt.want
		if len(tt.in) == len("2026-11-01") {
			want += 24 * 3600 * 1000
		}
		if got, err := ParseUntil(tt.in, now); err != nil || got != want {
			t.Errorf("ParseUntil(%q) = %d, %v; want %d", tt.in, got, err, want)
		}
	}
	// ccusage's date form.
	if got, _ := ParseSince("20261101", now); got != ms(time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("ParseSince(20261101) = %d", got)
	}
	if got, _ := ParseUntil("20261101", now); got != ms(time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("ParseUntil(20261101) = %d", got)
	}
	for _, bad := range []string{"", "yesterday", "7", "-3d", "d", "2026-13-01", "-1h", "20261301"} {
		if _, err := ParseSince(bad, now); err == nil {
			t.Errorf("ParseSince(%q): no error", bad)
		}
		if _, err := ParseUntil(bad, now); err == nil {
			t.Errorf("ParseUntil(%q): no error", bad)
		}
	}
	// One date on both sides is that day, not an empty window.
	since, _ := ParseSince("2026-11-01", now)
	until, _ := ParseUntil("2026-11-01", now)
	if err := (Selection{Since: since, Until: until}).Check(); err != nil {
		t.Errorf("one day: %v", err)
	}
	if err := (Selection{Since: since, Until: since}).Check(); err == nil || !strings.Contains(err.Error(), "the window is empty") {
		t.Errorf("an empty window: %v", err)
	}
}

func TestSelection(t *testing.T) {
	srcs := []Source{
		{Path: "/p/-home-a-web/s1.jsonl"},
		{Path: "/p/-home-a-api/s2.jsonl"},
		{Path: "/p/-home-b-web/s3.jsonl"},
		{Path: "/p/-home-b-web/s3/subagents/agent-x.jsonl"},
	}
	ids := func(ss []Source) (out []string) {
		for _, s := range ss {
			out = append(out, s.Project()+"/"+s.ID())
		}
		return out
	}
	sel := Selection{Projects: []string{"*-web"}, Sessions: []string{"s3", "s1"}}
	if got := ids(sel.Sources(srcs)); len(got) != 2 || got[0] != "-home-a-web/s1" || got[1] != "-home-b-web/s3" {
		t.Errorf("Sources = %q", got)
	}
	if got := (Selection{}).Sources(srcs); len(got) != 4 {
		t.Errorf("the zero Selection picks %d of 4", len(got))
	}
	// Check names the field it finds wrong, so that a flag or a budget's
	// limit can say which of its fields it is.
	for _, tc := range []struct {
		sel                Selection
		field, value, want string
	}{
		{Selection{Projects: []string{"*", "[a"}}, "project", "[a", `project "[a": syntax error in pattern`},
		{Selection{Projects: []string{"p"}, Sessions: []string{"s[", "x"}}, "session", "s[", `session "s[": syntax error in pattern`},
		{Selection{Since: 2000, Until: 1000}, "until", "", "until: the window is empty: it ends (1970-01-01T00:00:01Z) where or before it starts (1970-01-01T00:00:02Z)"},
	} {
		err := tc.sel.Check()
		var se *SelectionError
		if !errors.As(err, &se) || se.Field != tc.field || se.Value != tc.value || err.Error() != tc.want {
			t.Errorf("%+v: Check() = %v, want %s", tc.sel, err, tc.want)
		}
	}

	s := &Session{Main: &Thread{Start: 1000, End: 2000}}
	for _, tt := range []struct {
		since, until int64
		want         bool
	}{
		{0, 0, true}, {2000, 0, true}, {2001, 0, false}, {0, 1001, true}, {0, 1000, false}, {1500, 1600, true},
	} {
		if got := (Selection{Since: tt.since, Until: tt.until}).Session(s); got != tt.want {
			t.Errorf("window [%d, %d): %v, want %v", tt.since, tt.until, got, tt.want)
		}
	}
	if (Selection{Since: 1}).Session(&Session{Main: &Thread{}}) {
		t.Error("a session without timestamps is in a bounded window")
	}
}

func TestResolvePrefixes(t *testing.T) {
	srcs := []Source{
		{Path: "/p/x/d3e4f5a6-b7c8.jsonl"}, {Path: "/p/x/d3e4aaaa-0000.jsonl"}, {Path: "/p/y/5a1b3c4d-2e6f.jsonl"}, {Path: "/p/y/abc.jsonl"}, {Path: "/p/y/abcd.jsonl"},
	}
	sel := Selection{Sessions: []string{"d3e4f", "5a1b", "abc", "zz", "d3*"}}
	if err := sel.ResolvePrefixes(srcs); err != nil {
		t.Fatal(err)
	}
	// A unique prefix becomes its id; an exact id, a pattern and a prefix
	// of nothing stay.
	want := []string{"d3e4f5a6-b7c8", "5a1b3c4d-2e6f", "abc", "zz", "d3*"}
	if !slices.Equal(sel.Sessions, want) {
		t.Errorf("Sessions = %q, want %q", sel.Sessions, want)
	}
	sel = Selection{Sessions: []string{"d3e4"}}
	if err := sel.ResolvePrefixes(srcs); err == nil || !strings.Contains(err.Error(), `"d3e4" is ambiguous: it begins d3e4aaaa-0000, d3e4f5a6-b7c8`) {
		t.Errorf("ambiguous prefix: %v", err)
	}
}

func TestNewest(t *testing.T) {
	dir := t.TempDir()
	var srcs []Source
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, age := range []int{3, 1, 2, 5} { // hours after base
		p := filepath.Join(dir, fmt.Sprintf("s%d.jsonl", i))
		if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		at := base.Add(time.Duration(age) * time.Hour)
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, Source{Path: p})
	}
	ids := func(ss []Source) (out []string) {
		for _, s := range ss {
			out = append(out, s.ID())
		}
		return out
	}
	// The two newest (s3 at +5h, s0 at +3h), in input order.
	if got := ids(Newest(srcs, 2)); !slices.Equal(got, []string{"s0", "s3"}) {
		t.Errorf("Newest(2) = %q", got)
	}
	if got := Newest(srcs, 0); len(got) != 4 {
		t.Errorf("Newest(0) kept %d", len(got))
	}
	if got := ids(Newest(append(srcs, Source{Path: "-"}), 1)); !slices.Equal(got, []string{"-"}) {
		t.Errorf("stdin is not the newest: %q", got)
	}
}
