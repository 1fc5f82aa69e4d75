package jsonscan

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/internal/jsonscan/jsonscantest"
)

var validCases = []string{
	`{}`, `[]`, `""`, `0`, `-0`, `1.5e-3`, `true`, `null`, ` {"a" : [1, 2, {"b": "c"}]} `,
	`{"a":"\u00e9\n\"\\"}`, `"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"aaaaaaaaaaaaaaaaaa"`,
	`{"a":1,}`, `[1,]`, `{"a"}`, `{a:1}`, `01`, `1.`, `.5`, `-`, `1e`, `tru`, `nul`, `"\x"`, `"\u12g4"`,
	"\"a\tb\"", "\"aaaaaaaaaaaaaa\x01aaaa\"", "\"aaaaaaaaaaaaaaaaaaaaaaa", `{"a":1}{"b":2}`, `// comment`,
	"\"\xff\xfe\"", "{\"a\":\"\x00\"}", `[[[[[]]]]]`, `"\ud83d\ude00"`, ``, ` `,
	// cut short anywhere
	`{`, `[`, `{ `, `{"a"`, `{"a" `, `{"a":`, `{"a":1`, `{"a":1,`, `[1`, `[1,`, `"\`, `"\u12`, `"abc\`, `1e+`, `-0.`,
	`[tru`, `{"a":fals`, `{"a":"abc`,
	// numbers, escaped keys, empty containers
	`10`, `[100,0.09,9e9,-19,1E-2,0.5E+2]`, `{"\u0061":1}`, `{"a":{},"b":[],"c":[{},[]]}`,
	// hexadecimal digits, and the characters either side of their ranges
	`"\u0aF9\uAfA0\u09fa"`, `"\u12/4"`, `"\u12:4"`, `"\u12@4"`, `"\u12G4"`, "\"\\u12`4\"",
}

func TestValidMatchesEncodingJSON(t *testing.T) {
	for _, c := range validCases {
		if got, want := Valid(c), json.Valid([]byte(c)); got != want {
			t.Errorf("Valid(%q) = %v, encoding/json says %v", c, got, want)
		}
	}
}

// TestValidDepthLimit: nesting is accepted up to maxDepth, as encoding/json
// does, and refused beyond; so is a line's validating walk, and a skim.
func TestValidDepthLimit(t *testing.T) {
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
		if got := Valid(tt.s); got != tt.want {
			t.Errorf("%s: Valid = %v, want %v", tt.name, got, tt.want)
		}
		var sc Scanner
		if got := sc.Scan(tt.s, nil, func(k, v string) {}); got != tt.want && tt.s[0] == '{' {
			t.Errorf("%s: Scan = %v, want %v", tt.name, got, tt.want)
		}
		if end, ok := Skim(tt.s, 0, 0, nil); ok != tt.want || ok && end != len(tt.s) {
			t.Errorf("%s: Skim = %d, %v, want %v", tt.name, end, ok, tt.want)
		}
	}
	// The walks that take a depth count it as Value does.
	var sc Scanner
	for depth, want := range map[int]bool{maxDepth - 1: true, maxDepth: false} {
		if _, ok := sc.Object(`{}`, 0, depth, nil, func(k, v string) {}); ok != want {
			t.Errorf("Object at depth %d: %v, want %v", depth, ok, want)
		}
		if _, ok := Array(`[]`, 0, depth, skimValue); ok != want {
			t.Errorf("Array at depth %d: %v, want %v", depth, ok, want)
		}
		if _, ok := Skim(`{}`, 0, depth, func(k, v string) {}); ok != want {
			t.Errorf("Skim at depth %d: %v, want %v", depth, ok, want)
		}
		if _, ok := sc.Value(`[]`, 0, depth); ok != want {
			t.Errorf("Value at depth %d: %v, want %v", depth, ok, want)
		}
	}
}

// FuzzValid checks Valid against encoding/json on any input.
func FuzzValid(f *testing.F) {
	for _, c := range validCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Valid(s), json.Valid([]byte(s)); got != want {
			t.Errorf("Valid(%q) = %v, encoding/json says %v", s, got, want)
		}
	})
}

