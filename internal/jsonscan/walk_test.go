package jsonscan

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// long is a string literal longer than longString, with escapes and
// characters of every UTF-16 length, so that a validation records it.
var long = `"` + strings.Repeat(`ab\"\\cd\né€😀`, 8) + `"`

// TestScan walks a line's top level: keys unescaped, raw values as written,
// white space anywhere, and a ValueFunc that takes some values for itself.
func TestScan(t *testing.T) {
	line := " {\"a\" : 1 ,\"b\\u0063\":\t[true, null],\n\"s\":" + long + `,"o":{"x":"y"},"e":{},"\u0061b":2} `
	var got []string
	var handed []string
	value := func(k, s string, i, depth int) (int, bool, bool) {
		if k != "o" {
			return 0, false, false
		}
		handed = append(handed, fmt.Sprint(k, depth))
		var sc *Scanner
		end, ok := sc.Object(s, i, depth, nil, func(k, v string) { handed = append(handed, k+"="+v) })
		return end, ok, true
	}
	var sc Scanner
	if !sc.Scan(line, value, func(k, v string) { got = append(got, k+"="+v) }) {
		t.Fatalf("Scan(%q) = false", line)
	}
	want := []string{"a=1", "bc=[true, null]", "s=" + long, "e={}", "ab=2"}
	if !slices.Equal(got, want) {
		t.Errorf("Scan walked %q, want %q", got, want)
	}
	if want := []string{"o1", `x="y"`}; !slices.Equal(handed, want) {
		t.Errorf("the ValueFunc saw %q, want %q", handed, want)
	}
	// A value the ValueFunc finds invalid makes the line invalid.
	bad := func(k, s string, i, depth int) (int, bool, bool) { return i, k != "e", true }
	if sc.Scan(line, bad, func(k, v string) {}) {
		t.Error("Scan accepted a value its ValueFunc refused")
	}
	for _, s := range []string{``, ` `, `[]`, `"a"`, `{"a":1} x`, `{"a":1`, `{"a" 1}`, `{"a":1 "b":2}`, `{"a":1,}`, `{1:2}`, `{"a":}`, `{"\x":1}`, `{"a`} {
		if sc.Scan(s, nil, func(k, v string) {}) {
			t.Errorf("Scan(%q) = true", s)
		}
	}
}

// TestObjectAndArray validates containers inside a line, as a ValueFunc
// does, and checks where they end.
func TestObjectAndArray(t *testing.T) {
	s := `[{"a":[1,2]}, 3 ,"x"] tail`
	var elems []string
	end, ok := Array(s, 0, 0, func(s string, i, depth int) (int, bool) {
		var sc Scanner
		end, ok := sc.Value(s, i, depth)
		elems = append(elems, fmt.Sprint(s[i:end], depth))
		return end, ok
	})
	if !ok || end != len(s)-len(" tail") {
		t.Errorf("Array(%q) = %d, %v", s, end, ok)
	}
	if want := []string{`{"a":[1,2]}1`, "31", `"x"1`}; !slices.Equal(elems, want) {
		t.Errorf("Array handed %q, want %q", elems, want)
	}
	for _, s := range []string{`[`, `[1`, `[1,`, `[1 2]`, `[1,]`, `[,1]`, `[1}`} {
		if _, ok := Array(s, 0, 0, skimValue); ok {
			t.Errorf("Array(%q) ok", s)
		}
	}
	if end, ok := Array(`[ ]`, 0, 0, skimValue); !ok || end != 3 {
		t.Errorf("Array(`[ ]`) = %d, %v", end, ok)
	}
	var sc Scanner
	o := `{"k":{"a":1}}`
	if end, ok := sc.Object(o, 5, 1, nil, func(k, v string) {}); !ok || end != len(o)-1 {
		t.Errorf("Object(%q at 5) = %d, %v", o, end, ok)
	}
	if end, ok := sc.Object(`{ }`, 0, 0, nil, nil); !ok || end != 3 {
		t.Errorf("Object(`{ }`) = %d, %v", end, ok)
	}
}

