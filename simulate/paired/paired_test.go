package paired

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/simulate/paired/pairedtest"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestWilcoxonPublished: the example of Hollander & Wolfe, Nonparametric
// Statistical Methods (1973), p. 29f., which R's wilcox.test documentation
// (package stats) runs: Hamilton depression scale factor IV of 9 patients
// at the first (x) and second (y) visit. W+ = 40 of x − y, one-sided
// p = 10/512 = 0.01953 (R: "V = 40, p-value = 0.01953"), so two-sided
// 20/512. No difference is tied: the exact distribution applies.
func TestWilcoxonPublished(t *testing.T) {
	x := []float64{1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30}
	y := []float64{0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29}
	for _, dir := range []struct{ base, val []float64 }{{y, x}, {x, y}} {
		d := make([]float64, len(x))
		for i := range x {
			d[i] = dir.val[i] - dir.base[i]
		}
		p, ok := Wilcoxon(d)
		if !ok || p != 20.0/512 {
			t.Errorf("p = %v, %v; want 20/512 = 0.0390625", p, ok)
		}
	}
}

// TestWilcoxonValues pins p-values computed independently: by hand (the
// small cases, whose sums of ranks are enumerated in the comments) and
// with SciPy 1.10.1's scipy.stats.wilcoxon (zero_method="wilcox",
// correction=False; mode="exact" without ties, "approx" otherwise).
func TestWilcoxonValues(t *testing.T) {
	d30 := []float64{0.301, 0.599, 0.026, -0.591, -0.155, -0.692, 0.36, 1.64, -0.192, -0.32, 0.79, 0.657, 0.405, -0.63, 0.271,
		0.995, -1.044, -0.158, -1.601, -0.99, -1.542, 0.065, -0.967, 0.571, 0.457, 0.113, -2.217, -0.239, 0.251, 0.413}
	for _, c := range []struct {
		name string
		d    []float64
		p    float64
		tol  float64
	}{
		// All 5 positive: W+ = 15, the largest sum, 1 subset of 32.
		{"all positive", []float64{1, 2, 3, 4, 5}, 2.0 / 32, 0},
		// One difference: W+ is 0 or 1 with ½ each.
		{"one", []float64{-3}, 1, 0},
		// Ranks 1–4, the negative one rank 2: W+ = 8; sums ≥ 8: {4,3,1},
		// {4,3,2}, {4,3,2,1} → 3 of 16, two-sided 6/16. Zeros dropped.
		{"zero dropped", []float64{1, -2, 6, 0, 15}, 6.0 / 16, 0},
		// Ties 5, 5 (ranks 3.5): normal approximation. W+ = 1+2 = 3,
		// mean 5, variance 4·5·9/24 − (2³−2)/48 = 7.375, z = −0.7365.
		{"tied", []float64{2, -5, 3, 0, -5}, 0.4614509878333607, 1e-12},
		// The textbook shape of ties and a zero: |d| 5, 5, 7, 9, 10, 12,
		// 15, 17, 20 after the zero; W+ = 27, variance 71.25 − 0.125.
		{"tied 10", []float64{15, -7, 5, 20, 0, -9, 17, -12, 5, -10}, 0.5936305914425295, 1e-12},
		// 25 untied: the exact distribution (the normal approximation
		// would give 0.7775).
		{"25 exact", d30[:25], 0.7914759516716003, 1e-12},
		// 26 untied: the normal approximation.
		{"26 approx", d30[:26], 0.809337503179622, 1e-12},
		{"30 approx", d30, 0.7498711559507313, 1e-12},
	} {
		p, ok := Wilcoxon(c.d)
		if !ok || !near(p, c.p, c.tol) {
			t.Errorf("%s: p = %v, %v; want %v", c.name, p, ok, c.p)
		}
	}
	for _, d := range [][]float64{nil, {0, 0}, {1, math.NaN()}} {
		if p, ok := Wilcoxon(d); ok {
			t.Errorf("Wilcoxon(%v) = %v, want undefined", d, p)
		}
	}
}

