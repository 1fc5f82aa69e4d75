package policies

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate"
)

// The test sessions are built by hand. Message numbering: the first user
// prompt is message 0; call k's response is message 2k+1 (the thread's
// Calls[k].Msg, which the engine uses to leave the previous response out of
// Claude Code's estimate); the tool results and user text after it are
// message 2k+2. So the items appended for call k ≥ 1 are the response of
// call k−1 (message 2k−1: its text and tool calls) and what followed it
// (message 2k). Each call's recorded output is the size of the response
// appended after it, and every item's estimate equals its tokens at ratio
// 1, so State.Trigger equals State.Tokens throughout: one number to follow.
//
// Cache arithmetic in the tests: every recorded call has 10 uncached input
// tokens, so a call's breakpoint is its prompt − 10; calls are one minute
// apart (the 5-minute TTL never expires); the overhead (2,000 tokens,
// above Sonnet's 1,024 minimum) is cached as an entry of its own; and the
// cleared-result placeholder is round(33/4) = 8 tokens.

const (
	testModel   = "claude-sonnet-4-5-20250929"
	testVersion = "2.1.146" // 20K reserved: available 180,000; micro-compaction off by default
	overhead    = 2000
)

type tool struct {
	name, path  string
	use, result int64
}

// turn is what one call appends: the previous response's text and tool
// calls, the tool results, then user text.
type turn struct {
	text  int64
	tools []tool
	user  int64
}

func read(path string, result int64) tool { return tool{"Read", path, 50, result} }

// session builds a trace from turns; turns[0] must be a user prompt.
func session(turns ...turn) *simulate.Trace {
	tr := &simulate.Trace{
		Session: "test", Overhead: overhead, Ratio: 1, Method: "usage", TTL: 5 * time.Minute,
		Thread: &replay.Thread{Calls: make([]replay.Call, len(turns))},
	}
	prompt := int64(overhead)
	id := 0
	for k, tn := range turns {
		tr.Thread.Calls[k].Msg = 2*k + 1
		var items []simulate.Item
		add := func(it simulate.Item) {
			it.Est, it.Exact = int(it.Tokens), true
			items = append(items, it)
			prompt += it.Tokens
		}
		resp, after := 2*k-1, 2*k
		var output int64
		if tn.text > 0 {
			add(simulate.Item{Kind: simulate.KindAssistant, Tokens: tn.text, Msg: resp})
			output += tn.text
		}
		for _, tl := range tn.tools {
			id++
			tid := fmt.Sprintf("t%d", id)
			add(simulate.Item{Kind: simulate.KindToolUse, Tokens: tl.use, Msg: resp, Tool: tl.name, ToolID: tid, Path: tl.path})
			output += tl.use
		}
		id -= len(tn.tools)
		for _, tl := range tn.tools {
			id++
			it := simulate.Item{Kind: simulate.KindToolResult, Tokens: tl.result, Msg: after, Tool: tl.name,
				ToolID: fmt.Sprintf("t%d", id), Path: tl.path}
			if tl.path != "" {
				// The whole file is the result (a Read) or the tool's
				// input (a Write).
				it.File = simulate.FileSize{Est: int(max(tl.result, tl.use)), RawEst: int(max(tl.result, tl.use))}
				it.Wrote = tl.name != "Read"
			}
			add(it)
		}
		if tn.user > 0 {
			add(simulate.Item{Kind: simulate.KindUser, Tokens: tn.user, Msg: after, Text: fmt.Sprintf("user %d", k)})
		}
		if k > 0 {
			tr.Calls[k-1].Usage.Output = output
		}
		tr.Calls = append(tr.Calls, simulate.TraceCall{
			Index: k, Line: k + 1, Time: 1_700_000_000_000 + int64(k)*60_000, Model: testModel, Version: testVersion,
			Usage: replay.Usage{Input: 10, CacheWrite5m: prompt - 10, Output: 100}, Items: items, Clean: true,
		})
	}
	return tr
}

// reads is the session most tests use: a 500-token prompt, then one Read
// per call (a 50-token call, a result of the given size).
func reads(results ...int64) *simulate.Trace {
	turns := []turn{{user: 500}}
	for i, r := range results {
		turns = append(turns, turn{tools: []tool{read(fmt.Sprintf("f%d.go", i+1), r)}})
	}
	return session(turns...)
}

func run(t *testing.T, spec string, tr *simulate.Trace) *simulate.Result {
	t.Helper()
	p, err := Parse(spec)
	if err != nil {
		t.Fatalf("Parse(%q): %v", spec, err)
	}
	return simulate.Run(tr, p, simulate.DefaultConfig())
}

// expect is a policy's expected decisions: every call's prompt, and the
// actions of the calls that have any (all others must have none).
type expect struct {
	prompts []int64
	actions map[int][]string // call index (from 0) → actions
}

func (w expect) check(t *testing.T, res *simulate.Result) {
	t.Helper()
	if len(res.Calls) != len(w.prompts) {
		t.Fatalf("%d calls, want %d", len(res.Calls), len(w.prompts))
	}
	for i, c := range res.Calls {
		if c.Prompt != w.prompts[i] {
			t.Errorf("call %d: prompt %d, want %d", i, c.Prompt, w.prompts[i])
		}
		if !reflect.DeepEqual(c.Actions, w.actions[i]) {
			t.Errorf("call %d: actions %q, want %q", i, c.Actions, w.actions[i])
		}
	}
}

// cacheIO is one call's cache read and write.
type cacheIO struct{ read, write int64 }

func checkCache(t *testing.T, res *simulate.Result, want map[int]cacheIO) {
	t.Helper()
	for i, w := range want {
		if c := res.Calls[i]; c.Read != w.read || c.Write5m != w.write || c.Input != 10 {
			t.Errorf("call %d: read %d write %d input %d, want read %d write %d input 10", i, c.Read, c.Write5m, c.Input, w.read, w.write)
		}
	}
}

// TestHarness pins the test session itself under none: the prompts add
// up, and Claude Code's count equals the exact context.
func TestHarness(t *testing.T) {
	res := run(t, "none", reads(1000, 1000, 1000))
	// 2,000 + 500; then + 50 + 1,000 per call.
	expect{prompts: []int64{2500, 3550, 4600, 5650}}.check(t, res)
	for i, c := range res.Calls {
		if c.Recorded != c.Prompt {
			t.Errorf("call %d: recorded %d, prompt %d", i, c.Recorded, c.Prompt)
		}
	}
	// Cold: write 2,490. Then each call reads the previous breakpoint and
	// writes its 1,050 growth.
	checkCache(t, res, map[int]cacheIO{0: {0, 2490}, 1: {2490, 1050}, 2: {3540, 1050}, 3: {4590, 1050}})
	trig := &triggerProbe{}
	simulate.Run(reads(1000, 1000, 1000), trig, simulate.DefaultConfig())
	if !reflect.DeepEqual(trig.diff, []int64{0, 0, 0, 0}) {
		t.Errorf("Trigger − Tokens per call: %v", trig.diff)
	}
}

type triggerProbe struct{ diff []int64 }

func (*triggerProbe) Name() string { return "probe" }
func (p *triggerProbe) Before(s *simulate.State) {
	p.diff = append(p.diff, s.Trigger-s.Tokens)
}
