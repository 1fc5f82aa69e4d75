//go:build unix

package replay

import (
	"io/fs"
	"os"
	"syscall"
)

// openFile opens a transcript for reading. os.Open offers every file it
// opens to the runtime's network poller: on Linux that is four fcntl calls
// and an epoll_ctl that fails for a regular file, five system calls of
// about 1.5 µs each on a virtual machine, for every one of a corpus's
// thousand files. A descriptor opened here and wrapped by os.NewFile is
// never offered (os.NewFile asks one fcntl), and reads the same way:
// a regular file is never pollable.
func openFile(path string) (*os.File, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		switch err {
		case nil:
			return os.NewFile(uintptr(fd), path), nil
		case syscall.EINTR:
			continue
		}
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
}
