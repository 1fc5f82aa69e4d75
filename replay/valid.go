package replay

import (
	"math/bits"
	"strings"
	"unicode/utf8"
)

// maxDepth bounds nesting, as encoding/json does, so a hostile line cannot
// exhaust the stack.
const maxDepth = 10000

// validJSON reports whether s is one valid JSON value (RFC 8259) with
// optional surrounding white space. It accepts exactly what encoding/json's
// Valid accepts (FuzzValid checks this). The reader calls it only for a line
// that walkFields rejected, to tell "not an object" from invalid JSON; the
// hot path is validValue and validString below, which walkFields uses to
// validate each top-level value as it walks: strings, which are most of a
// transcript's bytes, are scanned eight bytes at a time.
func validJSON(s string) bool {
	i, ok := validValue(s, skipWS(s, 0), 0, nil)
	return ok && skipWS(s, i) == len(s)
}

// validValue validates the value at s[i] and returns the index past it.
// With sp set it also records where each container and long string it
// validates ends (see spans), for the walkers that visit them afterwards.
func validValue(s string, i, depth int, sp *spans) (int, bool) {
	if i >= len(s) {
		return i, false
	}
	switch c := s[i]; {
	case c == '"':
		if sp == nil {
			return validString(s, i)
		}
		end, n, utf8OK, ok := validStringLen(s, i)
		if ok && end-i > longString {
			sp.add(i, end, n, utf8OK)
		}
		return end, ok
	case c == '{':
		if depth >= maxDepth {
			return i, false
		}
		slot := sp.open(i)
		i = skipWS(s, i+1)
		if i < len(s) && s[i] == '}' {
			sp.close(slot, i+1)
			return i + 1, true
		}
		for {
			if i >= len(s) || s[i] != '"' {
				return i, false
			}
			var ok bool
			if i, ok = validString(s, i); !ok {
				return i, false
			}
			i = skipWS(s, i)
			if i >= len(s) || s[i] != ':' {
				return i, false
			}
			if i, ok = validValue(s, skipWS(s, i+1), depth+1, sp); !ok {
				return i, false
			}
			var done bool
			if i, done, ok = afterElem(s, i, '}'); done || !ok {
				sp.close(slot, i)
				return i, ok
			}
		}
	case c == '[':
		if depth >= maxDepth {
			return i, false
		}
		slot := sp.open(i)
		i = skipWS(s, i+1)
		if i < len(s) && s[i] == ']' {
			sp.close(slot, i+1)
			return i + 1, true
		}
		for {
			var ok bool
			if i, ok = validValue(s, i, depth+1, sp); !ok {
				return i, false
			}
			var done bool
			if i, done, ok = afterElem(s, i, ']'); done || !ok {
				sp.close(slot, i)
				return i, ok
			}
		}
	case c == 't':
		return literal(s, i, "true")
	case c == 'f':
		return literal(s, i, "false")
	case c == 'n':
		return literal(s, i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		return validNumber(s, i)
	}
	return i, false
}

// skimValue is validValue for a value nothing decodes: it checks the
// value's structure as validValue does (brackets, commas, colons, numbers,
// literals) but reads no string's content, only where it ends (skimString),
// so a string holding a control character or an invalid escape passes. It
// accepts exactly the values that are valid JSON once the inside of each
// string is replaced by plain letters (FuzzSkimValue), and it records no
// spans. A line's largest values are the structured copies of tool results
// (toolUseResult) that ctxlab does not decode; skimming finds their end
// with strings.IndexByte instead of testing every byte of their strings.
func skimValue(s string, i, depth int) (int, bool) {
	if i >= len(s) {
		return i, false
	}
	switch c := s[i]; {
	case c == '"':
		return skimString(s, i)
	case c == '{':
		return skimField(s, i, depth, nil)
	case c == '[':
		return walkArray(s, i, depth, skimValue)
	}
	return validValue(s, i, depth, nil) // a number or a literal
}

// skimField is skimValue for the object at s[i] == '{' that also hands
// visit (when not nil) the name and raw value of each of its members. Names
// are as written: an escaped one is not unescaped.
func skimField(s string, i, depth int, visit func(name, val string)) (end int, ok bool) {
	if depth >= maxDepth {
		return i, false
	}
	i = skipWS(s, i+1)
	if i < len(s) && s[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(s) || s[i] != '"' {
			return i, false
		}
		kEnd, ok := skimString(s, i)
		if !ok {
			return kEnd, false
		}
		name := s[i+1 : kEnd-1]
		i = skipWS(s, kEnd)
		if i >= len(s) || s[i] != ':' {
			return i, false
		}
		v := skipWS(s, i+1)
		if i, ok = skimValue(s, v, depth+1); !ok {
			return i, false
		}
		if visit != nil {
			visit(name, s[v:i])
		}
		var done bool
		if i, done, ok = afterElem(s, i, '}'); done || !ok {
			return i, ok
		}
	}
}

// skimString returns the index past the string literal at s[i] == '"': past
// the first quote after it that an even run of backslashes (or none)
// precedes. It reports false when no quote closes the literal.
func skimString(s string, i int) (int, bool) {
	i++
	for {
		j := strings.IndexByte(s[i:], '"')
		if j < 0 {
			return len(s), false
		}
		i += j
		// An odd run of backslashes before the quote escapes it; the
		// opening quote ends the run at the latest.
		k := i - 1
		for s[k] == '\\' {
			k--
		}
		i++
		if (i-2-k)%2 == 0 {
			return i, true
		}
	}
}

// afterElem reads what follows an object member or array element: a comma
// (more to come: done false) or the closing bracket (done true).
func afterElem(s string, i int, closing byte) (next int, done, ok bool) {
	i = skipWS(s, i)
	switch {
	case i >= len(s):
		return i, false, false
	case s[i] == ',':
		return skipWS(s, i+1), false, true
	case s[i] == closing:
		return i + 1, true, true
	}
	return i, false, false
}

func literal(s string, i int, lit string) (int, bool) {
	if len(s)-i >= len(lit) && s[i:i+len(lit)] == lit {
		return i + len(lit), true
	}
	return i, false
}

func validNumber(s string, i int) (int, bool) {
	if s[i] == '-' {
		i++
	}
	digits := func() bool {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i > start
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case !digits():
		return i, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if !digits() {
			return i, false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if !digits() {
			return i, false
		}
	}
	return i, true
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// validString checks the string literal at s[i] == '"' and returns the
// index past its closing quote.
func validString(s string, i int) (int, bool) {
	i++
	for {
		// Skip eight bytes at a time while none is '"', '\' or a control
		// character (bytes >= 0x80 pass: UTF-8 is checked by jsLen).
		for i+8 <= len(s) {
			v := word(s, i)
			// Flipping bit 1 maps '"' (0x22) to 0x20 and the control
			// characters onto themselves, so one "less than 0x21" test
			// finds both; the other test finds '\'.
			q := v ^ (lsb * 0x02)
			b := v ^ (lsb * '\\')
			special := (((q - lsb*0x21) &^ q) | ((b - lsb) &^ b)) & msb
			if special != 0 {
				// The lowest flagged byte is the first special one (a
				// borrow can only flag bytes above it), so jump to it
				// rather than stepping there a byte at a time.
				i += bits.TrailingZeros64(special) >> 3
				break
			}
			i += 8
		}
		if i >= len(s) {
			return i, false
		}
		switch c := s[i]; {
		case c == '"':
			return i + 1, true
		case c == '\\':
			if i+1 >= len(s) {
				return i, false
			}
			switch s[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(s) || !isHex(s[i+2]) || !isHex(s[i+3]) || !isHex(s[i+4]) || !isHex(s[i+5]) {
					return i, false
				}
				i += 6
			default:
				return i, false
			}
		case c < 0x20:
			return i, false
		default:
			i++
		}
	}
}

// validStringLen is validString that also measures the literal as jsLen
// does, in the same pass: its length in UTF-16 code units and whether its
// bytes are valid UTF-8 (FuzzValidStringLen holds it to both). Bytes of
// 0x80 and above leave the fast path, to be decoded.
func validStringLen(s string, i int) (end, n int, utf8OK, ok bool) {
	i++
	utf8OK = true
	for {
		for i+8 <= len(s) {
			v := word(s, i)
			q := v ^ (lsb * 0x02)
			b := v ^ (lsb * '\\')
			// As validString, and v's own high bits flag non-ASCII bytes
			// (exactly, so the lowest flag is still the first special
			// byte).
			special := (((q - lsb*0x21) &^ q) | ((b - lsb) &^ b) | v) & msb
			if special != 0 {
				k := bits.TrailingZeros64(special) >> 3
				i += k
				n += k
				break
			}
			i += 8
			n += 8
		}
		if i >= len(s) {
			return i, n, utf8OK, false
		}
		switch c := s[i]; {
		case c == '"':
			return i + 1, n, utf8OK, true
		case c == '\\':
			if i+1 >= len(s) {
				return i, n, utf8OK, false
			}
			switch s[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(s) || !isHex(s[i+2]) || !isHex(s[i+3]) || !isHex(s[i+4]) || !isHex(s[i+5]) {
					return i, n, utf8OK, false
				}
				i += 6
			default:
				return i, n, utf8OK, false
			}
			n++ // an escape is one code unit (a surrogate pair is two escapes)
		case c < 0x20:
			return i, n, utf8OK, false
		case c < utf8.RuneSelf:
			i++
			n++
		default:
			size, units, bad := measureRune(s[i:])
			utf8OK = utf8OK && !bad
			n += units
			i += size
		}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
