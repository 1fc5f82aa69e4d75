package policies

import (
	"reflect"
	"testing"

	"github.com/ctxlab/ctxlab/simulate"
)

// The compaction threshold in these tests is pct=3 of 180,000: 5,400.
func TestClaudeCodeSM(t *testing.T) {
	// init 3,000, update every +1,000 with 2 tool calls, notes at 10% of
	// the conversation they cover. Reads of 1,000; the conversation (what
	// the trace appends) is 500, 1,550, 2,600, 3,650, 4,700, 5,750.
	//   call 0: count 2,500 < 3,000.
	//   call 1: 3,550 ≥ 3,000: started; grown 3,550 since 0, but 1 tool call
	//           and the turn had one: no update.
	//   call 2: 4,600; 2 tool calls: update. Notes ⌊2,600 × 100 / 1,000⌋ =
	//           260, covering up to message 4 (f2.go's result). Fork: prompt
	//           1,000 + 0 (no notes yet), output 260.
	//   call 3: 5,650 ≥ 5,400; 1,050 of growth but 1 tool call: no update.
	//           Compaction: the notes replace items up to message 4 (2,600
	//           tokens); 5,650 − 2,600 + 260 = 3,310 < 5,400, so it stands,
	//           with no summarizer call.
	//   call 4: 4,360; grown 1,050 since the compaction's 3,310, 2 tool
	//           calls: update to ⌊4,700 / 10⌋ = 470, covering message 8.
	//           Fork: prompt 1,000 + 260, output 470.
	//   call 5: 5,410 ≥ 5,400 (1 tool call, no update): the notes replace the
	//           old ones and f3.go, f4.go up to message 8 (260 + 2,100 =
	//           2,360): 5,410 − 2,360 + 470 = 3,520.
	res := run(t, "claude-code-sm:init=3000,update=1000,tools=2,rate=100,pct=3", reads(1000, 1000, 1000, 1000, 1000))
	expect{
		prompts: []int64{2500, 3550, 4600, 3310, 4360, 3520},
		actions: map[int][]string{
			2: {"session-memory update: fork of 4600 + 1000 tokens, 260 out"},
			3: {"compact (session-memory): 2600 → 260"},
			4: {"session-memory update: fork of 4360 + 1260 tokens, 470 out"},
			5: {"compact (session-memory): 2360 → 470"},
		},
	}.check(t, res)
	// The forks: before call 2 the longest cached prefix is call 1's
	// 3,540: write 4,600 − 3,540 + 1,000 = 2,060. Before call 4: call 3
	// (after the compaction's edit at 2,000) cached 3,300: write 4,360 −
	// 3,300 + 1,260 = 2,320.
	want := []simulate.SummaryCall{
		{Label: "session-memory update", BeforeCall: 3, Read: 3540, Write: 2060, Output: 260},
		{Label: "session-memory update", BeforeCall: 5, Read: 3300, Write: 2320, Output: 470},
	}
	if len(res.Summaries) != len(want) {
		t.Fatalf("summaries %+v", res.Summaries)
	}
	for i, w := range want {
		got := res.Summaries[i]
		got.Cost = 0
		if !reflect.DeepEqual(got, w) {
			t.Errorf("fork %d: %+v, want %+v", i, got, w)
		}
	}
	// Call 3: read the overhead's 2,000, write 3,300 − 2,000 = 1,300.
	// Call 4 reads that and writes its 1,050.
	checkCache(t, res, map[int]cacheIO{3: {2000, 1300}, 4: {3300, 1050}})
	if m := res.Metrics; m.Compactions != 2 || m.SummaryTokens != 730 {
		t.Errorf("metrics %+v", m)
	}
}

