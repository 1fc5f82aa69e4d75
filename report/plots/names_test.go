package plots

import (
	"slices"
	"testing"
)

func TestSessionNames(t *testing.T) {
	for _, tc := range []struct {
		name          string
		ids, projects []string
		want          []string
	}{
		{"unique ids stay bare", []string{"a", "b"}, []string{"p", "p"}, []string{"a", "b"}},
		{"stdin", []string{"-"}, []string{""}, []string{"stdin"}},
		{"same id, two projects", []string{"a", "b", "a"}, []string{"p", "q", "r"}, []string{"a", "b", "a_r"}},
		{"same id, same project", []string{"a", "a"}, []string{"p", "p"}, []string{"a", "a_p"}},
		{"equal once made safe", []string{"a:b", "a_b"}, []string{"p", "q"}, []string{"a:b", "a_b_q"}},
		{"suffix already taken", []string{"a", "a", "a", "a_p", "a"}, []string{"p", "p", "p", "x", "q"}, []string{"a", "a_p", "a_p_2", "a_p_x", "a_q"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := SessionNames(tc.ids, tc.projects)
			if !slices.Equal(got, tc.want) {
				t.Errorf("SessionNames(%q, %q) = %q, want %q", tc.ids, tc.projects, got, tc.want)
			}
		})
	}
}
