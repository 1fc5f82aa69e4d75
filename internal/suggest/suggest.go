// Package suggest finds the names a mistyped one is likely a typo of, as
// cobra does for a mistyped command: ctxlab offers them for a mistyped
// flag.
package suggest

// Near lists the candidates within maxDist edits of name, in order.
func Near(name string, candidates []string, maxDist int) []string {
	var out []string
	for _, c := range candidates {
		if Distance(name, c) <= maxDist {
			out = append(out, c)
		}
	}
	return out
}

// Distance is the Levenshtein distance between a and b, in bytes: the
// fewest insertions, deletions and substitutions that turn a into b.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
