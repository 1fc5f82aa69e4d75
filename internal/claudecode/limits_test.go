package claudecode

import "testing"

func TestLimitsFor(t *testing.T) {
	tests := []struct {
		name    string
		p       LimitParams
		model   string
		version string
		want    Limits
	}{
		// 200K − 32K = 168K available; −13K = 155K threshold; −20K = 135K warning; 200K − 3K blocking.
		{"2.0.76", LimitParams{}, "claude-sonnet-4-5-20250929", "2.0.76",
			Limits{Window: 200_000, Reserved: 32_000, Available: 168_000, Threshold: 155_000, Warning: 135_000, Blocking: 197_000}},
		// 2.1.21 still reserves 32K; 2.1.22 reserves 20K: 180K, 167K, 147K.
		{"2.1.21", LimitParams{}, "claude-opus-4-6", "2.1.21",
			Limits{Window: 200_000, Reserved: 32_000, Available: 168_000, Threshold: 155_000, Warning: 135_000, Blocking: 197_000}},
		{"2.1.146", LimitParams{}, "claude-opus-4-6", "2.1.146",
			Limits{Window: 200_000, Reserved: 20_000, Available: 180_000, Threshold: 167_000, Warning: 147_000, Blocking: 197_000}},
		// [1m]: 1M − 20K = 980K; 967K; 947K; 997K.
		{"1m", LimitParams{}, "claude-sonnet-4-5[1m]", "2.1.146",
			Limits{Window: 1_000_000, Reserved: 20_000, Available: 980_000, Threshold: 967_000, Warning: 947_000, Blocking: 997_000}},
		// A gateway's "-1m" is not Claude Code's mark: 200K.
		{"-1m", LimitParams{}, "claude-opus-4.6-1m", "2.1.63",
			Limits{Window: 200_000, Reserved: 20_000, Available: 180_000, Threshold: 167_000, Warning: 147_000, Blocking: 197_000}},
		// pct 50: floor(180K × 0.5) = 90K < 167K; warning 70K.
		{"pct lowers", LimitParams{Pct: 50}, "claude-opus-4-6", "2.1.146",
			Limits{Window: 200_000, Reserved: 20_000, Available: 180_000, Threshold: 90_000, Warning: 70_000, Blocking: 197_000}},
		// pct 99: floor(178,200) > 167K, so 167K stands: the override never raises.
		{"pct cannot raise", LimitParams{Pct: 99}, "claude-opus-4-6", "2.1.146",
			Limits{Window: 200_000, Reserved: 20_000, Available: 180_000, Threshold: 167_000, Warning: 147_000, Blocking: 197_000}},
		// Auto-compaction off: the warning comes from the available window, 180K − 20K.
		{"auto off", LimitParams{AutoCompactOff: true}, "claude-opus-4-6", "2.1.146",
			Limits{Window: 200_000, Reserved: 20_000, Available: 180_000, Threshold: 167_000, Warning: 160_000, Blocking: 197_000, AutoCompactOff: true}},
	}
	for _, tt := range tests {
		if got := LimitsFor(tt.p, tt.model, tt.version); got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// TestCountsFinalOutput: the versions whose count has a response's final
// output, by the cut-offs of their bundled cli.js: up to 2.1.7 (the SDK's
// message stream updates the message in place) and from 2.1.30 (the last
// message takes message_delta's usage); an unknown version counts as the
// newest.
func TestCountsFinalOutput(t *testing.T) {
	for v, want := range map[string]bool{
		"1.0.62": true, "1.0.85": true, "2.0.76": true, "2.1.7": true,
		"2.1.8": false, "2.1.19": false, "2.1.29": false,
		"2.1.30": true, "2.1.41": true, "2.1.146": true, "": true,
	} {
		if got := CountsFinalOutput(v, FinalOutputHeld.Until, FinalOutput.From); got != want {
			t.Errorf("CountsFinalOutput(%q) = %v, want %v", v, got, want)
		}
	}
	// "0" and "99" turn either side off.
	if CountsFinalOutput("1.0.85", "0", FinalOutput.From) || CountsFinalOutput("2.1.41", FinalOutputHeld.Until, "99") {
		t.Error(`until "0" or from "99" still counts the final output`)
	}
}

// TestCountRulesFor: the weights of Claude Code's estimate by version, as
// its bundled cli.js gives them (images 1,334 until 2.1.38; attachments
// nothing until 2.1.33, their JSON until 2.1.45; documents and other
// blocks nothing until 2.1.74), an unknown version taking the newest, and
// cut-offs that turn each rule on or off.
func TestCountRulesFor(t *testing.T) {
	for _, c := range []struct {
		version string
		cut     CountCutoffs
		want    CountRules
	}{
		{"1.0.85", CountCutoffs{}, CountRules{Image: 1334}},
		{"2.1.2", CountCutoffs{}, CountRules{Image: 1334}},
		{"2.1.32", CountCutoffs{}, CountRules{Image: 1334}},
		{"2.1.33", CountCutoffs{}, CountRules{Image: 1334, Attachment: AttachmentByJSON}},
		{"2.1.37", CountCutoffs{}, CountRules{Image: 1334, Attachment: AttachmentByJSON}},
		{"2.1.38", CountCutoffs{}, CountRules{Image: 2000, Attachment: AttachmentByJSON}},
		{"2.1.44", CountCutoffs{}, CountRules{Image: 2000, Attachment: AttachmentByJSON}},
		{"2.1.45", CountCutoffs{}, CountRules{Image: 2000, Attachment: AttachmentBySent}},
		{"2.1.73", CountCutoffs{}, CountRules{Image: 2000, Attachment: AttachmentBySent}},
		{"2.1.74", CountCutoffs{}, CountRules{Image: 2000, Attachment: AttachmentBySent, AllBlocks: true}},
		{"2.1.146", CountCutoffs{}, CountRules{Image: 2000, Attachment: AttachmentBySent, AllBlocks: true}},
		{"", CountCutoffs{}, CountRules{Image: 2000, Attachment: AttachmentBySent, AllBlocks: true}},
		{"2.1.146", CountCutoffs{"99", "99", "99", "99"}, CountRules{Image: 1334}},
		{"1.0.85", CountCutoffs{"0", "0", "99", "0"}, CountRules{Image: 2000, Attachment: AttachmentByJSON, AllBlocks: true}},
	} {
		if got := CountRulesFor(c.version, c.cut); got != c.want {
			t.Errorf("CountRulesFor(%q, %+v) = %+v, want %+v", c.version, c.cut, got, c.want)
		}
	}
}

// TestResultLimitFor pins the characters of a tool result each version
// sends whole: nothing is saved before 2.1.2; Bash, Grep and WebFetch have
// their own limits; the others 400,000 up to 2.1.5 and 100,000 from 2.1.6
// (the bundled cli.js of 2.1.2, 2.1.5, 2.1.6 and 2.1.50).
func TestResultLimitFor(t *testing.T) {
	for _, c := range []struct {
		version, tool, from string
		want                int
	}{
		{"2.0.76", "Read", "", 0},
		{"2.1.1", "Bash", "", 0},
		{"2.1.2", "Bash", "", 30_000},
		{"2.1.2", "Grep", "", 20_000},
		{"2.1.5", "WebFetch", "", 100_000},
		{"2.1.5", "Read", "", 400_000},
		{"2.1.5", "mcp__github__search_issues", "", 400_000},
		{"2.1.6", "Read", "", 100_000},
		{"2.1.50", "mcp__github__search_issues", "", 100_000},
		{"2.1.50", "Bash", "", 30_000},
		{"", "Read", "", 100_000},
		{"2.1.6", "Read", "2.1.7", 0}, // a cut-off moved later
		{"2.0.76", "Read", "2.0.0", 400_000},
	} {
		if got := ResultLimitFor(c.version, c.tool, c.from); got != c.want {
			t.Errorf("ResultLimitFor(%q, %q, %q) = %d, want %d", c.version, c.tool, c.from, got, c.want)
		}
	}
}
