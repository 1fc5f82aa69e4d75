package main

import "golang.org/x/sys/unix"

// adviseHugePages asks the kernel to back b with transparent huge pages
// and touches it once per huge page, so that each is mapped by one fault.
// It reports false, touching nothing, when the kernel refuses the advice
// (built without transparent huge pages).
func adviseHugePages(b []byte) bool {
	if unix.Madvise(b, unix.MADV_HUGEPAGE) != nil {
		return false
	}
	for i := 0; i < len(b); i += hugePage {
		b[i] = 1
	}
	return true
}
