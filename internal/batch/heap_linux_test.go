package batch

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"
)

// TestAdviseHugePages checks that the block's mapping carries the kernel's
// huge-page advice (VmFlags "hg" in /proc/self/smaps) after adviseHugePages.
func TestAdviseHugePages(t *testing.T) {
	if m := thpMode(); m == "" || m == "never" {
		t.Skip("no transparent huge pages on this kernel")
	}
	b := make([]byte, 8<<20)
	if !adviseHugePages(b) {
		t.Fatal("adviseHugePages refused where transparent huge pages are enabled")
	}
	addr := uintptr(unsafe.Pointer(&b[4<<20]))
	flags, err := vmFlags(addr)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("mapping of the block has VmFlags %q, want hg (MADV_HUGEPAGE)", flags)
	}
}

// vmFlags returns the VmFlags line of the mapping in /proc/self/smaps that
// holds addr.
func vmFlags(addr uintptr) (string, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return "", err
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 {
			in = lo <= addr && addr < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmFlags:")), nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("no mapping in /proc/self/smaps holds %#x", addr)
}
