package report

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzIndentJSON holds indentJSON to json.Indent on compact JSON: whatever
// valid JSON the fuzzer finds is compacted first, as encoding/json
// marshals it.
func FuzzIndentJSON(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `{"a":[]}`, `{"a":{},"b":[1,2,{"c":"d\"}],"e":null}`,
		`[{"k":"a,b:{c}[d]"},"\\",true,false,-1.5e3]`, `"x"`, `12`,
		`{"a":{"b":{"c":[[[]],[{}]]}}}`, `{"\u00e9\\\"":"\n\t"}`,
	} {
		f.Add(s, "  ")
	}
	f.Fuzz(func(t *testing.T, s, prefix string) {
		var compact bytes.Buffer
		if json.Compact(&compact, []byte(s)) != nil {
			return
		}
		var want bytes.Buffer
		if err := json.Indent(&want, compact.Bytes(), prefix, "  "); err != nil {
			t.Fatal(err)
		}
		if got := indentJSON(nil, compact.Bytes(), prefix, "  "); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("indentJSON(%q, %q) =\n%s\nwant\n%s", compact.Bytes(), prefix, got, want.Bytes())
		}
	})
}
