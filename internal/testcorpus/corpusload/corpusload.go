// Package corpusload reads a test corpus's sessions (testcorpus) with replay.
// It is apart from testcorpus so that replay's own tests can find the
// corpus without importing themselves.
package corpusload

import (
	"testing"

	"github.com/ctxlab/ctxlab/internal/testcorpus"
	"github.com/ctxlab/ctxlab/replay"
)

// Sources returns the named corpus's sources, or skips when it is absent.
func Sources(tb testing.TB, name string) []replay.Source {
	tb.Helper()
	dir := testcorpus.Dir(tb, name)
	srcs, errs := replay.Discover([]string{dir})
	if len(errs) > 0 {
		tb.Fatalf("Discover(%s): %v", dir, errs)
	}
	return srcs
}

// Sessions loads every session of the named corpus, or skips when it is
// absent. A file that cannot be read at all fails the test.
func Sessions(tb testing.TB, name string) []*replay.Session {
	tb.Helper()
	return load(tb, Sources(tb, name))
}

// Marked loads every session of the named corpus as compare --fidelity
// reads a folder: a file that continues another's conversation marked
// (replay.MarkContinued). It skips when the corpus is absent.
func Marked(tb testing.TB, name string) []*replay.Session {
	tb.Helper()
	srcs := Sources(tb, name)
	replay.MarkContinued(srcs)
	return load(tb, srcs)
}

// Path loads every session of a path in the repository (the fixtures).
func Path(tb testing.TB, path string) []*replay.Session {
	tb.Helper()
	srcs, errs := replay.Discover([]string{path})
	if len(errs) > 0 || len(srcs) == 0 {
		tb.Fatalf("Discover(%s): %d sources, errors %v", path, len(srcs), errs)
	}
	return load(tb, srcs)
}

func load(tb testing.TB, srcs []replay.Source) []*replay.Session {
	tb.Helper()
	var out []*replay.Session
	for _, src := range srcs {
		s, err := replay.Load(src, replay.Options{})
		if s == nil {
			tb.Fatalf("Load(%s): %v", src.Path, err)
		}
		out = append(out, s)
	}
	return out
}
