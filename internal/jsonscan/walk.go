package jsonscan

import (
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"
)

// longString is the length (quotes included) above which a validation
// records where a string ends: shorter strings are found again faster than
// they are looked up.
const longString = 64

// A Scanner validates one line of JSON at a time and walks its values.
// While it validates (Scan, Object, Value) it records where the containers
// and long strings it passes end, and its walks of the same line (EachField,
// EachElem, Field) jump to those ends instead of scanning the bytes again:
// each container of a line is otherwise skipped by every walk of the values
// that hold it. A recorded value is found by its address: a substring of
// the line scanned is jumped over, a copy is scanned again. The zero
// Scanner is ready; a nil *Scanner validates and walks without recording.
type Scanner struct {
	base uintptr // address of the line's first byte
	n    int     // the line's length
	// Offsets from the start of the line, sorted by start: a container's
	// entry is taken when it opens.
	start, end []int
	// chars is, for a string, StringLen's figures, measured by the
	// validation: its UTF-16 length << 1, | 1 when its bytes are not valid
	// UTF-8; -1 for a container.
	chars []int
}

// A ValueFunc lets a validating walk hand a member's value to its caller.
// Called with the member's key and the value at s[i] (nested depth deep),
// it either validates and reads the value itself, returning where it ends
// and whether it is valid (handled true: the walk's fn does not see it), or
// leaves it to the walk (handled false). It serves to parse a value while it
// is validated, or to Skim it, instead of validating it and walking it again.
type ValueFunc func(key, s string, i, depth int) (end int, ok, handled bool)

// Scan validates line as one JSON object with optional surrounding white
// space and walks its members in the same pass: value (if not nil) sees each
// one first, and fn gets the key (unescaped) and raw value of each that value
// did not handle. It reports whether line is one valid object, and forgets
// what it recorded of the line before.
func (sc *Scanner) Scan(line string, value ValueFunc, fn func(key, val string)) bool {
	if sc != nil {
		sc.reset(line)
	}
	return walkFields(line, true, sc, value, fn)
}

// Object is Scan for the object at s[i] == '{' of the line being scanned,
// nested depth deep: it returns the index past the object and whether it is
// valid. It records no end for the object itself.
func (sc *Scanner) Object(s string, i, depth int, value ValueFunc, fn func(key, val string)) (end int, ok bool) {
	return walkObject(s, i, depth, true, sc, value, fn)
}

// reset empties sc for the line s.
func (sc *Scanner) reset(s string) {
	sc.base = uintptr(unsafe.Pointer(unsafe.StringData(s)))
	sc.n = len(s)
	sc.start = sc.start[:0]
	sc.end = sc.end[:0]
	sc.chars = sc.chars[:0]
}

// open takes the entry of a container starting at line offset i.
func (sc *Scanner) open(i int) int {
	if sc == nil {
		return -1
	}
	sc.start = append(sc.start, i)
	sc.end = append(sc.end, -1)
	sc.chars = append(sc.chars, -1)
	return len(sc.start) - 1
}

// close sets the end of the entry that open returned.
func (sc *Scanner) close(slot, end int) {
	if sc != nil {
		sc.end[slot] = end
	}
}

// add records a string from i to end, n UTF-16 code units long.
func (sc *Scanner) add(i, end, n int, utf8OK bool) {
	sc.start = append(sc.start, i)
	sc.end = append(sc.end, end)
	c := n << 1
	if !utf8OK {
		c |= 1
	}
	sc.chars = append(sc.chars, c)
}

// find returns the index past the value starting at s[i], if it was
// recorded; s must be part of the line sc was reset for to be found.
func (sc *Scanner) find(s string, i int) (int, bool) {
	k, off, ok := sc.lookup(s, i)
	if !ok {
		return 0, false
	}
	end := i + sc.end[k] - off
	if end > len(s) {
		return 0, false
	}
	return end, true
}

// lookup returns the entry of the value starting at s[i] and its offset in
// the line.
func (sc *Scanner) lookup(s string, i int) (k, off int, ok bool) {
	if sc == nil || len(sc.start) == 0 {
		return 0, 0, false
	}
	o := uintptr(unsafe.Pointer(unsafe.StringData(s))) - sc.base + uintptr(i)
	if o >= uintptr(sc.n) {
		return 0, 0, false
	}
	k, ok = slices.BinarySearch(sc.start, int(o))
	if !ok || sc.end[k] < 0 {
		return 0, 0, false
	}
	return k, int(o), true
}

