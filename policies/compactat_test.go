package policies

import "testing"

// TestCompactAt pins the threshold each policy's run records
// (simulate.Result.CompactAt), computed by hand for the harness's model
// and version: Sonnet 4.5 at 2.1.146, window 200,000, 20,000 reserved
// (available 180,000), buffer 13,000, so Claude Code's auto-compact
// threshold is 167,000.
func TestCompactAt(t *testing.T) {
	for _, c := range []struct {
		spec string
		want int64
	}{
		{"observed", 167_000},
		{"claude-code", 167_000},
		// ⌊180,000 × 60%⌋ = 108,000, below 167,000.
		{"claude-code:pct=60", 108_000},
		// The override can only lower the threshold.
		{"claude-code:pct=99", 167_000},
		// 2.1.19 reserves 32,000: 200,000 − 32,000 − 13,000.
		{"claude-code:version=2.1.19", 155_000},
		{"claude-code:buffer=50000", 130_000},
		{"claude-code:auto=false", 0},
		{"claude-code-sm", 167_000},
		{"claude-code-sm:pct=50", 90_000},
		{"partial:pct=50", 90_000},
		{"partial", 167_000},
		// 80% of the 200,000 window; 50% of a 10,000 one.
		{"threshold", 160_000},
		{"threshold:pct=50,window=10000", 5_000},
		// A composition compacts at the lowest of its parts' thresholds.
		{"keep-last-n:n=5+claude-code", 167_000},
		{"threshold:pct=50+claude-code", 100_000},
		{"claude-code+threshold:pct=90", 167_000},
		// A part without a threshold does not lower it.
		{"threshold:pct=50+claude-code:auto=false", 100_000},
		// Policies that never compact by a threshold of context.
		{"none", 0},
		{"keep-last-n:n=5", 0},
		{"context-editing", 0},
		{"budget", 0},
		{"summary-nm", 0},
		{"keep-last-n:n=5+context-editing", 0},
	} {
		if got := run(t, c.spec, reads(1000, 1000)).CompactAt; got != c.want {
			t.Errorf("%s: CompactAt %d, want %d", c.spec, got, c.want)
		}
	}
}

// TestCompactAtAutoCompactOff: a session whose recorded prompts show
// auto-compaction off has no threshold under observed or claude-code.
func TestCompactAtAutoCompactOff(t *testing.T) {
	for _, spec := range []string{"observed", "claude-code", "claude-code-sm"} {
		tr := reads(1000)
		tr.Inferred.AutoCompactOff = true
		if got := run(t, spec, tr).CompactAt; got != 0 {
			t.Errorf("%s: CompactAt %d with auto-compaction off, want 0", spec, got)
		}
	}
	// partial compacts by itself: the session's setting does not apply.
	tr := reads(1000)
	tr.Inferred.AutoCompactOff = true
	if got := run(t, "partial:pct=50", tr).CompactAt; got != 90_000 {
		t.Errorf("partial:pct=50: CompactAt %d with auto-compaction off, want 90000", got)
	}
}
