package claudecode

import "testing"

func TestShortModel(t *testing.T) {
	for in, want := range map[string]string{
		"claude-haiku-4-5-20251001":    "haiku-4-5",
		"claude-sonnet-4-5-20250929":   "sonnet-4-5",
		"claude-opus-4-6":              "opus-4-6",
		"claude-opus-4-6[1m]":          "opus-4-6[1m]",
		"claude-opus-4-6-20250101[1m]": "opus-4-6[1m]",
		"claude-3-opus-20240229":       "3-opus",
		"claude-3-5-haiku-20241022":    "3-5-haiku",
		"claude-instant-1.2":           "instant-1.2",
		"claude-9":                     "9",
		"claude-0-20250101":            "0",
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

// TestParseModel reads model ids into their parts: the family is the price
// table's key, the id without its date and "[1m]".
func TestParseModel(t *testing.T) {
	for _, tc := range []struct {
		id   string
		want Model
	}{
		{"claude-sonnet-4-5-20250929", Model{Family: "claude-sonnet-4-5", Date: "20250929", Claude: true}},
		{"claude-sonnet-4-20250514", Model{Family: "claude-sonnet-4", Date: "20250514", Claude: true}},
		{"claude-opus-4-1-20250805", Model{Family: "claude-opus-4-1", Date: "20250805", Claude: true}},
		{"claude-haiku-4-5-20251001", Model{Family: "claude-haiku-4-5", Date: "20251001", Claude: true}},
		{"claude-opus-4-6", Model{Family: "claude-opus-4-6", Claude: true}},
		{"claude-opus-4-6[1m]", Model{Family: "claude-opus-4-6", Long: true, Claude: true}},
		{"claude-sonnet-4-5-20250929[1m]", Model{Family: "claude-sonnet-4-5", Date: "20250929", Long: true, Claude: true}},
		{"claude-3-5-sonnet-20241022", Model{Family: "claude-3-5-sonnet", Date: "20241022", Claude: true}},
		{"claude-instant-1.2", Model{Family: "claude-instant-1.2", Claude: true}},
		{"claude-x-202509", Model{Family: "claude-x-202509"}},                     // 6 digits: not a date
		{"claude-opus-4.6-1m", Model{Family: "claude-opus-4.6-1m", Claude: true}}, // a gateway's id: not Claude Code's mark
		{"claude-opus-4.6-fast", Model{Family: "claude-opus-4.6-fast", Claude: true}},
		// "[1m]" anywhere is the mark (Claude Code tests that the id
		// includes it); only a trailing one leaves the family.
		{"claude-opus[1m]-x", Model{Family: "claude-opus[1m]-x", Long: true, Claude: true}},
		{"-20250101", Model{Family: "-20250101"}},            // nothing before the date
		{"x-20250101", Model{Family: "x", Date: "20250101"}}, // a date on any id
		{"us.anthropic.claude-sonnet-4-5-20250929-v1:0", Model{Family: "us.anthropic.claude-sonnet-4-5-20250929-v1:0"}},
		{"<synthetic>", Model{Family: "<synthetic>"}},
		{"deepseek-v4-pro", Model{Family: "deepseek-v4-pro"}},
		{"claude-code", Model{Family: "claude-code"}},
		{"", Model{}},
	} {
		if got := ParseModel(tc.id); got != tc.want {
			t.Errorf("ParseModel(%q) = %+v, want %+v", tc.id, got, tc.want)
		}
		if got := ModelFamily(tc.id); got != tc.want.Family {
			t.Errorf("ModelFamily(%q) = %q, want %q", tc.id, got, tc.want.Family)
		}
	}
}
