//go:build !unix

package replay

import "os"

// openFile opens a transcript for reading.
func openFile(path string) (*os.File, error) {
	return os.Open(path)
}