// FuzzSkim checks that Skim accepts exactly the values that are valid JSON
// once their strings are blanked, ends where Value ends on every valid
// value, and visits an object's members as a validating walk does.
func FuzzSkim(f *testing.F) {
	for _, c := range validCases {
		f.Add(c)
	}
	f.Add("{\"a\":[\"\x01\\q\\u12\",{\"b\\\"\":-1.5e3}],\"c\":\"\\\\\"}")
	f.Add(`{"durationSeconds":2[REDACTED]00064}`)
	f.Fuzz(func(t *testing.T, s string) {
		i := SkipSpace(s, 0)
		end, ok := Skim(s, i, 0, nil)
		got := ok && SkipSpace(s, end) == len(s)
		if want := json.Valid([]byte(jsonscantest.BlankStrings(s))); got != want {
			t.Fatalf("Skim(%q) = %v, want %v (encoding/json on %q)", s, got, want, jsonscantest.BlankStrings(s))
		}
		var sc *Scanner
		if vend, vok := sc.Value(s, i, 0); vok && (!ok || vend != end) {
			t.Fatalf("Skim(%q) = %d, %v; Value %d, true", s, end, ok, vend)
		}
		if !got || !Valid(s) || !IsObject(s[i:]) {
			return
		}
		var skimmed, walked []string
		vend, vok := Skim(s, i, 0, func(name, v string) { skimmed = append(skimmed, name, v) })
		if vend != end || !vok {
			t.Fatalf("Skim(%q) with a visitor = %d, %v; without %d, true", s, vend, vok, end)
		}
		sc.Scan(s, nil, func(k, v string) { walked = append(walked, k, v) })
		for k := 0; k < len(skimmed); k += 2 { // names are as written when skimmed
			skimmed[k] = string(AppendUnescaped(nil, skimmed[k], -1))
		}
		if !slices.Equal(skimmed, walked) {
			t.Fatalf("Skim(%q) visits %q; Scan walks %q", s, skimmed, walked)
		}
	})
}

// FuzzScan checks that the validating walk of a line's top level accepts
// exactly the valid JSON objects and visits every top-level key.
func FuzzScan(f *testing.F) {
	for _, c := range validCases {
		f.Add(c)
	}
	f.Add(`{"type":"user","message":{"content":[{"type":"text","text":"hi"}]},"n":1.5e3,"b":[true,null]}`)
	f.Fuzz(func(t *testing.T, s string) {
		var keys []string
		var sc Scanner
		got := sc.Scan(s, nil, func(k, v string) { keys = append(keys, k) })
		var obj map[string]json.RawMessage
		want := json.Valid([]byte(s)) && json.Unmarshal([]byte(s), &obj) == nil && obj != nil
		if got != want {
			t.Fatalf("Scan(%q) = %v, want %v", s, got, want)
		}
		if got && len(keys) < len(obj) {
			t.Fatalf("Scan(%q) visited %d keys, object has %d distinct", s, len(keys), len(obj))
		}
	})
}

// FuzzRecordedEnds checks that the walkers find the same values with the
// ends the validation recorded as without them, at every depth of a valid
// line.
func FuzzRecordedEnds(f *testing.F) {
	for _, c := range validCases {
		f.Add(c)
	}
	long := strings.Repeat(`ab\"\\cd\n`, 20)
	f.Add(`{"message":{"content":[{"type":"text","text":"` + long + `"},{"type":"tool_result","content":[{"type":"text","text":"` + long + `"}]}]},"toolUseResult":{"x":["` + long + `"],"agentId":"a1"}}`)
	f.Fuzz(func(t *testing.T, s string) {
		var sc Scanner
		if !sc.Scan(s, nil, func(k, v string) {}) {
			return
		}
		var with, without []string
		var walk func(sc *Scanner, v string, out *[]string)
		walk = func(sc *Scanner, v string, out *[]string) {
			*out = append(*out, v)
			switch {
			case IsObject(v):
				sc.EachField(v, func(k, x string) { walk(sc, x, out) })
				if f := sc.Field(v, "agentId"); f != "" {
					*out = append(*out, "field:"+f)
				}
			case IsArray(v):
				sc.EachElem(v, func(x string) { walk(sc, x, out) })
			case IsString(v):
				n, ok := sc.StringLen(v)
				*out = append(*out, fmt.Sprint("len:", n, ok))
			}
		}
		walk(&sc, s, &with)
		walk(nil, s, &without)
		if !slices.Equal(with, without) {
			t.Fatalf("walk of %q with recorded ends:\n%q\nwithout:\n%q", s, with, without)
		}
	})
}

