package plots

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/simulate"
)

var update = flag.Bool("update", false, "rewrite the golden SVGs in testdata")

// goldenFigures are one figure of each kind from the small inputs of
// series_test.go.
func goldenFigures() map[string]*Figure {
	runs := synthetic()
	opt := Options{Session: "synthetic"}
	return map[string]*Figure{
		"context":    Context(runs, opt),
		"cache":      Cache(runs[0], opt),
		"cost":       Cost(runs, opt),
		"tokens":     Tokens(tokensFixture(), opt),
		"duplicates": Duplicates(dupFixture(), opt),
	}
}

var kinds = []string{"context", "cache", "cost", "tokens", "duplicates"}

func render(t *testing.T, f *Figure, format string) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := f.Write(&b, format); err != nil {
		t.Fatalf("Write %s: %v", format, err)
	}
	return b.Bytes()
}

// TestGolden compares each kind's SVG with testdata/<kind>.svg byte for
// byte; `go test ./report/plots -update` rewrites them.
func TestGolden(t *testing.T) {
	figs := goldenFigures()
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			got := render(t, figs[kind], "svg")
			// Drawing is deterministic: a second rendering of a fresh
			// figure gives the same bytes.
			if again := render(t, goldenFigures()[kind], "svg"); !bytes.Equal(got, again) {
				t.Fatalf("SVG output is not byte-stable")
			}
			path := filepath.Join("testdata", kind+".svg")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./report/plots -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the rendering (%d bytes, golden %d); look at it, then run go test ./report/plots -update", path, len(got), len(want))
			}
		})
	}
}

func TestWritePNG(t *testing.T) {
	for kind, f := range goldenFigures() {
		b := render(t, f, "png")
		if !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) {
			t.Errorf("%s: not a PNG", kind)
		}
	}
}

func TestWriteBadFormat(t *testing.T) {
	f := goldenFigures()["context"]
	for _, format := range []string{"pdf", "PNG", "", ".svg"} {
		var b bytes.Buffer
		if err := f.Write(&b, format); err == nil {
			t.Errorf("Write(%q) = nil error, want one", format)
		}
		if b.Len() != 0 {
			t.Errorf("Write(%q) wrote %d bytes", format, b.Len())
		}
	}
}

// TestEmptyInputs: empty runs and reports still draw.
func TestEmptyInputs(t *testing.T) {
	empty := &simulate.Result{Policy: "observed"}
	figs := map[string]*Figure{
		"context":    Context([]*simulate.Result{empty}, Options{}),
		"context0":   Context(nil, Options{}),
		"cache":      Cache(empty, Options{}),
		"cost":       Cost([]*simulate.Result{empty}, Options{}),
		"tokens":     Tokens(accounting.Tokens{}, Options{}),
		"duplicates": Duplicates(nil, Options{}),
	}
	for kind, f := range figs {
		for _, format := range Formats {
			if err := f.Write(io.Discard, format); err != nil {
				t.Errorf("%s %s: %v", kind, format, err)
			}
		}
	}
}
