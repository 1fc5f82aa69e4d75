package plotdata

import (
	"reflect"
	"strings"
	"testing"
)

func TestShortenPath(t *testing.T) {
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{"/x/a.go", 40, "/x/a.go"},
		// "…/" + 38 characters = 40.
		{longPath, 40, "…/projects/ctxlab/report/plots/series.go"},
		{longPath, 20, "…/plots/series.go"},
		{"/a/" + strings.Repeat("x", 50) + ".go", 20, "…" + strings.Repeat("x", 16) + ".go"},
		{`C:\Users\me\very\long\dir\name\file.go`, 20, `…\dir\name\file.go`},
	} {
		if got := shortenPath(c.in, c.max); got != c.want {
			t.Errorf("shortenPath(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
		if n := len([]rune(shortenPath(c.in, c.max))); n > c.max {
			t.Errorf("shortenPath(%q, %d) has %d characters", c.in, c.max, n)
		}
	}
}

// TestSameSeries: a line is the same as another when every point is.
func TestSameSeries(t *testing.T) {
	a := []XY{{1, 10}, {2, 20}}
	got := sameSeries([][]XY{a, {{1, 10}, {2, 21}}, {{1, 10}, {2, 20}}, {{1, 10}}, {{1, 10}, {2, 20}}, {}, {}})
	// 0, 2 and 4 are equal; 1 differs by one in its second Y; 3 is a
	// prefix of them; 5 and 6, both empty, are equal.
	want := [][]int{{2, 4}, nil, {0, 4}, nil, {0, 2}, {6}, {5}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sameSeries %v, want %v", got, want)
	}
}

// TestGeometric: a grid swept by a factor, of three positive terms at least.
func TestGeometric(t *testing.T) {
	for _, c := range []struct {
		vs   []float64
		want bool
	}{
		{[]float64{2, 4, 8, 16, 32}, true},
		{[]float64{1, 10, 100}, true},
		{[]float64{0.5, 1.5, 4.5}, true},
		{[]float64{40, 60, 80}, false}, // arithmetic
		{[]float64{2, 4}, false},       // two values: no grid to tell
		{[]float64{0, 1, 2}, false},
		{[]float64{2, 4, 8, 17}, false},
		{[]float64{-8, -4, -2}, false},
		{[]float64{3, 3, 3}, false},
	} {
		if got := geometric(c.vs); got != c.want {
			t.Errorf("geometric(%v) = %v, want %v", c.vs, got, c.want)
		}
	}
}

// longPath is plotdatatest.LongPath, which an internal test cannot import
// (plotdatatest imports plotdata).
const longPath = "/home/user/projects/ctxlab/report/plots/series.go"