// TestExactEnumeration checks the exact distribution against the 2ⁿ sign
// assignments counted one by one, for every W+ and n up to 12.
func TestExactEnumeration(t *testing.T) {
	for n := 1; n <= 12; n++ {
		maxSum := n * (n + 1) / 2
		count := make([]int, maxSum+1)
		for mask := range 1 << n {
			s := 0
			for r := 1; r <= n; r++ {
				if mask&(1<<(r-1)) != 0 {
					s += r
				}
			}
			count[s]++
		}
		for w := 0; w <= maxSum; w++ {
			below, above := 0, 0
			for s, c := range count {
				if s <= w {
					below += c
				}
				if s >= w {
					above += c
				}
			}
			want := min(1, 2*float64(min(below, above))/float64(int(1)<<n))
			if got := exactP(n, w); got != want {
				t.Fatalf("n=%d W+=%d: p = %v, want %v", n, w, got, want)
			}
		}
	}
}

// TestExactLargest: with 25 differences, all positive, p = 2/2²⁵.
func TestExactLargest(t *testing.T) {
	d := make([]float64, 25)
	for i := range d {
		d[i] = float64(i + 1)
	}
	if p, _ := Wilcoxon(d); p != 2/math.Ldexp(1, 25) {
		t.Errorf("p = %v, want 2⁻²⁴", p)
	}
}

// The bootstrap example: five sessions, each changed differently.
var (
	bootBase = []float64{10, 20, 30, 40, 50}
	bootVal  = []float64{11, 18, 36, 40, 65}
)

// TestBootstrapExact: with many resamples the interval is the exact
// bootstrap distribution's quantiles, from all 5⁵ draws. In that
// distribution (enumerated here, and by an independent script) 1.95% of
// the changes are below −2.3077% and 2.91% at or below it, and the 97.5%
// quantile 25.3333% has 96.93% below and 97.89% at or below: at 200,000
// resamples the sampled fractions are within ±0.04% (one standard error),
// so the sampled quantiles land on these atoms.
func TestBootstrapExact(t *testing.T) {
	all := pairedtest.ExactChanges(bootBase, bootVal)
	if len(all) != 3125 {
		t.Fatalf("%d draws", len(all))
	}
	wantLo, wantHi := -2.3076923076923106, 25.333333333333343
	if q := all[int(math.Ceil(0.025*3125))-1]; !near(q, wantLo, 1e-9) {
		t.Fatalf("enumerated 2.5%% quantile %v, want %v", q, wantLo)
	}
	if q := all[int(math.Ceil(0.975*3125))-1]; !near(q, wantHi, 1e-9) {
		t.Fatalf("enumerated 97.5%% quantile %v, want %v", q, wantHi)
	}
	lo, hi, _ := bootstrapOne(bootBase, bootVal, 200000, 0.95)
	if !near(lo, wantLo, 1e-9) || !near(hi, wantHi, 1e-9) {
		t.Errorf("interval [%v, %v], want [%v, %v]", lo, hi, wantLo, wantHi)
	}
}

// TestBootstrapDefault: at the default 10,000 resamples the interval's
// ends are changes some draw gives, within the exact distribution's 2%–3%
// and 97%–98% quantiles; and they are pinned, so that a change of the
// generator or of the draws shows (the output must be the same on every
// machine).
func TestBootstrapDefault(t *testing.T) {
	all := pairedtest.ExactChanges(bootBase, bootVal)
	s := compareOne(bootBase, bootVal, Options{})
	lo, hi := *s.CILowPct, *s.CIHighPct
	q := func(p float64) float64 { return all[int(math.Ceil(p*3125))-1] }
	if lo < q(0.02) || lo > q(0.03) || hi < q(0.97) || hi > q(0.98) {
		t.Errorf("interval [%v, %v] outside [%v, %v] … [%v, %v]", lo, hi, q(0.02), q(0.03), q(0.97), q(0.98))
	}
	if _, ok := slices.BinarySearch(all, lo); !ok {
		t.Errorf("low end %v is no draw's change", lo)
	}
	if lo != -2.3076923076923106 || hi != 25.333333333333343 {
		t.Errorf("interval [%v, %v] moved from the pinned [-2.3076923076923106, 25.333333333333343]", lo, hi)
	}
}

