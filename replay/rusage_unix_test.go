//go:build unix

package replay

import (
	"syscall"
	"time"
)

// cpuTime returns the processor time (user and system) the process has
// used so far, or 0 when unknown.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
