package simulate_test

import (
	"testing"

	"github.com/ctxlab/ctxlab/internal/testcorpus"
	"github.com/ctxlab/ctxlab/internal/testcorpus/corpusload"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/fidelity"
)

// TestRestoreCounted pins what claude-code re-attaches after the first
// auto-compaction of the 1.0.x sessions the per-file limit on the API's
// count brought within 10% (claudecode.RestoreCounted): before 2.1.6 the
// limit is checked on the file's tokens at the session's tokens per unit
// of estimate, when its estimate is above a quarter of the limit.
//
//   - 7eb3ce7b (1.0.95, 1.73 tokens per unit): of its five newest files,
//     TheoreticalStockOnHandManager.cs (4,872 by the estimate, 8,429
//     counted) and fifo.md (3,400, 5,882) are over 5,000 and come back as
//     notes (114 and 99), as does the file of 8,485 (113); the two
//     .dag.json files come back whole (2,823 and 2,921); the todo list
//     483: 6,553. Recorded 44,256; by the estimate alone it was 57,809.
//   - 92ca1900 (1.0.84, 1.56): UpdateBuilder.cs (6,581, 10,266 counted)
//     is over 1.0.84's 10,000 and, at 507 lines, has no first 2,000 lines
//     to fall back to: nothing. The other four (1,416, 4,506, 6,375, 570)
//     and the todo list (298): 13,165. Recorded 29,591; 42,001 before.
//   - 5f2d5220 (1.0.89, 1.45): learning_orchestrator_bridge.py (4,011,
//     5,816 counted) joins the two files over 5,000 as a note (94, 94,
//     93); the two small files (721, 4,807) and the todo list (259):
//     6,068. Recorded 34,461; 43,113 before.
func TestRestoreCounted(t *testing.T) {
	for _, c := range []struct {
		dir, id             string
		real, sim, restored int64
	}{
		{testcorpus.Calibration3, "7eb3ce7b-3f5c-4a5a-9110-b3542712a058", 44256, 41938, 6553},
		{testcorpus.Calibration3, "92ca1900-c86a-4344-9c5a-4ddacaad6e4e", 29591, 30051, 13165},
		{testcorpus.Realdata, "5f2d5220-e018-4795-8fcb-23e42b068058", 34461, 36208, 6068},
	} {
		found := false
		for _, s := range corpusload.Sessions(t, c.dir) {
			if s.ID != c.id {
				continue
			}
			found = true
			tr := simulate.Prepare(s)
			obs := simulate.Run(tr, mustParse(t, "observed"), simulate.DefaultConfig())
			cc := simulate.Run(tr, mustParse(t, "claude-code"), simulate.DefaultConfig())
			f := fidelity.New(s, tr, obs, cc, fidelity.DefaultTolerances())
			if f.RealPostCompactionPrompt != c.real || f.SimulatedPostCompactionPrompt != c.sim || cc.Compacted.Restored != c.restored {
				t.Errorf("%s: prompt after the first auto-compaction %d recorded, %d simulated, %d re-attached; want %d, %d, %d",
					c.id, f.RealPostCompactionPrompt, f.SimulatedPostCompactionPrompt, cc.Compacted.Restored, c.real, c.sim, c.restored)
			}
		}
		if !found {
			t.Errorf("%s: no session %s", c.dir, c.id)
		}
	}
}