// TestBootstrapDegenerate: a change every session shares is its own
// interval; one session is its own sample; without a baseline there is
// none.
func TestBootstrapDegenerate(t *testing.T) {
	base := []float64{4, 8, 12, 100}
	val := []float64{5, 10, 15, 125}
	if lo, hi, ok := bootstrapOne(base, val, 1000, 0.9); !ok || !near(lo, 25, 1e-12) || !near(hi, 25, 1e-12) {
		t.Errorf("constant change: [%v, %v], want [25, 25]", lo, hi)
	}
	if lo, hi, ok := bootstrapOne([]float64{2}, []float64{3}, 10, 0.95); !ok || lo != 50 || hi != 50 {
		t.Errorf("one session: [%v, %v], want [50, 50]", lo, hi)
	}
	for _, c := range []struct{ b, v []float64 }{{nil, nil}, {[]float64{0, 0}, []float64{1, 1}}, {[]float64{1}, []float64{1, 2}}} {
		if lo, hi, ok := bootstrapOne(c.b, c.v, 100, 0.95); ok {
			t.Errorf("bootstrapOne(%v, %v) = [%v, %v], want none", c.b, c.v, lo, hi)
		}
	}
	if _, _, ok := bootstrapOne([]float64{1}, []float64{2}, 0, 0.95); ok {
		t.Error("no resamples: want no interval")
	}
}

// TestBootstrapZeroBaseline: a resample of sessions whose baseline is 0
// alone has no change and is left out. Sessions 1 and 2 (of 3) have
// baseline 0 and values 1; session 3 has 1 and 2. The resamples with
// session 3 k times (k = 1, 2, 3; probabilities 12/27, 6/27, 1/27 of the
// 19/27 that have it) change by 100 × ((2k + 3 − k)/k − 1) = 300/k:
// +300%, +150%, +100%. The 2.5% quantile is +100% (1/19 = 5.3% of the
// kept resamples), the 97.5% one +300% (12/19 = 63%).
func TestBootstrapZeroBaseline(t *testing.T) {
	lo, hi, ok := bootstrapOne([]float64{0, 0, 1}, []float64{1, 1, 2}, 10000, 0.95)
	if !ok || lo != 100 || hi != 300 {
		t.Errorf("[%v, %v], want [+100, +300]", lo, hi)
	}
}

// TestCompareAllShared: comparisons made together get the intervals each
// gets alone (the same draws), a baseline shared by slice or copied alike.
func TestCompareAllShared(t *testing.T) {
	other := []float64{9, 25, 28, 41, 47}
	copyBase := slices.Clone(bootBase)
	all := CompareAll([]Pair{{bootBase, bootVal}, {bootBase, other}, {copyBase, other}}, Options{})
	for i, val := range [][]float64{bootVal, other, other} {
		one := compareOne(bootBase, val, Options{})
		if *all[i].CILowPct != *one.CILowPct || *all[i].CIHighPct != *one.CIHighPct || *all[i].WilcoxonP != *one.WilcoxonP {
			t.Errorf("pair %d: together %+v, alone %+v", i, all[i], one)
		}
	}
	// A pair that lacks a session (NaN) is resampled over the sessions it
	// has: with a constant change the interval is that change.
	s := CompareAll([]Pair{{bootBase, bootVal}, {[]float64{1, 2, math.NaN(), 4, 5}, []float64{2, 4, 1, 8, 10}}}, Options{})[1]
	if s.Sessions != 4 || *s.CILowPct != 100 || *s.CIHighPct != 100 || *s.TotalChangePct != 100 {
		t.Errorf("missing session: %+v", s)
	}
}

// TestCompareAllMissing: a pair that lacks sessions (a cost with unpriced
// calls) gets the interval of the sessions it has, drawn as if they were
// all there were, not one drawn over every session with the missing ones
// as empty: those would draw resamples of fewer real sessions and widen
// the interval beside an n that leaves them out. Alongside a complete
// pair, and alone.
func TestCompareAllMissing(t *testing.T) {
	nan := math.NaN()
	base := []float64{10, nan, 12, 30, nan, 41, 47}
	val := []float64{14, 3, 13, 44, 9, 80, 48}
	want := compareOne([]float64{10, 12, 30, 41, 47}, []float64{14, 13, 44, 80, 48}, Options{})
	for _, got := range []Stats{
		CompareAll([]Pair{{[]float64{1, 2, 3, 4, 5, 6, 7}, []float64{2, 2, 3, 5, 5, 6, 9}}, {base, val}}, Options{})[1],
		compareOne(base, val, Options{}),
	} {
		if got.Sessions != 5 || fmt.Sprint(show([]Stats{got})) != fmt.Sprint(show([]Stats{want})) {
			t.Errorf("with missing sessions: %v, want those of the 5 it has: %v", show([]Stats{got}), show([]Stats{want}))
		}
	}
}

