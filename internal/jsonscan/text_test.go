package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

func TestStringLen(t *testing.T) {
	tests := []struct {
		raw   string // a JSON string literal, quotes included
		n     int
		valid bool
	}{
		{`""`, 0, true},
		{`"a"`, 1, true},
		{`"hello"`, 5, true},
		{`"a\nb"`, 3, true},                // \n is one unit
		{`"\t\r\n\"\\\/\b\f"`, 8, true},    // eight one-character escapes
		{`"\u00e9"`, 1, true},              // é written as an escape
		{`"caf\u00e9s"`, 5, true},          //
		{`"é"`, 1, true},                   // é: 2 bytes of UTF-8, one unit
		{`"€"`, 1, true},                   // 3 bytes, one unit
		{`"😀"`, 2, true},                   // 4 bytes, a surrogate pair in UTF-16
		{`"\ud83d\ude00"`, 2, true},        // the same pair, escaped
		{`"a😀b"`, 4, true},                 //
		{`"abcdefghijklmnop"`, 16, true},   // two 8-byte words
		{`"abcdefghijklmnopq"`, 17, true},  // two words and a tail byte
		{`"abcdefgh\nijklmnop"`, 17, true}, //
		{`"` + "\xff" + `"`, 1, false},     // an invalid byte counts as one U+FFFD
		{`"a` + "\xe9" + `t` + "\xe9" + `"`, 4, false},
		{`"abcdefgh` + "\xc3" + `"`, 9, false}, // a cut 2-byte sequence at the end
		{``, 0, true},
		{`"`, 0, true},
	}
	for _, tt := range tests {
		n, valid := StringLen(tt.raw)
		if n != tt.n || valid != tt.valid {
			t.Errorf("StringLen(%q) = %d, %v; want %d, %v", tt.raw, n, valid, tt.n, tt.valid)
		}
	}
}

// utf16Len is an independent StringLen: decode the literal with
// encoding/json and count UTF-16 code units, as JavaScript's String.length
// does.
func utf16Len(t *testing.T, raw string) int {
	t.Helper()
	var s string
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		t.Fatalf("bad literal %q: %v", raw, err)
	}
	return len(utf16.Encode([]rune(s)))
}

// TestStringLenOffsets puts each kind of non-plain byte at every offset of
// the first two 8-byte words, in strings long enough for the fast path, and
// compares with utf16Len.
func TestStringLenOffsets(t *testing.T) {
	specials := []string{`\n`, `\\`, `\"`, `\u00e9`, `\ud83d\ude00`, "é", "€", "😀", `\u0000`}
	for _, sp := range specials {
		for off := 0; off < 16; off++ {
			for tail := 0; tail < 10; tail++ {
				raw := `"` + strings.Repeat("x", off) + sp + strings.Repeat("y", tail) + `"`
				got, valid := StringLen(raw)
				if want := utf16Len(t, raw); got != want || !valid {
					t.Errorf("StringLen(%q) = %d, %v; want %d, true", raw, got, valid, want)
				}
				// Two specials: one at off, one 9 bytes later.
				raw2 := `"` + strings.Repeat("x", off) + sp + "123456789" + sp + strings.Repeat("z", tail) + `"`
				got, _ = StringLen(raw2)
				if want := utf16Len(t, raw2); got != want {
					t.Errorf("StringLen(%q) = %d, want %d", raw2, got, want)
				}
			}
		}
	}
	// Plain ASCII of every length 0..40.
	for n := 0; n <= 40; n++ {
		raw := `"` + strings.Repeat("q", n) + `"`
		if got, _ := StringLen(raw); got != n {
			t.Errorf("StringLen(%d x q) = %d", n, got)
		}
	}
}

// FuzzStringLen checks StringLen against utf16Len on any valid string
// literal, and that it reports invalid UTF-8 exactly when the literal holds
// some.
func FuzzStringLen(f *testing.F) {
	f.Add(`"abcdefgh\nijklmnop\t\"é€😀\ud83d\ude00"`)
	f.Add("\"abc\xffdefghijkl\"")
	f.Fuzz(func(t *testing.T, raw string) {
		var s string
		if json.Unmarshal([]byte(raw), &s) != nil || len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
			return
		}
		got, valid := StringLen(raw)
		if want := utf16Len(t, raw); got != want {
			t.Errorf("StringLen(%q) = %d, want %d", raw, got, want)
		}
		if valid != utf8.ValidString(raw) {
			t.Errorf("StringLen(%q) reports valid UTF-8 %v", raw, valid)
		}
	})
}

