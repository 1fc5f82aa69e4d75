package claudecode

import "testing"

// TestMicroClears checks the size rule at its bounds: nothing goes while
// the results are no more than keep, and clearing stops once the rest is
// at target (not one token above).
func TestMicroClears(t *testing.T) {
	for _, c := range []struct {
		name   string
		ests   []int64
		keep   int
		target int64
		n      int
		freed  int64
	}{
		{"no more than keep", []int64{50_000, 50_000, 50_000}, 3, 0, 0, 0},
		{"one past keep", []int64{50_000, 50_000, 50_000, 50_000}, 3, 0, 1, 50_000},
		{"rest at target", []int64{10, 20, 30, 40}, 1, 90, 1, 10},
		{"rest one above target", []int64{10, 20, 30, 40}, 1, 89, 2, 30},
		{"all within target", []int64{10, 20, 30, 40}, 1, 100, 0, 0},
		{"all but keep", []int64{10, 20, 30, 40}, 1, 0, 3, 60},
		{"none", nil, 0, 0, 0, 0},
	} {
		n, freed := MicroClears(c.ests, c.keep, c.target)
		if n != c.n || freed != c.freed {
			t.Errorf("%s: %d, %d; want %d, %d", c.name, n, freed, c.n, c.freed)
		}
	}
	for name, c := range map[string][2]int64{
		"MicroKeep": {int64(MicroKeep.Value), 3}, "MicroTarget": {MicroTarget.Value, 40_000}, "MicroMinSavings": {MicroMinSavings.Value, 20_000},
		"RestoreFiles": {int64(RestoreFiles.Value), 5}, "RestoreFileTokens": {RestoreFileTokens.Value, 5000}, "RestoreTotalTokens": {RestoreTotalTokens.Value, 50_000},
		"ReadLinePrefix": {int64(ReadLinePrefix.Value), 7}, "ReadLineLimit": {int64(ReadLineLimit.Value), 2000},
		"RestoreFileTokensOld": {RestoreFileTokensOld.Value, 10_000}, "RestoreWrapChars": {int64(RestoreWrapChars.Value), 172},
		"ReferenceChars": {int64(ReferenceChars.Value), 180}, "TruncatedChars": {int64(TruncatedChars.Value), 204},
		"PlanChars": {int64(PlanChars.Value), 188}, "AttachmentJSONChars": {int64(AttachmentJSONChars.Value), 261},
		"ReferenceJSONChars": {int64(ReferenceJSONChars.Value), 167},
	} {
		if c[0] != c[1] {
			t.Errorf("%s = %d, want %d", name, c[0], c[1])
		}
	}
}

func TestMicroBySize(t *testing.T) {
	for v, want := range map[string]bool{
		"": false, "1.0.89": false, "2.0.76": false, "2.1.0": true, "2.1.7": true, "2.1.19": true, "2.1.21": true, "2.1.22": false, "2.1.146": false,
	} {
		if got := MicroBySize.In(v); got != want {
			t.Errorf("MicroBySize(%q) = %v, want %v", v, got, want)
		}
	}
}

func TestCompactableTools(t *testing.T) {
	for _, tool := range []string{"Read", "Bash", "Grep", "Glob", "WebSearch", "WebFetch", "Edit", "Write"} {
		if !Compactable(tool) {
			t.Errorf("%s is not compactable", tool)
		}
	}
	for _, tool := range []string{"Task", "TodoWrite", "MultiEdit", "NotebookEdit", "read"} {
		if Compactable(tool) {
			t.Errorf("%s is compactable", tool)
		}
	}
	if Placeholder.Value != "[Old tool result content cleared]" {
		t.Errorf("Placeholder = %q", Placeholder.Value)
	}
}
