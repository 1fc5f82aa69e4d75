//go:build !unix

package main

import "time"

// peakRSS is unknown here.
func peakRSS() int64 { return 0 }

// cpuTime is unknown here.
func cpuTime() time.Duration { return 0 }
