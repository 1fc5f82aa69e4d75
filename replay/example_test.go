package replay_test

import (
	"fmt"
	"strings"

	"github.com/ctxlab/ctxlab/replay"
)

// Discover finds the sessions under a directory laid out like
// ~/.claude/projects, with their sub-agent files; Load reads each one.
func ExampleLoad() {
	srcs, errs := replay.Discover([]string{"testdata/projects"})
	for _, err := range errs {
		fmt.Println("error:", err)
	}
	for _, src := range srcs {
		s, err := replay.Load(src, replay.Options{})
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Printf("session %s (project %s, %d agent file, %d warnings)\n", s.ID, s.Project, len(src.Agents), len(s.Warnings))
		var total replay.Usage
		for _, th := range s.Threads() {
			var u replay.Usage
			for _, c := range th.Calls {
				if !c.Duplicate {
					u = u.Add(c.Usage)
				}
			}
			total = total.Add(u)
			fmt.Printf("  %-5s %-7s %d calls, %d tools: in %d, out %d, write %d (1h %d), read %d\n",
				th.Kind, th.AgentID, len(th.Calls), len(th.Tools), u.Input, u.Output, u.CacheWrite(), u.CacheWrite1h, u.CacheRead)
		}
		fmt.Printf("  total: in %d, out %d, write %d, read %d\n", total.Input, total.Output, total.CacheWrite(), total.CacheRead)
		for _, c := range s.Main.Compactions {
			fmt.Printf("  %s compaction (%s) at line %d: %d -> %d tokens, summary %d chars (est %d)\n",
				c.Kind, c.Trigger, c.Line, c.PreTokens, c.PostTokens, c.SummaryChars, c.SummaryEst)
		}
		for _, t := range s.Main.Tools {
			fmt.Printf("  tool %s %s: result %d chars, agent %q\n", t.Name, t.ID, t.ResultChars, t.AgentID)
		}
	}
	// Output:
	// session 5c3e0f3a-7d2b-4c1e-9a8f-0b6d2e4f1a97 (project -home-dev-retry, 1 agent file, 0 warnings)
	//   main          3 calls, 2 tools: in 6, out 195, write 6800 (1h 6800), read 28000
	//   agent a1b2c3d 2 calls, 1 tools: in 6, out 55, write 2200 (1h 0), read 2000
	//   total: in 12, out 250, write 9000, read 30000
	//   compact compaction (manual) at line 7: 16840 -> 2100 tokens, summary 212 chars (est 53)
	//   tool Agent toolu_01: result 45 chars, agent "a1b2c3d"
	//   tool Read toolu_02: result 83 chars, agent ""
}

// A Reader yields one record per line: an *Entry, or a *SyntaxError that
// names the file and line. Reading goes on after a bad line.
func ExampleReader() {
	const transcript = `{"type":"user","uuid":"u1","message":{"role":"user","content":"Hello, café!"}}
// a comment pasted into the file

{"type":"assistant","uuid":"a1","requestId":"req_1","message":{"id":"msg_1","role":"assistant","model":"claude-sonnet-4-6","content":[{"type":"text","text":"Hi."}],"usage":{"input_tokens":3,"cache_creation_input_tokens":120,"cache_read_input_tokens":4000,"output_tokens":7}}}
[1, 2, 3]
{"type":"user","uuid":"u2","message":{"role":"user","content":"bye`
	r := replay.NewReader(strings.NewReader(transcript), "demo.jsonl")
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *replay.SyntaxError:
			fmt.Println("warning:", rec)
		case *replay.Entry:
			fmt.Printf("line %d: %s", rec.Line, rec.Type)
			for _, b := range rec.Blocks {
				fmt.Printf(" [%s %d chars, ~%d tokens]", b.Kind, b.Chars, b.Est)
			}
			if u := rec.Usage; u != nil {
				fmt.Printf(" usage: prompt %d, output %d", u.Prompt(), u.Output)
			}
			fmt.Println()
		}
	}
	if err := r.Err(); err != nil {
		fmt.Println("error:", err)
	}
	st := r.Stats()
	fmt.Printf("%d lines, %d blank, %d bad, truncated %v\n", st.Lines, st.Blank, st.Bad, st.Truncated)
	// Output:
	// line 1: user [text 12 chars, ~3 tokens]
	// warning: demo.jsonl:2: invalid JSON: a comment line
	// line 4: assistant [text 3 chars, ~1 tokens] usage: prompt 4123, output 7
	// warning: demo.jsonl:5: not a JSON object
	// warning: demo.jsonl:6: truncated last line (no newline at end of file): invalid JSON
	// 6 lines, 1 blank, 3 bad, truncated true
}

// Estimate is Claude Code's length/4 token estimate, rounded like
// JavaScript's Math.round.
func ExampleEstimate() {
	for _, n := range []int{1, 2, 5, 6, 18} {
		fmt.Printf("%d chars ~ %d tokens\n", n, replay.Estimate(n))
	}
	// Output:
	// 1 chars ~ 0 tokens
	// 2 chars ~ 1 tokens
	// 5 chars ~ 1 tokens
	// 6 chars ~ 2 tokens
	// 18 chars ~ 5 tokens
}

func ExampleCompareVersions() {
	fmt.Println(replay.CompareVersions("2.1.9", "2.1.41"), replay.CompareVersions("2.1.100", "2.1.41"), replay.CompareVersions("2.1", "2.1.0"))
	// Output: -1 1 0
}