// TestValidStringBytes puts every byte value at every offset of the first
// two 8-byte words of a string, and after a special one, and compares
// Valid with encoding/json.
func TestValidStringBytes(t *testing.T) {
	for c := 0; c < 256; c++ {
		for off := 0; off < 16; off++ {
			for _, pre := range []string{"", `\n`, "\x01", `"`} {
				s := `"` + strings.Repeat("x", off) + pre + string([]byte{byte(c)}) + strings.Repeat("y", 9) + `"`
				if got, want := Valid(s), json.Valid([]byte(s)); got != want {
					t.Errorf("Valid(%q) = %v, encoding/json says %v", s, got, want)
				}
			}
		}
	}
}

// FuzzValidStringLen holds validStringLen to validString (where the literal
// ends, whether it is valid) and to StringLen (its UTF-16 length, whether
// its bytes are valid UTF-8), at every offset of the eight-byte fast path.
func FuzzValidStringLen(f *testing.F) {
	f.Add(`"abcdefgh\nijklmnop\t\"é€😀\ud83d\ude00" tail`)
	f.Add("\"abc\xffdefghijkl\xe2\x82\"")
	f.Add(`"unterminated \u12`)
	f.Add(`"trailing backslash \`)
	f.Add(`"hex \u0aF9\uAfA0 \u12:4"`)
	f.Add("\"control \x01 char\"")
	f.Fuzz(func(t *testing.T, s string) {
		if s == "" || s[0] != '"' {
			s = `"` + s
		}
		end, n, utf8OK, ok := validStringLen(s, 0)
		wantEnd, escaped, wantOK := validString(s, 0)
		if wantOK && escaped != strings.Contains(s[:wantEnd], `\`) {
			t.Fatalf("validString(%q) reports an escape: %v", s, escaped)
		}
		if ok != wantOK || ok && end != wantEnd {
			t.Fatalf("validStringLen(%q) = %d, %v; validString %d, %v", s, end, ok, wantEnd, wantOK)
		}
		if !ok {
			return
		}
		if wn, wu := StringLen(s[:end]); n != wn || utf8OK != wu {
			t.Errorf("validStringLen(%q) measures %d, %v; StringLen %d, %v", s, n, utf8OK, wn, wu)
		}
	})
}

// benchLine is a line as the transcript reader scans it: short keys and
// values around one long tool output with escapes and non-ASCII text.
var benchLine = `{"type":"user","uuid":"4f1c0d2e","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01","content":"` +
	strings.Repeat(`func main() {\n\tfmt.Println(\"café → ok\")\n}\n`, 500) +
	`"}]},"timestamp":"2025-08-20T10:00:00.000Z"}`

// BenchmarkScannerValue validates a line with a Scanner, which measures
// each string as it validates it (validStringLen).
func BenchmarkScannerValue(b *testing.B) {
	var sc Scanner
	b.SetBytes(int64(len(benchLine)))
	for b.Loop() {
		sc.reset(benchLine)
		if _, ok := sc.Value(benchLine, 0, 0); !ok {
			b.Fatal("benchLine is not valid")
		}
	}
}

// BenchmarkValidStringLen measures plain ASCII, escapes and multi-byte
// characters apart, the three paths of validStringLen.
func BenchmarkValidStringLen(b *testing.B) {
	for _, c := range []struct{ name, body string }{
		{"ascii", strings.Repeat("the quick brown fox jumps over the lazy dog ", 200)},
		{"escapes", strings.Repeat(`a\n\tb\"c\\d\u00e9 `, 400)},
		{"runes", strings.Repeat("café → 日本語 😀 ", 300)},
	} {
		s := `"` + c.body + `"`
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				if _, _, _, ok := validStringLen(s, 0); !ok {
					b.Fatal("not valid")
				}
			}
		})
	}
}
