package replay

import (
	"fmt"
	"time"
)

// Time is an instant in Unix milliseconds, as the reader takes it from a
// line's timestamp; 0 is none. Reports keep it as a number and print it,
// in text and in JSON, as Stamp does: RFC 3339, UTC, whole seconds, or ""
// for none. JSON that ctxlab wrote reads back to the same value.
type Time int64

// String is the time as reports show it (Stamp).
func (t Time) String() string {
	if t == 0 {
		return ""
	}
	return string(t.AppendRFC3339(nil, false))
}

// AppendRFC3339 appends the time in RFC 3339, UTC: whole seconds, or with
// milliseconds when milli is set and it has them. Every time ctxlab
// writes, in text, JSON and export's NDJSON, is written here.
func (t Time) AppendRFC3339(b []byte, milli bool) []byte {
	layout := "2006-01-02T15:04:05Z"
	if milli && t%1000 != 0 {
		layout = "2006-01-02T15:04:05.000Z"
	}
	return time.UnixMilli(int64(t)).UTC().AppendFormat(b, layout)
}

// Second is the time cut to the whole second that String shows.
func (t Time) Second() Time { return t / 1000 * 1000 }

// UTC is the time as a time.Time in UTC; the zero time.Time for none.
func (t Time) UTC() time.Time {
	if t == 0 {
		return time.Time{}
	}
	return time.UnixMilli(int64(t)).UTC()
}

// MarshalJSON writes the time as a JSON string.
func (t Time) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 22)
	b = append(b, '"')
	if t != 0 {
		b = t.AppendRFC3339(b, false)
	}
	return append(b, '"'), nil
}

// UnmarshalJSON reads a JSON string in RFC 3339 ("" is none); null
// leaves the time as it is, as encoding/json does.
func (t *Time) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return fmt.Errorf("time %s: want a string", b)
	}
	s := string(b[1 : len(b)-1])
	if s == "" {
		*t = 0
		return nil
	}
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return fmt.Errorf("time %q: want RFC 3339", s)
	}
	*t = Time(v.UnixMilli())
	return nil
}

// Stamp formats a Unix millisecond time as reports show it (RFC 3339, UTC,
// whole seconds); "" for 0, an unknown time.
func Stamp(ms int64) string { return Time(ms).String() }
