package replay

import (
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"
)

// The walkers below iterate over JSON that has been validated (a line's top
// level by walkFields with check set, see valid.go), yielding raw values
// without decoding them. Decoding every string value, as gjson's ForEach
// does, would allocate a copy of each escaped tool output; transcripts are
// mostly such strings, and ctxlab needs only their length and hash, which it
// takes from the raw bytes.

// longString is the length (quotes included) above which the validation
// records where a string ends: strings shorter than that are found again
// faster than they are looked up.
const longString = 64

// spans records, for one line, where the containers and long strings that
// the validation walked end, so that the walkers visiting them afterwards
// (each container of a message is skipped by every walk of the values that
// hold it) jump to the end instead of scanning the bytes again. Entries are
// offsets from the start of the line, sorted by start: a container's entry
// is taken when it opens. A nil *spans records and finds nothing.
type spans struct {
	base       uintptr // address of the line's first byte
	n          int     // the line's length
	start, end []int
	// chars is, for a string, jsLen's figures, measured by the
	// validation: its UTF-16 length << 1, | 1 when its bytes are not valid
	// UTF-8; -1 for a container.
	chars []int
}

// reset empties sp for the line s.
func (sp *spans) reset(s string) {
	sp.base = uintptr(unsafe.Pointer(unsafe.StringData(s)))
	sp.n = len(s)
	sp.start = sp.start[:0]
	sp.end = sp.end[:0]
	sp.chars = sp.chars[:0]
}

// open takes the entry of a container starting at line offset i.
func (sp *spans) open(i int) int {
	if sp == nil {
		return -1
	}
	sp.start = append(sp.start, i)
	sp.end = append(sp.end, -1)
	sp.chars = append(sp.chars, -1)
	return len(sp.start) - 1
}

// close sets the end of the entry that open returned.
func (sp *spans) close(slot, end int) {
	if sp != nil {
		sp.end[slot] = end
	}
}

// add records a string from i to end, n UTF-16 code units long.
func (sp *spans) add(i, end, n int, utf8OK bool) {
	sp.start = append(sp.start, i)
	sp.end = append(sp.end, end)
	c := n << 1
	if !utf8OK {
		c |= 1
	}
	sp.chars = append(sp.chars, c)
}

// find returns the index past the value starting at s[i], if it was
// recorded; s must be part of the line sp was reset for to be found.
func (sp *spans) find(s string, i int) (int, bool) {
	k, off, ok := sp.lookup(s, i)
	if !ok {
		return 0, false
	}
	end := i + sp.end[k] - off
	if end > len(s) {
		return 0, false
	}
	return end, true
}

// lookup returns the entry of the value starting at s[i] and its offset in
// the line.
func (sp *spans) lookup(s string, i int) (k, off int, ok bool) {
	if sp == nil || len(sp.start) == 0 {
		return 0, 0, false
	}
	o := uintptr(unsafe.Pointer(unsafe.StringData(s))) - sp.base + uintptr(i)
	if o >= uintptr(sp.n) {
		return 0, 0, false
	}
	k, ok = slices.BinarySearch(sp.start, int(o))
	if !ok || sp.end[k] < 0 {
		return 0, 0, false
	}
	return k, int(o), true
}

// jsLen is jsLen(raw) for a string literal of the line, read from what the
// validation measured when it recorded the literal.
func (sp *spans) jsLen(raw string) (int, bool) {
	if len(raw) > longString {
		if k, off, ok := sp.lookup(raw, 0); ok && sp.end[k]-off == len(raw) && sp.chars[k] >= 0 {
			return sp.chars[k] >> 1, sp.chars[k]&1 == 0
		}
	}
	return jsLen(raw)
}

// eachField calls fn with each key and raw value of the object raw, which
// must be valid JSON.
func eachField(raw string, fn func(key, val string)) {
	walkFields(raw, false, nil, nil, fn)
}

// eachField is eachField for a part of the line sp was recorded for.
func (sp *spans) eachField(raw string, fn func(key, val string)) {
	walkFields(raw, false, sp, nil, fn)
}

// valueFunc lets a validating walk hand a value to its caller: called with
// the key and the value at s[i] (at depth, as validValue counts it), it
// either validates and reads the value itself, returning where it ends and
// whether it is valid (handled true; the walk's fn does not see it), or
// leaves it to validValue and fn (handled false). It serves to skim values
// (skimValue) and to parse a value while it is validated, instead of
// validating it and then walking it again.
type valueFunc func(key, s string, i, depth int) (end int, ok, handled bool)

// walkFields is eachField that can also validate: with check set it
// validates each value as it skips it (validValue, or value when that
// handles it, and then fn is not called), so a line's top level is
// validated and walked in one pass,
// and it reports whether raw was one valid object. Without check it trusts
// raw and only finds value ends. With check, sp (if set) records the spans
// of the values validValue validates; without, it is used to find them.
func walkFields(raw string, check bool, sp *spans, value valueFunc, fn func(key, val string)) bool {
	i := skipWS(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return false
	}
	end, ok := walkObject(raw, i, 0, check, sp, value, fn)
	return ok && (!check || skipWS(raw, end) == len(raw))
}

