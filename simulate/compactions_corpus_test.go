package simulate_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/ctxlab/ctxlab/internal/testcorpus"
	"github.com/ctxlab/ctxlab/internal/testcorpus/corpusload"
)

// TestCalibration3Compactions pins, as compare --fidelity reads the third
// calibration set (replay.MarkContinued included), where each session
// first auto-compacted and how many /compacts it ran that claude-code
// replayed. Eleven sessions used to report an auto-compaction that never
// happened: nine /compacts at 28,495–155,929 tokens (1c9d699c, 0af08ee9,
// 148797c7, 65fdb7e8, e4a3ff6d, 4cb5e2f3; after the last call 0c8e4d02,
// 4e55affd, a257e3ab), and two summaries made in another file
// (336e4887's resumed copy after its first call; 731e5913, which the
// next file of its conversation copies from its start).
func TestCalibration3Compactions(t *testing.T) {
	type row struct{ auto, manual, replayed int }
	got := map[string]row{}
	for _, s := range corpusload.Marked(t, testcorpus.Calibration3) {
		f := fidelityRun(t, s).row
		if r := (row{f.RealAutoCompaction, f.ManualCompactions, f.ManualReplayed}); r != (row{}) {
			got[s.ID[:8]] = r
		}
	}
	want := map[string]row{
		// Claude Code's own, at its threshold (2.0.76–2.1.19, 1.0.84–1.0.96).
		"0637ce71": {5, 0, 0}, "32ac3cae": {74, 0, 0}, "4a0dc817": {36, 0, 0}, "550f647e": {38, 0, 0},
		"f902560e": {68, 0, 0}, "1270d67e": {120, 0, 0}, "63bff843": {151, 0, 0}, "7eb3ce7b": {161, 0, 0},
		"8c69c2fb": {144, 0, 0}, "f1d9485a": {64, 0, 0}, "16a28c10": {164, 0, 0},
		// An auto-compaction, then a /compact after the last call.
		"92ca1900": {111, 1, 0}, "bf4237eb": {112, 1, 0}, "372c5936": {84, 1, 0},
		// /compacts only: replayed, or after the last call.
		"1c9d699c": {0, 1, 1}, "0af08ee9": {0, 2, 2}, "148797c7": {0, 1, 1}, "65fdb7e8": {0, 1, 1},
		"e4a3ff6d": {0, 1, 1}, "4cb5e2f3": {0, 1, 1},
		"0c8e4d02": {0, 1, 0}, "4e55affd": {0, 1, 0}, "a257e3ab": {0, 1, 0},
	}
	if !maps.Equal(got, want) {
		for _, id := range slices.Sorted(maps.Keys(got)) {
			if got[id] != want[id] {
				t.Errorf("%s: %+v, want %+v", id, got[id], want[id])
			}
		}
		for id := range want {
			if _, ok := got[id]; !ok {
				t.Errorf("%s: none, want %+v", id, want[id])
			}
		}
	}
}