// StringLen is the package's StringLen for a string literal of the line
// scanned, read from what the validation measured when it recorded the
// literal.
func (sc *Scanner) StringLen(raw string) (n int, validUTF8 bool) {
	if len(raw) > longString {
		if k, off, ok := sc.lookup(raw, 0); ok && sc.end[k]-off == len(raw) && sc.chars[k] >= 0 {
			return sc.chars[k] >> 1, sc.chars[k]&1 == 0
		}
	}
	return StringLen(raw)
}

// EachField calls fn with the key (unescaped) and raw value of each member
// of the object raw, which must be valid JSON.
func EachField(raw string, fn func(key, val string)) {
	walkFields(raw, false, nil, nil, fn)
}

// EachField is the package's EachField for a value of the line scanned.
func (sc *Scanner) EachField(raw string, fn func(key, val string)) {
	walkFields(raw, false, sc, nil, fn)
}

// walkFields is EachField that can also validate: with check set it
// validates each value as it skips it (validValue, or value when that
// handles it, and then fn is not called), so a line's top level is
// validated and walked in one pass, and it reports whether raw was one
// valid object. Without check it trusts raw and only finds value ends.
// With check, sc (if set) records the ends of the values validValue
// validates; without, it is used to find them.
func walkFields(raw string, check bool, sc *Scanner, value ValueFunc, fn func(key, val string)) bool {
	i := SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return false
	}
	end, ok := walkObject(raw, i, 0, check, sc, value, fn)
	return ok && (!check || SkipSpace(raw, end) == len(raw))
}

// walkObject is walkFields for the object at s[i] == '{', nested depth deep:
// it returns the index past the object and, with check, whether it is
// valid, as validValue would (without recording an end for the object).
func walkObject(s string, i, depth int, check bool, sc *Scanner, value ValueFunc, fn func(key, val string)) (int, bool) {
	if check {
		return validWalk(s, i, depth, sc, value, fn)
	}
	return trustWalk(s, i, sc, fn), true
}

// validWalk is walkObject with check: each key is validated, and each
// value handed to value, or else validated by validValue (recording in sc)
// and handed to fn. The two walks are separate functions so that each
// keeps its own state in registers.
func validWalk(s string, i, depth int, sc *Scanner, value ValueFunc, fn func(key, val string)) (int, bool) {
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
		kEnd, escaped, ok := validString(s, i)
		if !ok {
			return i, false
		}
		key := s[i+1 : kEnd-1]
		if escaped {
			key = string(AppendUnescaped(nil, key, -1))
		}
		i = SkipSpace(s, kEnd)
		if i >= len(s) || s[i] != ':' {
			return i, false
		}
		i = SkipSpace(s, i+1)
		var end int
		handled := false
		if value != nil {
			end, ok, handled = value(key, s, i, depth+1)
		}
		if !handled {
			if end, ok = validValue(s, i, depth+1, sc); ok {
				fn(key, s[i:end])
			}
		}
		if !ok {
			return end, false
		}
		var done bool
		if i, done, ok = afterElem(s, end, '}'); done || !ok {
			return i, ok
		}
	}
}

// trustWalk is walkObject without check: s is valid JSON, and each value's
// end is looked up in sc or found by skipping it.
func trustWalk(s string, i int, sc *Scanner, fn func(key, val string)) int {
	i = SkipSpace(s, i+1)
	if i < len(s) && s[i] == '}' {
		return i + 1
	}
	for i < len(s) && s[i] == '"' {
		kEnd := stringEnd(s, i)
		key := s[i+1 : kEnd-1]
		if strings.IndexByte(key, '\\') >= 0 {
			key = string(AppendUnescaped(nil, key, -1))
		}
		i = SkipSpace(s, kEnd)
		if i >= len(s) || s[i] != ':' {
			return i
		}
		i = SkipSpace(s, i+1)
		end := sc.valueEnd(s, i)
		fn(key, s[i:end])
		i = SkipSpace(s, end)
		if i >= len(s) || s[i] != ',' {
			if i < len(s) && s[i] == '}' {
				i++
			}
			return i
		}
		i = SkipSpace(s, i+1)
	}
	return i
}

