package replay

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

var validCases = []string{
	`{}`, `[]`, `""`, `0`, `-0`, `1.5e-3`, `true`, `null`, ` {"a" : [1, 2, {"b": "c"}]} `,
	`{"a":"\u00e9\n\"\\"}`, `"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"aaaaaaaaaaaaaaaaaa"`,
	`{"a":1,}`, `[1,]`, `{"a"}`, `{a:1}`, `01`, `1.`, `.5`, `-`, `1e`, `tru`, `nul`, `"\x"`, `"\u12g4"`,
	"\"a\tb\"", "\"aaaaaaaaaaaaaa\x01aaaa\"", "\"aaaaaaaaaaaaaaaaaaaaaaa", `{"a":1}{"b":2}`, `// comment`,
	"\"\xff\xfe\"", "{\"a\":\"\x00\"}", `[[[[[]]]]]`, `"\ud83d\ude00"`, ``, ` `,
}

func TestValidJSONMatchesEncodingJSON(t *testing.T) {
	for _, c := range validCases {
		if got, want := validJSON(c), json.Valid([]byte(c)); got != want {
			t.Errorf("validJSON(%q) = %v, encoding/json says %v", c, got, want)
		}
	}
}

// TestValidJSONDepthLimit: nesting is accepted up to maxDepth, as
// encoding/json does, and refused beyond; so is a line's top level walk.
func TestValidJSONDepthLimit(t *testing.T) {
	nest := func(open, inner, close string, depth int) string {
		return strings.Repeat(open, depth) + inner + strings.Repeat(close, depth)
	}
	for _, tt := range []struct {
		name string
		s    string
		want bool
	}{
		{"arrays at maxDepth", nest("[", "", "]", maxDepth), true},
		{"arrays beyond", nest("[", "", "]", maxDepth+1), false},
		{"objects at maxDepth", nest(`{"a":`, "1", "}", maxDepth), true},
		{"objects beyond", nest(`{"a":`, "1", "}", maxDepth+1), false},
		{"arrays in an object at maxDepth", `{"a":` + nest("[", "", "]", maxDepth-1) + "}", true},
		{"arrays in an object beyond", `{"a":` + nest("[", "", "]", maxDepth) + "}", false},
	} {
		if std := json.Valid([]byte(tt.s)); std != tt.want {
			t.Errorf("%s: encoding/json's Valid = %v, want %v", tt.name, std, tt.want)
		}
		if got := validJSON(tt.s); got != tt.want {
			t.Errorf("%s: validJSON = %v, want %v", tt.name, got, tt.want)
		}
		if tt.s[0] == '{' {
			if got := walkFields(tt.s, true, nil, nil, func(k, v string) {}); got != tt.want {
				t.Errorf("%s: walkFields = %v, want %v", tt.name, got, tt.want)
			}
		}
	}
}

// FuzzValid checks validJSON against encoding/json on any input.
func FuzzValid(f *testing.F) {
	for _, c := range validCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := validJSON(s), json.Valid([]byte(s)); got != want {
			t.Errorf("validJSON(%q) = %v, encoding/json says %v", s, got, want)
		}
	})
}

// blankStrings returns s with the inside of every string literal made of
// plain letters: each byte becomes 'a', a backslash and the byte after it
// "aa". It tracks strings by a forward scan of its own, so it is a model of
// skimValue independent of skimString.
func blankStrings(s string) string {
	b := []byte(s)
	in := false
	for i := 0; i < len(b); i++ {
		switch {
		case !in:
			in = b[i] == '"'
		case b[i] == '\\' && i+1 < len(b):
			b[i], b[i+1] = 'a', 'a'
			i++
		case b[i] == '"':
			in = false
		default:
			b[i] = 'a'
		}
	}
	return string(b)
}

// FuzzSkimValue checks that skimValue accepts exactly the values that are
// valid JSON once their strings are blanked, and ends where validValue
// ends on every valid value.
func FuzzSkimValue(f *testing.F) {
	for _, c := range validCases {
		f.Add(c)
	}
	f.Add("{\"a\":[\"\x01\\q\\u12\",{\"b\\\"\":-1.5e3}],\"c\":\"\\\\\"}")
	f.Add(`{"durationSeconds":2[REDACTED]00064}`)
	f.Fuzz(func(t *testing.T, s string) {
		i := skipWS(s, 0)
		end, ok := skimValue(s, i, 0)
		got := ok && skipWS(s, end) == len(s)
		if want := json.Valid([]byte(blankStrings(s))); got != want {
			t.Fatalf("skimValue(%q) = %v, want %v (encoding/json on %q)", s, got, want, blankStrings(s))
		}
		if vend, vok := validValue(s, i, 0, nil); vok && (!ok || vend != end) {
			t.Fatalf("skimValue(%q) = %d, %v; validValue %d, true", s, end, ok, vend)
		}
	})
}

