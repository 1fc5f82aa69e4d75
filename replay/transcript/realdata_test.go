package transcript

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/internal/testcorpus"
)

// realdataFiles lists every transcript file (.jsonl, agents' included) of
// the genuine realdata set, in lexical order.
func realdataFiles(tb testing.TB) []string {
	tb.Helper()
	var out []string
	err := filepath.WalkDir(testcorpus.Dir(tb, testcorpus.Realdata), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			out = append(out, p)
		}
		return err
	})
	if err != nil || len(out) == 0 {
		tb.Fatalf("realdata: %d files, %v", len(out), err)
	}
	return out
}

// TestRealdataReaderCoversEveryLine checks that the reader accounts for every
// line of every real file: entries + warnings + blank = lines.
func TestRealdataReaderCoversEveryLine(t *testing.T) {
	for _, path := range realdataFiles(t) {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		r := NewReader(f, filepath.Base(path))
		entries, bad, warn := 0, 0, 0
		for r.Scan() {
			switch rec := r.Result().(type) {
			case *Entry:
				entries++
			case *SyntaxError:
				if rec.Warning {
					warn++
				} else {
					bad++
				}
			}
		}
		f.Close()
		if err := r.Err(); err != nil {
			t.Errorf("%s: %v", path, err)
		}
		st := r.Stats()
		if entries+bad+st.Blank != st.Lines || bad != st.Bad {
			t.Errorf("%s: %d entries + %d bad + %d blank != %d lines (Stats.Bad %d, warnings %d)",
				path, entries, bad, st.Blank, st.Lines, st.Bad, warn)
		}
		info, _ := os.Stat(path)
		if st.BytesRead != info.Size() {
			t.Errorf("%s: BytesRead %d, file size %d", path, st.BytesRead, info.Size())
		}
	}
}