func TestUTF16Len(t *testing.T) {
	tests := []struct {
		raw string
		n   int
	}{
		{``, 0},
		{`{}`, 2},
		{`{"a":1}`, 7},
		{`{"a":"é"}`, 9},   // é is one unit
		{`{"a":"😀"}`, 10},  // the emoji is two
		{`{"a":"\n"}`, 10}, // escapes count as written: JSON.stringify's text
		{"abcdefgh\xffabcdefgh", 17},
		{"é\x80", 2},
		{"\xe2\x82", 2},
	}
	for _, tt := range tests {
		if got := UTF16Len(tt.raw); got != tt.n {
			t.Errorf("UTF16Len(%q) = %d, want %d", tt.raw, got, tt.n)
		}
	}
}

// FuzzUTF16Len checks UTF16Len against the UTF-16 length of the text Go
// reads the bytes as (invalid bytes one U+FFFD each, as Node reads them),
// at any offset of the eight-byte fast path.
func FuzzUTF16Len(f *testing.F) {
	f.Add(`{"command":"ls -la","description":"é€😀 list"}`)
	f.Add("{\"a\":\"abcdefg\xffhijklmnop\xe2\x82\"}")
	f.Fuzz(func(t *testing.T, raw string) {
		if got, want := UTF16Len(raw), len(utf16.Encode([]rune(raw))); got != want {
			t.Errorf("UTF16Len(%q) = %d, want %d", raw, got, want)
		}
	})
}

// FuzzUTF16LenNewlines holds UTF16LenNewlines to UTF16Len and to
// strings.Count of the `\n` escapes.
func FuzzUTF16LenNewlines(f *testing.F) {
	f.Add(`{"content":"line\nline\n\\n é\n"}`)
	f.Add("\\nabcdefg\\\xffn\\nhijklmnop\xe2\x82\\")
	f.Add("abcdefg\\nabcdefg\\")
	f.Fuzz(func(t *testing.T, s string) {
		n, newlines := UTF16LenNewlines(s)
		if want := UTF16Len(s); n != want {
			t.Errorf("UTF16LenNewlines(%q) = %d units, want %d", s, n, want)
		}
		if want := strings.Count(s, `\n`); newlines != want {
			t.Errorf("UTF16LenNewlines(%q) = %d newlines, want %d", s, newlines, want)
		}
	})
}

// TestMeasureRune covers each branch of the decoding: the two shortcuts,
// the characters outside them, and invalid or cut sequences.
func TestMeasureRune(t *testing.T) {
	for _, tt := range []struct {
		s           string
		size, units int
		bad         bool
	}{
		{"é", 2, 1, false},            // C3: the two-byte shortcut
		{"\u0080", 2, 1, false},       // C2, the shortcut's first
		{"\u07ff", 2, 1, false},       // DF, its last
		{"ሴ", 3, 1, false},            // E1: the three-byte shortcut
		{"\ucfff", 3, 1, false},       // EC, its last
		{"\u0800", 3, 1, false},       // E0: decoded
		{"\ud7ff", 3, 1, false},       // ED: decoded
		{"\ue000", 3, 1, false},       // EE: decoded
		{"😀", 4, 2, false},            // above U+FFFF: two units
		{"\xff", 1, 1, true},          // not UTF-8
		{"\xc3", 1, 1, true},          // cut
		{"\xe1\x88", 1, 1, true},      // cut
		{"\xc3(", 1, 1, true},         // no continuation byte
		{"\xe1\x88(", 1, 1, true},     // no second continuation byte
		{"\xe1(\x88", 1, 1, true},     // no first continuation byte
		{"\xc1\xbf", 1, 1, true},      // an overlong form
		{"\xef\xbf\xbd", 3, 1, false}, // U+FFFD itself is valid
		{"\uffff", 3, 1, false},       // the last character of one unit
		{"\U00010000", 4, 2, false},   // the first of two
		{"é\x80", 2, 1, false},        // not taken for a three-byte character
	} {
		size, units, bad := measureRune(tt.s)
		if size != tt.size || units != tt.units || bad != tt.bad {
			t.Errorf("measureRune(%q) = %d, %d, %v; want %d, %d, %v", tt.s, size, units, bad, tt.size, tt.units, tt.bad)
		}
	}
}

