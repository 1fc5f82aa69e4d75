package replay

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/internal/testcorpus"
	"github.com/ctxlab/ctxlab/replay/transcript"
)

// TestCompactionTriggersOnEverySet reads every compaction of the genuine
// transcripts (1.0.80–1.0.102 without boundaries, 2.0.60–2.1.146 with
// them): how many of each kind, trigger and source; that no automatic or
// unknown one made in its file follows a call below half the lowest
// threshold (155,000); and that what a /compact near a compaction says and
// what its summary's text or boundary says never disagree.
func TestCompactionTriggersOnEverySet(t *testing.T) {
	for _, c := range []struct {
		set  string
		want map[string]int // "kind trigger from[ continued]" → compactions
	}{
		{testcorpus.Realdata, map[string]int{
			"compact auto metadata": 4, "compact manual metadata": 6,
			"summary auto summary": 1, "summary auto summary continued": 1,
		}},
		{testcorpus.Calibration, map[string]int{
			"compact auto metadata": 4, "microcompact auto metadata": 7, "summary auto summary": 2,
		}},
		{testcorpus.Calibration2, map[string]int{
			"compact auto metadata": 3, "microcompact auto metadata": 1,
			"summary auto summary": 4, "summary auto summary continued": 1,
		}},
		{testcorpus.Calibration3, map[string]int{
			"compact auto metadata": 12,
			"summary auto summary":  11, "summary auto summary continued": 2,
			"summary manual command": 13, "summary manual command continued": 4,
		}},
	} {
		t.Run(c.set, func(t *testing.T) {
			dir := testcorpus.Dir(t, c.set)
			srcs, errs := Discover([]string{dir})
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			got := map[string]int{}
			for _, src := range srcs {
				s, err := Load(src, Options{})
				if s == nil {
					t.Fatalf("Load(%s): %v", src.Path, err)
				}
				for _, th := range s.Threads() {
					checkTriggers(t, s.ID[:8], th)
					for _, cp := range th.Compactions {
						k := fmt.Sprintf("%s %s %s", cp.Kind, cp.Trigger, cp.TriggerFrom)
						if cp.Continued {
							k += " continued"
						}
						got[k]++
					}
				}
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("compactions %v, want %v", got, c.want)
			}
		})
	}
}

// checkTriggers checks a thread's compactions against what surrounds
// them, found here by file order rather than by parentUuid: the messages
// from the summary up to the next response or typed prompt.
func checkTriggers(t *testing.T, id string, th *Thread) {
	t.Helper()
	var text map[int]string // summary line → the trigger its text shows
	for _, c := range th.Compactions {
		if c.Kind == CompactMicro {
			continue
		}
		where := fmt.Sprintf("%s line %d", id, c.Line)
		command := false
		for m := c.Msg; m < len(th.Messages); m++ {
			msg := &th.Messages[m]
			if msg.Role == RoleAssistant || m > c.Msg && msg.CompactSummary {
				break
			}
			t0 := ""
			if len(msg.Blocks) > 0 {
				t0 = strings.TrimSpace(msg.Blocks[0].Text)
			}
			if msg.Typed() && !strings.HasPrefix(t0, "<") {
				break
			}
			command = command || strings.Contains(t0, "<command-name>/compact</command-name>")
		}
		if command != (c.Trigger == "manual") && c.Kind == CompactFull {
			t.Errorf("%s: boundary trigger %q, a /compact after it %v", where, c.Trigger, command)
		}
		if c.Kind != CompactSummaryOnly {
			continue
		}
		if text == nil {
			text = summaryTriggers(t, th.Path)
		}
		if said := text[c.SummaryLine]; said != "" && said != c.Trigger {
			t.Errorf("%s: trigger %q from %s, the summary's text says %q", where, c.Trigger, c.TriggerFrom, said)
		}
		if command != (c.TriggerFrom == TriggerCommand) {
			t.Errorf("%s: trigger from %s, a /compact after it %v", where, c.TriggerFrom, command)
		}
		if c.Trigger != "manual" && !c.Continued && c.CallsBefore > 0 {
			if u := th.Calls[c.CallsBefore-1].Usage.Total(); u < 155_000/2 {
				t.Errorf("%s: %q compaction after a call of %d tokens", where, c.Trigger, u)
			}
		}
	}
}

// summaryTriggers reads a file's summary lines and returns the trigger
// each one's text shows, by line.
func summaryTriggers(t *testing.T, path string) map[int]string {
	t.Helper()
	f, err := openFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := transcript.NewReader(f, path)
	defer r.Close()
	out := map[int]string{}
	for r.Scan() {
		if e, ok := r.Result().(*transcript.Entry); ok && e.CompactSummary {
			out[e.Line] = summaryTrigger(e.Summary, e.Version)
		}
	}
	return out
}
