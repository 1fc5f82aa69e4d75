package jsonerr

import (
	"bytes"
	"encoding/json"
	"testing"
)

type doc struct {
	Version int                 `json:"version"`
	Ratio   float64             `json:"ratio"`
	Count   uint32              `json:"count"`
	Name    string              `json:"name"`
	On      bool                `json:"on"`
	Limits  []struct{ Max int } `json:"limits"`
	Models  map[string]float64  `json:"models"`
	Inner   struct{ N int8 }    `json:"inner"`
}

func decode(in string) error {
	dec := json.NewDecoder(bytes.NewReader([]byte(in)))
	dec.DisallowUnknownFields()
	var d doc
	return dec.Decode(&d)
}

func TestDescribe(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"version":"1"}`, "version: a string where an integer was expected"},
		{`{"version":1.5}`, "version: the number 1.5 where an integer was expected"},
		{`{"count":-1}`, "count: the number -1 where an integer was expected"},
		{`{"ratio":1e400}`, "ratio: 1e400 is out of range"},
		{`{"ratio":true}`, "ratio: true or false where a number was expected"},
		{`{"name":7}`, "name: a number where a string was expected"},
		{`{"on":"yes"}`, "on: a string where true or false was expected"},
		{`{"limits":{}}`, "limits: an object where an array was expected"},
		{`{"limits":[[1]]}`, "limits: an array where an object was expected"},
		{`{"models":[1]}`, "models: an array where an object was expected"},
		{`{"models":{"a":"x"}}`, "models: a string where a number was expected"}, // encoding/json names no map key
		{`{"inner":{"N":300}}`, "inner.N: the number 300 where an integer was expected"},
		{`[1]`, "an array where an object was expected"},
		{`{"other":1}`, "other: unknown field"},
		{``, "empty file"},
		{`{"version":`, "invalid JSON: unexpected EOF"},
		{`{"version":x}`, "invalid JSON: invalid character 'x' looking for beginning of value"},
	}
	for _, tt := range tests {
		err := decode(tt.in)
		if err == nil {
			t.Errorf("%s: decoded", tt.in)
			continue
		}
		if got := Describe(err).Error(); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

// Header and withHeader embed as a part's reader does: encoding/json names
// the embedded struct in its path, and FieldIn leaves it out.
type Header struct {
	Shard struct {
		K int `json:"k"`
	} `json:"shard"`
}

type Item struct {
	Prompt int `json:"prompt"`
}

type withHeader struct {
	Header
	*Item `json:"item"` // tagged: a field of its own, not promoted
	Rows  []struct {
		Item
		Name string `json:"name"`
	} `json:"rows"`
}

func TestDescribeIn(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"shard":{"k":"2"}}`, "shard.k: a string where an integer was expected"},
		{`{"rows":[{"prompt":"x"}]}`, "rows.prompt: a string where an integer was expected"},
		{`{"rows":[{"name":1}]}`, "rows.name: a number where a string was expected"},
		{`{"item":{"prompt":true}}`, "item.prompt: true or false where an integer was expected"},
		{`{"rows":{}}`, "rows: an object where an array was expected"},
		{`{"other":1}`, "other: unknown field"},
	}
	for _, tt := range tests {
		dec := json.NewDecoder(bytes.NewReader([]byte(tt.in)))
		dec.DisallowUnknownFields()
		var v withHeader
		err := dec.Decode(&v)
		if err == nil {
			t.Errorf("%s: decoded", tt.in)
			continue
		}
		if got := DescribeIn(err, &v).Error(); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}
