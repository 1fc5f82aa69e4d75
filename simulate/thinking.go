package simulate

import (
	"regexp"
	"slices"
	"strings"

	"github.com/ctxlab/ctxlab/replay"
)

// Thinking budgets by keyword. Claude Code before 2.0 set each request's
// extended-thinking budget from words in the user's prompt; Anthropic's
// "Claude Code: Best practices for agentic coding" names the escalating
// phrases ("think" < "think hard" < "think harder" < "ultrathink"), and
// Claude Code 1.0.x's bundled cli.js maps them to these budgets.
const (
	ThinkBasic   = 4_000
	ThinkMiddle  = 10_000
	ThinkHighest = 31_999
)

// ThinkingKeywordsUntil is the first Claude Code version whose thinking
// budget no longer follows the prompt's keywords (2.x records its thinking
// setting as thinkingMetadata on user lines instead, and in 2.x
// transcripts a keyword does not break the cache: 7 of 9 such turns read
// the whole previous prompt).
const ThinkingKeywordsUntil = "2.0.0"

var (
	thinkHighest = regexp.MustCompile(`\bultrathink\b|\bthink (harder|intensely|longer|really hard|super hard|very hard)\b`)
	thinkMiddle  = regexp.MustCompile(`\bmegathink\b|\bthink (about it|a lot|deeply|hard|more)\b`)
	thinkBasic   = regexp.MustCompile(`\bthink\b`)
)

// ThinkingBudget is the thinking budget Claude Code 1.0.x asked for when a
// prompt had text: the budget of the strongest phrase in it, 0 for none.
func ThinkingBudget(text string) int64 {
	t := strings.ToLower(text)
	if !strings.Contains(t, "think") {
		return 0 // every phrase holds "think": spare the regexps most prompts
	}
	switch {
	case thinkHighest.MatchString(t):
		return ThinkHighest
	case thinkMiddle.MatchString(t):
		return ThinkMiddle
	case thinkBasic.MatchString(t):
		return ThinkBasic
	}
	return 0
}

// PostCompactTurnFrom is the first Claude Code version whose first user
// turn after a compaction rewrites the conversation after the system
// prompt. In 2.1.126–2.1.146 transcripts, 4 of 4 auto-compactions followed
// by a user turn within the cache lifetime read only the system prompt at
// that turn (the prompt grew; nothing the transcript shows changed); in
// 2.1.41 the one such turn read the whole previous prompt. No transcript
// between shows a compaction, so the change is placed at the first version
// that shows it.
const PostCompactTurnFrom = "2.1.126"

// SecondTurnUntil is the first Claude Code version whose second user turn
// no longer rewrites the conversation from its first message. In the
// transcripts the project tests against, the session's second turn came
// within the cache lifetime, on the same model, version and working
// directory, in 16 sessions: before 2.1, 4 of 4 read only the system
// prompt there (1.0.70, 1.0.89, 2.0.60, 2.0.76), although the prompt grew
// and nothing the transcript shows changed; from 2.1.11 on, 1 of 12 did.
// No transcript between 2.0.76 and 2.1.11 shows a second turn, so the
// change is placed at 2.1.0. A transcript that continues a conversation
// from its summary has no second turn of its own (Continues): in a 1.0.81
// one the turn after the summary's read the whole previous prompt.
const SecondTurnUntil = "2.1.0"

// promptBudget returns the thinking budget a user message sets, and false
// when it sets none: it is not a prompt the user typed (replay.Message.Typed).
func promptBudget(m *replay.Message) (int64, bool) {
	if !m.Typed() {
		return 0, false
	}
	var text []string
	for _, b := range m.Blocks {
		if b.Kind == replay.BlockText {
			text = append(text, b.Text)
		}
	}
	return ThinkingBudget(strings.Join(text, "\n")), true
}

// DropThinkingUntil is the first Claude Code version whose user turns keep
// the cached conversation after a turn with thinking. Anthropic's
// "Building with extended thinking" says that for models before Claude
// Opus 4.5 the API drops the thinking blocks of earlier assistant turns
// once a user message that is not a tool result follows, so the cached
// prefix breaks at the previous turn's first response. In the transcripts
// the project tests against, in 2.0.76 (Sonnet 4.5) all 10 user turns that
// followed a turn with thinking within the cache lifetime, in the same
// directory and with no other rule applying, fell back (8 to the system
// prompt, 2 to the previous turn's start); in 2.1.x, 62 of 70 such Sonnet
// 4.5 turns read the whole previous prompt (Claude Code 2.1 evidently asks
// the API to keep them). No transcript between shows such a turn, so
// the change is placed at 2.1.0. Before 2.0 the thinking budget follows
// the prompt's keywords and ThinkingKeywordsUntil covers a changed one.
const DropThinkingUntil = "2.1.0"

// DropThinkingModels lists the models whose earlier turns' thinking the
// API drops (Anthropic's "Building with extended thinking": every Claude
// model before Claude Opus 4.5), matched anywhere in the model id as
// LongWindowModels is, so that ids behind a provider prefix match too.
var DropThinkingModels = []string{"claude-3", "sonnet-4-2", "opus-4-2", "opus-4-1", "sonnet-4-5", "haiku-4-5"}

func dropsThinking(model string) bool {
	return slices.ContainsFunc(DropThinkingModels, func(m string) bool { return strings.Contains(model, m) })
}
