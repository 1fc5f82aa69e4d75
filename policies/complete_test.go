package policies

import (
	"slices"
	"testing"
)

// Complete offers policy names, then a policy's parameters; in a list,
// after a policy's parameters and a comma, its other parameters as well as
// the next policy.
func TestComplete(t *testing.T) {
	for _, c := range []struct {
		in   string
		list bool
		want []string
		not  []string
	}{
		{"keep", false, []string{"keep-last-n", "keep-last-n:", "observed"}, nil},
		{"keep-last-n:", false, []string{"keep-last-n:n=", "keep-last-n:polling="}, nil},
		{"claude-code:pct=80,", false, []string{"claude-code:pct=80,window="}, nil},
		{"observed+keep", false, []string{"observed+keep-last-n:"}, nil},
		{"observed,keep-last-n:", true, []string{"observed,keep-last-n:n="}, nil},
		{"observed,keep-last-n:", false, nil, []string{"observed,keep-last-n:n="}},
		{"keep-last-n:n=5,", true, []string{"keep-last-n:n=5,polling=", "keep-last-n:n=5,threshold:"}, nil},
		{"nope:", false, nil, []string{"nope:n="}},
	} {
		got := Complete(c.in, c.list)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("Complete(%q, %v): no %q in %q", c.in, c.list, w, got)
			}
		}
		for _, w := range c.not {
			if slices.Contains(got, w) {
				t.Errorf("Complete(%q, %v): %q offered", c.in, c.list, w)
			}
		}
	}
	if got := previousSpec("a:x=1,b:y=2,z=3,"); got != "b" {
		t.Errorf("previousSpec = %q, want b", got)
	}
	if got := previousSpec("a:x=1+b:y=2,"); got != "b" {
		t.Errorf("previousSpec after + = %q, want b", got)
	}
	for _, h := range []string{"", "a,", "a:x=1", "a:x=1,b,"} {
		if got := previousSpec(h); got != "" {
			t.Errorf("previousSpec(%q) = %q, want none", h, got)
		}
	}
}

// CompleteParams offers the named policies' parameters once each, or
// every policy's.
func TestCompleteParams(t *testing.T) {
	got := CompleteParams([]string{"keep-last-n:n=3", "keep-last-n", "nope"})
	if !slices.Equal(got, []string{"n=", "polling="}) {
		t.Errorf("CompleteParams(keep-last-n) = %q", got)
	}
	for i, w := range got {
		if slices.Index(got, w) != i {
			t.Errorf("CompleteParams: %q twice in %q", w, got)
		}
	}
	all := CompleteParams(nil)
	for _, w := range append(got, "pct=", "window=") {
		if !slices.Contains(all, w) {
			t.Errorf("CompleteParams(nil): no %q in %q", w, all)
		}
	}
	if len(CompleteParams([]string{"observed"})) != 0 {
		t.Error("CompleteParams(observed): a policy without parameters offers some")
	}
}
