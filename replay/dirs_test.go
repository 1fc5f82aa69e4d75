package replay

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestDefaultDirs(t *testing.T) {
	home := t.TempDir()
	a, b := t.TempDir(), t.TempDir()
	for _, d := range []string{filepath.Join(home, ".claude", "projects"), filepath.Join(a, "projects")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "CLAUDE_CONFIG_DIR" {
				return v
			}
			return ""
		}
	}
	homeFn := func() (string, error) { return home, nil }
	// Home: only ~/.claude/projects exists.
	if got, err := DefaultDirs(env(""), homeFn); err != nil || !slices.Equal(got, []string{filepath.Join(home, ".claude", "projects")}) {
		t.Errorf("home: %q, %v", got, err)
	}
	// CLAUDE_CONFIG_DIR wins over home; of its two folders only a's has projects/.
	if got, err := DefaultDirs(env(" "+a+", "+b+","), homeFn); err != nil || !slices.Equal(got, []string{filepath.Join(a, "projects")}) {
		t.Errorf("CLAUDE_CONFIG_DIR: %q, %v", got, err)
	}
	// Nothing found: the error names where it looked.
	if _, err := DefaultDirs(env(b), homeFn); err == nil || !strings.Contains(err.Error(), filepath.Join(b, "projects")) {
		t.Errorf("none: %v", err)
	}
	// No home directory.
	noHome := func() (string, error) { return "", errors.New("$HOME is not defined") }
	if _, err := DefaultDirs(env(""), noHome); err == nil || !strings.Contains(err.Error(), "no home directory") {
		t.Errorf("no home: %v", err)
	}
}