// TestWalkers walks valid values without validating: members, elements and
// a single field, with ends recorded by a Scan and without.
func TestWalkers(t *testing.T) {
	line := `{"a":{"k\"ey":"v","n":-1.5e3,"arr":[` + long + `, {"z":[]}, 7 ,"s"]},"last":true }`
	var sc Scanner
	if !sc.Scan(line, nil, func(k, v string) {}) {
		t.Fatal("line invalid")
	}
	a := line[5:strings.Index(line, `,"last"`)]
	for _, s := range []*Scanner{&sc, nil} {
		var fields []string
		s.EachField(a, func(k, v string) { fields = append(fields, k+"="+v) })
		wantFields := []string{`k"ey="v"`, "n=-1.5e3", "arr=[" + long + `, {"z":[]}, 7 ,"s"]`}
		if !slices.Equal(fields, wantFields) {
			t.Errorf("EachField (scanner %v) = %q, want %q", s != nil, fields, wantFields)
		}
		var elems []string
		s.EachElem(s.Field(a, "arr"), func(v string) { elems = append(elems, v) })
		if want := []string{long, `{"z":[]}`, "7", `"s"`}; !slices.Equal(elems, want) {
			t.Errorf("EachElem (scanner %v) = %q, want %q", s != nil, elems, want)
		}
		for key, want := range map[string]string{"n": "-1.5e3", `k\"ey`: `"v"`, "k\"ey": "", "none": ""} {
			if got := s.Field(a, key); got != want {
				t.Errorf("Field(%q) (scanner %v) = %q, want %q", key, s != nil, got, want)
			}
		}
		if got := s.Field(line, "last"); got != "true" {
			t.Errorf("Field(last) = %q", got)
		}
	}
	var fields []string
	EachField(" { } ", func(k, v string) { fields = append(fields, k) })
	EachField(`[1]`, func(k, v string) { fields = append(fields, k) })
	EachElem(`{"a":1}`, func(v string) { fields = append(fields, v) })
	EachElem(` [ ] `, func(v string) { fields = append(fields, v) })
	EachElem(``, func(v string) { fields = append(fields, v) })
	EachElem(`[`, func(v string) { fields = append(fields, v) })
	if len(fields) != 0 {
		t.Errorf("walks of empty or other values found %q", fields)
	}
	// Field finds nothing, without failing, in what is not an object or
	// is cut short.
	for _, raw := range []string{``, `[1]`, `{}`, `{`, `{ `, `{"a"`, `{"a" `, `{"b":1`} {
		if got := (*Scanner)(nil).Field(raw, "a"); got != "" {
			t.Errorf("Field(%q, a) = %q", raw, got)
		}
	}
}

