package claudecode

import (
	"cmp"
	"strconv"
)

// VersionOrder is how Claude Code's versions follow one another: the
// version field of a transcript's lines, as npm publishes
// @anthropic-ai/claude-code, is dotted whole numbers, compared part by
// part (2.1.9 before 2.1.41, 2.1 the same as 2.1.0).
var VersionOrder = Fact{
	Name:   "VersionOrder",
	Doc:    "versions are dotted whole numbers, compared part by part: 2.1.9 before 2.1.41 (CompareVersions)",
	Source: "the version field of every transcript line; the versions npm lists for @anthropic-ai/claude-code",
}

// CompareVersions compares dotted numeric versions ("2.1.9" < "2.1.41"):
// -1, 0 or 1. Missing or non-numeric parts count as 0, so "" is before
// every version but "0".
func CompareVersions(a, b string) int {
	// The parts both spell alike compare equal: skip them, so that a
	// version against a cut-off of the same release (2.1.41 against
	// 2.1.7) reads one part each (Before runs at every call of every
	// simulation).
	if a == b {
		return 0
	}
	same := 0
	for i := 0; i < len(a) && i < len(b) && a[i] == b[i]; i++ {
		if a[i] == '.' {
			same = i + 1
		}
	}
	a, b = a[same:], b[same:]
	for a != "" || b != "" {
		var nx, ny int
		nx, a = nextVersionPart(a)
		ny, b = nextVersionPart(b)
		if nx != ny {
			return cmp.Compare(nx, ny)
		}
	}
	return 0
}

// AtLeast reports whether version is known and not before from.
func AtLeast(version, from string) bool {
	return version != "" && CompareVersions(version, from) >= 0
}

// Before reports whether version is known and before until.
func Before(version, until string) bool {
	return version != "" && CompareVersions(version, until) < 0
}

// versionPart is strconv.Atoi(p), or 0 when p is not a number, without
// Atoi's error for the usual short run of digits (CompareVersions runs for
// every call of every simulation).
func versionPart(p string) int {
	n := 0
	for i := 0; i < len(p); i++ {
		if c := p[i]; c >= '0' && c <= '9' && len(p) < 10 {
			n = n*10 + int(c-'0')
			continue
		}
		n, _ = strconv.Atoi(p) // signs, other characters, overflow
		return n
	}
	return n
}

// nextVersionPart splits v at its first dot (as strings.Cut) and reads the
// part before it.
func nextVersionPart(v string) (n int, rest string) {
	for i := 0; i < len(v); i++ {
		if v[i] == '.' {
			return versionPart(v[:i]), v[i+1:]
		}
	}
	return versionPart(v), ""
}
