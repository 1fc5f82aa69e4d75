package claudecode

import (
	"testing"

	"github.com/ctxlab/ctxlab/replay"
)

func TestMinCacheable(t *testing.T) {
	for model, want := range map[string]int64{
		"claude-opus-4-6": 4096, "claude-opus-4-5-20251101": 4096, "claude-haiku-4-5-20251001": 4096,
		"claude-3-5-haiku-20241022": 2048, "claude-sonnet-4-5-20250929": 1024, "claude-opus-4-1-20250805": 1024,
	} {
		if got := MinCacheable(DefaultMinCacheable(), model); got != want {
			t.Errorf("%s: %d, want %d", model, got, want)
		}
	}
}

// A table's first matching row wins; a model no row matches takes the
// default.
func TestMinCacheableTable(t *testing.T) {
	table := []MinPrefix{{"sonnet-4-5", 10}, {"sonnet", 20}}
	for model, want := range map[string]int64{"claude-sonnet-4-5": 10, "claude-sonnet-4": 20, "claude-opus-4-1": DefaultMinCacheableTokens} {
		if got := MinCacheable(table, model); got != want {
			t.Errorf("%s: %d, want %d", model, got, want)
		}
	}
	if got := MinCacheable(nil, "claude-haiku-4-5"); got != 1024 {
		t.Errorf("no table: %d, want 1024", got)
	}
}

func TestModelFacts(t *testing.T) {
	for _, c := range []struct {
		model                                string
		bills, excluded, long, dropsThinking bool
	}{
		{"claude-sonnet-4-20250514", true, false, true, true},
		{"claude-sonnet-4-5-20250929", true, false, true, true},
		{"claude-sonnet-4-6", true, false, true, false},
		{"claude-opus-4-6", true, false, true, false},
		{"claude-opus-4-5-20251101", true, false, false, false},
		{"claude-opus-4-1-20250805", true, false, false, true},
		{"claude-opus-4-20250514", true, false, false, true},
		{"claude-haiku-4-5-20251001", true, true, false, true},
		{"claude-3-5-haiku-20241022", true, true, false, true},
		{"claude-3-7-sonnet-20250219", true, false, false, true},
		{"us.anthropic.claude-sonnet-4-5-20250929-v1:0", true, false, true, true},
		{"deepseek-v4-pro", false, false, false, false},
		{"<synthetic>", false, false, false, false},
	} {
		if got := BillsCacheWrites(c.model); got != c.bills {
			t.Errorf("BillsCacheWrites(%s) = %v", c.model, got)
		}
		if got := BreakExcluded(c.model); got != c.excluded {
			t.Errorf("BreakExcluded(%s) = %v", c.model, got)
		}
		if got := OffersLongWindow(c.model); got != c.long {
			t.Errorf("OffersLongWindow(%s) = %v", c.model, got)
		}
		if got := DropsThinking(c.model); got != c.dropsThinking {
			t.Errorf("DropsThinking(%s) = %v", c.model, got)
		}
	}
	if BreakMinFraction != 0.05 || BreakMinTokens != 2000 {
		t.Errorf("break detector: %v, %d", BreakMinFraction, BreakMinTokens)
	}
}

// A thread continues a conversation when a full compaction comes before
// its first sent call; a micro-compaction there, or a compaction after it,
// does not make it one.
func TestContinues(t *testing.T) {
	full := replay.Compaction{Kind: replay.CompactFull}
	micro := replay.Compaction{Kind: replay.CompactMicro}
	at := func(c replay.Compaction, msg int) replay.Compaction { c.Msg = msg; return c }
	sent := func(msg int) replay.Call { return replay.Call{Msg: msg} }
	for _, c := range []struct {
		name string
		th   replay.Thread
		want bool
	}{
		{"summary first", replay.Thread{Calls: []replay.Call{sent(2)}, Compactions: []replay.Compaction{at(full, 0)}}, true},
		{"summary at the call's message", replay.Thread{Calls: []replay.Call{sent(2)}, Compactions: []replay.Compaction{at(full, 2)}}, true},
		{"summary after", replay.Thread{Calls: []replay.Call{sent(2)}, Compactions: []replay.Compaction{at(full, 3)}}, false},
		{"micro first", replay.Thread{Calls: []replay.Call{sent(2)}, Compactions: []replay.Compaction{at(micro, 0)}}, false},
		{"micro, then summary", replay.Thread{Calls: []replay.Call{sent(2)}, Compactions: []replay.Compaction{at(micro, 0), at(full, 1)}}, true},
		{"synthetic call first", replay.Thread{Calls: []replay.Call{{Msg: 1, Synthetic: true}, sent(4)}, Compactions: []replay.Compaction{at(full, 2)}}, true},
		{"no sent call", replay.Thread{Calls: []replay.Call{{Msg: 1, Synthetic: true}}, Compactions: []replay.Compaction{at(full, 0)}}, false},
		{"no call", replay.Thread{Compactions: []replay.Compaction{at(full, 0)}}, false},
	} {
		if got := Continues(&c.th); got != c.want {
			t.Errorf("%s: Continues = %v, want %v", c.name, got, c.want)
		}
	}
}
