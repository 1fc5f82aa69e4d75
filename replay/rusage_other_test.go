//go:build !unix

package replay

import "time"

// cpuTime is unknown here.
func cpuTime() time.Duration { return 0 }
