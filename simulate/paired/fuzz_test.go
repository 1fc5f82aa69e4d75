package paired

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// FuzzCompareAll runs the statistics on their own (the commands' fuzz,
// FuzzCommands, runs them without resamples to stay cheap per input, and
// FuzzCompare with 50): on any values, missing sessions, zeros, negatives
// and ties included, they never panic, give the same figures twice, keep
// each interval in order and each p-value in [0, 1], mark a change
// significant exactly when its interval leaves 0 out (and the signed-rank
// test exactly when p is below α), and draw a pair's interval from the
// same resamples whether or not other pairs of its length come along.
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
			case s.Significant != (s.Decided() && (*s.CILowPct > 0 || *s.CIHighPct < 0)):
				t.Errorf("pair %d: significant %v with the interval %v", i, s.Significant, show([]Stats{s}))
			case s.WilcoxonSignificant != (s.WilcoxonP != nil && *s.WilcoxonP < opt.Alpha):
				t.Errorf("pair %d: signed-rank significant %v with p %v at α %v", i, s.WilcoxonSignificant, show([]Stats{s}), opt.Alpha)
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

// FuzzWilcoxon runs the signed-rank test on any differences, ties, zeros,
// NaN and infinities included: it is undefined exactly when no difference
// is left or one is NaN; otherwise p is in [0, 1], equals the p-value of
// W+ and the ties counted again pair by pair (exactP, which
// TestExactEnumeration holds to the 2ⁿ sign assignments, or the normal
// approximation), and stays the same, bit for bit, when the differences
// change sign, come in reverse order, are doubled, or gain zeros.
//
//	go test -run XXX -fuzz FuzzWilcoxon ./simulate/paired
func FuzzWilcoxon(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5})
	f.Add([]byte{130, 2, 126, 2, 0, 7, 7, 7, 249})
	f.Add([]byte{0x7f, 0x81, 3, 3, 200, 56, 0x80})
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 255})
	f.Fuzz(func(t *testing.T, data []byte) {
		d := make([]float64, len(data))
		for i, b := range data {
			switch b {
			case 0x80:
				d[i] = math.NaN()
			case 0x7f:
				d[i] = math.Inf(1)
			default:
				d[i] = float64(int8(b)) / 4 // 1/4 steps, some tied in absolute value
			}
		}
		p, ok := Wilcoxon(d)
		want, wantOK := wilcoxonByPairs(d)
		switch {
		case ok != wantOK:
			t.Fatalf("Wilcoxon(%v): ok %v, want %v", d, ok, wantOK)
		case !ok:
			return
		case !(p >= 0 && p <= 1):
			t.Fatalf("Wilcoxon(%v) = %v", d, p)
		case !near(p, want, 1e-12):
			t.Fatalf("Wilcoxon(%v) = %v, counted pair by pair %v", d, p, want)
		}
		neg, rev, dbl := make([]float64, len(d)), make([]float64, len(d)), make([]float64, len(d))
		for i, x := range d {
			neg[i], rev[len(d)-1-i], dbl[i] = -x, x, 2*x
		}
		for name, e := range map[string][]float64{"negated": neg, "reversed": rev, "doubled": dbl, "with zeros": append([]float64{0}, append(d, 0)...)} {
			if q, qok := Wilcoxon(e); !qok || math.Float64bits(q) != math.Float64bits(p) {
				t.Errorf("%s: p %v, %v; of %v: %v", name, q, qok, d, p)
			}
		}
	})
}

// wilcoxonByPairs is Wilcoxon computed apart: each non-zero difference's
// rank is 1 plus the count of smaller absolute differences plus half the
// count of the others tied with it, found by comparing every pair.
func wilcoxonByPairs(d []float64) (float64, bool) {
	var abs []float64
	var pos []bool
	for _, x := range d {
		if math.IsNaN(x) {
			return 0, false
		}
		if x != 0 {
			abs, pos = append(abs, math.Abs(x)), append(pos, x > 0)
		}
	}
	n := len(abs)
	if n == 0 {
		return 0, false
	}
	var wPlus, ties float64
	tied := false
	for i := range abs {
		below, same := 0, 0
		for j := range abs {
			switch {
			case abs[j] < abs[i]:
				below++
			case abs[j] == abs[i] && j != i:
				same++
			}
		}
		if pos[i] {
			wPlus += 1 + float64(below) + float64(same)/2
		}
		if same > 0 {
			tied = true
			t := float64(same + 1)
			ties += t*t - 1 // each of the t tied adds its share of t³ − t
		}
	}
	if n <= MaxExact && !tied {
		return exactP(n, int(wPlus)), true
	}
	nf := float64(n)
	z := (wPlus - nf*(nf+1)/4) / math.Sqrt(nf*(nf+1)*(2*nf+1)/24-ties/48)
	return min(1, 2*distuv.UnitNormal.CDF(-math.Abs(z))), true
}