// TestDraw: the draws are uniform and stay within [0, n), including n
// near 2⁶⁴ where the rejection matters.
func TestDraw(t *testing.T) {
	src := rand.NewPCG(1, 2)
	counts := make([]int, 3)
	for range 30000 {
		counts[draw(src, 3)]++
	}
	for i, c := range counts {
		if c < 9700 || c > 10300 { // 10,000 ± 5.5 standard errors
			t.Errorf("value %d drawn %d times of 30,000", i, c)
		}
	}
	big := uint64(1)<<63 + 1
	for range 1000 {
		if v := draw(src, big); v >= big {
			t.Fatalf("draw %d ≥ %d", v, big)
		}
	}
	// n = 3·2⁶², so x·n/2⁶⁴ = 3x/4: of every four outputs of the source,
	// two would land on a multiple of 3 without the rejection, which
	// drops one of them (its low word is 0, below 2⁶⁴ mod n = 2⁶²).
	third := uint64(3) << 62
	zero := 0
	for range 3000 {
		if draw(src, third)%3 == 0 {
			zero++
		}
	}
	if zero < 880 || zero > 1120 { // 1,000 ± 5 standard errors; 1,500 without the rejection
		t.Errorf("%d of 3,000 draws below 3·2⁶² are multiples of 3, want about 1,000", zero)
	}
	if v := draw(src, 1); v != 0 {
		t.Errorf("draw(1) = %d", v)
	}
}

// TestCompare: the change, median and geometric mean by hand; the
// Wilcoxon p-value and significance.
func TestCompare(t *testing.T) {
	s := compareOne(bootBase, bootVal, Options{})
	// Totals 150 and 170: +13.33%. Changes +10, −10, +20, 0, +30: median
	// +10. Ratios 1.1, 0.9, 1.2, 1, 1.3: geometric mean (1.2870)^(1/5).
	if s.Sessions != 5 || s.BaselineTotal != 150 || s.Total != 170 {
		t.Errorf("sessions %d, totals %v %v", s.Sessions, s.BaselineTotal, s.Total)
	}
	if !near(*s.TotalChangePct, 100*(170.0/150-1), 1e-12) || !near(*s.MedianChangePct, 10, 1e-12) {
		t.Errorf("change %v, median %v", *s.TotalChangePct, *s.MedianChangePct)
	}
	if want := math.Pow(1.1*0.9*1.2*1*1.3, 0.2); !near(*s.GeomeanRatio, want, 1e-12) || !near(want, 1.090817153065539, 1e-12) {
		t.Errorf("geomean %v, want %v", *s.GeomeanRatio, want)
	}
	if *s.WilcoxonP != 6.0/16 || s.WilcoxonSignificant {
		t.Errorf("p %v, signed-rank significant %v; want 0.375, false", *s.WilcoxonP, s.WilcoxonSignificant)
	}
	// The interval decides: at about [−2.3%, +25.3%] (TestBootstrapExact)
	// it holds 0, so the change is not significant, and the signed-rank
	// test agrees.
	if !(*s.CILowPct < 0) || s.Significant || s.Disagree() {
		t.Errorf("interval [%v, %v], significant %v, disagree %v; want below 0, false, false", *s.CILowPct, *s.CIHighPct, s.Significant, s.Disagree())
	}
	// At α = 0.4 the same p is significant by rank, and disagrees with
	// the interval; at exactly p it is not. α never moves the interval's
	// decision.
	if s := compareOne(bootBase, bootVal, Options{Alpha: 0.4}); !s.WilcoxonSignificant || s.Significant || !s.Disagree() {
		t.Error("p 0.375 < α 0.4: want significant by rank only, disagreeing")
	}
	if s := compareOne(bootBase, bootVal, Options{Alpha: 0.375}); s.WilcoxonSignificant || s.Significant || s.Disagree() {
		t.Error("p 0.375 = α: want not significant by rank")
	}
	// Even count: median of −25, 0, +20 and −100 → (−25 + 0)/2; the
	// zero-baseline session is left out of the median and geometric mean,
	// the zero value out of the geometric mean: (1.2 · 0.75 · 1)^(1/3).
	s = compareOne([]float64{10, 20, 0, 40, 5}, []float64{12, 15, 3, 40, 0}, Options{Resamples: -1})
	if !near(*s.MedianChangePct, -12.5, 1e-12) || !near(*s.GeomeanRatio, math.Cbrt(0.9), 1e-12) {
		t.Errorf("median %v, geomean %v", *s.MedianChangePct, *s.GeomeanRatio)
	}
	if s.CILowPct != nil || s.CIHighPct != nil {
		t.Error("negative resamples: want no interval")
	}
	if !near(*s.WilcoxonP, 0.4614509878333607, 1e-12) {
		t.Errorf("p %v", *s.WilcoxonP)
	}
}

