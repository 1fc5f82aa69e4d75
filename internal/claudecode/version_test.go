package claudecode

import (
	"strconv"
	"strings"
	"testing"
)

func TestCompareVersions(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"2.1.9", "2.1.41", -1},
		{"2.1.100", "2.1.41", 1},
		{"2.1.41", "2.1.41", 0},
		{"2.1.10", "2.1.9", 1},
		{"1.0.80", "2.0.0", -1},
		{"10.0.0", "9.9.9", 1},
		{"2.1", "2.1.0", 0},
		{"2.1", "2.1.1", -1},
		{"", "", 0},
		{"", "0.0.1", -1},
		{"2.x.1", "2.0.1", 0},
		{"2.1.41", "2.1.7", 1},
		{"2.1.4", "2.1.41", -1},
		{"1.0.9", "1.0.90", -1},
		{"1.2", "1.2.", 0},
		{"1.", "1.5", -1},
		{"01.2", "1.3", -1},
	}
	for _, tt := range tests {
		if got := CompareVersions(tt.a, tt.b); got != tt.want {
			t.Errorf("CompareVersions(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := CompareVersions(tt.b, tt.a); got != -tt.want {
			t.Errorf("CompareVersions(%q, %q) = %d, want %d", tt.b, tt.a, got, -tt.want)
		}
	}
}

// FuzzVersionPart checks versionPart against strconv.Atoi.
func FuzzVersionPart(f *testing.F) {
	for _, s := range []string{"", "0", "41", "+5", "-5", "1b", "123456789", "1234567890", "99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := strconv.Atoi(s)
		if got := versionPart(s); got != want {
			t.Errorf("versionPart(%q) = %d, want %d", s, got, want)
		}
	})
}

// FuzzCompareVersions checks CompareVersions against the rule written with
// strings.Cut and strconv.Atoi.
func FuzzCompareVersions(f *testing.F) {
	f.Add("2.1.9", "2.1.41")
	f.Add("1..2", "1.0.2.")
	f.Add("-1.x", "+0")
	f.Add("2.1.41", "2.1.4")
	f.Add("1.02", "1.2.0")
	f.Fuzz(func(t *testing.T, a, b string) {
		want := 0
		for x, y := a, b; x != "" || y != ""; {
			var p, q string
			p, x, _ = strings.Cut(x, ".")
			q, y, _ = strings.Cut(y, ".")
			np, _ := strconv.Atoi(p)
			nq, _ := strconv.Atoi(q)
			if np != nq {
				want = 1
				if np < nq {
					want = -1
				}
				break
			}
		}
		if got := CompareVersions(a, b); got != want {
			t.Errorf("CompareVersions(%q, %q) = %d, want %d", a, b, got, want)
		}
	})
}

// TestAtLeastBefore pins the two comparisons the rules use: an unknown
// version ("") is neither at least nor before any version.
func TestAtLeastBefore(t *testing.T) {
	for _, c := range []struct {
		version, cut    string
		atLeast, before bool
	}{
		{"2.1.0", "2.1.0", true, false},
		{"2.0.76", "2.1.0", false, true},
		{"2.1.1", "2.1.0", true, false},
		{"", "2.1.0", false, false},
		{"", "0", false, false},
		{"1.0.0", "0", true, false},
		{"98.0.0", "99", false, true},
	} {
		if got := AtLeast(c.version, c.cut); got != c.atLeast {
			t.Errorf("AtLeast(%q, %q) = %v", c.version, c.cut, got)
		}
		if got := Before(c.version, c.cut); got != c.before {
			t.Errorf("Before(%q, %q) = %v", c.version, c.cut, got)
		}
	}
}
