package claudecode

import "github.com/ctxlab/ctxlab/replay"

// Claude Code's size-based micro-compaction (microCompactToolResults in
// its bundled cli.js, 2.1.7): past the warning level it clears the oldest
// results of the CompactableTools, keeping the last MicroKeep, while the
// rest exceed MicroTarget, when that frees at least MicroMinSavings, all
// by its estimate (length/4).
const (
	MicroKeep       = 3
	MicroTarget     = 40_000
	MicroMinSavings = 20_000
)

// MicroClears applies the size rule to the estimates of the compactable
// results, oldest first: all but the last keep may go, oldest first, while
// the rest exceed target. It returns how many go and what that frees.
func MicroClears(ests []int64, keep int, target int64) (n int, freed int64) {
	if len(ests) <= keep {
		return 0, 0
	}
	var total int64
	for _, e := range ests {
		total += e
	}
	for _, e := range ests[:len(ests)-keep] {
		if total-freed <= target {
			break
		}
		n++
		freed += e
	}
	return n, freed
}

// The versions that micro-compact by size: from MicroFrom until MicroUntil
// (exclusive). Real transcripts show microcompact_boundary lines in 2.1.x
// before the output reservation changed (ReservedNewFrom), and none in
// 1.0, 2.0 or from 2.1.22 on.
const (
	MicroFrom  = "2.1.0"
	MicroUntil = ReservedNewFrom
)

// MicroBySize reports whether Claude Code of a version micro-compacts by
// size by default (MicroFrom, MicroUntil); an unknown version does not. A
// remotely set experiment flag can still turn it off, whatever the version.
func MicroBySize(version string) bool {
	return version != "" && replay.CompareVersions(version, MicroFrom) >= 0 && before(version, MicroUntil)
}

// CompactableTools are the tools whose results micro-compaction clears
// (COMPACTABLE_TOOLS in Claude Code's bundled cli.js, 2.1.7).
var CompactableTools = map[string]bool{
	"Read": true, "Bash": true, "Grep": true, "Glob": true,
	"WebSearch": true, "WebFetch": true, "Edit": true, "Write": true,
}

// Placeholder is what a cleared tool result becomes in Claude Code's
// micro-compaction.
const Placeholder = "[Old tool result content cleared]"
