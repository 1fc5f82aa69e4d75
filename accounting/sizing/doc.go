// Package sizing sizes a thread's messages in tokens as the API counted
// them: each call's recorded prompt grew by exactly what was appended
// since, and that growth is split among the appended blocks by Claude
// Code's own estimate of each (SizeThread). Where no growth can be used,
// blocks are sized at the thread's calibrated ratio of tokens to estimate
// (AtRatio), or by the estimate alone without usage (MethodEstimate).
//
// The token accounting (accounting) and the simulator (simulate) are both
// built on it; it imports replay and internal/claudecode alone. See
// docs/simulation.md, "Sizes: exact where the transcript allows".
package sizing
