package claudecode

// Claude Code's size-based micro-compaction (microCompactToolResults in
// its bundled cli.js, 2.1.7): past the warning level it clears the oldest
// results of the CompactableTools, keeping the last MicroKeep, while the
// rest exceed MicroTarget, when that frees at least MicroMinSavings, all
// by its estimate (length/4). Real transcripts show microcompact_boundary
// lines in 2.1.x before the output reservation changed (ReservedNew), and
// none in 1.0, 2.0 or from 2.1.22 on; a remotely set experiment flag can
// still turn it off, whatever the version.
var (
	MicroBySize = Fact{Name: "MicroBySize", From: "2.1.0", Until: ReservedNew.From,
		Doc:    "past the warning level, Claude Code clears the oldest compactable tool results by size (micro-compaction)",
		Source: "Claude Code 2.1.7's bundled cli.js (microCompactToolResults); microcompact_boundary lines"}
	MicroKeep = Value[int]{Fact{Name: "MicroKeep", From: MicroBySize.From, Until: MicroBySize.Until,
		Doc:    "the newest compactable results micro-compaction keeps",
		Source: "Claude Code 2.1.7's bundled cli.js (microCompactToolResults)"}, 3}
	MicroTarget = Value[int64]{Fact{Name: "MicroTarget", From: MicroBySize.From, Until: MicroBySize.Until,
		Doc:    "micro-compaction clears results while the rest exceed these tokens, by Claude Code's estimate",
		Source: "Claude Code 2.1.7's bundled cli.js (microCompactToolResults)"}, 40_000}
	MicroMinSavings = Value[int64]{Fact{Name: "MicroMinSavings", From: MicroBySize.From, Until: MicroBySize.Until,
		Doc:    "micro-compaction clears nothing unless it frees at least these tokens, by Claude Code's estimate",
		Source: "Claude Code 2.1.7's bundled cli.js (microCompactToolResults)"}, 20_000}
	CompactableTools = Value[[]string]{Fact{Name: "CompactableTools",
		Doc:    "the tools whose results micro-compaction clears",
		Source: "Claude Code 2.1.7's bundled cli.js (COMPACTABLE_TOOLS)"},
		[]string{"Read", "Bash", "Grep", "Glob", "WebSearch", "WebFetch", "Edit", "Write"}}
	Placeholder = Value[string]{Fact{Name: "Placeholder",
		Doc:    "what a tool result micro-compaction cleared becomes",
		Source: "Claude Code 2.1.7's bundled cli.js (microCompactToolResults)"}, "[Old tool result content cleared]"}
)

// compactable is CompactableTools as a set: the claude-code policy asks
// for every tool result of the context at every call.
var compactable = func() map[string]bool {
	set := map[string]bool{}
	for _, t := range CompactableTools.Value {
		set[t] = true
	}
	return set
}()

// Compactable reports whether micro-compaction clears the results of tool
// (CompactableTools).
func Compactable(tool string) bool { return compactable[tool] }

// MicroClears applies the size rule to the estimates of the compactable
// results, oldest first: all but the last keep may go, oldest first, while
// the rest exceed target. It returns how many go and what that frees.
func MicroClears(ests []int64, keep int, target int64) (n int, freed int64) {
	var total int64
	for _, e := range ests {
		total += e
	}
	for _, e := range ests[:max(len(ests)-keep, 0)] {
		if total-freed <= target {
			break
		}
		n++
		freed += e
	}
	return n, freed
}
