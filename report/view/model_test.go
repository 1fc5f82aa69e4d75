package view

import "testing"

// TestShortModels: each line's Claude model id in its short form, after
// the mark of a model's row; anything else as it is.
func TestShortModels(t *testing.T) {
	if got := shortModels("claude-haiku-4-5-20251001\nclaude-opus-4-6[1m]\ngpt-5\nclaude-code:pct=80\nclaude-3-opus-20240229\n└ claude-opus-4-1-20250805"); got != "haiku-4-5\nopus-4-6[1m]\ngpt-5\nclaude-code:pct=80\n3-opus\n└ opus-4-1" {
		t.Errorf("shortModels = %q", got)
	}
	for in, want := range map[string]string{
		"claude-x-20251001": "claude-x-20251001", "claude-9-20251001": "9", "claude-0x": "0x", "claude-:x": "claude-:x",
		"claude-opus-4-2025100": "opus-4-2025100", "claude-opus-4-2025100a": "opus-4-2025100a", "claude-opus-4x20251001": "opus-4x20251001",
		"claude-": "claude-",
	} {
		if got := shortModels(in); got != want {
			t.Errorf("shortModels(%q) = %q, want %q", in, got, want)
		}
	}
}