func TestClaudeCodeSMFallbackAndTurns(t *testing.T) {
	t.Run("too big for the notes", func(t *testing.T) {
		// As above, but f3.go's result is 4,000: call 3 is 8,650, and the
		// notes would leave 8,650 − 2,600 + 260 = 6,310 ≥ 5,400: a full
		// compaction instead: 6,650 → 1,200 + 53 = 1,253, plus f3.go
		// (4,000), f2.go and f1.go (1,000 each) restored, each with 44 of
		// Claude Code's notes around it: 9,385.
		res := run(t, "claude-code-sm:init=3000,update=1000,tools=2,rate=100,pct=3", reads(1000, 1000, 4000))
		expect{
			prompts: []int64{2500, 3550, 4600, 9385},
			actions: map[int][]string{
				2: {"session-memory update: fork of 4600 + 1000 tokens, 260 out"},
				3: {"compact (auto): 6650 → 7385"},
			},
		}.check(t, res)
	})
	t.Run("no notes yet", func(t *testing.T) {
		// init never reached before the threshold: full compaction,
		// 3,650 → 1,229 + 3,132 restored (three files of 1,000 and 44
		// of notes each).
		res := run(t, "claude-code-sm:init=100000,pct=3", reads(1000, 1000, 1000))
		expect{
			prompts: []int64{2500, 3550, 4600, 6361},
			actions: map[int][]string{3: {"compact (auto): 3650 → 4361"}},
		}.check(t, res)
	})
	t.Run("first update needs the growth too", func(t *testing.T) {
		// init=1000 < update=3000. Call 0: 2,500 ≥ 1,000 and the turn had
		// no tool call, but it has grown only 2,500 since 0: no notes yet.
		// Call 1: 3,550, one tool call: written, ⌊1,550 × 50 / 1,000⌋ = 77.
		res := run(t, "claude-code-sm:init=1000,update=3000,tools=1", reads(1000))
		expect{
			prompts: []int64{2500, 3550},
			actions: map[int][]string{1: {"session-memory update: fork of 3550 + 1000 tokens, 77 out"}},
		}.check(t, res)
	})
	t.Run("turn without tool calls", func(t *testing.T) {
		// tools=100 is never reached, but call 2 follows a response without
		// tool calls (300 of text, then 800 of user text): 4,650, grown
		// 4,650 since 0 ≥ 1,000: update. Notes at the default 5%: ⌊2,650 ×
		// 50 / 1,000⌋ = 132.
		res := run(t, "claude-code-sm:init=3000,update=1000,tools=100", session(
			turn{user: 500}, turn{tools: []tool{read("a.go", 1000)}}, turn{text: 300, user: 800}))
		expect{
			prompts: []int64{2500, 3550, 4650},
			actions: map[int][]string{2: {"session-memory update: fork of 4650 + 1000 tokens, 132 out"}},
		}.check(t, res)
	})
}

// Notes written at the first call cover the prompt, message 0, the first
// item after the overhead; and they replace what they cover only if the
// context then falls below the threshold (5,400), not when it lands on it.
func TestClaudeCodeSMFirstNotes(t *testing.T) {
	// Call 0: count 2,500 ≥ init 0, grown 2,500 ≥ update, and the turn had
	// no tool call: the notes cover the 500-token prompt, ⌊500 × rate /
	// 1,000⌋. tools=10 allows no other update. Call 3 (5,650 ≥ 5,400): the
	// notes replace the prompt: 5,650 − 500 + the notes.
	tests := []struct {
		spec string
		want expect
	}{
		{
			// rate 50: 25 tokens of notes: 5,175.
			spec: "claude-code-sm:init=0,update=2500,tools=10,pct=3",
			want: expect{
				prompts: []int64{2500, 3550, 4600, 5175},
				actions: map[int][]string{
					0: {"session-memory update: fork of 2500 + 1000 tokens, 25 out"},
					3: {"compact (session-memory): 500 → 25"},
				},
			},
		},
		{
			// rate 499: 249 tokens, 5,399 < 5,400: they stand.
			spec: "claude-code-sm:init=0,update=2500,tools=10,rate=499,pct=3",
			want: expect{
				prompts: []int64{2500, 3550, 4600, 5399},
				actions: map[int][]string{
					0: {"session-memory update: fork of 2500 + 1000 tokens, 249 out"},
					3: {"compact (session-memory): 500 → 249"},
				},
			},
		},
		{
			// rate 500: 250 tokens would leave 5,400: a full compaction
			// instead, 3,650 → 1,229 plus the three Reads restored (1,044
			// each with Claude Code's notes): 6,361.
			spec: "claude-code-sm:init=0,update=2500,tools=10,rate=500,pct=3",
			want: expect{
				prompts: []int64{2500, 3550, 4600, 6361},
				actions: map[int][]string{
					0: {"session-memory update: fork of 2500 + 1000 tokens, 250 out"},
					3: {"compact (auto): 3650 → 4361"},
				},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			tt.want.check(t, run(t, tt.spec, reads(1000, 1000, 1000)))
		})
	}
}

func TestSessionMemorySize(t *testing.T) {
	tests := []struct {
		spec    string
		covered int64
		want    int64
	}{
		{"claude-code-sm", 0, 1},                       // never empty
		{"claude-code-sm", 100_000, 5000},              // 5%
		{"claude-code-sm", 240_000, 12_000},            // reaches the cap
		{"claude-code-sm", 1_000_000, 12_000},          // max
		{"claude-code-sm:sections=3", 1_000_000, 6000}, // 3 sections × 2,000
		{"claude-code-sm:max=20000,sections=10", 1_000_000, 20_000},
	}
	for _, tt := range tests {
		p, err := Parse(tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.(*sessionMemory).notes(tt.covered); got != tt.want {
			t.Errorf("%s: notes(%d) = %d, want %d", tt.spec, tt.covered, got, tt.want)
		}
	}
}