// FuzzWalkFields checks that the validating walk of a line's top level
// accepts exactly the valid JSON objects and visits every top-level key.
func FuzzWalkFields(f *testing.F) {
	for _, c := range validCases {
		f.Add(c)
	}
	f.Add(`{"type":"user","message":{"content":[{"type":"text","text":"hi"}]},"n":1.5e3,"b":[true,null]}`)
	f.Fuzz(func(t *testing.T, s string) {
		var keys []string
		got := walkFields(s, true, nil, nil, func(k, v string) { keys = append(keys, k) })
		var obj map[string]json.RawMessage
		want := json.Valid([]byte(s)) && json.Unmarshal([]byte(s), &obj) == nil && obj != nil
		if got != want {
			t.Fatalf("walkFields(%q) = %v, want %v", s, got, want)
		}
		if got && len(keys) < len(obj) {
			t.Fatalf("walkFields(%q) visited %d keys, object has %d distinct", s, len(keys), len(obj))
		}
	})
}

// FuzzSpans checks that the walkers find the same values with the spans the
// validation recorded as without them, at every depth of a valid line.
func FuzzSpans(f *testing.F) {
	for _, c := range validCases {
		f.Add(c)
	}
	long := strings.Repeat(`ab\"\\cd\n`, 20)
	f.Add(`{"message":{"content":[{"type":"text","text":"` + long + `"},{"type":"tool_result","content":[{"type":"text","text":"` + long + `"}]}]},"toolUseResult":{"x":["` + long + `"],"agentId":"a1"}}`)
	f.Fuzz(func(t *testing.T, s string) {
		var sp spans
		sp.reset(s)
		if !walkFields(s, true, &sp, nil, func(k, v string) {}) {
			return
		}
		var with, without []string
		var walk func(sp *spans, v string, out *[]string)
		walk = func(sp *spans, v string, out *[]string) {
			*out = append(*out, v)
			switch {
			case isObject(v):
				sp.eachField(v, func(k, x string) { walk(sp, x, out) })
				if f := sp.field(v, "agentId"); f != "" {
					*out = append(*out, "field:"+f)
				}
			case isArray(v):
				sp.eachElem(v, func(x string) { walk(sp, x, out) })
			}
		}
		walk(&sp, s, &with)
		walk(nil, s, &without)
		if !slices.Equal(with, without) {
			t.Fatalf("walk of %q with spans:\n%q\nwithout:\n%q", s, with, without)
		}
	})
}

// TestValidStringBytes puts every byte value at every offset of the first
// two 8-byte words of a string, and after a special one, and compares
// validJSON with encoding/json.
func TestValidStringBytes(t *testing.T) {
	for c := 0; c < 256; c++ {
		for off := 0; off < 16; off++ {
			for _, pre := range []string{"", `\n`, "\x01", `"`} {
				s := `"` + strings.Repeat("x", off) + pre + string([]byte{byte(c)}) + strings.Repeat("y", 9) + `"`
				if got, want := validJSON(s), json.Valid([]byte(s)); got != want {
					t.Errorf("validJSON(%q) = %v, encoding/json says %v", s, got, want)
				}
			}
		}
	}
}

// FuzzValidStringLen holds validStringLen to validString (where the literal
// ends, whether it is valid) and to jsLen (its UTF-16 length, whether its
// bytes are valid UTF-8), at every offset of the eight-byte fast path.
func FuzzValidStringLen(f *testing.F) {
	f.Add(`"abcdefgh\nijklmnop\t\"é€😀\ud83d\ude00" tail`)
	f.Add("\"abc\xffdefghijkl\xe2\x82\"")
	f.Add(`"unterminated \u12`)
	f.Add("\"control \x01 char\"")
	f.Fuzz(func(t *testing.T, s string) {
		if s == "" || s[0] != '"' {
			s = `"` + s
		}
		end, n, utf8OK, ok := validStringLen(s, 0)
		wantEnd, wantOK := validString(s, 0)
		if ok != wantOK || ok && end != wantEnd {
			t.Fatalf("validStringLen(%q) = %d, %v; validString %d, %v", s, end, ok, wantEnd, wantOK)
		}
		if !ok {
			return
		}
		if wn, wu := jsLen(s[:end]); n != wn || utf8OK != wu {
			t.Errorf("validStringLen(%q) measures %d, %v; jsLen %d, %v", s, n, utf8OK, wn, wu)
		}
	})
}

// FuzzUnescape holds unescape to gjson's decoding of a valid JSON string
// literal, whole and cut at a number of bytes.
func FuzzUnescape(f *testing.F) {
	f.Add(`"plain"`, 3)
	f.Add(`"a\"b\\c\/d\b\f\n\r\t"`, 5)
	f.Add(`"\u00e9\u20ac\ud83d\ude00 lone \ud83d tail \ude00 \ud83d\u0041 \u0000"`, 9)
	f.Add("\"raw \xff\xfe bytes é\"", 7)
	f.Fuzz(func(t *testing.T, raw string, max int) {
		if end, ok := validString(raw, 0); len(raw) < 2 || raw[0] != '"' || !ok || end != len(raw) {
			return // not one string literal alone
		}
		want := gjson.Parse(raw).Str
		body := raw[1 : len(raw)-1]
		if got := string(unescape(nil, body, -1)); got != want {
			t.Fatalf("unescape(%q) = %q, gjson %q", body, got, want)
		}
		max = max % (len(want) + 8)
		if max < 0 {
			max = -max
		}
		got := string(unescape(nil, body, max))
		if !strings.HasPrefix(want, got) || len(got) < min(max, len(want)) {
			t.Fatalf("unescape(%q, max %d) = %q, not a prefix of %q of at least that many bytes", body, max, got, want)
		}
	})
}
