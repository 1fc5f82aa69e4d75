package numstat

import (
	"math"
	"testing"
)

// TestMedian: the middle value, or the mean of the two middle ones; 0
// for none.
func TestMedian(t *testing.T) {
	for _, c := range []struct {
		sorted []float64
		want   float64
	}{{nil, 0}, {[]float64{7}, 7}, {[]float64{1, 2, 3, 10}, 2.5}, {[]float64{-4, -1, 3}, -1}, {[]float64{-3, 5}, 1}} {
		if got := Median(c.sorted); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.sorted, got, c.want)
		}
	}
}

// TestQuantile: the nearest rank, ⌈p·n⌉, clamped to the values.
func TestQuantile(t *testing.T) {
	ten := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for _, c := range []struct {
		sorted []float64
		p      float64
		want   float64
	}{
		{nil, 0.5, 0},
		{ten, 0, 1},
		{ten, 0.1, 1},
		{ten, 0.11, 2},
		{ten, 0.5, 5},
		{ten, 0.9, 9},
		{ten, 0.91, 10},
		{ten, 1, 10},
		{ten, 1.5, 10},
		{[]float64{4}, 0.99, 4},
		{[]float64{1, 2, 3}, 0.99, 3},
	} {
		if got := Quantile(c.sorted, c.p); got != c.want {
			t.Errorf("Quantile(%v, %v) = %v, want %v", c.sorted, c.p, got, c.want)
		}
	}
	if r := Rank(0.9, 100); r != 89 {
		t.Errorf("Rank(0.9, 100) = %d, want 89", r)
	}
}

// TestPct: two decimals, half away from zero; nothing of a whole of 0.
func TestPct(t *testing.T) {
	for _, c := range []struct {
		part, whole, want float64
		ok                bool
	}{
		{1, 3, 33.33, true},
		{2, 3, 66.67, true},
		{-1, 8, -12.5, true},
		{1, 80000, 0, true}, // 0.00125%: rounds to 0
		{3, 80000, 0, true}, // 0.00375%
		{5, 8000, 0.06, true},
		{-5, 8000, -0.06, true},
		{1, 0, 0, false},
	} {
		got, ok := Pct(c.part, c.whole)
		if got != c.want || ok != c.ok {
			t.Errorf("Pct(%v, %v) = %v, %v; want %v, %v", c.part, c.whole, got, ok, c.want, c.ok)
		}
		if p := PctPtr(c.part, c.whole); (p != nil) != c.ok || p != nil && *p != c.want {
			t.Errorf("PctPtr(%v, %v) = %v", c.part, c.whole, p)
		}
	}
	if got := ChangePct(150, 120); got != 25 {
		t.Errorf("ChangePct(150, 120) = %v, want 25", got)
	}
	if got := ChangePct(1, 0); !math.IsInf(got, 1) {
		t.Errorf("ChangePct(1, 0) = %v, want +Inf", got)
	}
}
