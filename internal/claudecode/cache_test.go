package claudecode

import "testing"

func TestMinCacheable(t *testing.T) {
	for model, want := range map[string]int64{
		"claude-opus-4-6": 4096, "claude-opus-4-5-20251101": 4096, "claude-haiku-4-5-20251001": 4096,
		"claude-3-5-haiku-20241022": 2048, "claude-sonnet-4-5-20250929": 1024, "claude-opus-4-1-20250805": 1024,
	} {
		if got := MinCacheableTokens(DefaultMinCacheable(), model); got != want {
			t.Errorf("%s: %d, want %d", model, got, want)
		}
	}
}

// A table's first matching row wins; a model no row matches takes the
// default.
func TestMinCacheableTable(t *testing.T) {
	table := []MinPrefix{{"sonnet-4-5", 10}, {"sonnet", 20}}
	for model, want := range map[string]int64{"claude-sonnet-4-5": 10, "claude-sonnet-4": 20, "claude-opus-4-1": MinCacheableOther.Value} {
		if got := MinCacheableTokens(table, model); got != want {
			t.Errorf("%s: %d, want %d", model, got, want)
		}
	}
	if got := MinCacheableTokens(nil, "claude-haiku-4-5"); got != 1024 {
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
	if BreakMinFraction.Value != 0.05 || BreakMinTokens.Value != 2000 {
		t.Errorf("break detector: %v, %d", BreakMinFraction.Value, BreakMinTokens.Value)
	}
}
