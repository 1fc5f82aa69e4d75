package testcorpus

import (
	"path/filepath"
	"testing"
)

func TestPath(t *testing.T) {
	dir, _ := Path(Realdata)
	if want := filepath.Join("shared", Realdata); !filepath.IsAbs(dir) || filepath.Base(filepath.Dir(dir)) != "shared" || filepath.Base(dir) != Realdata {
		t.Errorf("Path(%q) = %q, want an absolute path ending in %s", Realdata, dir, want)
	}
	if _, ok := Path("no-such-corpus"); ok {
		t.Error("Path(no-such-corpus) exists")
	}
}
