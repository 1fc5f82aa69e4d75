package simulate_test

import (
	"os"
	"testing"

	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate"
)

const realdata = "../../shared/realdata"

// realSessions loads every session of ../shared/realdata, or skips.
func realSessions(t testing.TB) []*replay.Session {
	t.Helper()
	if _, err := os.Stat(realdata); err != nil {
		t.Skip("no ../shared/realdata")
	}
	srcs, errs := replay.Discover([]string{realdata})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var out []*replay.Session
	for _, src := range srcs {
		s, err := replay.Load(src, replay.Options{})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

func mustParse(t testing.TB, spec string) simulate.Policy {
	t.Helper()
	p, err := policies.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRealdataFidelity is the replay issue's bar: under observed every
// main-thread prompt equals the recorded one and the cache model's reads and
// writes come close to the recorded totals; under claude-code the first
// auto-compaction fires at the same call as the real one.
func TestRealdataFidelity(t *testing.T) {
	for _, s := range realSessions(t) {
		tr := simulate.Prepare(s)
		res := simulate.Run(tr, mustParse(t, "observed"), simulate.DefaultConfig())
		var recRead, recWrite, simRead, simWrite int64
		for i, c := range res.Calls {
			if c.Prompt != c.Recorded {
				t.Errorf("%s call %d: prompt %d, recorded %d", s.ID, c.Call, c.Prompt, c.Recorded)
			}
			u := tr.Calls[i].Usage
			recRead += u.CacheRead
			recWrite += u.CacheWrite()
			simRead += c.Read
			simWrite += c.Write5m + c.Write1h
		}
		// Sessions through a gateway that reports no cache writes, and
		// sessions of a few calls, say little about the cache model.
		if recWrite == 0 || len(res.Calls) < 40 {
			continue
		}
		traffic := float64(recRead + recWrite)
		readErr := float64(simRead-recRead) / float64(recRead)
		trafficErr := float64(abs(simRead-recRead)+abs(simWrite-recWrite)) / traffic
		t.Logf("%-40s calls %3d  read %+.1f%%  read+write %.1f%% of cache traffic", s.ID, len(res.Calls), 100*readErr, 100*trafficErr)
		if readErr > 0.06 || readErr < -0.06 || trafficErr > 0.12 {
			t.Errorf("%s: cache read error %.1f%%, read+write error %.1f%% of the cache traffic", s.ID, 100*readErr, 100*trafficErr)
		}
	}
}

func TestRealdataFirstAutoCompaction(t *testing.T) {
	checked := 0
	for _, s := range realSessions(t) {
		real := 0
		for _, c := range s.Main.Compactions {
			if c.Kind != replay.CompactMicro {
				real = c.CallsBefore + 1
				break
			}
		}
		// Only sessions that compacted at a call we can compare: after the
		// first call, and by Claude Code itself (not /compact). 1.0.x files
		// do not record the trigger; their compactions came at the threshold.
		if real <= 1 || s.Main.Compactions[0].Trigger == "manual" {
			continue
		}
		res := simulate.Run(simulate.Prepare(s), mustParse(t, "claude-code"), simulate.DefaultConfig())
		if got := res.Metrics.FirstCompaction; got != real {
			t.Errorf("%s: first simulated auto-compaction before call %d, real one before call %d", s.ID, got, real)
		}
		checked++
	}
	if checked != 4 {
		t.Errorf("compared %d sessions, want the 4 that auto-compacted", checked)
	}
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
