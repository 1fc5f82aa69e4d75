package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestCompareDocSpiral: the figures docs/compare.md quotes in prose under
// its spiral example (which TestDocExamples pins) are those the example
// prints: the narrow window's summaries, its total against claude-code's
// and how much lower its peak is. They had drifted to $8.70 against
// $2.20 and 749 tokens while the table above them showed $8.59, $1.97
// and 747.
func TestCompareDocSpiral(t *testing.T) {
	out, errOut, code := ctxlab(t, "", nil, "compare", "--policy", "observed,claude-code,claude-code:window=55000", "--format", "json", fixtures)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Total struct {
			Runs []struct {
				Metrics struct {
					Peak        int64   `json:"peak_context"`
					Compactions int     `json:"compactions"`
					Total       float64 `json:"total_cost_usd"`
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	cc, narrow := doc.Total.Runs[1].Metrics, doc.Total.Runs[2].Metrics
	data, err := os.ReadFile("../../docs/compare.md")
	if err != nil {
		t.Fatal(err)
	}
	prose := strings.Join(strings.Fields(string(data)), " ")
	for _, want := range []string{
		fmt.Sprintf("That is a compaction spiral: %d summaries,", narrow.Compactions),
		fmt.Sprintf("%.1f times as much as plain `claude-code` ($%.2f against $%.2f)", narrow.Total/cc.Total, narrow.Total, cc.Total),
		fmt.Sprintf("a peak context lower by only %d tokens", cc.Peak-narrow.Peak),
	} {
		if !strings.Contains(prose, want) {
			t.Errorf("docs/compare.md does not say %q", want)
		}
	}
}
