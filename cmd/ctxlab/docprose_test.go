package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/internal/testcorpus"
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

// TestBySessionDoc: --by session counts each call once across sessions,
// as every grouped view does, so a resumed session's row is not the
// overview's, and docs/cli.md must say so. It said the row was "the
// session's own total, as the overview ... do", while on the third
// calibration set 63bff843 has 168 calls in the overview and 42 by
// session (its file repeats 126 calls of f55cf430 and 39870e09) and
// 83943269's 37 calls, all copied into 0b6269a7's file, count there.
func TestBySessionDoc(t *testing.T) {
	data, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	prose := strings.Join(strings.Fields(string(data)), " ")
	if strings.Contains(prose, "its row is the session's own total), as the overview") ||
		!strings.Contains(prose, "`--by session` keeps each session whole in time") ||
		!strings.Contains(prose, "a session all of whose calls another file holds has no row") {
		t.Error("docs/cli.md does not say that --by session counts each call once across sessions")
	}
	dir := testcorpus.Dir(t, testcorpus.Calibration3)
	calls := func(args ...string) map[string]string {
		out, errOut, code := ctxlab(t, "", nil, append(append([]string{"replay", "--format", "csv"}, args...), dir)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		s, c := slices.Index(rows[0], "session"), slices.Index(rows[0], "calls")
		m := map[string]string{}
		for _, r := range rows[1:] {
			m[r[s][:8]] = r[c]
		}
		return m
	}
	overview, by := calls(), calls("--by", "session")
	if overview["63bff843"] != "168" || by["63bff843"] != "42" || overview["83943269"] != "37" || by["83943269"] != "" {
		t.Errorf("63bff843: %s calls in the overview, %s by session; 83943269: %s, %q: want 168, 42, 37 and no row",
			overview["63bff843"], by["63bff843"], overview["83943269"], by["83943269"])
	}
}
