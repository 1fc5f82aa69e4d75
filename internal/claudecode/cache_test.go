package claudecode

import (
	"testing"
	"time"
)

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

// TestBreakRule pins Claude Code's break rule at its bounds: a fall of
// more than 5% and more than 2,000 tokens breaks, either alone does not.
func TestBreakRule(t *testing.T) {
	r := DefaultBreakRule()
	if r != (BreakRule{BreakMinFraction: 0.05, BreakMinTokens: 2000}) {
		t.Fatalf("DefaultBreakRule = %+v", r)
	}
	for _, c := range []struct {
		prev, read int64
		want       bool
	}{
		{100_000, 94_999, true},  // 5,001: both above
		{100_000, 95_000, false}, // exactly 5%: not more
		{40_000, 37_999, true},   // 2,001 > 2,000 and > 5% (2,000)
		{40_000, 38_000, false},  // exactly 2,000
		{20_000, 17_999, true},   // 2,001, 10%
		{20_000, 18_000, false},  // 10%, but exactly 2,000
		{1_000_000, 990_000, false},
		{100_000, 100_000, false},
		{0, 0, false},
		{10_000, 20_000, false}, // a rise
	} {
		if got := r.IsBreak(c.prev, c.read); got != c.want {
			t.Errorf("IsBreak(%d, %d) = %v, want %v", c.prev, c.read, got, c.want)
		}
	}
	// A rule of 1% and 1,000 tokens.
	if r := (BreakRule{BreakMinFraction: 0.01, BreakMinTokens: 1000}); !r.IsBreak(100_000, 98_999) || r.IsBreak(100_000, 99_000) {
		t.Error("1% and 1,000 tokens")
	}
}

func TestCacheTTLs(t *testing.T) {
	if CacheTTL5m.Value != 5*time.Minute || CacheTTL1h.Value != time.Hour {
		t.Errorf("TTLs %v, %v", CacheTTL5m.Value, CacheTTL1h.Value)
	}
}
