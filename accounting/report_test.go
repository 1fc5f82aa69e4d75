package accounting

import (
	"reflect"
	"testing"

	"github.com/ctxlab/ctxlab/internal/testcorpus"
	"github.com/ctxlab/ctxlab/internal/testcorpus/corpusload"
)

// TestZeroConfigIsDefault: the zero Config means every default, and
// Analyze gives the same report with either.
func TestZeroConfigIsDefault(t *testing.T) {
	if got, want := (Config{}).withDefaults(), DefaultConfig(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Config{} with defaults = %+v, want %+v", got, want)
	}
	for _, s := range corpusload.Sessions(t, testcorpus.Realdata) {
		if a, b := Analyze(s, Config{}), Analyze(s, DefaultConfig()); !reflect.DeepEqual(a, b) {
			t.Errorf("%s: Analyze with Config{} differs from DefaultConfig()", s.ID)
		}
	}
}
