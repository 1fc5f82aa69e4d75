//go:build !linux

package batch

// adviseHugePages refuses where transparent huge pages are not a Linux
// madvise away.
func adviseHugePages([]byte) bool { return false }

// thpMode is "": no Linux transparent huge pages here.
func thpMode() string { return "" }
