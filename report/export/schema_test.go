package export

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// TestSchemaDocumented checks docs/export.md's tables against the row
// types: every column, in order, with its type.
func TestSchemaDocumented(t *testing.T) {
	data, err := os.ReadFile("../../docs/export.md")
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string][][2]string{}
	table := ""
	row := regexp.MustCompile("^\\| `([a-z0-9_]+)` \\| ([A-Z\\[\\]]+) \\|")
	for _, line := range strings.Split(string(data), "\n") {
		if name, ok := strings.CutPrefix(line, "### "); ok {
			table = name
			continue
		}
		if m := row.FindStringSubmatch(line); m != nil && table != "" {
			documented[table] = append(documented[table], [2]string{m[1], m[2]})
		}
	}
	for name, typ := range map[string]reflect.Type{
		TableCalls: reflect.TypeFor[Call](), TableMessages: reflect.TypeFor[Message](), TableSessions: reflect.TypeFor[Session](),
		TableCacheBreaks: reflect.TypeFor[CacheBreak](), TableCompactions: reflect.TypeFor[Compaction](), TableSimCalls: reflect.TypeFor[SimCall](),
	} {
		var want [][2]string
		for i := range typ.NumField() {
			f := typ.Field(i)
			col, _, _ := strings.Cut(f.Tag.Get("parquet"), ",")
			if json, _, _ := strings.Cut(f.Tag.Get("json"), ","); json != col {
				t.Errorf("%s.%s: parquet name %q, JSON name %q", name, f.Name, col, json)
			}
			want = append(want, [2]string{col, sqlType(f.Type)})
		}
		if !reflect.DeepEqual(documented[name], want) {
			t.Errorf("docs/export.md table %s:\n%v\nwant\n%v", name, documented[name], want)
		}
	}
	if len(documented) != len(Tables) {
		t.Errorf("docs/export.md documents %d tables, want %d", len(documented), len(Tables))
	}
}

// sqlType is the DuckDB type a Go field's column reads as.
func sqlType(t reflect.Type) string {
	switch {
	case t == reflect.TypeFor[*Millis]():
		return "TIMESTAMP"
	case t.Kind() == reflect.Pointer:
		return sqlType(t.Elem())
	case t.Kind() == reflect.Slice:
		return sqlType(t.Elem()) + "[]"
	}
	return map[reflect.Kind]string{
		reflect.Int32: "INTEGER", reflect.Int64: "BIGINT", reflect.String: "VARCHAR",
		reflect.Bool: "BOOLEAN", reflect.Float64: "DOUBLE",
	}[t.Kind()]
}
