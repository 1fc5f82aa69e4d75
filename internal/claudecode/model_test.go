package claudecode

import "testing"

func TestShortModel(t *testing.T) {
	for in, want := range map[string]string{
		"claude-haiku-4-5-20251001":  "haiku-4-5",
		"claude-sonnet-4-5-20250929": "sonnet-4-5",
		"claude-opus-4-6":            "opus-4-6",
		"claude-opus-4-6[1m]":        "opus-4-6[1m]",
		"claude-3-opus-20240229":     "3-opus",
		"claude-3-5-haiku-20241022":  "3-5-haiku",
		"claude-instant-1.2":         "instant-1.2",
		"claude-9":                   "9",
		"claude-0-20250101":          "0",
		// Not a release date: seven or nine digits, or not digits.
		"claude-opus-4-2025100":   "opus-4-2025100",
		"claude-opus-4-202510011": "opus-4-202510011",
		"claude-opus-4-2025100x":  "opus-4-2025100x",
		// Not a Claude model id.
		"claude-code":         "claude-code",
		"claude-code:pct=80":  "claude-code:pct=80",
		"claude-":             "claude-",
		"claude-a-20250101":   "claude-a-20250101",
		"claude-/-20250101":   "claude-/-20250101",
		"claude-:":            "claude-:",
		"gpt-5":               "gpt-5",
		"deepseek-v4-pro":     "deepseek-v4-pro",
		"anthropic/claude-3":  "anthropic/claude-3",
		"<synthetic>":         "<synthetic>",
		"":                    "",
		"sonnet-4-5-20250929": "sonnet-4-5-20250929",
	} {
		if got := ShortModel(in); got != want {
			t.Errorf("ShortModel(%q) = %q, want %q", in, got, want)
		}
	}
}
