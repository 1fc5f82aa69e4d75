package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// flagError adds to an unknown flag's error the command's flags it is
// likely a typo of, as cobra does for a mistyped command.
func flagError(c *cobra.Command, err error) error {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return err
	}
	var near []string
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden && editDistance(name, f.Name) <= 2 {
			near = append(near, "--"+f.Name)
		}
	})
	if len(near) == 0 {
		return err
	}
	return fmt.Errorf("%w (did you mean %s?)", err, strings.Join(near, " or "))
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
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
