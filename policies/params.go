package policies

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// param is one parameter of a policy, bound to the field it sets. The
// constructors below (whole, number, boolean, text, oneOf, list) make one
// per kind of value; each stores the default in the field at once, so a
// parameter the spec leaves out keeps it.
type param struct {
	name string
	def  string // the default, in canonical form
	want string // the values it takes, as its errors word them
	doc  string
	// set parses v into the field and returns v's canonical form, the
	// form the policy's name shows; false: v is not one of the values
	// want describes.
	set func(v string) (string, bool)
}

// whole binds a whole-number parameter of at least least. Underscores may
// group digits (100_000); the canonical form has none, nor leading zeros.
func whole[T int | int64](dst *T, name string, def, least T, doc string) param {
	*dst = def
	return param{
		name: name, def: strconv.FormatInt(int64(def), 10), doc: doc,
		want: fmt.Sprintf("a whole number ≥ %d", least),
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

// span is the range of a number parameter: lo to hi, lo itself excluded
// when open.
type span struct {
	lo, hi float64
	open   bool
}

// percent is 0 to 100.
var percent = span{lo: 0, hi: 100}

func (r span) contains(f float64) bool {
	return (f > r.lo || f == r.lo && !r.open) && f <= r.hi
}

func (r span) String() string {
	if r.open {
		return fmt.Sprintf("a number more than %g, at most %g", r.lo, r.hi)
	}
	return fmt.Sprintf("a number from %g to %g", r.lo, r.hi)
}

// number binds a number parameter in r. NaN is outside every span (it
// compares false with both ends), and so are the infinities.
func number(dst *float64, name string, def float64, r span, doc string) param {
	*dst = def
	return param{
		name: name, def: formatNumber(def), want: r.String(), doc: doc,
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

// boolean binds a true-or-false parameter (any form strconv.ParseBool
// takes: 1, t, TRUE, …).
func boolean(dst *bool, name string, def bool, doc string) param {
	*dst = def
	return param{
		name: name, def: strconv.FormatBool(def), want: "true or false", doc: doc,
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

// versionText binds a Claude Code version: empty, or two or three
// dot-separated whole numbers (2.1 or 2.1.22), as transcripts' version
// field writes them. The canonical form drops leading zeros.
func versionText(dst *string, name, def, doc string) param {
	*dst = def
	return param{
		name: name, def: def, want: "a version such as 2.1.22, or empty", doc: doc,
		set: func(v string) (string, bool) {
			if v == "" {
				*dst = ""
				return "", true
			}
			parts := strings.Split(v, ".")
			if len(parts) < 2 || len(parts) > 3 {
				return "", false
			}
			for i, p := range parts {
				n, err := strconv.ParseUint(p, 10, 32)
				if err != nil || strings.ContainsAny(p, "+-") {
					return "", false
				}
				parts[i] = strconv.FormatUint(n, 10)
			}
			*dst = strings.Join(parts, ".")
			return *dst, true
		},
	}
}

// oneOf binds a parameter that takes one of values ("" among them: the
// parameter may be left empty).
func oneOf[T ~string](dst *T, name string, def T, doc string, values ...T) param {
	*dst = def
	words := make([]string, len(values))
	for i, v := range values {
		words[i] = string(v)
		if v == "" {
			words[i] = "empty"
		}
	}
	return param{
		name: name, def: string(def), want: orList(words), doc: doc,
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

// list binds a parameter whose values are separated by "|", none of them
// empty; its default is the empty list, written "". what names the
// values for errors ("tool names").
func list(dst *[]string, name, what, doc string) param {
	*dst = nil
	return param{
		name: name, def: "", want: what + " separated by |, none empty", doc: doc,
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
