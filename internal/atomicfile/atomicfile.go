// Package atomicfile writes files so that a reader never sees a partial
// one: into a temporary file in the same directory, renamed over the
// target only when complete. A failure leaves any old file in place and no
// temporary file behind.
package atomicfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Write writes path through write, with mode 0644. Errors name the path.
func Write(path string, write func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			err = fmt.Errorf("writing %s: %w", path, err)
		}
	}()
	if err = write(tmp); err != nil {
		return err
	}
	if err = tmp.Chmod(0o644); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// WriteFile writes data to path, creating its directory if needed.
func WriteFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// MkdirAll creates dir and its missing parents, as os.MkdirAll, and
// returns the folders it created, deepest first: what RemoveEmpty takes
// away again after a run that wrote nothing there.
func MkdirAll(dir string) ([]string, error) {
	var created []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || filepath.Dir(d) == d {
			break
		}
		created = append(created, d)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return created, nil
}

// RemoveEmpty removes the folders MkdirAll created, deepest first, while
// they are empty: a folder that holds anything stays, and so do its
// parents.
func RemoveEmpty(created []string) {
	for _, d := range created {
		if os.Remove(d) != nil {
			return
		}
	}
}