// Array validates the array at s[i] == '[', nested depth deep, as Value
// would, handing each element to elem, which validates it (at the depth it
// is given) and returns where it ends. It returns the index past the array
// and whether it is valid.
func Array(s string, i, depth int, elem func(s string, i, depth int) (end int, ok bool)) (end int, ok bool) {
	if depth >= maxDepth {
		return i, false
	}
	i = SkipSpace(s, i+1)
	if i < len(s) && s[i] == ']' {
		return i + 1, true
	}
	for {
		if i, ok = elem(s, i, depth+1); !ok {
			return i, false
		}
		var done bool
		if i, done, ok = afterElem(s, i, ']'); done || !ok {
			return i, ok
		}
	}
}

// EachElem calls fn with each raw element of the array raw, which must be
// valid JSON.
func EachElem(raw string, fn func(val string)) {
	(*Scanner)(nil).EachElem(raw, fn)
}

// EachElem is the package's EachElem for a value of the line scanned.
func (sc *Scanner) EachElem(raw string, fn func(val string)) {
	i := SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return
	}
	i++
	for {
		i = SkipSpace(raw, i)
		if i >= len(raw) || raw[i] == ']' {
			return
		}
		if raw[i] == ',' {
			i++
			continue
		}
		end := sc.valueEnd(raw, i)
		fn(raw[i:end])
		i = end
	}
}

// SkipSpace returns the index of the first byte at or after s[i] that is
// not JSON white space.
func SkipSpace(s string, i int) int {
	// Every JSON white space byte is at most ' ', and Claude Code writes
	// compact JSON: one test usually decides.
	for i < len(s) && s[i] <= ' ' && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the index just past the string literal starting at i
// (len(s) when nothing closes it; see StringEnd).
func stringEnd(s string, i int) int {
	end, _ := StringEnd(s, i)
	return end
}

// valueEnd returns the index just past the value starting at i, looking
// it up in sc first: containers always, strings once no quote is found in
// their first bytes.
func (sc *Scanner) valueEnd(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '"':
		if sc != nil && i+longString < len(s) && strings.IndexByte(s[i+1:i+longString], '"') < 0 {
			if end, ok := sc.find(s, i); ok {
				return end
			}
		}
		return stringEnd(s, i)
	case '{', '[':
		if end, ok := sc.find(s, i); ok {
			return end
		}
		depth := 0
		for i < len(s) {
			switch s[i] {
			case '"':
				i = stringEnd(s, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	for i < len(s) && s[i] != ',' && s[i] != '}' && s[i] != ']' && s[i] != ' ' && s[i] != '\n' && s[i] != '\r' && s[i] != '\t' {
		i++
	}
	return i
}

// String decodes the raw JSON string value raw; other values give "". The
// result shares raw's bytes unless raw holds an escape.
func String(raw string) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	s := raw[1 : len(raw)-1]
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	return string(AppendUnescaped(make([]byte, 0, len(s)), s, -1))
}

// IsObject reports whether the raw JSON value raw is an object.
func IsObject(raw string) bool { return len(raw) > 0 && raw[0] == '{' }

// IsArray reports whether the raw JSON value raw is an array.
func IsArray(raw string) bool { return len(raw) > 0 && raw[0] == '[' }

// IsString reports whether the raw JSON value raw is a string.
func IsString(raw string) bool { return len(raw) > 0 && raw[0] == '"' }

// Int reads the raw JSON number raw as an int64, truncating a fraction.
// Other values read as gjson's Result.Int reads them ("" and null as 0).
func Int(raw string) int64 {
	if n, err := strconv.ParseInt(raw, 10, 64); err == nil {
		return n
	}
	return gjson.Parse(raw).Int()
}

// Field returns the raw value of key in the valid object raw, or "". It
// stops at the key, so a field near the start of a large object is cheap.
// The key is compared as written, not unescaped.
func (sc *Scanner) Field(raw, key string) string {
	i := SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return ""
	}
	i++
	for {
		i = SkipSpace(raw, i)
		if i >= len(raw) || raw[i] != '"' {
			return ""
		}
		kEnd := stringEnd(raw, i)
		k := raw[i+1 : kEnd-1]
		i = SkipSpace(raw, kEnd)
		if i < len(raw) && raw[i] == ':' {
			i++
		}
		i = SkipSpace(raw, i)
		end := sc.valueEnd(raw, i)
		if k == key {
			return raw[i:end]
		}
		i = SkipSpace(raw, end)
		if i < len(raw) && raw[i] == ',' {
			i++
		}
	}
}