// TestScannerStringLen reads a long literal's length from the scan, for the
// literal itself only: a literal cut short or elsewhere is measured.
func TestScannerStringLen(t *testing.T) {
	bad := `"` + strings.Repeat("x", 70) + "\xff" + `"`
	line := `{"s":` + long + `,"b":` + bad + `,"short":"é"}`
	var sc Scanner
	if !sc.Scan(line, nil, func(k, v string) {}) {
		t.Fatal("line invalid")
	}
	wantN, _ := StringLen(long)
	s := sc.Field(line, "s")
	if n, ok := sc.StringLen(s); n != wantN || !ok {
		t.Errorf("StringLen(recorded) = %d, %v; want %d, true", n, ok, wantN)
	}
	if n, ok := sc.StringLen(sc.Field(line, "b")); n != 71 || ok {
		t.Errorf("StringLen(recorded, invalid UTF-8) = %d, %v; want 71, false", n, ok)
	}
	if n, ok := sc.StringLen(sc.Field(line, "short")); n != 1 || !ok {
		t.Errorf("StringLen(short) = %d, %v", n, ok)
	}
	cut := s[:len(s)-10] // the same address, shorter
	if n, _ := sc.StringLen(cut); n == wantN || n != must(StringLen(strings.Clone(cut))) {
		t.Errorf("StringLen of the literal cut short = %d; the whole is %d", n, wantN)
	}
	if n, _ := sc.StringLen(strings.Clone(s)); n != wantN {
		t.Errorf("StringLen of a copy = %d, want %d", n, wantN)
	}
	// A recorded end is found only for the value that starts there.
	if end, ok := sc.find(line, 0); ok {
		t.Errorf("found an end %d for the line, which is not recorded", end)
	}
	i := strings.Index(line, long)
	if end, ok := sc.find(line, i); !ok || end != i+len(long) {
		t.Errorf("find(long) = %d, %v; want %d", end, ok, i+len(long))
	}
	if _, ok := sc.find(line[:i+10], i); ok {
		t.Error("found an end beyond the string searched")
	}
	if _, ok := sc.find(strings.Clone(line), i); ok {
		t.Error("found an end in a copy of the line")
	}
	if end, ok := sc.find(line[:i+len(long)], i); !ok || end != i+len(long) {
		t.Errorf("find(long) in a string that ends with it = %d, %v", end, ok)
	}
	var empty Scanner
	if _, ok := empty.find(line, i); ok {
		t.Error("an empty Scanner found an end")
	}
	// A container's length is measured, not read from its entry.
	c := `{"c":[` + long + `],"o":{"k":` + long + `}}`
	if !sc.Scan(c, nil, func(k, v string) {}) {
		t.Fatal("line invalid")
	}
	for _, k := range []string{"c", "o"} {
		v := sc.Field(c, k)
		if got, want := must(sc.StringLen(v)), must(StringLen(v)); got != want {
			t.Errorf("StringLen(%s) = %d, want %d", v, got, want)
		}
	}
}

// TestRecorded checks what a validation records: every container, and the
// strings longer than longString, by offset in the line; a container
// holding an invalid value is not found.
func TestRecorded(t *testing.T) {
	s63 := `"` + strings.Repeat("x", longString-2) + `"`
	s65 := `"` + strings.Repeat("y", longString-1) + `"`
	line := `{"a":` + s63 + `,"b":` + s65 + `,"c":[{},[]]}`
	var sc Scanner
	if !sc.Scan(line, nil, func(k, v string) {}) {
		t.Fatal("line invalid")
	}
	b := strings.Index(line, s65)
	c := strings.Index(line, "[{}")
	var got []string
	for k := range sc.start {
		got = append(got, fmt.Sprint(sc.start[k], "-", sc.end[k]))
	}
	want := []string{fmt.Sprint(b, "-", b+len(s65)), fmt.Sprint(c, "-", c+7), fmt.Sprint(c+1, "-", c+3), fmt.Sprint(c+4, "-", c+6)}
	if !slices.Equal(got, want) {
		t.Errorf("recorded %q, want %q", got, want)
	}
	open := `{"a":[1,{"b":` + s65
	if sc.Scan(open, nil, func(k, v string) {}) {
		t.Fatal("an open line is valid")
	}
	if end, ok := sc.find(open, 5); ok {
		t.Errorf("found the end %d of the array whose element is invalid", end)
	}
	if _, ok := sc.find(open, 13); !ok {
		t.Error("did not find the string closed in an open container")
	}
}

func must(n int, _ bool) int { return n }