func TestAppendUnescaped(t *testing.T) {
	for _, tt := range []struct {
		body string
		max  int
		want string
	}{
		{`plain`, -1, "plain"},
		{`a\"b\\c\/d\b\f\n\r\t`, -1, "a\"b\\c/d\b\f\n\r\t"},
		{`\u00e9\u20AC\u00Ff`, -1, "é€ÿ"},
		{`\ud83d\ude00`, -1, "😀"},
		{`\ud83d tail`, -1, "\ufffd tail"},
		{`\ud83d\u0041`, -1, "\ufffd"}, // gjson takes the escape after as the pair
		{`\ude00`, -1, "\ufffd"},
		{"raw \xff", -1, "raw \xff"},
		{`abcdef`, 3, "abc"},
		{`ab\ncd`, 3, "ab\n"},
		{`ab\ncd`, 2, "ab\n"}, // an escape met at max is decoded
		{`abcdef`, 0, ""},
		{`\u00e9x`, 1, "é"}, // stops once it holds max bytes or more
		{`\u00e9`, -1, "é"},
		{`ab\`, -1, "ab"},            // cut short: what came before
		{`ab\u12`, -1, "ab"},         //
		{`ab\ud83d`, -1, "ab\ufffd"}, // a lone surrogate at the end
	} {
		if got := string(AppendUnescaped(nil, tt.body, tt.max)); got != tt.want {
			t.Errorf("AppendUnescaped(%q, %d) = %q, want %q", tt.body, tt.max, got, tt.want)
		}
	}
	// It appends, and max counts what dst held before.
	for body, want := range map[string]string{`a\tbcd`: "<<a\t", `abcdef`: "<<ab"} {
		if got := string(AppendUnescaped([]byte("<<"), body, 4)); got != want {
			t.Errorf("AppendUnescaped(%q, %q, 4) = %q, want %q", "<<", body, got, want)
		}
	}
}

// FuzzAppendUnescaped holds AppendUnescaped to gjson's decoding of a valid
// JSON string literal, whole and cut at a number of bytes.
func FuzzAppendUnescaped(f *testing.F) {
	f.Add(`"plain"`, 3)
	f.Add(`"a\"b\\c\/d\b\f\n\r\t"`, 5)
	f.Add(`"\u00e9\u20ac\ud83d\ude00 lone \ud83d tail \ude00 \ud83d\u0041 \u0000"`, 9)
	f.Add("\"raw \xff\xfe bytes é\"", 7)
	f.Add(`"" `, 0) // not a literal alone: white space after it
	f.Fuzz(func(t *testing.T, raw string, max int) {
		if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' || !Valid(raw) {
			return // not one string literal alone
		}
		want := gjson.Parse(raw).Str
		body := raw[1 : len(raw)-1]
		if got := string(AppendUnescaped(nil, body, -1)); got != want {
			t.Fatalf("AppendUnescaped(%q) = %q, gjson %q", body, got, want)
		}
		if got := String(raw); got != want {
			t.Fatalf("String(%q) = %q, gjson %q", raw, got, want)
		}
		max = max % (len(want) + 8)
		if max < 0 {
			max = -max
		}
		got := string(AppendUnescaped(nil, body, max))
		if !strings.HasPrefix(want, got) || len(got) < min(max, len(want)) {
			t.Fatalf("AppendUnescaped(%q, max %d) = %q, not a prefix of %q of at least that many bytes", body, max, got, want)
		}
	})
}

func BenchmarkUTF16LenNewlines(b *testing.B) {
	raw := `"` + strings.Repeat(`func main() {\n\tfmt.Println(\"café\")\n}\n`, 2000) + `"`
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		UTF16LenNewlines(raw)
	}
}

func BenchmarkStringLen(b *testing.B) {
	raw := `"` + strings.Repeat(`func main() {\n\tfmt.Println(\"café\")\n}\n`, 2000) + `"`
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		StringLen(raw)
	}
}
