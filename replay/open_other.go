//go:build !unix

package replay

import (
	"io"
	"os"
)

// openFile opens a transcript for reading.
func openFile(path string) (*os.File, error) {
	return os.Open(path)
}

// readHead reads the start of the file at path into buf in one read:
// it returns how much it read.
func readHead(path string, buf []byte) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	n, err := f.Read(buf)
	if err == io.EOF {
		err = nil
	}
	return n, err
}
