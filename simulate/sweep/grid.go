// Package sweep runs a grid of policy parameters over sessions, for ctxlab
// sweep: the grid's points (ParseVary, Grid), each session's metrics at
// every point, and the points' totals, spread, best feasible point and
// Pareto front (Summarize). See docs/sweep.md.
package sweep

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// MaxValues bounds one --vary's values, MaxPoints the grid: a typo in a
// range must not start a week-long run.
const (
	MaxValues = 1000
	MaxPoints = 10_000
)

// Vary is one swept parameter and its values, as given.
type Vary struct {
	Param  string   `json:"param"`
	Values []string `json:"values"`
}

// ParseVary reads PARAM=VALUES: a list "a,b,c", a range "lo..hi" (step
// 1), "lo..hi:step", or a geometric range "lo..hi:xF" (lo, lo×F, lo×F², …
// up to hi). Ranges include hi when a step lands on it.
func ParseVary(s string) (Vary, error) {
	param, vals, ok := strings.Cut(s, "=")
	param = strings.TrimSpace(param)
	if !ok || param == "" || vals == "" {
		return Vary{}, fmt.Errorf("%q: want PARAM=VALUES (a,b,c or lo..hi[:step] or lo..hi:xF)", s)
	}
	v := Vary{Param: param}
	if lo, rest, isRange := strings.Cut(vals, ".."); isRange {
		values, err := parseRange(lo, rest)
		if err != nil {
			return Vary{}, fmt.Errorf("%s=%s: %w", param, vals, err)
		}
		v.Values = values
	} else {
		for _, x := range strings.Split(vals, ",") {
			if x = strings.TrimSpace(x); x == "" {
				return Vary{}, fmt.Errorf("%s=%s: an empty value", param, vals)
			}
			if slices.Contains(v.Values, x) {
				return Vary{}, fmt.Errorf("%s=%s: %s twice", param, vals, x)
			}
			v.Values = append(v.Values, x)
		}
	}
	if len(v.Values) > MaxValues {
		return Vary{}, fmt.Errorf("%s=%s: %d values, more than %d", param, vals, len(v.Values), MaxValues)
	}
	return v, nil
}

func parseRange(loS, rest string) ([]string, error) {
	hiS, stepS, hasStep := strings.Cut(rest, ":")
	lo, err1 := strconv.ParseFloat(strings.TrimSpace(loS), 64)
	hi, err2 := strconv.ParseFloat(strings.TrimSpace(hiS), 64)
	if err1 != nil || err2 != nil || math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.IsNaN(lo) || math.IsNaN(hi) {
		return nil, errors.New("a range's ends must be numbers")
	}
	if lo > hi {
		return nil, fmt.Errorf("the range starts above its end (%v > %v)", lo, hi)
	}
	step, geometric := 1.0, false
	if hasStep {
		stepS = strings.TrimSpace(stepS)
		if f, ok := strings.CutPrefix(stepS, "x"); ok {
			stepS, geometric = f, true
		}
		s, err := strconv.ParseFloat(stepS, 64)
		switch {
		case err != nil || math.IsNaN(s) || math.IsInf(s, 0):
			return nil, fmt.Errorf("step %q: want a number, or xF for a factor", stepS)
		case geometric && s <= 1:
			return nil, fmt.Errorf("factor %v: must be above 1", s)
		case geometric && lo <= 0:
			return nil, errors.New("a geometric range must start above 0")
		case !geometric && s <= 0:
			return nil, fmt.Errorf("step %v: must be above 0", s)
		}
		step = s
	}
	var out []string
	// A relative tolerance lets 0.1 steps land on hi despite rounding.
	tol := 1e-9 * max(1, math.Abs(hi))
	for i := 0; ; i++ {
		var x float64
		if geometric {
			x = lo * math.Pow(step, float64(i))
		} else {
			x = lo + float64(i)*step
		}
		if x > hi+tol {
			break
		}
		if len(out) == MaxValues+1 {
			break // ParseVary reports it
		}
		out = append(out, formatValue(x))
	}
	return out, nil
}

// formatValue writes a grid value as a policy spec takes it: integers
// without a point, others as short as they are exact to 12 digits.
func formatValue(x float64) string {
	if r := math.Round(x); math.Abs(x-r) < 1e-9*max(1, math.Abs(x)) {
		return strconv.FormatFloat(r, 'f', -1, 64)
	}
	return strconv.FormatFloat(x, 'g', 12, 64)
}

// Point is one grid point: a base policy spec with the swept parameters
// set, and its canonical spec.
type Point struct {
	Spec   string            `json:"policy"` // canonical
	Base   string            `json:"base"`
	Values map[string]string `json:"values"` // swept parameter → value; only those the base has
}

// Policies tells the grid what it needs of the policies: a policy's
// parameter names, and a spec's canonical form (policies.Lookup and
// policies.Parse in ctxlab).
type Policies interface {
	Params(name string) ([]string, bool)
	Canon(spec string) (string, error)
}

// Grid returns the points: for each base spec, the cross product of the
// values of the swept parameters that base's policy has, in the order the
// varies were given (the last varies fastest). A swept parameter that no
// base has is an error naming it; so is a point whose spec the policy
// rejects, and two bases that give the same point.
func Grid(bases []string, varies []Vary, pol Policies) ([]Point, error) {
	if len(bases) == 0 {
		return nil, errors.New("no policy to sweep")
	}
	seen := map[string]bool{}
	for _, v := range varies {
		if seen[v.Param] {
			return nil, fmt.Errorf("--vary %s given twice", v.Param)
		}
		seen[v.Param] = true
	}
	used := map[string]bool{}
	keys := map[string]bool{}
	var points []Point
	for _, base := range bases {
		name, _, _ := strings.Cut(base, ":")
		params, ok := pol.Params(name)
		if !ok {
			_, err := pol.Canon(base)
			return nil, err
		}
		var mine []Vary
		for _, v := range varies {
			if slices.Contains(params, v.Param) {
				mine = append(mine, v)
				used[v.Param] = true
			}
		}
		for _, combo := range cross(mine) {
			spec := base
			vals := map[string]string{}
			for i, v := range mine {
				sep := ","
				if !strings.Contains(spec, ":") {
					sep = ":"
				}
				spec += sep + v.Param + "=" + combo[i]
				vals[v.Param] = combo[i]
			}
			c, err := pol.Canon(spec)
			if err != nil {
				return nil, err
			}
			if keys[c] {
				return nil, fmt.Errorf("the grid gives %s twice", c)
			}
			keys[c] = true
			points = append(points, Point{Spec: c, Base: base, Values: vals})
			if len(points) > MaxPoints {
				return nil, fmt.Errorf("more than %d grid points", MaxPoints)
			}
		}
	}
	for _, v := range varies {
		if !used[v.Param] {
			return nil, fmt.Errorf("--vary %s: no policy of %s has a parameter %q", v.Param, strings.Join(bases, ", "), v.Param)
		}
	}
	return points, nil
}

// cross returns every combination of the varies' values, the last
// varying fastest; one empty combination when there are none.
func cross(vs []Vary) [][]string {
	out := [][]string{{}}
	for _, v := range vs {
		var next [][]string
		for _, c := range out {
			for _, x := range v.Values {
				next = append(next, append(slices.Clone(c), x))
			}
		}
		out = next
	}
	return out
}
