// Package budget checks token and cost budgets over a set of sessions, for
// ctxlab gate: a budget file lists limits, each on one measure of the
// recorded run or of a run simulated under a policy, aggregated over the
// sessions it selects, bounded absolutely or against a baseline
// evaluation. See docs/gate.md.
package budget

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ctxlab/ctxlab/internal/jsonerr"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate/metric"
)

// Version is the budget file version this package reads.
const Version = 1

// File is a budget: {"version": 1, "limits": [...]}.
type File struct {
	Version int     `json:"version"`
	Limits  []Limit `json:"limits"`
}

// Limit is one bound on one measure.
type Limit struct {
	// Name identifies the limit in the output and in a baseline; by
	// default its measure, aggregation and policy.
	Name    string      `json:"name,omitempty"`
	Measure string      `json:"measure"`
	Of      Aggregation `json:"of,omitempty"` // default total
	// Max and Min bound the value; MaxIncrease and MaxIncreasePct bound
	// its change from the baseline's value of the same limit.
	Max            *float64 `json:"max,omitempty"`
	Min            *float64 `json:"min,omitempty"`
	MaxIncrease    *float64 `json:"max_increase,omitempty"`
	MaxIncreasePct *float64 `json:"max_increase_pct,omitempty"`
	// Policy is a policy spec (ctxlab policies): the limit applies to the
	// session replayed under it; empty: to the recorded run.
	Policy string `json:"policy,omitempty"`
	// Project and Session are shell patterns on the project folder and the
	// session id; Since and Until bound the sessions' activity (a date, an
	// RFC 3339 time, or an age such as 7d).
	Project string `json:"project,omitempty"`
	Session string `json:"session,omitempty"`
	Since   string `json:"since,omitempty"`
	Until   string `json:"until,omitempty"`
	// Unpriced says what a cost limit does when a selected call's model
	// has no price: "fail" (the default) or "ignore" (cost the rest).
	Unpriced string `json:"unpriced,omitempty"`

	sel    replay.Selection
	policy string // canonical spec
}

// Key is the limit's identity in the output and in a baseline.
func (l *Limit) Key() string {
	if l.Name != "" {
		return l.Name
	}
	k := l.Measure + " " + string(l.Of)
	if l.policy != "" {
		k += " under " + l.policy
	}
	for _, s := range []struct{ k, v string }{{"project", l.Project}, {"session", l.Session}, {"since", l.Since}, {"until", l.Until}} {
		if s.v != "" {
			k += " " + s.k + "=" + s.v
		}
	}
	return k
}

// PolicySpec is the limit's canonical policy spec; "" for the recorded run.
func (l *Limit) PolicySpec() string { return l.policy }

// Selection is the sessions the limit applies to.
func (l *Limit) Selection() replay.Selection { return l.sel }

