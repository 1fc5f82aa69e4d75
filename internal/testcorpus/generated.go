package testcorpus

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/ctxlab/ctxlab/fixtures/synth"
)

// Generated returns a generated corpus for a benchmark and its size in
// bytes. With CTXLAB_BENCH_DIR set it is the corpus already there (written
// by go run ./fixtures/gen -size ...), its size the sum of its files';
// otherwise a corpus of CTXLAB_BENCH_MB megabytes (mb when unset) is
// written into a temporary directory with seed 1.
func Generated(tb testing.TB, mb int) (dir string, size int64) {
	tb.Helper()
	if dir := os.Getenv("CTXLAB_BENCH_DIR"); dir != "" {
		err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			info, err := d.Info()
			if err == nil {
				size += info.Size()
			}
			return err
		})
		if err != nil {
			tb.Fatalf("CTXLAB_BENCH_DIR: %v", err)
		}
		return dir, size
	}
	if v, err := strconv.Atoi(os.Getenv("CTXLAB_BENCH_MB")); err == nil && v > 0 {
		mb = v
	}
	dir = tb.TempDir()
	size, err := synth.WriteCorpus(dir, int64(mb)<<20, 1, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return dir, size
}
