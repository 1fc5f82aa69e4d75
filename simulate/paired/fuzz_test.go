package paired

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"
)

// FuzzCompareAll runs the statistics on their own (the commands' fuzz,
// FuzzCommands, runs them without resamples to stay cheap per input): on
// any values, missing sessions, zeros, negatives and ties included, they
// never panic, give the same figures twice, keep each interval in order
// and each p-value in [0, 1], and draw a pair's interval from the same
// resamples whether or not other pairs of its length come along.
//
//	go test -run XXX -fuzz FuzzCompareAll ./simulate/paired
func FuzzCompareAll(f *testing.F) {
	f.Add([]byte{3, 2, 10, 12, 9, 11, 10, 10, 4, 4, 1, 2}, uint16(200), uint8(95), uint8(5))
	f.Add([]byte{8, 1, 0, 0, 5, 5, 255, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, uint16(0), uint8(50), uint8(50))
	f.Add([]byte{1, 3, 7, 7, 7}, uint16(999), uint8(1), uint8(99))
	f.Fuzz(func(t *testing.T, data []byte, resamples uint16, confidence, alpha uint8) {
		pairs := decodePairs(data)
		opt := Options{Resamples: int(resamples%1000) - 1, Confidence: float64(confidence%99+1) / 100, Alpha: float64(alpha%99+1) / 100}
		got := CompareAll(pairs, opt)
		if again := CompareAll(pairs, opt); fmt.Sprint(show(again)) != fmt.Sprint(show(got)) {
			t.Fatalf("two runs differ:\n%v\n%v", show(got), show(again))
		}
		if len(got) != len(pairs) {
			t.Fatalf("%d stats for %d pairs", len(got), len(pairs))
		}
		for i, s := range got {
			n := min(len(pairs[i].Baseline), len(pairs[i].Values))
			switch {
			case s.Sessions < 0 || s.Sessions > n:
				t.Errorf("pair %d: %d sessions of %d", i, s.Sessions, n)
			case (s.CILowPct == nil) != (s.CIHighPct == nil):
				t.Errorf("pair %d: half an interval", i)
			case s.CILowPct != nil && (s.TotalChangePct == nil || *s.CILowPct > *s.CIHighPct):
				t.Errorf("pair %d: interval [%v, %v] for a change of %v", i, *s.CILowPct, *s.CIHighPct, s.TotalChangePct)
			case s.WilcoxonP != nil && !(*s.WilcoxonP >= 0 && *s.WilcoxonP <= 1):
				t.Errorf("pair %d: p-value %v", i, *s.WilcoxonP)
			}
			if alone := CompareAll([]Pair{pairs[i]}, opt)[0]; n == longest(pairs) && fmt.Sprint(show([]Stats{alone})) != fmt.Sprint(show(got[i:i+1])) {
				t.Errorf("pair %d alone: %v, among others: %v", i, show([]Stats{alone}), show(got[i:i+1]))
			}
		}
	})
}

// decodePairs reads pairs from the fuzzer's bytes: a session count, a
// pair count, then a byte per value (255 a missing session, 254 an
// infinite one, the rest a small value, some negative).
func decodePairs(data []byte) []Pair {
	if len(data) < 2 {
		return nil
	}
	n, k := int(data[0]%64), int(data[1]%4)+1
	vals := data[2:]
	next := func() float64 {
		if len(vals) == 0 {
			return 0
		}
		b := vals[0]
		vals = vals[1:]
		switch b {
		case 255:
			return math.NaN()
		case 254:
			return math.Inf(1)
		}
		return float64(int(b)-16) * 1.5
	}
	base := make([]float64, n)
	for j := range base {
		base[j] = next()
	}
	pairs := make([]Pair, k)
	for i := range pairs {
		m := n
		if len(vals) > 0 && vals[0]%7 == 0 {
			m = n / 2 // a shorter pair: its sessions past m are missing
		}
		v := make([]float64, m)
		for j := range v {
			v[j] = next()
		}
		pairs[i] = Pair{Baseline: base, Values: v}
	}
	return pairs
}

func longest(pairs []Pair) int {
	n := 0
	for _, p := range pairs {
		n = max(n, min(len(p.Baseline), len(p.Values)))
	}
	return n
}

// show is the stats with their figures, not their pointers, and every
// float by its bits (NaN equals itself).
func show(ss []Stats) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		f := func(p *float64) string {
			if p == nil {
				return "nil"
			}
			return fmt.Sprint(binary.LittleEndian.AppendUint64(nil, math.Float64bits(*p)))
		}
		out[i] = fmt.Sprintf("%d %v %v %s %s %s %s %s %s %v", s.Sessions, math.Float64bits(s.BaselineTotal), math.Float64bits(s.Total),
			f(s.TotalChangePct), f(s.CILowPct), f(s.CIHighPct), f(s.MedianChangePct), f(s.GeomeanRatio), f(s.WilcoxonP), s.Significant)
	}
	return out
}
