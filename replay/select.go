package replay

import (
	"fmt"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Selection picks sessions: by project and session id, before they are
// read, and by the time window their activity overlaps, after. The zero
// Selection picks every session.
type Selection struct {
	// Projects and Sessions are shell patterns (path.Match) on a source's
	// Project and ID; a source is picked when any pattern of each
	// non-empty list matches.
	Projects []string
	Sessions []string
	// Since and Until bound the window, in Unix ms; 0 leaves a side open.
	// A session is picked when its first and last timestamps overlap
	// [Since, Until).
	Since, Until int64
}

// IsZero reports whether the selection picks every session.
func (sel Selection) IsZero() bool {
	return len(sel.Projects) == 0 && len(sel.Sessions) == 0 && sel.Since == 0 && sel.Until == 0
}

// A SelectionError is what Check found wrong in a selection: the field
// it is about (project, session, or until for a window that ends where or
// before it starts), the value ("" for the window) and why.
type SelectionError struct {
	Field, Value string
	Err          error
}

func (e *SelectionError) Error() string {
	if e.Value == "" {
		return fmt.Sprintf("%s: %v", e.Field, e.Err)
	}
	return fmt.Sprintf("%s %q: %v", e.Field, e.Value, e.Err)
}

func (e *SelectionError) Unwrap() error { return e.Err }

// Check reports the first malformed pattern or an empty window, as a
// *SelectionError.
func (sel Selection) Check() error {
	for _, f := range []struct {
		name     string
		patterns []string
	}{{"project", sel.Projects}, {"session", sel.Sessions}} {
		for _, p := range f.patterns {
			if _, err := path.Match(p, ""); err != nil {
				return &SelectionError{Field: f.name, Value: p, Err: err}
			}
		}
	}
	if sel.Since > 0 && sel.Until > 0 && sel.Until <= sel.Since {
		return &SelectionError{Field: "until", Err: fmt.Errorf("the window is empty: it ends (%s) where or before it starts (%s)", Stamp(sel.Until), Stamp(sel.Since))}
	}
	return nil
}

// ResolvePrefixes turns each session id of the selection that is not a
// pattern (no *, ? or [) and names no source exactly into the one source
// id it begins, so that --session d3e4f5a6 picks d3e4f5a6-…; it fails
// when such a prefix begins several ids. A prefix that begins none is
// left as it is (it picks nothing).
func (sel *Selection) ResolvePrefixes(srcs []Source) error {
	for i, p := range sel.Sessions {
		if strings.ContainsAny(p, "*?[\\") {
			continue
		}
		var hits []string
		exact := false
		for _, s := range srcs {
			id := s.ID()
			exact = exact || id == p
			if strings.HasPrefix(id, p) && !slices.Contains(hits, id) {
				hits = append(hits, id)
			}
		}
		switch {
		case exact || len(hits) == 0:
		case len(hits) == 1:
			sel.Sessions[i] = hits[0]
		default:
			slices.Sort(hits)
			if len(hits) > 5 {
				hits = append(hits[:5], "…")
			}
			return fmt.Errorf("session %q is ambiguous: it begins %s", p, strings.Join(hits, ", "))
		}
	}
	return nil
}

// Sources returns the sources whose project and id the selection picks,
// in order.
func (sel Selection) Sources(srcs []Source) []Source {
	if len(sel.Projects) == 0 && len(sel.Sessions) == 0 {
		return srcs
	}
	var out []Source
	for _, s := range srcs {
		if matchAny(sel.Projects, s.Project()) && matchAny(sel.Sessions, s.ID()) {
			out = append(out, s)
		}
	}
	return out
}

// Session reports whether a read session's activity overlaps the window.
// A session without timestamps is picked only by an open window.
func (sel Selection) Session(s *Session) bool { return sel.inWindow(s.Start(), s.End()) }

// Picks reports whether the selection picks a session of this project and
// id whose activity spans [start, end] (Unix ms; 0 and 0 when unknown).
func (sel Selection) Picks(project, id string, start, end int64) bool {
	return matchAny(sel.Projects, project) && matchAny(sel.Sessions, id) && sel.inWindow(start, end)
}

func (sel Selection) inWindow(start, end int64) bool {
	if sel.Since == 0 && sel.Until == 0 {
		return true
	}
	if start == 0 && end == 0 {
		return false
	}
	return (sel.Since == 0 || end >= sel.Since) && (sel.Until == 0 || start < sel.Until)
}

func matchAny(patterns []string, name string) bool {
	if len(patterns) == 0 {
		return true
	}
	for _, p := range patterns {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

// ParseSince reads the start of a window: a date (2026-11-01, or
// 20261101 as ccusage writes it: midnight UTC), a time (RFC 3339), or an
// age before now ("7d", "36h", "90m", "2w").
func ParseSince(v string, now time.Time) (int64, error) { return parseBound(v, now, false) }

// ParseUntil reads the end of a window as ParseSince does, except that a
// date includes its day: --until 2026-11-01 ends at the next midnight, so
// that --since and --until of one date select that day.
func ParseUntil(v string, now time.Time) (int64, error) { return parseBound(v, now, true) }

func parseBound(v string, now time.Time, endOfDay bool) (int64, error) {
	v = strings.TrimSpace(v)
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t.UnixMilli(), nil
	}
	for _, layout := range []string{time.DateOnly, "20060102"} {
		if t, err := time.Parse(layout, v); err == nil {
			if endOfDay {
				t = t.AddDate(0, 0, 1)
			}
			return t.UnixMilli(), nil
		}
	}
	if n := len(v); n > 1 {
		unit := map[byte]time.Duration{'w': 7 * 24 * time.Hour, 'd': 24 * time.Hour}[v[n-1]]
		if unit > 0 {
			if k, err := strconv.ParseFloat(v[:n-1], 64); err == nil && k >= 0 {
				return now.Add(-time.Duration(k * float64(unit))).UnixMilli(), nil
			}
		} else if d, err := time.ParseDuration(v); err == nil && d >= 0 {
			return now.Add(-d).UnixMilli(), nil
		}
	}
	return 0, fmt.Errorf("%q: want a date (2026-11-01 or 20261101), a time (2026-11-01T09:00:00Z) or an age (7d, 36h)", v)
}

// Newest returns the n sources whose main transcript was written last
// (file modification time: Claude Code appends to a session's file as it
// goes), in their input order; standard input counts as the newest. Ties
// go to the later path. n <= 0 keeps every source.
func Newest(srcs []Source, n int) []Source {
	if n <= 0 || n >= len(srcs) {
		return srcs
	}
	type aged struct {
		i  int
		at time.Time
	}
	ages := make([]aged, len(srcs))
	for i, s := range srcs {
		ages[i] = aged{i: i, at: time.Unix(1<<40, 0)}
		if s.Path != "-" {
			ages[i].at = time.Time{}
			if fi, err := os.Stat(s.Path); err == nil {
				ages[i].at = fi.ModTime()
			}
		}
	}
	slices.SortStableFunc(ages, func(a, b aged) int {
		if c := b.at.Compare(a.at); c != 0 {
			return c
		}
		return strings.Compare(srcs[b.i].Path, srcs[a.i].Path)
	})
	keep := make([]bool, len(srcs))
	for _, a := range ages[:n] {
		keep[a.i] = true
	}
	var out []Source
	for i, s := range srcs {
		if keep[i] {
			out = append(out, s)
		}
	}
	return out
}
