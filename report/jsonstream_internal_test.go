package report

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/accounting"
)

// reportMembers names every JSON field of accounting.Report, in field
// order: a field added to Report and not to reportMembers would be left
// out of the total that replay --format json streams.
func TestReportMembers(t *testing.T) {
	var want []string
	rt := reflect.TypeFor[accounting.Report]()
	for i := range rt.NumField() {
		f := rt.Field(i)
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); f.IsExported() && name != "-" {
			want = append(want, name)
		}
	}
	var got []string
	for _, m := range reportMembers(&accounting.Report{}) {
		got = append(got, m.name)
	}
	if !slices.Equal(got, want) {
		t.Errorf("reportMembers %q, want Report's JSON fields %q", got, want)
	}
}
