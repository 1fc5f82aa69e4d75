// Package jsonerr says what encoding/json found wrong in a file a user
// wrote (a budget, a price table, a saved report) in JSON's words, "an
// array where an object was expected", rather than in Go's type names,
// and names the field it is about.
package jsonerr

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// Field names the field a decoding error is about, as encoding/json
// gives it ("limits.max", or an unknown field's name), or "".
func Field(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return te.Field
	}
	if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return strings.Trim(f, `"`)
	}
	return ""
}

// wanted names the JSON value a Go kind is decoded from.
var wanted = map[reflect.Kind]string{
	reflect.Slice: "an array", reflect.Array: "an array", reflect.Map: "an object", reflect.Struct: "an object",
	reflect.Bool: "true or false", reflect.String: "a string", reflect.Float32: "a number", reflect.Float64: "a number",
	reflect.Int: "an integer", reflect.Int8: "an integer", reflect.Int16: "an integer", reflect.Int32: "an integer", reflect.Int64: "an integer",
	reflect.Uint: "an integer", reflect.Uint8: "an integer", reflect.Uint16: "an integer", reflect.Uint32: "an integer", reflect.Uint64: "an integer",
}

// found names the JSON value encoding/json reports finding.
var found = map[string]string{"object": "an object", "array": "an array", "string": "a string", "bool": "true or false", "number": "a number"}

// Cause says what was wrong in a decoding error, without its field.
func Cause(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		want := "a value of another kind"
		if te.Type != nil && wanted[te.Type.Kind()] != "" {
			want = wanted[te.Type.Kind()]
		}
		got := found[te.Value]
		// A number where a number was expected fails only by its size
		// (1e400 overflows a float64) or, for an integer, by a fraction.
		if n, ok := strings.CutPrefix(te.Value, "number "); ok {
			if want == "a number" {
				return fmt.Errorf("%s is out of range", n)
			}
			got = "the number " + n
		}
		if got == "" {
			got = te.Value
		}
		return fmt.Errorf("%s where %s was expected", got, want)
	}
	if strings.HasPrefix(err.Error(), "json: unknown field ") {
		return errors.New("unknown field")
	}
	if errors.Is(err, io.EOF) {
		return errors.New("empty file")
	}
	return fmt.Errorf("invalid JSON: %v", strings.TrimPrefix(err.Error(), "json: "))
}

// Describe is Cause with the field in front, when there is one:
// "limits.max: a string where a number was expected".
func Describe(err error) error {
	if f := Field(err); f != "" {
		return fmt.Errorf("%s: %w", f, Cause(err))
	}
	return Cause(err)
}

// FieldIn is Field for an error of decoding into v: the field named by the
// document's keys alone. encoding/json puts in the path of a field promoted
// from an embedded struct that struct's Go name ("PartHeader.shard.k"),
// which is no key of the document; FieldIn leaves such names out.
func FieldIn(err error, v any) string {
	f := Field(err)
	if f == "" || v == nil {
		return f
	}
	t := reflect.TypeOf(v)
	var keys []string
	for _, name := range strings.Split(f, ".") {
		t = element(t)
		if t == nil || t.Kind() != reflect.Struct {
			keys, t = append(keys, name), nil
			continue
		}
		var next reflect.Type
		for i := range t.NumField() {
			sf := t.Field(i)
			key, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
			if sf.Anonymous && key == "" && sf.Name == name {
				next = sf.Type // promoted from: no key of its own
				break
			}
			if key == "" {
				key = sf.Name
			}
			if key == name {
				keys, next = append(keys, name), sf.Type
				break
			}
		}
		if next == nil {
			keys = append(keys, name)
		}
		t = next
	}
	return strings.Join(keys, ".")
}

// element is the type a JSON value decoded into t fills: through pointers,
// slices, arrays and maps to their elements.
func element(t reflect.Type) reflect.Type {
	for t != nil {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			t = t.Elem()
		default:
			return t
		}
	}
	return nil
}

// DescribeIn is Describe for an error of decoding into v, its field named
// by FieldIn.
func DescribeIn(err error, v any) error {
	if f := FieldIn(err, v); f != "" {
		return fmt.Errorf("%s: %w", f, Cause(err))
	}
	return Cause(err)
}
