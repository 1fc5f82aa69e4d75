// Package param binds named parameters to the variables they set: a
// policy's parameters (policies) and the simulation's (simulate.Config)
// are both made here. A parameter parses a value, stores it, and returns
// its canonical form, the form a policy's name shows; its error words say
// what values it takes.
package param

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Param is one parameter, bound to the variable it sets. The
// constructors make one per kind of value; each stores the default in the
// variable at once, so a parameter a spec leaves out keeps it.
type Param struct {
	Name    string
	Default string // in canonical form
	Takes   string // the values it takes, as its errors word them
	Doc     string
	set     func(v string) (string, bool)
}

// Set parses v into the variable and returns v's canonical form; false
// (the variable unchanged) when v is not one of the values Takes names.
func (p Param) Set(v string) (string, bool) { return p.set(v) }

// Whole binds a whole-number parameter of at least least. Underscores may
// group digits (100_000); the canonical form has none, nor leading zeros.
func Whole[T int | int64](dst *T, name string, def, least T, doc string) Param {
	*dst = def
	return Param{
		Name: name, Default: strconv.FormatInt(int64(def), 10), Doc: doc,
		Takes: fmt.Sprintf("a whole number ≥ %d", least),
		set: func(v string) (string, bool) {
			n, err := strconv.ParseInt(strings.ReplaceAll(v, "_", ""), 10, 64)
			if err != nil || n < int64(least) {
				return "", false
			}
			*dst = T(n)
			return strconv.FormatInt(n, 10), true
		},
	}
}

// Span is the range of a number parameter: lo to hi, lo itself excluded
// when open.
type Span struct {
	Lo, Hi float64
	Open   bool
}

// Percent is 0 to 100.
var Percent = Span{Lo: 0, Hi: 100}

func (r Span) contains(f float64) bool {
	return (f > r.Lo || f == r.Lo && !r.Open) && f <= r.Hi
}

func (r Span) String() string {
	if r.Open {
		return fmt.Sprintf("a number more than %g, at most %g", r.Lo, r.Hi)
	}
	return fmt.Sprintf("a number from %g to %g", r.Lo, r.Hi)
}

// Number binds a number parameter in r. NaN is outside every span (it
// compares false with both ends), and so are the infinities.
func Number(dst *float64, name string, def float64, r Span, doc string) Param {
	*dst = def
	return Param{
		Name: name, Default: formatNumber(def), Takes: r.String(), Doc: doc,
		set: func(v string) (string, bool) {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || !r.contains(f) || math.IsInf(f, 0) {
				return "", false
			}
			f += 0 // -0 → 0
			*dst = f
			return formatNumber(f), true
		},
	}
}

// formatNumber is a number's canonical form: the shortest that reads back
// the same (80.0 and 8e1 are 80).
func formatNumber(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// Bool binds a true-or-false parameter (any form strconv.ParseBool
// takes: 1, t, TRUE, …).
func Bool(dst *bool, name string, def bool, doc string) Param {
	*dst = def
	return Param{
		Name: name, Default: strconv.FormatBool(def), Takes: "true or false", Doc: doc,
		set: func(v string) (string, bool) {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return "", false
			}
			*dst = b
			return strconv.FormatBool(b), true
		},
	}
}

// OptionalVersion binds a Claude Code version, or empty: two or three
// dot-separated whole numbers (2.1 or 2.1.22), as transcripts' version
// field writes them; the canonical form drops leading zeros.
func OptionalVersion(dst *string, name, def, doc string) Param {
	*dst = def
	return Param{
		Name: name, Default: def, Takes: "a version such as 2.1.22, or empty", Doc: doc,
		set: func(v string) (string, bool) {
			if v == "" {
				*dst = ""
				return "", true
			}
			c, ok := canonicalVersion(v, 2)
			if ok {
				*dst = c
			}
			return c, ok
		},
	}
}

