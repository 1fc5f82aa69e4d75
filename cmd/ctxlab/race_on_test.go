//go:build race

package main

// raceEnabled: the race detector slows a run five to ten times, so the
// tests that run commands over every genuine transcript run them over
// fewer under it (the detector checks the concurrency, which is the same).
const raceEnabled = true
