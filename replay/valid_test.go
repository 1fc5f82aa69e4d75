package replay

import (
	"encoding/json"
	"strings"
	"testing"
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
			if got := walkFields(tt.s, true, func(k, v string) {}); got != tt.want {
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

// FuzzWalkFields checks that the validating walk of a line's top level
// accepts exactly the valid JSON objects and visits every top-level key.
func FuzzWalkFields(f *testing.F) {
	for _, c := range validCases {
		f.Add(c)
	}
	f.Add(`{"type":"user","message":{"content":[{"type":"text","text":"hi"}]},"n":1.5e3,"b":[true,null]}`)
	f.Fuzz(func(t *testing.T, s string) {
		var keys []string
		got := walkFields(s, true, func(k, v string) { keys = append(keys, k) })
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
