package cliflag

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/ctxlab/ctxlab/report/table"
)

func TestValidate(t *testing.T) {
	for _, c := range []struct {
		w    Width
		want string // "" for valid
	}{
		{Width{}, ""},
		{Width{Width: MinWidth}, ""},
		{Width{Width: MinWidth - 1}, "--width 39: want 40 or more"},
		{Width{Width: -1}, "--width -1: want 40 or more"},
		{Width{Wide: true}, ""},
		{Width{Width: 80, Wide: true}, "--width and --wide: give one"},
	} {
		err := c.w.Validate()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v: %v", c.w, err)
		case c.want != "" && (err == nil || err.Error() != c.want):
			t.Errorf("%+v: %v, want %q", c.w, err, c.want)
		case c.want != "":
			var u *UsageError
			if !errors.As(err, &u) {
				t.Errorf("%+v: %T is no usage error", c.w, err)
			}
		}
	}
}

func TestColumns(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "COLUMNS" {
				return v
			}
			return ""
		}
	}
	for _, c := range []struct {
		w      Width
		getenv func(string) string
		term   int
		want   int
	}{
		{Width{Width: 70}, env("120"), 90, 70},
		{Width{Wide: true}, env("120"), 90, 0},
		{Width{}, env("120"), 90, 120},
		{Width{}, env("12"), 90, MinWidth},
		{Width{}, env("0"), 90, 90},
		{Width{}, env("wide"), 90, 90},
		{Width{}, nil, 30, MinWidth},
		{Width{}, nil, 0, table.DefaultWidth},
		{Width{}, env(""), 0, table.DefaultWidth},
	} {
		if got := c.w.Columns(c.getenv, c.term); got != c.want {
			t.Errorf("%+v, term %d: %d, want %d", c.w, c.term, got, c.want)
		}
	}
}

func TestFlagError(t *testing.T) {
	c := &cobra.Command{Use: "x"}
	c.Flags().Int("width", 0, "")
	c.Flags().Bool("wide", false, "")
	c.Flags().Bool("secret", false, "")
	_ = c.Flags().MarkHidden("secret")
	base := errors.New("unknown flag: --widht")
	if got := FlagError(c, base); got.Error() != "unknown flag: --widht (did you mean --wide or --width?)" || !errors.Is(got, base) {
		t.Errorf("typo: %v", got)
	}
	if got := FlagError(c, errors.New("unknown flag: --secrte")); strings.Contains(got.Error(), "did you mean") {
		t.Errorf("a hidden flag suggested: %v", got)
	}
	far := errors.New("unknown flag: --zzzzzzzz")
	if got := FlagError(c, far); got != far {
		t.Errorf("nothing near: %v", got)
	}
	other := errors.New("flag needs an argument: --width")
	if got := FlagError(c, other); got != other {
		t.Errorf("another error: %v", got)
	}
	if u := Usagef("--x %d", 3); u.Error() != "--x 3" || errors.Unwrap(u) == nil {
		t.Errorf("Usagef: %v", u)
	}
}

// TestCompleteWords checks that a flag given its words by Takes completes
// them, and that a flag without words gets no completion.
func TestCompleteWords(t *testing.T) {
	root := &cobra.Command{Use: "root"}
	sub := &cobra.Command{Use: "sub", Run: func(*cobra.Command, []string) {}}
	sub.Flags().String("format", "", "")
	sub.Flags().String("other", "", "")
	Takes(sub.Flags(), "format", []string{"json", "csv"})
	Takes(sub.Flags(), "missing", []string{"x"}) // no such flag: ignored
	root.AddCommand(sub)
	CompleteWords(root)
	f, ok := sub.GetFlagCompletionFunc("format")
	if !ok {
		t.Fatal("--format has no completion")
	}
	words, dir := f(sub, nil, "")
	if strings.Join(words, ",") != "json,csv" || dir != cobra.ShellCompDirectiveNoFileComp {
		t.Errorf("--format completes %v (%v), want json,csv without files", words, dir)
	}
	if _, ok := sub.GetFlagCompletionFunc("other"); ok {
		t.Error("--other completes, but it takes no words")
	}
}

// TestReadFile: a file the user named is read; a missing one and a
// directory are said in the user's words, with the flag that named them.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "b.json")
	if err := os.WriteFile(f, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadFile("--budget", f); err != nil || string(data) != "{}" {
		t.Errorf("ReadFile(%s) = %q, %v", f, data, err)
	}
	for _, c := range []struct{ flag, path, want string }{
		{"--budget", dir, "--budget " + dir + ": a directory, not a file"},
		{"", dir, dir + ": a directory, not a file"},
		{"--prices", filepath.Join(dir, "none.json"), "--prices " + filepath.Join(dir, "none.json") + ": no such file or directory"},
	} {
		if _, err := ReadFile(c.flag, c.path); err == nil || err.Error() != c.want {
			t.Errorf("ReadFile(%q, %q): %v, want %q", c.flag, c.path, err, c.want)
		}
	}
}
