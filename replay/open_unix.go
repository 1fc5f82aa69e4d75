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

// readHead reads the start of the file at path into buf in one read
// system call, the file opened and closed as openFile opens it, without
// an os.File: it returns how much it read.
func readHead(path string, buf []byte) (int, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	for err == syscall.EINTR {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	}
	if err != nil {
		return 0, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	for {
		n, err := syscall.Read(fd, buf)
		if err != syscall.EINTR {
			return max(n, 0), err
		}
	}
}
