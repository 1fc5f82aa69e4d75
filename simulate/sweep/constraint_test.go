package sweep

import (
	"testing"

	"github.com/ctxlab/ctxlab/simulate"
)

// Each constraint holds at its bound as its operator says and not one unit
// past it.
func TestConstraintBounds(t *testing.T) {
	for _, c := range []struct {
		spec     string
		at, past bool // holds at the bound (peak 100), at 101
		below    bool // holds at 99
	}{
		{"peak_context<=100", true, false, true},
		{"peak_context<100", false, false, true},
		{"peak_context>=100", true, true, false},
		{"peak_context>100", false, true, false},
	} {
		con, err := ParseConstraint(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []struct {
			peak int64
			want bool
		}{{100, c.at}, {101, c.past}, {99, c.below}} {
			if got := con.holds(&simulate.Metrics{PeakContext: v.peak}); got != v.want {
				t.Errorf("%s at %d: holds %v, want %v", c.spec, v.peak, got, v.want)
			}
		}
	}
}
