package simulate_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/fidelity"
)

// resultSession writes a two-call session of a Claude Code version in the
// shape its transcripts have (the fields of its lines as the version's
// cli.js writes them, and the 2.0.76–2.1.19 transcripts here show): a first call whose prompt is first tokens
// asks for a tool, whose result line holds content as message.content and
// full as toolUseResult, and a second call whose prompt is second tokens,
// what the API was sent.
func resultSession(t *testing.T, version, tool string, content, full any, first, second int) *replay.Session {
	t.Helper()
	js := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	usage := func(prompt int) string {
		return `"usage":{"input_tokens":10,"cache_creation_input_tokens":` + strconv.Itoa(prompt-10) + `,"cache_read_input_tokens":0,"output_tokens":50}`
	}
	head := `"isSidechain":false,"userType":"external","cwd":"/w","sessionId":"s","version":"` + version + `","gitBranch":"main",`
	model := `"model":"claude-sonnet-4-5-20250929"`
	source := "" // the response that asked for the result, written from 2.1.2
	if claudecode.AtLeast(version, "2.1.2") {
		source = `,"sourceToolAssistantUUID":"a1"`
	}
	lines := []string{
		`{"parentUuid":null,` + head + `"type":"user","message":{"role":"user","content":"run it"},"uuid":"u1","timestamp":"2026-01-01T10:00:00.000Z"}`,
		`{"parentUuid":"u1",` + head + `"message":{` + model + `,"id":"m1","type":"message","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"` + tool + `","input":{"command":"./run"}}],"stop_reason":"tool_use",` + usage(first) + `},"requestId":"r1","type":"assistant","uuid":"a1","timestamp":"2026-01-01T10:00:05.000Z"}`,
		`{"parentUuid":"a1",` + head + `"type":"user","message":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":` + js(content) + `}]},"uuid":"u2","timestamp":"2026-01-01T10:00:09.000Z","toolUseResult":` + js(full) + source + `}`,
		`{"parentUuid":"u2",` + head + `"message":{` + model + `,"id":"m2","type":"message","role":"assistant","content":[{"type":"text","text":"Done."}],"stop_reason":"end_turn",` + usage(second) + `},"requestId":"r2","type":"assistant","uuid":"a2","timestamp":"2026-01-01T10:00:15.000Z"}`,
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srcs, _ := replay.Discover([]string{path})
	s, err := replay.Load(srcs[0], replay.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// triggers records the count claude-code's threshold check sees before
// each call.
type triggers []int64

func (p *triggers) Name() string             { return "triggers" }
func (p *triggers) Before(s *simulate.State) { *p = append(*p, s.Trigger) }

// persistedPreview is the message Claude Code 2.1.x sends in place of a
// saved result, as its transcripts record it: the markers, the size, the
// saved file's path and the first n characters of the output.
func persistedPreview(output string, n int) string {
	return "<persisted-output>\nOutput too large (488.3KB). Full output saved to: /home/u/.claude/projects/-w/s/tool-results/toolu_1.txt\n\nPreview (first 2KB):\n" +
		output[:n] + "\n...\n</persisted-output>"
}

// TestCountPersistedResult pins what claude-code's count weighs of a large
// tool result, as the version that ran the tool sent it (ResultAsSent,
// PersistResults). Claude Code 2.1.19 saves a Bash output over 30,000
// characters to a file and sends a preview: its transcript holds the
// preview in message.content and the whole output in toolUseResult, and
// the count (40,050 after the first call) adds the preview's estimate, far
// below the 155,000 threshold. A transcript holding the whole 500,000
// characters in message.content holds more than 2.1.19 sent, so the count
// weighs the message it sent (PersistedChars, 2,260: 565) and does not
// compact; with the rule turned off (persist-results-from=99) it would add
// 125,000 and compact before the second call. What a version sends whole
// counts whole and compacts as it would: 2.1.3's limit for an MCP tool is
// 400,000 characters, so a 390,000-character result counts 97,500 on a
// 60,050 total; a 2.1.19 result that holds an image is never saved (its
// 500,000 characters of text count 125,000, the image 1,334). 2.0.76 adds
// no estimate at all: its count is the usage total.
func TestCountPersistedResult(t *testing.T) {
	out500 := strings.Repeat("x", 99) + "\n"
	out500 = strings.Repeat(out500, 5000) // 500,000 characters
	bashFull := map[string]any{"stdout": out500, "stderr": "", "interrupted": false, "isImage": false}
	preview := persistedPreview(out500, 2000)
	out390 := out500[:390_000]
	image := map[string]any{"type": "image", "source": map[string]any{"type": "base64", "media_type": "image/png", "data": strings.Repeat("A", 40_000)}}
	withImage := []any{map[string]any{"type": "text", "text": out500}, image}
	for _, c := range []struct {
		name, version, tool string
		content, full       any
		first, second       int
		param               string // a --sim-param list
		trigger             int64  // the count before the second call
		compactAt           int    // claude-code's first compaction, 0 for none
	}{
		{"2.1.19 preview", "2.1.19", "Bash", preview, bashFull, 40_000, 41_000, "", 40_050 + int64(replay.Estimate(len(preview))), 0},
		{"2.1.19 whole, as sent", "2.1.19", "Bash", out500, bashFull, 40_000, 41_000, "", 40_050 + 565, 0},
		{"2.1.19 whole, rule off", "2.1.19", "Bash", out500, bashFull, 40_000, 41_000, "persist-results-from=99", 40_050 + 125_000, 2},
		{"2.1.3 MCP under 400,000", "2.1.3", "mcp__docs__fetch", []any{map[string]any{"type": "text", "text": out390}}, []any{map[string]any{"type": "text", "text": out390}},
			60_000, 170_000, "", 60_050 + 97_500, 2},
		{"2.1.19 with an image", "2.1.19", "mcp__browser__snapshot", withImage, withImage, 40_000, 180_000, "", 40_050 + 125_000 + 1_334, 2},
		{"2.0.76 no estimate", "2.0.76", "Bash", out500, bashFull, 40_000, 180_000, "", 40_050, 0},
	} {
		s := resultSession(t, c.version, c.tool, c.content, c.full, c.first, c.second)
		cfg := simulate.DefaultConfig()
		if err := cfg.Set(c.param); err != nil {
			t.Fatal(err)
		}
		tr := simulate.Prepare(s)
		var trig triggers
		simulate.Run(tr, &trig, cfg)
		if len(trig) != 2 || trig[1] != c.trigger {
			t.Errorf("%s: counts %v, want the second %d", c.name, trig, c.trigger)
		}
		res := simulate.Run(tr, mustParse(t, "claude-code"), cfg)
		if got := res.Metrics.FirstCompaction; got != c.compactAt {
			t.Errorf("%s: claude-code compacts before call %d, want %d", c.name, got, c.compactAt)
		}
	}
	// Where claude-code compacts and the session did not, the fidelity
	// report says what the count added and how much the prompt grew: here
	// the result was sent, and the prompt grew by as much.
	s := resultSession(t, "2.1.3", "mcp__docs__fetch", []any{map[string]any{"type": "text", "text": out390}}, out390, 60_000, 170_000)
	tr := simulate.Prepare(s)
	obs := simulate.Run(tr, mustParse(t, "observed"), simulate.DefaultConfig())
	cc := simulate.Run(tr, mustParse(t, "claude-code"), simulate.DefaultConfig())
	f := fidelity.New(s, tr, obs, cc, fidelity.DefaultTolerances())
	want := "claude-code compacts at call 2 where the session never compacted (call 1's recorded usage total 60,050 tokens; " +
		"with the response's final output where the transcript has a placeholder, and Claude Code's estimate of what followed, " +
		"claude-code's count reaches its threshold there: the estimate of what followed is 97,500, 97,500 of them " +
		"a mcp__docs__fetch result at line 3; the recorded prompt grew by 110,000 tokens): not explained"
	if !slices.Contains(f.Reasons, want) {
		t.Errorf("reasons %q, want %q", f.Reasons, want)
	}
	if claudecode.ResultLimitFor("2.1.19", "Bash", "") != 30_000 || claudecode.PersistPreview.Value+claudecode.PersistedWrapper.Value != 2_260 {
		t.Error("the limits this test assumes have moved")
	}
}
