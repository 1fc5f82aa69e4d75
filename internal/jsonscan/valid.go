package jsonscan

import (
	"math/bits"
	"strings"
	"unicode/utf8"
)

// maxDepth bounds nesting, as encoding/json does.
const maxDepth = MaxDepth

// MaxDepth is the deepest nesting of arrays and objects Valid accepts,
// encoding/json's limit.
const MaxDepth = 10000

// TooDeep reports whether s nests arrays and objects, outside its
// strings, deeper than MaxDepth: the one reason Valid refuses text that
// RFC 8259's grammar allows. It says why a line was refused; it
// validates nothing.
func TooDeep(s string) bool {
	depth, inString := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			if depth++; depth > MaxDepth {
				return true
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return false
}

// Valid reports whether s is one valid JSON value (RFC 8259) with optional
// surrounding white space, exactly as encoding/json's Valid does.
func Valid(s string) bool {
	i, ok := validValue(s, SkipSpace(s, 0), 0, nil)
	return ok && SkipSpace(s, i) == len(s)
}

// Value validates the value at s[i], nested depth deep, and returns the
// index past it and whether it is valid. It records the ends of the
// containers and long strings inside it for the walks that follow.
func (sc *Scanner) Value(s string, i, depth int) (end int, ok bool) {
	return validValue(s, i, depth, sc)
}

// validValue validates the value at s[i] and returns the index past it.
// With sc set it also records where each container and long string it
// validates ends, for the walkers that visit them afterwards.
func validValue(s string, i, depth int, sc *Scanner) (int, bool) {
	if i >= len(s) {
		return i, false
	}
	switch c := s[i]; {
	case c == '"':
		if sc == nil {
			end, _, ok := validString(s, i)
			return end, ok
		}
		end, n, utf8OK, ok := validStringLen(s, i)
		if ok && end-i > longString {
			sc.add(i, end, n, utf8OK)
		}
		return end, ok
	case c == '{':
		return validObject(s, i, depth, sc)
	case c == '[':
		return validArray(s, i, depth, sc)
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

// validObject is validValue for the object at s[i] == '{'.
func validObject(s string, i, depth int, sc *Scanner) (int, bool) {
	if depth >= maxDepth {
		return i, false
	}
	slot := sc.open(i)
	i = SkipSpace(s, i+1)
	if i < len(s) && s[i] == '}' {
		sc.close(slot, i+1)
		return i + 1, true
	}
	for {
		if i >= len(s) || s[i] != '"' {
			return i, false
		}
		var ok bool
		if i, _, ok = validString(s, i); !ok {
			return i, false
		}
		i = SkipSpace(s, i)
		if i >= len(s) || s[i] != ':' {
			return i, false
		}
		if i, ok = validValue(s, SkipSpace(s, i+1), depth+1, sc); !ok {
			return i, false
		}
		var done bool
		if i, done, ok = afterElem(s, i, '}'); done || !ok {
			sc.close(slot, i)
			return i, ok
		}
	}
}

// validArray is validValue for the array at s[i] == '['.
func validArray(s string, i, depth int, sc *Scanner) (int, bool) {
	if depth >= maxDepth {
		return i, false
	}
	slot := sc.open(i)
	i = SkipSpace(s, i+1)
	if i < len(s) && s[i] == ']' {
		sc.close(slot, i+1)
		return i + 1, true
	}
	for {
		var ok bool
		if i, ok = validValue(s, i, depth+1, sc); !ok {
			return i, false
		}
		var done bool
		if i, done, ok = afterElem(s, i, ']'); done || !ok {
			sc.close(slot, i)
			return i, ok
		}
	}
}

// Skim checks the value at s[i], nested depth deep, as Value does
// (brackets, commas, colons, numbers, literals) but reads no string's
// content, only where it ends: a string holding a control character or an
// invalid escape passes. It accepts exactly the values that are valid JSON
// once the inside of each string is replaced by plain letters, and is for
// values nothing decodes, whose end it finds with strings.IndexByte rather
// than by testing every byte. When the value is an object and visit is not
// nil, visit gets the name (as written, not unescaped) and raw value of
// each of its members.
func Skim(s string, i, depth int, visit func(name, val string)) (end int, ok bool) {
	if visit != nil && i < len(s) && s[i] == '{' {
		return skimObject(s, i, depth, visit)
	}
	return skimValue(s, i, depth)
}

// skimValue is Skim without a visitor.
func skimValue(s string, i, depth int) (int, bool) {
	if i >= len(s) {
		return i, false
	}
	switch c := s[i]; {
	case c == '"':
		return StringEnd(s, i)
	case c == '{':
		return skimObject(s, i, depth, nil)
	case c == '[':
		return Array(s, i, depth, skimValue)
	}
	return validValue(s, i, depth, nil) // a number or a literal
}

// skimObject is Skim for the object at s[i] == '{'.
func skimObject(s string, i, depth int, visit func(name, val string)) (end int, ok bool) {
	if depth >= maxDepth {
		return i, false
	}
	i = SkipSpace(s, i+1)
	if i < len(s) && s[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(s) || s[i] != '"' {
			return i, false
		}
		kEnd, ok := StringEnd(s, i)
		if !ok {
			return kEnd, false
		}
		name := s[i+1 : kEnd-1]
		i = SkipSpace(s, kEnd)
		if i >= len(s) || s[i] != ':' {
			return i, false
		}
		v := SkipSpace(s, i+1)
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

// StringEnd returns the index past the string literal at s[i] == '"':
// past the first quote after it that an even run of backslashes (or none)
// precedes. It reads nothing else of the literal, and reports false when
// no quote closes it.
func StringEnd(s string, i int) (end int, ok bool) {
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
	i = SkipSpace(s, i)
	switch {
	case i >= len(s):
		return i, false, false
	case s[i] == ',':
		return SkipSpace(s, i+1), false, true
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
// index past its closing quote, and whether the literal holds an escape
// (an object's key is then unescaped).
func validString(s string, i int) (end int, escaped, ok bool) {
	i++
	for {
		// Skip eight bytes at a time while none is '"', '\' or a control
		// character (bytes >= 0x80 pass: UTF-8 is checked by StringLen).
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
			return i, escaped, false
		}
		switch c := s[i]; {
		case c == '"':
			return i + 1, escaped, true
		case c == '\\':
			if i+1 >= len(s) {
				return i, escaped, false
			}
			escaped = true
			switch s[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(s) || !isHex(s[i+2]) || !isHex(s[i+3]) || !isHex(s[i+4]) || !isHex(s[i+5]) {
					return i, escaped, false
				}
				i += 6
			default:
				return i, escaped, false
			}
		case c < 0x20:
			return i, escaped, false
		default:
			i++
		}
	}
}

// validStringLen is validString that also measures the literal as
// StringLen does, in the same pass: its length in UTF-16 code units and
// whether its bytes are valid UTF-8 (FuzzValidStringLen holds it to both).
// Bytes of 0x80 and above leave the fast path, to be decoded.
func validStringLen(s string, i int) (end, n int, utf8OK, ok bool) {
	i++
	start := i
	// The length is counted as the bytes passed less fewer: what an escape
	// or a multi-byte character saves, so that the loops over plain text
	// keep no count of their own.
	fewer := 0
	utf8OK = true
	for {
		for i+8 <= len(s) {
			v := word(s, i)
			q := v ^ (lsb * 0x02)
			b := v ^ (lsb * '\\')
			// As validString, and v's own high bits flag non-ASCII bytes
			// (exactly, so the lowest flag is still the first special
			// byte). Those flags make validString's &^q and &^b
			// redundant: a byte whose subtraction sets its high bit
			// without being special is non-ASCII, or above the first
			// special byte (a borrow).
			special := ((q - lsb*0x21) | (b - lsb) | v) & msb
			if special == 0 {
				if i+16 > len(s) {
					i += 8
					continue
				}
				v = word(s, i+8)
				q = v ^ (lsb * 0x02)
				b = v ^ (lsb * '\\')
				if special = ((q - lsb*0x21) | (b - lsb) | v) & msb; special == 0 {
					i += 16
					continue
				}
				i += 8
			}
			i += bits.TrailingZeros64(special) >> 3
			// The commonest stops are passed here, without leaving the
			// loop: a two-byte escape (a tool output's \n, \t, \"), and a
			// character of two bytes or of three whose lead byte allows
			// any continuation (measureRune's shortcuts). Either is one
			// code unit.
			switch c := s[i]; {
			case c == '\\':
				if i+1 < len(s) && shortEscape[s[i+1]] {
					i += 2
					fewer++
					continue
				}
			case c >= 0xC2 && c <= 0xDF:
				if i+1 < len(s) && s[i+1]&0xC0 == 0x80 {
					i += 2
					fewer++
					continue
				}
			case c >= 0xE1 && c <= 0xEC:
				if i+2 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 {
					i += 3
					fewer += 2
					continue
				}
			}
			break
		}
		if i >= len(s) {
			return i, i - start - fewer, utf8OK, false
		}
		if s[i] == '"' {
			return i + 1, i - start - fewer, utf8OK, true
		}
		size, units, bad := stringStep(s, i)
		if size == 0 {
			return i, i - start - fewer, utf8OK, false
		}
		utf8OK = utf8OK && !bad
		fewer += size - units
		i += size
	}
}

// stringStep is validStringLen's slow path at s[i], inside a string literal
// and not its closing quote: an escape, a character the fast loop does not
// pass, or a byte of the last few of the line. It returns how many bytes
// the step passes (0: the literal is invalid there), how many UTF-16 code
// units they make, and whether they are not valid UTF-8.
func stringStep(s string, i int) (size, units int, bad bool) {
	switch c := s[i]; {
	case c == '\\':
		if i+1 >= len(s) {
			return 0, 0, false
		}
		// An escape is one code unit (a surrogate pair is two escapes).
		switch s[i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			return 2, 1, false
		case 'u':
			if i+6 > len(s) || !isHex(s[i+2]) || !isHex(s[i+3]) || !isHex(s[i+4]) || !isHex(s[i+5]) {
				return 0, 0, false
			}
			return 6, 1, false
		}
		return 0, 0, false
	case c < 0x20:
		return 0, 0, false
	case c < utf8.RuneSelf:
		return 1, 1, false
	}
	return measureRune(s[i:])
}

// shortEscape marks the bytes that may follow a backslash in a two-byte
// escape.
var shortEscape = [256]bool{'"': true, '\\': true, '/': true, 'b': true, 'f': true, 'n': true, 'r': true, 't': true}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