// Version binds a version a Claude Code rule applies from, or no longer
// applies to: one to three dot-separated whole numbers, "0" being before
// every version and "99" after.
func Version(dst *string, name, def, doc string) Param {
	*dst = def
	return Param{
		Name: name, Default: def, Takes: `a Claude Code version (2.1.0; "0" before every version, "99" after)`, Doc: doc,
		set: func(v string) (string, bool) {
			c, ok := canonicalVersion(v, 1)
			if ok {
				*dst = c
			}
			return c, ok
		},
	}
}

// canonicalVersion checks least to three dot-separated whole numbers and
// drops their leading zeros.
func canonicalVersion(v string, least int) (string, bool) {
	parts := strings.Split(v, ".")
	if len(parts) < least || len(parts) > 3 {
		return "", false
	}
	for i, p := range parts {
		n, err := strconv.ParseUint(p, 10, 32)
		if err != nil || strings.ContainsAny(p, "+-") {
			return "", false
		}
		parts[i] = strconv.FormatUint(n, 10)
	}
	return strings.Join(parts, "."), true
}

// Duration binds a duration above 0.
func Duration(dst *time.Duration, name string, def time.Duration, doc string) Param {
	*dst = def
	return Param{
		Name: name, Default: formatDuration(def), Takes: "a duration above 0 (90s, 5m, 6h)", Doc: doc,
		set: func(v string) (string, bool) {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return "", false
			}
			*dst = d
			return formatDuration(d), true
		},
	}
}

// DurationOrNone binds a duration of 0 or more, 0 meaning none: the
// variable holds -1 for it (its own 0 being a default).
func DurationOrNone(dst *time.Duration, name string, def time.Duration, doc string) Param {
	*dst = def
	return Param{
		Name: name, Default: formatDuration(max(def, 0)), Takes: "a duration of 0 or more (0: none)", Doc: doc,
		set: func(v string) (string, bool) {
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 {
				return "", false
			}
			c := formatDuration(d)
			if d == 0 {
				d = -1
			}
			*dst = d
			return c, true
		},
	}
}

// WholeOrNone is Whole whose 0 means none: the variable holds -1 for it
// (its own 0 being a default).
func WholeOrNone[T int | int64](dst *T, name string, def, least T, doc string) Param {
	p := Whole(dst, name, max(def, 0), least, doc)
	*dst = def
	set := p.set
	p.set = func(v string) (string, bool) {
		c, ok := set(v)
		if ok && *dst == 0 {
			*dst = -1
		}
		return c, ok
	}
	return p
}

// formatDuration writes d as time.ParseDuration reads it, without the
// zero units time.Duration.String adds ("6h", not "6h0m0s").
func formatDuration(d time.Duration) string {
	s := d.String()
	for _, zeros := range []string{"m0s", "h0m"} { // 6h0m0s → 6h0m → 6h
		if strings.HasSuffix(s, zeros) {
			s = s[:len(s)-2]
		}
	}
	return s
}

// OneOf binds a parameter that takes one of values ("" among them: the
// parameter may be left empty).
func OneOf[T ~string](dst *T, name string, def T, doc string, values ...T) Param {
	*dst = def
	words := make([]string, len(values))
	for i, v := range values {
		words[i] = string(v)
		if v == "" {
			words[i] = "empty"
		}
	}
	return Param{
		Name: name, Default: string(def), Takes: orList(words), Doc: doc,
		set: func(v string) (string, bool) {
			for _, allowed := range values {
				if T(v) == allowed {
					*dst = allowed
					return v, true
				}
			}
			return "", false
		},
	}
}

// orList joins words as "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// List binds a parameter whose values are separated by "|", none of them
// empty; its default is the empty list, written "". what names the
// values for errors ("tool names").
func List(dst *[]string, name, what, doc string) Param {
	*dst = nil
	return Param{
		Name: name, Default: "", Takes: what + " separated by |, none empty", Doc: doc,
		set: func(v string) (string, bool) {
			if v == "" {
				*dst = nil
				return v, true
			}
			values := strings.Split(v, "|")
			for _, s := range values {
				if s == "" {
					return "", false
				}
			}
			*dst = values
			return v, true
		},
	}
}
