package jsonscan

import (
	"encoding/binary"
	"math/bits"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// StringLen returns the length, in UTF-16 code units, of the text that the
// JSON string literal raw (quotes included) decodes to: JavaScript's
// String.length of it. It also reports whether the literal's bytes were
// valid UTF-8; an invalid byte counts as one unit, as U+FFFD would after
// Node decodes it. It never allocates, and steps eight bytes at a time over
// plain ASCII.
func StringLen(raw string) (n int, validUTF8 bool) {
	if len(raw) < 2 {
		return 0, true
	}
	s := raw[1 : len(raw)-1]
	validUTF8 = true
	i := 0
	for i < len(s) {
		// Fast path: eight bytes at a time while they are plain ASCII without '\'.
		for i+8 <= len(s) {
			v := word(s, i)
			x := v ^ (lsb * '\\') // zero byte where v has '\'
			if m := (v | ((x - lsb) &^ x)) & msb; m != 0 {
				// Count the plain bytes before the first flagged one (the
				// lowest flag is exact, see validString).
				k := bits.TrailingZeros64(m) >> 3
				n += k
				i += k
				break
			}
			n += 8
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		switch {
		case c == '\\':
			if i+1 < len(s) && s[i+1] == 'u' {
				i += 6
			} else {
				i += 2
			}
			n++
		case c < utf8.RuneSelf:
			i++
			n++
		default:
			size, units, bad := measureRune(s[i:])
			validUTF8 = validUTF8 && !bad
			n += units
			i += size
		}
	}
	return n, validUTF8
}

// UTF16Len returns the length of the text s in UTF-16 code units, an
// invalid byte counting as one (U+FFFD). For raw JSON written by
// JavaScript's JSON.stringify, that is the length of the string it made.
func UTF16Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		// Eight bytes at a time while they are ASCII, one unit each.
		for i+8 <= len(s) {
			if m := word(s, i) & msb; m != 0 {
				k := bits.TrailingZeros64(m) >> 3
				n += k
				i += k
				break
			}
			n += 8
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		size, units, _ := measureRune(s[i:])
		n += units
		i += size
	}
	return n
}

// UTF16LenNewlines is UTF16Len of s together with the number of `\n`
// escapes in it (the two bytes '\' 'n', as strings.Count counts them), in
// one pass rather than two.
func UTF16LenNewlines(s string) (n, newlines int) {
	i := 0
	for i < len(s) {
		// Eight bytes at a time while they are ASCII without a backslash,
		// one unit each; the lowest flag, the first non-ASCII byte or
		// backslash, is exact (a borrow only flags bytes above it).
		for i+8 <= len(s) {
			v := word(s, i)
			special := (v | (v ^ (lsb * '\\') - lsb)) & msb
			if special == 0 {
				n += 8
				i += 8
				continue
			}
			k := bits.TrailingZeros64(special) >> 3
			n += k
			i += k
			// Passed here: a backslash, and the characters of one unit
			// that measureRune recognises without decoding.
			switch c := s[i]; {
			case c == '\\':
				if i+1 < len(s) && s[i+1] == 'n' {
					newlines++
				}
				n++
				i++
				continue
			case c >= 0xC2 && c <= 0xDF:
				if i+1 < len(s) && s[i+1]&0xC0 == 0x80 {
					n++
					i += 2
					continue
				}
			case c >= 0xE1 && c <= 0xEC:
				if i+2 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 {
					n++
					i += 3
					continue
				}
			}
			break
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c == '\\' && i+1 < len(s) && s[i+1] == 'n' {
				newlines++
			}
			n++
			i++
			continue
		}
		size, units, _ := measureRune(s[i:])
		n += units
		i += size
	}
	return n, newlines
}

// word returns the eight bytes of s at i as one little-endian word, for
// the scanners that test eight bytes at a time. The caller ensures
// i+8 <= len(s): nothing is checked, so that the load is one instruction
// (slicing s[i:] first cost six more, in every scanner's inner loop).
func word(s string, i int) uint64 {
	return binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(s)), i))[:])
}

// measureRune decodes the character at the start of s, which is not ASCII:
// its size in bytes, its length in UTF-16 code units (2 above U+FFFF), and
// whether it was an invalid byte, read as U+FFFD as Node reads it.
func measureRune(s string) (size, units int, bad bool) {
	// The common characters first, without decoding: two bytes
	// (U+0080–U+07FF), or three whose first byte allows any continuation
	// bytes (U+1000–U+CFFF: arrows, dashes, box drawing, CJK). Either is
	// one code unit.
	if len(s) >= 3 && s[0] >= 0xE1 && s[0] <= 0xEC && s[1]&0xC0 == 0x80 && s[2]&0xC0 == 0x80 {
		return 3, 1, false
	}
	if len(s) >= 2 && s[0] >= 0xC2 && s[0] <= 0xDF && s[1]&0xC0 == 0x80 {
		return 2, 1, false
	}
	r, size := utf8.DecodeRuneInString(s)
	units = 1
	if r > 0xFFFF {
		units = 2
	}
	return size, units, r == utf8.RuneError && size == 1
}

// AppendUnescaped appends to dst the text of body, the inside of a valid
// JSON string literal, decoded as gjson decodes it: a \u escape of a UTF-16
// surrogate takes the \u escape after it as its pair (U+FFFD when they do
// not pair), a lone one gives U+FFFD, and bytes that are not UTF-8 are
// copied as they are. It stops once dst holds max bytes or more (max < 0:
// never), so that a caller keeping the start of a long text decodes only
// that.
func AppendUnescaped(dst []byte, body string, max int) []byte {
	for i := 0; i < len(body) && (max < 0 || len(dst) < max); {
		j := strings.IndexByte(body[i:], '\\')
		if j < 0 {
			j = len(body) - i
		}
		if max >= 0 {
			j = min(j, max-len(dst))
		}
		dst = append(dst, body[i:i+j]...)
		i += j
		if i >= len(body) || body[i] != '\\' {
			continue
		}
		if i+1 >= len(body) {
			return dst
		}
		switch c := body[i+1]; c {
		case 'b':
			dst, i = append(dst, '\b'), i+2
		case 'f':
			dst, i = append(dst, '\f'), i+2
		case 'n':
			dst, i = append(dst, '\n'), i+2
		case 'r':
			dst, i = append(dst, '\r'), i+2
		case 't':
			dst, i = append(dst, '\t'), i+2
		case 'u':
			if i+6 > len(body) {
				return dst
			}
			r := hex4(body[i+2 : i+6])
			i += 6
			if utf16.IsSurrogate(r) && i+6 <= len(body) && body[i] == '\\' && body[i+1] == 'u' {
				r = utf16.DecodeRune(r, hex4(body[i+2:i+6]))
				i += 6
			}
			dst = utf8.AppendRune(dst, r)
		default: // '"', '\\', '/'
			dst, i = append(dst, c), i+2
		}
	}
	return dst
}

// hex4 reads four hexadecimal digits.
func hex4(s string) rune {
	var r rune
	for i := range 4 {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}
