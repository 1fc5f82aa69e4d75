package batch

import (
	"os"

	"golang.org/x/sys/unix"
)

// adviseHugePages asks the kernel to back b with transparent huge pages.
// It reports false when the kernel refuses (built without them).
func adviseHugePages(b []byte) bool {
	return unix.Madvise(b, unix.MADV_HUGEPAGE) == nil
}

// thpMode is the kernel's transparent huge page mode: "always",
// "madvise", "never", or "" when it cannot be read.
func thpMode() string {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil {
		return ""
	}
	return selected(string(b))
}
