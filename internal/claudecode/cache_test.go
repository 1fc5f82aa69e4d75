package claudecode

import "testing"

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
