package main

import "golang.org/x/sys/unix"

// adviseHugePages asks the kernel to back b with transparent huge pages.
// It reports false when the kernel refuses (built without them).
func adviseHugePages(b []byte) bool {
	return unix.Madvise(b, unix.MADV_HUGEPAGE) == nil
}
