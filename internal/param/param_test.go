package param

import (
	"math"
	"slices"
	"testing"
	"time"
)

// check sets each value on p and compares the canonical form, or refusal,
// and the variable's value after, through get.
func check[T comparable](t *testing.T, p Param, get func() T, cases map[string]struct {
	canon string
	ok    bool
	want  T
}) {
	t.Helper()
	for v, c := range cases {
		before := get()
		canon, ok := p.Set(v)
		if ok != c.ok || ok && canon != c.canon {
			t.Errorf("%s=%q: %q, %v; want %q, %v", p.Name, v, canon, ok, c.canon, c.ok)
		}
		if got := get(); ok && got != c.want || !ok && got != before {
			t.Errorf("%s=%q: variable %v, want %v", p.Name, v, got, c.want)
		}
	}
}

type res[T any] = map[string]struct {
	canon string
	ok    bool
	want  T
}

func TestWhole(t *testing.T) {
	var n int64
	p := Whole(&n, "n", 5, 2, "doc")
	if n != 5 || p.Default != "5" || p.Takes != "a whole number ≥ 2" || p.Doc != "doc" || p.Name != "n" {
		t.Fatalf("bound %d, %+v", n, p)
	}
	check(t, p, func() int64 { return n }, res[int64]{
		"2": {"2", true, 2}, "1": {"", false, 0}, "100_000": {"100000", true, 100000}, "007": {"7", true, 7},
		"1.5": {"", false, 0}, "": {"", false, 0}, "x": {"", false, 0},
	})
	var m int
	q := WholeOrNone(&m, "m", -1, 0, "doc")
	if m != -1 || q.Default != "0" {
		t.Fatalf("WholeOrNone bound %d, default %q", m, q.Default)
	}
	check(t, q, func() int { return m }, res[int]{"0": {"0", true, -1}, "3": {"3", true, 3}, "-1": {"", false, 0}})
	if r := WholeOrNone(&m, "m", 7, 0, "doc"); r.Default != "7" || m != 7 {
		t.Errorf("WholeOrNone(7): %q, %d", r.Default, m)
	}
}

func TestNumber(t *testing.T) {
	var f float64
	p := Number(&f, "pct", 80, Span{Lo: 0, Hi: 100, Open: true}, "doc")
	if f != 80 || p.Default != "80" || p.Takes != "a number more than 0, at most 100" {
		t.Fatalf("bound %v, %+v", f, p)
	}
	check(t, p, func() float64 { return f }, res[float64]{
		"100": {"100", true, 100}, "100.0001": {"", false, 0}, "0": {"", false, 0}, "0.5": {"0.5", true, 0.5},
		"8e1": {"80", true, 80}, "NaN": {"", false, 0}, "Inf": {"", false, 0}, "x": {"", false, 0},
	})
	q := Number(&f, "pct", 0, Percent, "doc")
	if q.Takes != "a number from 0 to 100" {
		t.Errorf("Percent takes %q", q.Takes)
	}
	check(t, q, func() float64 { return f }, res[float64]{"0": {"0", true, 0}, "-0": {"0", true, 0}, "-0.1": {"", false, 0}})
	if _, ok := q.Set("-0"); !ok || math.Signbit(f) {
		t.Errorf("-0 kept its sign: %v", f)
	}
}

func TestBoolOneOfList(t *testing.T) {
	var b bool
	p := Bool(&b, "auto", true, "doc")
	if !b || p.Default != "true" || p.Takes != "true or false" {
		t.Fatalf("bound %v, %+v", b, p)
	}
	check(t, p, func() bool { return b }, res[bool]{"0": {"false", true, false}, "TRUE": {"true", true, true}, "yes": {"", false, false}})
	var s string
	o := OneOf(&s, "mode", "a", "doc", "a", "b", "")
	if s != "a" || o.Takes != "a, b or empty" {
		t.Fatalf("OneOf bound %q, takes %q", s, o.Takes)
	}
	check(t, o, func() string { return s }, res[string]{"b": {"b", true, "b"}, "": {"", true, ""}, "c": {"", false, ""}})
	if one := OneOf(&s, "x", "a", "doc", "a"); one.Takes != "a" {
		t.Errorf("one value: %q", one.Takes)
	}
	var l []string
	q := List(&l, "exclude", "tool names", "doc")
	if l != nil || q.Default != "" || q.Takes != "tool names separated by |, none empty" {
		t.Fatalf("List bound %v, %+v", l, q)
	}
	for v, want := range map[string][]string{"Read|Bash": {"Read", "Bash"}, "": nil} {
		if c, ok := q.Set(v); !ok || c != v || !slices.Equal(l, want) {
			t.Errorf("List %q: %q %v %v", v, c, ok, l)
		}
	}
	l = []string{"keep"}
	if _, ok := q.Set("a||b"); ok || !slices.Equal(l, []string{"keep"}) {
		t.Errorf("an empty value taken: %v", l)
	}
}

func TestVersions(t *testing.T) {
	var v string
	p := OptionalVersion(&v, "version", "", "doc")
	check(t, p, func() string { return v }, res[string]{
		"": {"", true, ""}, "2.1": {"2.1", true, "2.1"}, "2.01.022": {"2.1.22", true, "2.1.22"}, "2": {"", false, ""},
		"2.1.2.3": {"", false, ""}, "2.+1": {"", false, ""}, "2.x": {"", false, ""}, "2..1": {"", false, ""},
	})
	q := Version(&v, "from", "2.1.0", "doc")
	if v != "2.1.0" || q.Default != "2.1.0" {
		t.Fatalf("Version bound %q, %q", v, q.Default)
	}
	check(t, q, func() string { return v }, res[string]{
		"0": {"0", true, "0"}, "99": {"99", true, "99"}, "1.0.80": {"1.0.80", true, "1.0.80"}, "": {"", false, ""}, "-1": {"", false, ""},
	})
}

func TestDurations(t *testing.T) {
	var d time.Duration
	p := Duration(&d, "ttl", 6*time.Hour, "doc")
	if d != 6*time.Hour || p.Default != "6h" {
		t.Fatalf("bound %v, %q", d, p.Default)
	}
	check(t, p, func() time.Duration { return d }, res[time.Duration]{
		"90m": {"1h30m", true, 90 * time.Minute}, "20s": {"20s", true, 20 * time.Second}, "0": {"", false, 0}, "-1s": {"", false, 0}, "soon": {"", false, 0},
	})
	q := DurationOrNone(&d, "slack", -1, "doc")
	if d != -1 || q.Default != "0s" {
		t.Fatalf("DurationOrNone bound %v, %q", d, q.Default)
	}
	check(t, q, func() time.Duration { return d }, res[time.Duration]{"0": {"0s", true, -1}, "5m": {"5m", true, 5 * time.Minute}, "-1s": {"", false, 0}})
	for in, want := range map[time.Duration]string{6 * time.Hour: "6h", 90 * time.Minute: "1h30m", 5 * time.Minute: "5m", 90 * time.Second: "1m30s", 0: "0s"} {
		if got := formatDuration(in); got != want {
			t.Errorf("%v formats as %q, want %q", in, got, want)
		}
	}
}
