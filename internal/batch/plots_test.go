package batch

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// Failures with one cause in one directory are one line; others stay.
func TestGroupErrors(t *testing.T) {
	full := func(name string) error {
		return &fs.PathError{Op: "open", Path: filepath.Join("/p", name), Err: syscall.ENOSPC}
	}
	got := groupErrors([]error{full("a.png"), full("b.png"), errors.New("c.png: encoding"), full("d.png"),
		&fs.PathError{Op: "open", Path: "/q/e.png", Err: syscall.ENOSPC}})
	want := []string{
		"open /p/a.png: no space left on device (and 2 more plots, for the same reason)",
		"c.png: encoding",
		"open /q/e.png: no space left on device",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