// TestSignificanceFollowsInterval: the two contradictions a reader saw
// cannot happen. Many sessions that grow a lot and a few that shrink a
// little: the total's interval excludes 0 while the signed-rank test
// finds nothing at α (as context-editing against observed showed, p
// 0.060 beside [+92%, +364%]); many sessions that shrink a little and one
// large that grows: the test finds a shift while the total's interval
// holds 0 (a sweep row, p 0.006 beside [−19.7%, +1.7%]). In both,
// significant is the interval's answer and Disagree says the test
// differs; and over random pairs significant is always the interval's.
func TestSignificanceFollowsInterval(t *testing.T) {
	grow := Stats{}
	{
		base := []float64{10, 10, 10, 10, 10, 10, 10, 10, 10, 10}
		val := []float64{40, 35, 60, 45, 50, 9, 8, 9.5, 7, 8.5}
		grow = compareOne(base, val, Options{})
	}
	if !(*grow.CILowPct > 0) || !grow.Significant || *grow.WilcoxonP < 0.05 || grow.WilcoxonSignificant || !grow.Disagree() {
		t.Errorf("growth: interval [%v, %v], p %v, significant %v, disagree %v", *grow.CILowPct, *grow.CIHighPct, *grow.WilcoxonP, grow.Significant, grow.Disagree())
	}
	var base, val []float64
	for i := range 20 {
		base, val = append(base, 10), append(val, 9-float64(i)/100)
	}
	base, val = append(base, 200), append(val, 230)
	shift := compareOne(base, val, Options{})
	if !(*shift.CILowPct < 0 && *shift.CIHighPct > 0) || shift.Significant || !(*shift.WilcoxonP < 0.05) || !shift.WilcoxonSignificant || !shift.Disagree() {
		t.Errorf("shift: interval [%v, %v], p %v, significant %v, disagree %v", *shift.CILowPct, *shift.CIHighPct, *shift.WilcoxonP, shift.Significant, shift.Disagree())
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for k := range 300 {
		n := 2 + rng.IntN(15)
		b, v := make([]float64, n), make([]float64, n)
		for i := range n {
			b[i] = float64(rng.IntN(50))
			v[i] = b[i] + float64(rng.IntN(21)-10+k%5)
		}
		s := compareOne(b, v, Options{Resamples: 500})
		if !s.Decided() {
			if s.Significant {
				t.Fatalf("%v → %v: significant without an interval", b, v)
			}
			continue
		}
		if s.Significant != (*s.CILowPct > 0 || *s.CIHighPct < 0) {
			t.Fatalf("%v → %v: interval [%v, %v] but significant %v", b, v, *s.CILowPct, *s.CIHighPct, s.Significant)
		}
		if s.WilcoxonSignificant != (s.WilcoxonP != nil && *s.WilcoxonP < DefaultAlpha) {
			t.Fatalf("%v → %v: p %v but signed-rank significant %v", b, v, s.WilcoxonP, s.WilcoxonSignificant)
		}
	}
	// One session has nothing to resample: no interval, no verdict.
	if s := compareOne([]float64{3, math.NaN()}, []float64{5, 7}, Options{}); s.Sessions != 1 || s.TotalChangePct == nil || s.Decided() || s.Significant {
		t.Errorf("one session: %+v", s)
	}
	// Without resamples there is no interval, and nothing is significant.
	if s := compareOne(base, val, Options{Resamples: -1}); s.Decided() || s.Significant || s.Disagree() || !s.WilcoxonSignificant {
		t.Errorf("no interval: %+v", s)
	}
}

// TestUndefined: what cannot be computed is null in JSON, never NaN.
func TestUndefined(t *testing.T) {
	for _, c := range []struct {
		name      string
		base, val []float64
		change, p bool // the change and the test are defined
	}{
		{"no sessions", nil, nil, false, false},
		{"zero baseline", []float64{0, 0}, []float64{1, 2}, false, true},
		{"not finite", []float64{math.NaN(), math.Inf(1)}, []float64{1, 2}, false, false},
		{"no difference", []float64{0, 3}, []float64{0, 3}, true, false},
	} {
		s := compareOne(c.base, c.val, Options{})
		if (s.TotalChangePct != nil) != c.change || (s.CILowPct != nil) != c.change || (s.MedianChangePct != nil) != c.change {
			t.Errorf("%s: %+v", c.name, s)
		}
		if (s.WilcoxonP != nil) != c.p || s.Significant || s.WilcoxonSignificant || s.Disagree() {
			t.Errorf("%s: p %v, significant %v", c.name, s.WilcoxonP, s.Significant)
		}
		b, err := json.Marshal(s)
		if err != nil || strings.Contains(string(b), "NaN") {
			t.Errorf("%s: %s %v", c.name, b, err)
		}
		if !c.change && !strings.Contains(string(b), `"total_change_pct":null,"total_change_ci_low_pct":null`) {
			t.Errorf("%s: %s", c.name, b)
		}
	}
	// Zero baseline, values 1 and 2: W+ = 3 of ranks 1, 2, p = 2 · ¼.
	if s := compareOne([]float64{0, 0}, []float64{1, 2}, Options{}); *s.WilcoxonP != 0.5 || s.GeomeanRatio != nil {
		t.Errorf("zero baseline: %+v", s)
	}
	if s := compareOne([]float64{1, math.NaN(), 3}, []float64{2, 5}, Options{}); s.Sessions != 1 || s.Total != 2 {
		t.Errorf("a NaN pair and an unpaired value: %+v", s)
	}
}

func TestOptions(t *testing.T) {
	if err := (Options{}).Validate(); err != nil {
		t.Error(err)
	}
	r := Options{}.Resolved()
	if r.Resamples != 10000 || r.Confidence != 0.95 || r.Alpha != 0.05 {
		t.Errorf("defaults %+v", r)
	}
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Resamples: MaxResamples + 1}, "resamples"},
		{Options{Confidence: 1}, "confidence"},
		{Options{Confidence: -0.5}, "confidence"},
		{Options{Confidence: math.NaN()}, "confidence"},
		{Options{Alpha: 1.5}, "alpha"},
		{Options{Alpha: 1}, "alpha"},
		{Options{Confidence: 1.0000001}, "confidence"},
	} {
		if err := c.o.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error about %s", c.o, err, c.want)
		}
	}
	if err := (Options{Resamples: MaxResamples, Confidence: 0.99, Alpha: 0.01}).Validate(); err != nil {
		t.Error(err)
	}
}

