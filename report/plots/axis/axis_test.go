package axis

import (
	"fmt"
	"math"
	"reflect"
	"testing"
)

func majors(t Ticks, lo, hi float64) (labels []string, minors int) {
	for _, k := range t.Ticks(lo, hi) {
		if k.IsMinor() {
			minors++
			continue
		}
		labels = append(labels, k.Label)
	}
	return labels, minors
}

func TestTicks(t *testing.T) {
	for _, c := range []struct {
		t      Ticks
		lo, hi float64
		want   []string
		minors int
	}{
		// Step 50,000 (the first round step ≥ 200,000/5), minors every 10,000.
		{Ticks{}, 0, 208000, []string{"0", "50,000", "100,000", "150,000", "200,000"}, 16},
		// Integer axis: step 1, no minors.
		{Ticks{Integer: true}, 0.5, 5.5, []string{"1", "2", "3", "4", "5"}, 0},
		// Integer axis: 3,060/5 = 612 rounds up to 1,000; minors every 200.
		{Ticks{Integer: true}, -30, 3030, []string{"0", "1,000", "2,000", "3,000"}, 12},
		// Money: step 0.2, two decimals.
		{Ticks{Prefix: "$", MinDecimals: 2}, 0, 0.75, []string{"$0.00", "$0.20", "$0.40", "$0.60"}, 3 * 4},
		// Integer axis, step 2: minors on the odd numbers.
		{Ticks{Integer: true}, 0.5, 10.5, []string{"2", "4", "6", "8", "10"}, 5},
		// Step 0.5 from 0.3: minors every 0.1 from 0.3.
		{Ticks{}, 0.3, 2.3, []string{"0.5", "1.0", "1.5", "2.0"}, 17},
		// Money in whole steps keeps no decimals.
		{Ticks{Prefix: "$", MinDecimals: 2}, 0, 500, []string{"$0", "$100", "$200", "$300", "$400", "$500"}, 20},
		// Step 1: no decimals.
		{Ticks{}, 0, 5, []string{"0", "1", "2", "3", "4", "5"}, 20},
		// Step 2.5 keeps one decimal.
		{Ticks{Suffix: " h"}, 0, 11, []string{"0.0 h", "2.5 h", "5.0 h", "7.5 h", "10.0 h"}, 18},
	} {
		got, minors := majors(c.t, c.lo, c.hi)
		if !reflect.DeepEqual(got, c.want) || minors != c.minors {
			t.Errorf("%+v.Ticks(%v, %v) = %q and %d minors, want %q and %d", c.t, c.lo, c.hi, got, minors, c.want, c.minors)
		}
	}
	// A degenerate range does not panic.
	if n := len((Ticks{}).Ticks(3, 3)); n != 1 {
		t.Errorf("Ticks(3, 3): %d ticks", n)
	}
}

// More than twelve grid values: every second is labelled, the rest are
// unlabelled ticks.
func TestGridTicksThinned(t *testing.T) {
	var vs []float64
	var ls []string
	for i := range 13 {
		vs = append(vs, float64(int(1)<<i))
		ls = append(ls, fmt.Sprint(1<<i))
	}
	// Twelve values are all labelled.
	for i, tk := range GridTicks(vs[:12], ls[:12]) {
		if tk.Label != ls[i] {
			t.Errorf("of twelve values, tick %d labelled %q", i, tk.Label)
		}
	}
	ts := GridTicks(vs, ls)
	if len(ts) != 13 || ts[0].Label != "1" || ts[1].Label != "" || ts[2].Label != "4" || ts[12].Label != "4096" {
		t.Errorf("ticks %+v", ts)
	}
}

// TestLog2Scale: no panic on values a log axis cannot place.
func TestLog2Scale(t *testing.T) {
	s := Log2Scale{}
	for _, c := range [][3]float64{{0, 32, 8}, {2, 32, 0}, {2, 32, -1}, {32, 2, 8}, {2, 2, 2}} {
		if got := s.Normalize(c[0], c[1], c[2]); got != 0 {
			t.Errorf("Normalize%v = %v, want 0", c, got)
		}
	}
	if got := s.Normalize(1, 1024, 32); got != 0.5 {
		t.Errorf("Normalize(1, 1024, 32) = %v, want 0.5", got)
	}
	if got := s.Normalize(2, 32, 8); got != 0.5 {
		t.Errorf("Normalize(2, 32, 8) = %v, want 0.5", got)
	}
}

// TestPadRange: a linear range widens by its span, a log one by its
// ratio, a single value gets a span of its own, no data is 0 to 1.
func TestPadRange(t *testing.T) {
	approx := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
	// 2 to 32 padded by a factor 16^0.04 = 2^0.16 each side.
	if lo, hi := PadRange(2, 32, 0.04, true); !approx(lo*hi, 64) || !approx(hi/32, 1.1172871380722203) {
		t.Errorf("PadRange(2, 32) = %v, %v", lo, hi)
	}
	if lo, hi := PadRange(1, 3, 0.1, false); !approx(lo, 0.8) || !approx(hi, 3.2) {
		t.Errorf("PadRange(1, 3) = %v, %v", lo, hi)
	}
	if lo, hi := PadRange(5, 5, 0.1, false); !approx(lo, 4.5) || !approx(hi, 5.5) {
		t.Errorf("PadRange(5, 5) = %v, %v", lo, hi)
	}
	if lo, hi := PadRange(4, 4, 0.1, true); lo != 2 || hi != 8 {
		t.Errorf("PadRange(4, 4, log) = %v, %v", lo, hi)
	}
	// A log range that starts at zero is padded as a linear one.
	if lo, hi := PadRange(0, 10, 0.1, true); !approx(lo, -1) || !approx(hi, 11) {
		t.Errorf("PadRange(0, 10, log) = %v, %v", lo, hi)
	}
	if lo, hi := PadRange(math.Inf(1), math.Inf(-1), 0.1, false); lo != 0 || hi != 1 {
		t.Errorf("padRange of no data = %v, %v", lo, hi)
	}
}

// TestScaled: a ratio's ticks read as percentages and fall on the data's
// values.
func TestScaled(t *testing.T) {
	ts := Scaled{T: Ticks{Suffix: "%"}, Factor: 100}.Ticks(0.25, 0.5)
	var labels []string
	for _, k := range ts {
		if !k.IsMinor() {
			labels = append(labels, fmt.Sprintf("%s@%g", k.Label, k.Value))
		}
	}
	if want := []string{"25%@0.25", "30%@0.3", "35%@0.35", "40%@0.4", "45%@0.45", "50%@0.5"}; !reflect.DeepEqual(labels, want) {
		t.Errorf("labels %q, want %q", labels, want)
	}
}
