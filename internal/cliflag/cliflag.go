// Package cliflag holds the flag helpers every ctxlab command shares:
// the width text tables are fitted to, and the error a bad value is (a
// usage error, exit 2), so that cmd/ctxlab keeps only its flags and
// their wiring.
package cliflag

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ctxlab/ctxlab/internal/suggest"
	"github.com/ctxlab/ctxlab/report/table"
)

// UsageError is a bad flag or flag value: the command's exit code 2.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }

// Unwrap gives errors.Is and errors.As the cause.
func (e *UsageError) Unwrap() error { return e.Err }

// Usagef is a UsageError with a formatted message.
func Usagef(format string, a ...any) error {
	return &UsageError{Err: fmt.Errorf(format, a...)}
}

// Width is the width text tables are fitted to: --width, else all of it
// under --wide, else COLUMNS, else the terminal's width when standard
// output is one, else table.DefaultWidth.
type Width struct {
	Width int
	Wide  bool
}

// MinWidth is the narrowest --width: below it no table is readable.
const MinWidth = 40

// AddFlags adds --width and --wide.
func (o *Width) AddFlags(f *pflag.FlagSet) {
	f.IntVar(&o.Width, "width", 0, "fit text tables to this many columns (default: COLUMNS, the terminal's width, else 100)")
	f.BoolVar(&o.Wide, "wide", false, "print every column of text tables, however wide")
}

// Validate checks them.
func (o *Width) Validate() error {
	if o.Width < 0 || (o.Width > 0 && o.Width < MinWidth) {
		return Usagef("--width %d: want %d or more", o.Width, MinWidth)
	}
	if o.Width > 0 && o.Wide {
		return Usagef("--width and --wide: give one")
	}
	return nil
}

// Columns returns the width to fit text tables to, 0 for no limit, from
// the flags, the environment (getenv may be nil) and the terminal's
// width (0: not a terminal).
func (o *Width) Columns(getenv func(string) string, term int) int {
	switch {
	case o.Width > 0:
		return o.Width
	case o.Wide:
		return 0
	}
	if getenv != nil {
		if n, err := strconv.Atoi(getenv("COLUMNS")); err == nil && n > 0 {
			return max(n, MinWidth)
		}
	}
	if term > 0 {
		return max(term, MinWidth)
	}
	return table.DefaultWidth
}

// FlagError adds to an unknown flag's error the command's flags it is
// likely a typo of, as cobra does for a mistyped command.
func FlagError(c *cobra.Command, err error) error {
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

// wordsKey annotates a flag with the words it takes (Takes), which the
// shell completes.
const wordsKey = "ctxlab-words"

// Takes records, where a flag is defined, the words it takes: the list
// its value is checked against, which completion offers (CompleteWords).
func Takes(f *pflag.FlagSet, name string, words []string) {
	_ = f.SetAnnotation(name, wordsKey, words) // fails only for a flag that does not exist
}

// CompleteWords registers, on every subcommand of root, the completion of
// each flag that takes one of a few words (Takes). cobra's completion
// reads a one-letter long flag (--x) as a shorthand and finds no such
// flag: --x is not completed.
func CompleteWords(root *cobra.Command) {
	for _, c := range root.Commands() {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if ws, ok := f.Annotations[wordsKey]; ok {
				_ = c.RegisterFlagCompletionFunc(f.Name, cobra.FixedCompletions(ws, cobra.ShellCompDirectiveNoFileComp))
			}
		})
	}
}

// ReadFile reads a file the user named, with flag the flag that named it
// ("" for an argument). Its errors say which file and what is wrong in
// the user's words ("--budget b.json: no such file or directory",
// "parts/: a directory, not a file") rather than Go's "open …" or
// "read …: is a directory".
func ReadFile(flag, path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err == nil {
		return data, nil
	}
	what := path
	if flag != "" {
		what = flag + " " + path
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if errors.Is(err, syscall.EISDIR) {
		return nil, fmt.Errorf("%s: a directory, not a file", what)
	}
	return nil, fmt.Errorf("%s: %w", what, err)
}