// BenchmarkBootstrap: the default 10,000 resamples of 300 sessions, the
// cost of one comparison's interval.
func BenchmarkBootstrap(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	base, val := make([]float64, 300), make([]float64, 300)
	for i := range base {
		base[i] = r.Float64() * 10
		val[i] = base[i] * (0.8 + 0.4*r.Float64())
	}
	for b.Loop() {
		bootstrapOne(base, val, DefaultResamples, DefaultConfidence)
	}
}

// BenchmarkCompareAll: compare's case with every policy, nine policies
// against a baseline on six metrics (54 comparisons, 60 distinct
// columns) over 155 sessions, the generated 420 MB corpus's count.
func BenchmarkCompareAll(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	const sessions = 155
	var pairs []Pair
	for range 6 {
		base := make([]float64, sessions)
		for i := range base {
			base[i] = r.Float64() * 10
		}
		for range 9 {
			val := make([]float64, sessions)
			for i := range val {
				val[i] = base[i] * (0.8 + 0.4*r.Float64())
			}
			pairs = append(pairs, Pair{base, val})
		}
	}
	for b.Loop() {
		CompareAll(pairs, Options{})
	}
}

// TestSplitIndependent: the intervals do not depend on how many
// processors share the columns.
func TestSplitIndependent(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var pairs []Pair
	base := make([]float64, 50)
	for i := range base {
		base[i] = r.Float64()
	}
	for range 7 {
		val := make([]float64, 50)
		for i := range val {
			val[i] = base[i] * (0.5 + r.Float64())
		}
		pairs = append(pairs, Pair{base, val})
	}
	var got [][]Stats
	for _, procs := range []int{1, 3, 16} {
		old := runtime.GOMAXPROCS(procs)
		got = append(got, CompareAll(pairs, Options{Resamples: 500}))
		runtime.GOMAXPROCS(old)
	}
	for i := range pairs {
		for k := 1; k < len(got); k++ {
			a, b := got[0][i], got[k][i]
			if *a.CILowPct != *b.CILowPct || *a.CIHighPct != *b.CIHighPct {
				t.Errorf("pair %d: [%v, %v] with 1 processor, [%v, %v] with more", i, *a.CILowPct, *a.CIHighPct, *b.CILowPct, *b.CIHighPct)
			}
		}
	}
}

