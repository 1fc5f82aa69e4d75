//go:build !linux

package main

// adviseHugePages does nothing where transparent huge pages are not a
// Linux madvise away.
func adviseHugePages([]byte) bool { return false }
