// Package numtext writes numbers for people: a comma every three digits
// (1,234,567), dollars ($1,234.50) and percentages (12.3%), and counts
// with their noun ("1 call", "2,048 calls"). Every
// table, note, plot label and reason ctxlab prints formats its numbers
// here, so they read the same everywhere. Machine formats (CSV, JSON)
// carry raw numbers and do not use it.
package numtext

import (
	"strconv"
	"strings"
)

// Int formats n with a comma every three digits: Int(-1234567) is
// "-1,234,567".
func Int[T ~int | ~int64](n T) string {
	s := strconv.FormatInt(int64(n), 10)
	if s[0] == '-' {
		return "-" + group(s[1:])
	}
	return group(s)
}

// Float formats v with the given decimals and a comma every three digits
// of its integer part: Float(1234567.5, 1) is "1,234,567.5". A value that
// rounds to zero has no minus sign.
func Float(v float64, decimals int) string {
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	intPart, frac := s, ""
	if i := strings.IndexByte(s, '.'); i >= 0 {
		intPart, frac = s[:i], s[i:]
	}
	out := group(intPart) + frac
	if neg && strings.Trim(out, "0.,") != "" {
		out = "-" + out
	}
	return out
}

// Count is n with the noun that agrees with it: Count(1, "call", "calls")
// is "1 call", Count(2048, "call", "calls") is "2,048 calls".
func Count[T ~int | ~int64](n T, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Int(n) + " " + many
}

// group puts a comma every three digits of an unsigned decimal.
func group(digits string) string {
	if len(digits) <= 3 {
		return digits
	}
	var b strings.Builder
	b.Grow(len(digits) + len(digits)/3)
	for i := range len(digits) {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(digits[i])
	}
	return b.String()
}

// USD formats dollars as people read them: two decimals, four below a
// cent, a comma every three digits: USD(1234.5) is "$1,234.50",
// USD(0.0042) is "$0.0042", USD(-2) is "-$2.00".
func USD(x float64) string {
	decimals := 2
	if x != 0 && x < 0.01 && x > -0.01 {
		decimals = 4
	}
	return dollars(Float(x, decimals))
}

// dollars puts the sign of a formatted amount before the dollar sign.
func dollars(s string) string {
	if rest, ok := strings.CutPrefix(s, "-"); ok {
		return "-$" + rest
	}
	return "$" + s
}

// Pct formats a percentage with one decimal: Pct(12.345) is "12.3%".
func Pct(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) + "%" }

// PValue formats a test's p-value as papers quote it: three decimals,
// "<0.001" below that: PValue(0.0391) is "0.039".
func PValue(p float64) string {
	if p < 0.001 {
		return "<0.001"
	}
	return strconv.FormatFloat(p, 'f', 3, 64)
}

// ShortID is a session id (a UUID) as people quote it and --session
// accepts it: its first 8 characters. Other ids (a file's name such as
// general-tool-calls.jsonl, an agent's agent-a1b2c3) are kept whole:
// their first 8 characters may not tell them apart.
func ShortID(s string) string {
	if isUUID(s) {
		return s[:8]
	}
	return s
}

// isUUID reports whether s reads as a UUID: 8-4-4-4-12 hexadecimal digits.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}