func TestValues(t *testing.T) {
	for raw, want := range map[string]string{
		`"a"`: "a", `""`: "", `"a\nb"`: "a\nb", `"\u00e9"`: "é", `1`: "", `"`: "", ``: "", `null`: "",
	} {
		if got := String(raw); got != want {
			t.Errorf("String(%q) = %q, want %q", raw, got, want)
		}
	}
	for raw, want := range map[string]int64{
		`0`: 0, `42`: 42, `-7`: -7, `1.9`: 1, `1e3`: 1000, `-2.5`: -2, ``: 0, `null`: 0, `9223372036854775807`: 1<<63 - 1,
	} {
		if got := Int(raw); got != want {
			t.Errorf("Int(%q) = %d, want %d", raw, got, want)
		}
	}
	kinds := func(raw string) string {
		return fmt.Sprint(IsObject(raw), IsArray(raw), IsString(raw))
	}
	for raw, want := range map[string]string{
		`{}`: "true false false", `[]`: "false true false", `""`: "false false true", `1`: "false false false", ``: "false false false",
	} {
		if got := kinds(raw); got != want {
			t.Errorf("IsObject, IsArray, IsString(%q) = %s, want %s", raw, got, want)
		}
	}
	if got := SkipSpace(" \t\r\nx ", 0); got != 4 {
		t.Errorf("SkipSpace = %d, want 4", got)
	}
	if got := SkipSpace("  ", 1); got != 2 {
		t.Errorf("SkipSpace to the end = %d, want 2", got)
	}
}

func TestStringEnd(t *testing.T) {
	for _, tt := range []struct {
		s   string
		end int
		ok  bool
	}{
		{`"" x`, 2, true},
		{`"ab" x`, 4, true},
		{`"a\"b" x`, 6, true},
		{`"a\\" x`, 5, true},
		{`"a\\\"b" x`, 8, true},
		{`"\\\\" x`, 6, true},
		{`"abc`, 4, false},
		{`"a\"`, 4, false},
		{`"` + "\x01\\q" + `"`, 5, true}, // the content is not read
	} {
		if end, ok := StringEnd(tt.s, 0); end != tt.end || ok != tt.ok {
			t.Errorf("StringEnd(%q) = %d, %v; want %d, %v", tt.s, end, ok, tt.end, tt.ok)
		}
	}
}

// TestSkim: structure is checked, string contents are not, and the members
// of an object are visited as written.
func TestSkim(t *testing.T) {
	for _, tt := range []struct {
		s  string
		ok bool
	}{
		{"{\"a\":\"\x01\\q\",\"b\":[1,\"\\u12\"],\"c\":{}}", true},
		{`[]`, true},
		{`"x"`, true},
		{`-1.5`, true},
		{`{"a":1,}`, false},
		{`{"a":1 "b":2}`, false},
		{`{"a" 1}`, false},
		{`{a:1}`, false},
		{`{"a":01}`, false},
		{`{"a":[1,]}`, false},
		{`{"a":"x}`, false},
		{`{"a`, false},
		{`{"a":1`, false},
		{``, false},
	} {
		end, ok := Skim(tt.s, 0, 0, nil)
		if ok != tt.ok || ok && end != len(tt.s) {
			t.Errorf("Skim(%q) = %d, %v; want ok %v", tt.s, end, ok, tt.ok)
		}
	}
	var seen []string
	s := `{"a\"b" : "\q", "n":{"x":1}} tail`
	end, ok := Skim(s, 0, 3, func(name, v string) { seen = append(seen, name+"="+v) })
	if !ok || end != len(s)-len(" tail") {
		t.Errorf("Skim with a visitor = %d, %v", end, ok)
	}
	if want := []string{`a\"b="\q"`, `n={"x":1}`}; !slices.Equal(seen, want) {
		t.Errorf("Skim visited %q, want %q", seen, want)
	}
	for _, s := range []string{``, `{`, `{ `, `{"a"`, `{"a" `, `{"a":`, `{"a":1`, `{"a":1 `, `{"a":1,`} {
		if end, ok := Skim(s, 0, 0, func(name, v string) {}); ok {
			t.Errorf("Skim(%q) with a visitor = %d, true", s, end)
		}
	}
	seen = nil
	Skim(`["a"]`, 0, 0, func(name, v string) { seen = append(seen, name) })
	Skim(`{ }`, 0, 0, func(name, v string) { seen = append(seen, name) })
	if seen != nil {
		t.Errorf("Skim visited %q in values with no members", seen)
	}
}