// walkObject is walkFields for the object at s[i] == '{', nested depth deep:
// it returns the index past the object and, with check, whether it is
// valid, as validValue would (without recording a span for the object).
func walkObject(s string, i, depth int, check bool, sp *spans, value valueFunc, fn func(key, val string)) (int, bool) {
	if check && depth >= maxDepth {
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
		var kEnd int
		if check {
			var ok bool
			if kEnd, ok = validString(s, i); !ok {
				return i, false
			}
		} else {
			kEnd = stringEnd(s, i)
		}
		key := s[i+1 : kEnd-1]
		if strings.IndexByte(key, '\\') >= 0 {
			key = string(unescape(nil, key, -1))
		}
		i = skipWS(s, kEnd)
		if i >= len(s) || s[i] != ':' {
			return i, false
		}
		i = skipWS(s, i+1)
		var end int
		handled := false
		if check {
			var ok bool
			if value != nil {
				end, ok, handled = value(key, s, i, depth+1)
			}
			if !handled {
				end, ok = validValue(s, i, depth+1, sp)
			}
			if !ok {
				return end, false
			}
		} else {
			end = sp.valueEnd(s, i)
		}
		if !handled {
			fn(key, s[i:end])
		}
		i = skipWS(s, end)
		if i >= len(s) {
			return i, false
		}
		switch s[i] {
		case ',':
			i = skipWS(s, i+1)
		case '}':
			return i + 1, true
		default:
			return i, false
		}
	}
}

// walkArray validates the array at s[i] == '[', nested depth deep, as
// validValue would, handing each element to elem, which validates it and
// returns where it ends.
func walkArray(s string, i, depth int, elem func(s string, i, depth int) (int, bool)) (int, bool) {
	if depth >= maxDepth {
		return i, false
	}
	i = skipWS(s, i+1)
	if i < len(s) && s[i] == ']' {
		return i + 1, true
	}
	for {
		var ok bool
		if i, ok = elem(s, i, depth+1); !ok {
			return i, false
		}
		var done bool
		if i, done, ok = afterElem(s, i, ']'); done || !ok {
			return i, ok
		}
	}
}

// eachElem calls fn with each raw element of the array raw.
func eachElem(raw string, fn func(val string)) {
	(*spans)(nil).eachElem(raw, fn)
}

// eachElem is eachElem for a part of the line sp was recorded for.
func (sp *spans) eachElem(raw string, fn func(val string)) {
	i := skipWS(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return
	}
	i++
	for {
		i = skipWS(raw, i)
		if i >= len(raw) || raw[i] == ']' {
			return
		}
		if raw[i] == ',' {
			i++
			continue
		}
		end := sp.valueEnd(raw, i)
		fn(raw[i:end])
		i = end
	}
}

func skipWS(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the index just past the string literal starting at i
// (len(s) when nothing closes it; see skimString).
func stringEnd(s string, i int) int {
	end, _ := skimString(s, i)
	return end
}

// valueEnd returns the index just past the value starting at i, looking
// it up in sp first: containers always, strings once no quote is found in
// their first bytes.
func (sp *spans) valueEnd(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '"':
		if sp != nil && i+longString < len(s) && strings.IndexByte(s[i+1:i+longString], '"') < 0 {
			if end, ok := sp.find(s, i); ok {
				return end
			}
		}
		return stringEnd(s, i)
	case '{', '[':
		if end, ok := sp.find(s, i); ok {
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

// str decodes a raw JSON string value; other values give "".
func str(raw string) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	s := raw[1 : len(raw)-1]
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	return string(unescape(make([]byte, 0, len(s)), s, -1))
}

func isTrue(raw string) bool { return raw == "true" }
func isNull(raw string) bool { return raw == "null" }

func isObject(raw string) bool { return len(raw) > 0 && raw[0] == '{' }
func isArray(raw string) bool  { return len(raw) > 0 && raw[0] == '[' }
func isString(raw string) bool { return len(raw) > 0 && raw[0] == '"' }

// integer reads a raw JSON number as an int64, truncating fractions.
func integer(raw string) int64 {
	if n, err := strconv.ParseInt(raw, 10, 64); err == nil {
		return n
	}
	return gjson.Parse(raw).Int()
}

// field returns the raw value of key in the valid object raw, or "". It
// stops at the key, so a field near the start of a large object is cheap.
// sp, if set, is the line's recorded spans.
func (sp *spans) field(raw, key string) string {
	i := skipWS(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return ""
	}
	i++
	for {
		i = skipWS(raw, i)
		if i >= len(raw) || raw[i] != '"' {
			return ""
		}
		kEnd := stringEnd(raw, i)
		k := raw[i+1 : kEnd-1]
		i = skipWS(raw, kEnd)
		if i < len(raw) && raw[i] == ':' {
			i++
		}
		i = skipWS(raw, i)
		end := sp.valueEnd(raw, i)
		if k == key {
			return raw[i:end]
		}
		i = skipWS(raw, end)
		if i < len(raw) && raw[i] == ',' {
			i++
		}
	}
}

// durationMs reads a tool's recorded run time (toolUseResult) in ms:
// durationSeconds is in seconds, the other fields in ms. A value that is
// not a non-negative number, or is beyond a year, gives 0: nothing known.
func durationMs(name, raw string) int64 {
	if raw == "" || raw[0] < '0' || raw[0] > '9' {
		return 0
	}
	f, err := strconv.ParseFloat(raw, 64)
	if err != nil {
		return 0
	}
	if name == "durationSeconds" {
		f *= 1000
	}
	if f > maxDurationMs {
		return 0
	}
	return int64(f)
}

// maxDurationMs bounds a believable tool run time: a year.
const maxDurationMs = 366 * 24 * 3600 * 1000