// Error is a malformed budget: the file, the limit's index (-1 for the
// file as a whole) and the field.
type Error struct {
	File  string
	Index int
	Field string
	Err   error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Index >= 0 {
		fmt.Fprintf(&b, ": limits[%d]", e.Index)
	}
	if e.Field != "" {
		if e.Index >= 0 {
			b.WriteString(".")
		} else {
			b.WriteString(": ")
		}
		b.WriteString(e.Field)
	}
	return b.String() + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Canon checks a policy spec and returns its canonical form (policies.Parse
// and the policy's Name); Parse takes it so that this package does not
// depend on the policies.
type Canon func(spec string) (string, error)

// Parse reads and checks a budget. name names it in errors; now anchors
// ages in since and until; canon checks the limits' policies.
func Parse(r io.Reader, name string, now time.Time, canon Canon) (*File, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, &Error{File: name, Index: -1, Err: err}
	}
	var raw struct {
		Version *int              `json:"version"`
		Limits  []json.RawMessage `json:"limits"`
	}
	if err := strictDecode(data, &raw); err != nil {
		return nil, &Error{File: name, Index: -1, Field: jsonerr.Field(err), Err: jsonerr.Cause(err)}
	}
	switch {
	case raw.Version == nil:
		return nil, &Error{File: name, Index: -1, Field: "version", Err: errors.New("missing: want 1")}
	case *raw.Version != Version:
		return nil, &Error{File: name, Index: -1, Field: "version", Err: fmt.Errorf("%d: this ctxlab reads version %d", *raw.Version, Version)}
	case len(raw.Limits) == 0:
		return nil, &Error{File: name, Index: -1, Field: "limits", Err: errors.New("empty: a budget needs at least one limit")}
	}
	f := &File{Version: *raw.Version}
	keys := map[string]int{}
	for i, rl := range raw.Limits {
		var l Limit
		if err := strictDecode(rl, &l); err != nil {
			return nil, &Error{File: name, Index: i, Field: jsonerr.Field(err), Err: jsonerr.Cause(err)}
		}
		if field, err := l.check(now, canon); err != nil {
			return nil, &Error{File: name, Index: i, Field: field, Err: err}
		}
		if j, dup := keys[l.Key()]; dup {
			return nil, &Error{File: name, Index: i, Err: fmt.Errorf("the same limit as limits[%d] (%q): give one a name", j, l.Key())}
		}
		keys[l.Key()] = i
		f.Limits = append(f.Limits, l)
	}
	return f, nil
}

// check validates the limit and fills its parsed fields; it returns the
// offending field.
func (l *Limit) check(now time.Time, canon Canon) (string, error) {
	m, err := metric.LookupMeasure(l.Measure)
	if err != nil {
		if l.Measure == "" {
			return "measure", errors.New("missing")
		}
		return "measure", err
	}
	if l.Of == "" {
		l.Of = Total
	}
	if !l.Of.valid() {
		return "of", fmt.Errorf("%q: want one of %s", l.Of, strings.Join(aggregationNames(), ", "))
	}
	if field, err := l.checkBounds(); err != nil {
		return field, err
	}
	if field, err := l.checkRange(m); err != nil {
		return field, err
	}
	switch l.Unpriced {
	case "", "fail", "ignore":
	default:
		return "unpriced", fmt.Errorf("%q: want fail or ignore", l.Unpriced)
	}
	if l.Policy != "" {
		if m.RecordedOnly {
			return "policy", fmt.Errorf("measure %s is only known for the recorded run", m.Name)
		}
		c, err := canon(l.Policy)
		if err != nil {
			return "policy", err
		}
		if l.policy = c; l.policy == "observed" {
			l.policy = "" // the recorded run
		}
	}
	return l.checkSelection(now)
}

// checkBounds checks that the limit has a bound and that its bounds
// agree.
func (l *Limit) checkBounds() (string, error) {
	if l.Max == nil && l.Min == nil && l.MaxIncrease == nil && l.MaxIncreasePct == nil {
		return "", errors.New("no bound: give max, min, max_increase or max_increase_pct")
	}
	for _, b := range []struct {
		field string
		v     *float64
	}{{"max_increase", l.MaxIncrease}, {"max_increase_pct", l.MaxIncreasePct}} {
		if b.v != nil && *b.v < 0 {
			return b.field, fmt.Errorf("%v: must be 0 or more", *b.v)
		}
	}
	if l.Max != nil && l.Min != nil && *l.Min > *l.Max {
		return "min", fmt.Errorf("%v is above max %v", *l.Min, *l.Max)
	}
	return "", nil
}

// checkRange refuses a max or min a ratio can never reach: a hit ratio
// runs from 0 to 1, so "max": 50, meant as 50%, is 5000% and would hold
// whatever happened, "min": 90 never.
func (l *Limit) checkRange(m metric.Metric) (string, error) {
	if m.Unit != metric.Ratio {
		return "", nil
	}
	for _, b := range []struct {
		field string
		v     *float64
	}{{"max", l.Max}, {"min", l.Min}} {
		if b.v != nil && (*b.v < 0 || *b.v > 1) {
			return b.field, fmt.Errorf("%v: %s is a ratio from 0 to 1 (write 0.9 for 90%%)", *b.v, m.Name)
		}
	}
	return "", nil
}

// checkSelection fills the sessions the limit selects: its project,
// session and time span.
func (l *Limit) checkSelection(now time.Time) (string, error) {
	if l.Project != "" {
		l.sel.Projects = []string{l.Project}
	}
	if l.Session != "" {
		l.sel.Sessions = []string{l.Session}
	}
	for _, b := range []struct {
		field, v string
		to       *int64
		parse    func(string, time.Time) (int64, error)
	}{{"since", l.Since, &l.sel.Since, replay.ParseSince}, {"until", l.Until, &l.sel.Until, replay.ParseUntil}} {
		if b.v == "" {
			continue
		}
		t, err := b.parse(b.v, now)
		if err != nil {
			return b.field, err
		}
		*b.to = t
	}
	if err := l.sel.Check(); err != nil {
		var se *replay.SelectionError
		if errors.As(err, &se) && se.Value != "" {
			return se.Field, fmt.Errorf("%q: %w", se.Value, se.Err)
		}
		if errors.As(err, &se) {
			return se.Field, se.Err
		}
		return "", err
	}
	return "", nil
}

// strictDecode decodes one JSON value, refusing unknown fields and
// trailing data.
func strictDecode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("data after the JSON value")
	}
	return nil
}
