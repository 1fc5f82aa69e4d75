// Package testcorpus finds, for tests, the genuine transcripts kept beside
// the project: ../shared/realdata and ../shared/calibration from the
// repository root, laid out as under ~/.claude/projects. Tests that use
// them skip when they are absent, so the project's tests pass without them.
package testcorpus

import (
	"os"
	"path/filepath"
	"testing"
)

// The corpora.
const (
	// Realdata holds the transcripts whose numbers the tests pin.
	Realdata = "realdata"
	// Calibration holds the transcripts the simulator's fidelity is
	// checked on.
	Calibration  = "calibration"
	Calibration2 = "calibration2"
	// Calibration3 holds whole project folders of users the simulator
	// was not tuned on, to check a rule on everything a user wrote.
	Calibration3 = "calibration3"
)

// Dir returns the directory of the named corpus, or skips the test when it
// is absent.
func Dir(tb testing.TB, name string) string {
	tb.Helper()
	dir, ok := Path(name)
	if !ok {
		tb.Skipf("no ../shared/%s beside the repository", name)
	}
	return dir
}

// Path returns the directory of the named corpus and whether it exists.
// The repository root is the nearest directory above the working directory
// (a package's, under go test) that holds go.mod.
func Path(name string) (string, bool) {
	wd, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for d := wd; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			dir := filepath.Join(filepath.Dir(d), "shared", name)
			fi, err := os.Stat(dir)
			return dir, err == nil && fi.IsDir()
		}
		up := filepath.Dir(d)
		if up == d {
			return "", false
		}
		d = up
	}
}
