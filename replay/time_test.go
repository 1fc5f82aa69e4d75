package replay

import (
	"encoding/json"
	"testing"
)

// Time prints as Stamp, writes JSON strings and reads back what it wrote,
// whole seconds; "" is none both ways.
func TestTime(t *testing.T) {
	for _, c := range []struct {
		ms   int64
		text string
	}{{0, ""}, {1767262368000, "2026-01-01T10:12:48Z"}, {1767262368351, "2026-01-01T10:12:48Z"}} {
		tm := Time(c.ms)
		if tm.String() != c.text {
			t.Errorf("String(%d) = %q, want %q", c.ms, tm.String(), c.text)
		}
		b, err := json.Marshal(tm)
		if err != nil || string(b) != `"`+c.text+`"` {
			t.Errorf("Marshal(%d) = %s, %v", c.ms, b, err)
		}
		var back Time
		if err := json.Unmarshal(b, &back); err != nil || back != Time(c.ms/1000*1000) {
			t.Errorf("Unmarshal(%s) = %d, %v; want %d", b, back, err, c.ms/1000*1000)
		}
		if (tm == 0) != tm.UTC().IsZero() || tm != 0 && tm.UTC().UnixMilli() != c.ms {
			t.Errorf("UTC(%d) = %v", c.ms, tm.UTC())
		}
	}
	var v Time
	for _, bad := range []string{`12`, `"yesterday"`, `"`} {
		if err := json.Unmarshal([]byte(bad), &v); err == nil {
			t.Errorf("Unmarshal(%s): no error", bad)
		}
	}
	// A time with an offset reads as the same instant.
	if err := json.Unmarshal([]byte(`"2026-01-01T11:12:48+01:00"`), &v); err != nil || v.String() != "2026-01-01T10:12:48Z" {
		t.Errorf("offset: %v, %v", v, err)
	}
}
