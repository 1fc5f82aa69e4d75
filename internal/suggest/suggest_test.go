package suggest

import (
	"slices"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{
		{"", "", 0}, {"frmat", "format", 1}, {"format", "format", 0}, {"abc", "", 3}, {"", "abc", 3},
		{"kitten", "sitting", 3}, {"flaw", "lawn", 2}, {"ab", "ba", 2}, {"abcd", "abd", 1}, {"abd", "abcd", 1},
	} {
		if got := Distance(c.a, c.b); got != c.d {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}

func TestNear(t *testing.T) {
	names := []string{"format", "from", "width", "wide", "top"}
	if got := Near("frmat", names, 2); !slices.Equal(got, []string{"format"}) {
		t.Errorf("Near(frmat) = %q", got)
	}
	if got := Near("wid", names, 1); !slices.Equal(got, []string{"wide"}) {
		t.Errorf("Near(wid, 1) = %q", got)
	}
	if got := Near("wid", names, 2); !slices.Equal(got, []string{"width", "wide"}) {
		t.Errorf("Near(wid, 2) = %q", got)
	}
	if got := Near("frmat", names, 3); !slices.Equal(got, []string{"format", "from"}) {
		t.Errorf("Near(frmat, 3) = %q", got)
	}
	if got := Near("zzzzzzz", names, 2); got != nil {
		t.Errorf("Near(zzzzzzz) = %q, want none", got)
	}
}