// bootstrapOne is the interval CompareAll gives one pair of equal-length
// slices (ok false when it has none).
func bootstrapOne(baseline, values []float64, resamples int, confidence float64) (lo, hi float64, ok bool) {
	if len(baseline) != len(values) {
		return 0, 0, false
	}
	iv := intervals([]column{{baseline, values}}, len(baseline), resamples, confidence)[0]
	return iv.lo, iv.hi, iv.ok
}

// compareOne computes the statistics of one pair.
func compareOne(baseline, values []float64, opt Options) Stats {
	return CompareAll([]Pair{{baseline, values}}, opt)[0]
}

// TestDistinct: columns with equal values, −0 and 0 alike, share one
// entry; a column one value or one session apart does not.
func TestDistinct(t *testing.T) {
	a := []float64{1, 2, 0}
	cols := []column{
		{a, []float64{3, 4, 5}},
		{[]float64{1, 2, math.Copysign(0, -1)}, []float64{3, 4, 5}}, // equal to 0
		{a, []float64{3, 4, 6}},
		{a[:2], []float64{3, 4}},
		{[]float64{1, 2}, []float64{3, 4}}, // equal to 3
		{[]float64{3, 4, 5}, a},            // 0's slices swapped
	}
	uniq, of := distinct(cols)
	if want := []int{0, 0, 1, 2, 2, 3}; !slices.Equal(of, want) || len(uniq) != 4 {
		t.Fatalf("distinct: of %v (%d distinct), want %v (4)", of, len(uniq), want)
	}
	if fingerprint(0, []float64{0}) != fingerprint(0, []float64{math.Copysign(0, -1)}) {
		t.Error("0 and −0 fingerprint apart")
	}
}

// TestTotalInterval: the change's interval in the total's unit, none
// without one.
func TestTotalInterval(t *testing.T) {
	lo, hi := -10.0, 25.0
	s := Stats{BaselineTotal: 200, CILowPct: &lo, CIHighPct: &hi}
	if l, h, ok := s.TotalInterval(); !ok || l != 180 || h != 250 {
		t.Errorf("TotalInterval = %v, %v, %v; want 180, 250, true", l, h, ok)
	}
	s.CIHighPct = nil
	if _, _, ok := s.TotalInterval(); ok {
		t.Error("TotalInterval without a high bound: ok")
	}
	s.CIHighPct, s.CILowPct = &hi, nil
	if _, _, ok := s.TotalInterval(); ok {
		t.Error("TotalInterval without a low bound: ok")
	}
}
