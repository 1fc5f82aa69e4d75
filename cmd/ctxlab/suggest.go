package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ctxlab/ctxlab/internal/suggest"
)

// flagError adds to an unknown flag's error the command's flags it is
// likely a typo of, as cobra does for a mistyped command.
func flagError(c *cobra.Command, err error) error {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return err
	}
	var flags []string
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			flags = append(flags, "--"+f.Name)
		}
	})
	near := suggest.Near("--"+name, flags, 2)
	if len(near) == 0 {
		return err
	}
	return fmt.Errorf("%w (did you mean %s?)", err, strings.Join(near, " or "))
}
