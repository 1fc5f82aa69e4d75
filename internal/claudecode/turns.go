package claudecode

import (
	"slices"
	"strings"
)

// The turn rules say where Claude Code, or the API, rewrites the cached
// conversation when a user turn begins, which no line of the transcript
// records. The cache-break report names them as a break's cause, and the
// simulator breaks its cached prefix where they apply; both follow a
// thread with Turns. docs/simulation.md ("The prompt cache") gives the
// transcripts that place each version cut-off.

// Thinking budgets by keyword. Claude Code before 2.0 set each request's
// extended-thinking budget from words in the user's prompt; Anthropic's
// "Claude Code: Best practices for agentic coding" names the escalating
// phrases ("think" < "think hard" < "think harder" < "ultrathink"), and
// Claude Code 1.0.x's bundled cli.js maps them to these budgets. From 2.0
// (ThinkingKeywords) the budget no longer follows the keywords: 2.x
// records its setting as thinkingMetadata on user lines. Before it, a turn
// whose budget differs from the previous call's invalidates the cached
// messages, as changing the thinking parameters does while the system
// prompt and tools stay cached (Anthropic's "Building with extended
// thinking").
var (
	ThinkingKeywords = Fact{Name: "ThinkingKeywords", Until: "2.0.0",
		Doc:    "the thinking budget follows the prompt's keywords, and a changed budget breaks the cached messages",
		Source: `Claude Code 1.0.x's bundled cli.js; Anthropic's "Building with extended thinking"; thinkingMetadata on 2.x user lines`}
	ThinkBasic = Value[int64]{Fact{Name: "ThinkBasic", Until: ThinkingKeywords.Until,
		Doc:    `the thinking budget of "think"`,
		Source: "Claude Code 1.0.x's bundled cli.js"}, 4_000}
	ThinkMiddle = Value[int64]{Fact{Name: "ThinkMiddle", Until: ThinkingKeywords.Until,
		Doc:    `the thinking budget of "think hard", "megathink" and their variants`,
		Source: "Claude Code 1.0.x's bundled cli.js"}, 10_000}
	ThinkHighest = Value[int64]{Fact{Name: "ThinkHighest", Until: ThinkingKeywords.Until,
		Doc:    `the thinking budget of "think harder", "ultrathink" and their variants`,
		Source: "Claude Code 1.0.x's bundled cli.js"}, 31_999}
)

// The phrases after "think" that raise its budget, matched as whole words.
var (
	thinkHighest = []string{"harder", "intensely", "longer", "really hard", "super hard", "very hard"}
	thinkMiddle  = []string{"about it", "a lot", "deeply", "hard", "more"}
)

// ThinkingBudget is the thinking budget Claude Code 1.0.x asked for when a
// prompt had text: the budget of the strongest phrase in it, 0 for none.
// Phrases are whole words in any case: "think", "think hard" (or
// "megathink"), "think harder" (or "ultrathink") and their variants.
func ThinkingBudget(text string) int64 {
	if !hasThink(text) {
		return 0 // every phrase holds "think": spare most prompts the copy
	}
	t := strings.ToLower(text)
	var budget int64
	for i := 0; ; i += len("think") {
		j := strings.Index(t[i:], "think")
		if j < 0 {
			return budget
		}
		i += j
		end := i + len("think")
		if !wordEnd(t, end) {
			continue // "thinking", "thinks"
		}
		budget = max(budget, phraseBudget(t, i, end))
		if budget == ThinkHighest.Value {
			return budget
		}
	}
}

// phraseBudget is the budget of the phrase around the whole word "think"
// at t[i:end]: "ultrathink", "megathink", "think" and the words after it;
// 0 for a word such as "rethink".
func phraseBudget(t string, i, end int) int64 {
	if strings.HasSuffix(t[:i], "ultra") && wordEnd(t, i-len("ultra")-1) {
		return ThinkHighest.Value
	}
	if strings.HasSuffix(t[:i], "mega") && wordEnd(t, i-len("mega")-1) {
		return ThinkMiddle.Value
	}
	if !wordEnd(t, i-1) {
		return 0 // "rethink"
	}
	if followedBy(t[end:], thinkHighest) {
		return ThinkHighest.Value
	}
	if followedBy(t[end:], thinkMiddle) {
		return ThinkMiddle.Value
	}
	return ThinkBasic.Value
}

// wordEnd reports whether t has no word character at i: i is outside t,
// or t[i] is not an ASCII letter, digit or underscore (a regexp's \b).
func wordEnd(t string, i int) bool {
	if i < 0 || i >= len(t) {
		return true
	}
	c := t[i]
	return !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_')
}

// followedBy reports whether rest is a space and one of the phrases, as
// whole words.
func followedBy(rest string, phrases []string) bool {
	if !strings.HasPrefix(rest, " ") {
		return false
	}
	rest = rest[1:]
	for _, p := range phrases {
		if strings.HasPrefix(rest, p) && wordEnd(rest, len(p)) {
			return true
		}
	}
	return false
}

// hasThink reports whether s holds "think" in any case.
func hasThink(s string) bool {
	for i := 0; i+len("think") <= len(s); i++ {
		// |0x20 lowers an ASCII letter (and maps no other byte to one).
		if s[i]|0x20 == 't' && s[i+1]|0x20 == 'h' && s[i+2]|0x20 == 'i' && s[i+3]|0x20 == 'n' && s[i+4]|0x20 == 'k' {
			return true
		}
	}
	return false
}

// The turns at which the cached conversation is rewritten, by version.
var (
	// MCPToolsLive: Claude Code keeps the tools of the MCP servers
	// connected in its state, replaces a server's when it connects or
	// reconnects (at start, /mcp), and sends each request with the state's
	// tools: the tools ahead of the conversation grow while a session
	// runs, and a compaction, which rewrites only the messages, keeps them.
	MCPToolsLive = Fact{Name: "MCPToolsLive",
		Doc:    "each request carries the tools of the MCP servers connected when it is sent, so they grow when a server connects during the session, and a compaction keeps them",
		Source: "the bundled cli.js of 1.0.85, 2.0.76 and 2.1.7 (the MCP tools of the app state, replaced by a server's on connecting, passed to each query); usage of 2.0.76 and 2.1.7 calls that read only the base prefix and grew 22,193 and 25,748 tokens over messages of 188 and 802, and the prompt after the next compaction"}
	// SkillsReload: from 2.1.0 Claude Code reloads the skills while a
	// session runs (its CHANGELOG, 2.1.0: "skill hot-reload"), so a skill
	// written in the session changes the skill list in the prompt ahead
	// of the conversation (replay.Call.SkillsChanged).
	SkillsReload = Fact{Name: "SkillsReload", From: "2.1.0",
		Doc:    "a skill written in the session changes the skill list sent ahead of the conversation, from the second call after the write",
		Source: `Claude Code's CHANGELOG, 2.1.0 ("skill hot-reload"); usage.cache_read_input_tokens after a SKILL.md is written`}
	// PostCompactTurn: from 2.1.126 the first user turn after a
	// compaction reads only the system prompt, although the prompt grew
	// and nothing recorded changed; 2.1.41's read it all.
	PostCompactTurn = Fact{Name: "PostCompactTurn", From: "2.1.126",
		Doc:    "the first user turn after a compaction reads only the system prompt",
		Source: "usage.cache_read_input_tokens of the first turn after a compaction (2.1.41: all; 2.1.126–2.1.146: the system prompt)"}
	// SecondTurn: the session's second user turn reading only the system
	// prompt is a rule no version is known to have (Until "0": the
	// simulator's second-turn-until can turn it on). It was taken from
	// four second turns of 1.0.70–2.0.76 that fell back; the third
	// calibration set's 1.0.81–1.0.102 sessions read the whole previous
	// prompt at 23 of their 30 second turns, and AllowedTools, which
	// applies at every turn, accounts for the fallbacks at those versions.
	SecondTurn = Fact{Name: "SecondTurn", Until: "0",
		Doc:    "the session's second user turn reads only the system prompt",
		Source: "usage.cache_read_input_tokens of second turns within the cache lifetime (1.0.81–1.0.102: 7 of 30 read only the tools and system prompt, 4 of them after a turn that first used a tool that asks; 2.1.11 on: 1 of 12)"}
	// AllowedTools: from 1.0.66 until 2.1.0 the system prompt ends with
	// the tools the user allowed without asking ("You can use the
	// following tools without requiring user approval: …", from the
	// permission rules of every source), and Claude Code builds the
	// system prompt when a user turn begins. Allowing a tool for good in
	// a turn ("Yes, and don't ask again"), which the transcript does not
	// record, changes it at the next turn past its first block (the line
	// "You are Claude Code, …", which has a breakpoint of its own), so the
	// turn reads only the tools and that line. 1.0.62–1.0.65 wrote the
	// list only with DETAILED_PERMISSION_MESSAGES set; 2.1.0 does not.
	AllowedTools = Fact{Name: "AllowedTools", From: "1.0.66", Until: "2.1.0",
		Doc:    "the system prompt Claude Code builds at each user turn lists the tools the user allowed without asking, so a tool allowed for good in a turn, which the transcript does not record, changes it past its first block at the next turn",
		Source: "the bundled cli.js of 1.0.62–2.1.0 (the system prompt's allowed-tools line: behind DETAILED_PERMISSION_MESSAGES in 1.0.62–1.0.65, gone in 2.1.0); usage.cache_read_input_tokens of 1.0.70–2.0.76 turns (39 of 124 after a turn that first used a tool that asks read only the tools and the first block, against 18 of 678 after none)"}
	// DateUTC: until 1.0.110 the system prompt's environment block names
	// today's date in UTC (new Date().toISOString()), after its first
	// block; Claude Code builds it when a user turn begins. From 1.0.110
	// it names the local date, and the transcript does not record the
	// time zone.
	DateUTC = Fact{Name: "DateUTC", Until: "1.0.110",
		Doc:    "the system prompt Claude Code builds at each user turn names the date in UTC, so a turn begun on another UTC date than the turn before changes it past its first block",
		Source: `the bundled cli.js of 1.0.0–1.0.109 (the environment's "Today's date" from toISOString; from 1.0.110 the local date); usage.cache_read_input_tokens of a 1.0.96 turn begun 51 seconds after midnight UTC (the tools and first block)`}
	// AskingTools are the tools Claude Code asks the user's permission to
	// run unless a rule allows them; a tool of an MCP server (its name
	// begins with "mcp_") asks too.
	AskingTools = Value[[]string]{Fact{Name: "AskingTools",
		Doc:    "the tools Claude Code asks permission to run unless a rule allows them, and every MCP server's tool",
		Source: `Anthropic's "Claude Code settings" (the tools available to Claude, "Permission Required")`},
		[]string{"Bash", "Edit", "MultiEdit", "NotebookEdit", "WebFetch", "WebSearch", "Write"}}
	// DropThinking: before 2.1, on the models of DropThinkingModels, the
	// API drops the thinking blocks of earlier assistant turns once a user
	// message that is not a tool result follows (Anthropic's "Building
	// with extended thinking"), so the cached prefix breaks at the
	// previous turn's first response; 2.1's transcripts show the thinking
	// kept.
	DropThinking = Fact{Name: "DropThinking", Until: "2.1.0",
		Doc:    "a user turn after a turn with thinking breaks the cached conversation, on the models of DropThinkingModels",
		Source: `Anthropic's "Building with extended thinking"; usage.cache_read_input_tokens of such turns (2.0.76: the system prompt; 2.1.x: all)`}
	// DropThinkingModels are matched anywhere in the model id, so that
	// ids behind a provider prefix match too.
	DropThinkingModels = Value[[]string]{Fact{Name: "DropThinkingModels",
		Doc:    "the models whose earlier turns' thinking the API drops: every Claude model before Claude Opus 4.5",
		Source: `Anthropic's "Building with extended thinking"`},
		[]string{"claude-3", "sonnet-4-2", "opus-4-2", "opus-4-1", "sonnet-4-5", "haiku-4-5"}}
)

// Asks reports whether Claude Code asks permission to run the tool named
// name unless a rule allows it (AskingTools, and the tools of MCP
// servers).
func Asks(name string) bool {
	return strings.HasPrefix(name, "mcp_") || slices.Contains(AskingTools.Value, name)
}

// DropsThinking reports whether the API drops the thinking of model's
// earlier turns (DropThinkingModels).
func DropsThinking(model string) bool { return matchesAny(model, DropThinkingModels.Value) }

// TurnRules are the versions the turn rules apply from or until. The zero
// value of a field means its default; "0" is before every version and
// "99" after, so "0" turns an Until rule off and "99" a From rule.
type TurnRules struct {
	// ThinkingKeywordsUntil: before it, a turn whose keyword thinking
	// budget differs from the previous call's rewrites the conversation
	// (ThinkingKeywords).
	ThinkingKeywordsUntil string
	// PostCompactTurnFrom: from it, the first user turn after a
	// compaction does (PostCompactTurn).
	PostCompactTurnFrom string
	// DropThinkingUntil: before it, a user turn after a turn with thinking
	// does, on the models of DropsThinking (DropThinking).
	DropThinkingUntil string
	// SecondTurnUntil: before it, the session's second user turn does
	// (SecondTurn).
	SecondTurnUntil string
}

// WithDefaults returns r with every empty field set to its default.
func (r TurnRules) WithDefaults() TurnRules {
	if r.ThinkingKeywordsUntil == "" {
		r.ThinkingKeywordsUntil = ThinkingKeywords.Until
	}
	if r.PostCompactTurnFrom == "" {
		r.PostCompactTurnFrom = PostCompactTurn.From
	}
	if r.DropThinkingUntil == "" {
		r.DropThinkingUntil = DropThinking.Until
	}
	if r.SecondTurnUntil == "" {
		r.SecondTurnUntil = SecondTurn.Until
	}
	return r
}

// Rewrite is a set of turn rules that applied at a call.
type Rewrite uint8

// The turn rules, in the order Turns.Next checks them.
const (
	// RewriteModelNamed: the system prompt names the model ("You are
	// powered by the model named …"), and Claude Code builds it when a
	// turn begins. When a turn went on on another model (a fallback, as
	// 1.0.x's "Claude Opus limit reached, now using Sonnet 4"), the next
	// turn on it names the new model, which its entries written during the
	// switched turn did not.
	RewriteModelNamed Rewrite = 1 << iota
	// RewriteThinkingBudget: the keyword thinking budget changed.
	RewriteThinkingBudget
	// RewriteSecondTurn: the session's second user turn.
	RewriteSecondTurn
	// RewriteThinkingDropped: the API dropped the previous turn's
	// thinking.
	RewriteThinkingDropped
	// RewritePostCompact: the first user turn after a compaction.
	RewritePostCompact
)

// TurnCall is what the turn rules need of a call.
type TurnCall struct {
	Model, Version string
	// NewTurn is set when a prompt the user typed precedes the call, and
	// Budget is then that prompt's keyword thinking budget
	// (replay.Message.PromptBudget).
	// The turn runs with it only when the call's response shows thinking
	// (Thought): a keyword that asked for a budget whose response did not
	// think set none (Turns.Next). Budget counts on no other call.
	NewTurn bool
	Budget  int64
	// Thought is set when the call's response has a thinking block.
	Thought bool
}

// Turns follows a thread's calls, in order, and says which turn rules
// apply at each.
type Turns struct {
	rules     TurnRules
	started   bool   // a call has been seen
	second    bool   // the second turn has begun, or the thread is past it
	thought   bool   // a response of the current turn had thinking
	compacted bool   // a compaction came since the current turn began
	turnModel string // the model the current turn began on
	budget    int64  // the thinking budget the current turn ran with
	prev      TurnCall
	// kwVersion and kw remember Keywords' last answer: it is asked twice
	// a call, of versions that seldom change within a thread.
	kwVersion string
	kw, kwSet bool
}

// NewTurns starts following a thread. continued is set when the thread
// continues a conversation from its summary (it is past its second turn).
func NewTurns(r TurnRules, continued bool) Turns {
	return Turns{rules: r.WithDefaults(), second: continued}
}

// Next returns the rules that apply at the thread's next call.
func (t *Turns) Next(c TurnCall) Rewrite {
	first := !t.started
	t.started = true
	rw := t.modelAndBudget(c, first)
	if !first && c.NewTurn && !t.second {
		t.second = true
		if Before(c.Version, t.rules.SecondTurnUntil) {
			rw |= RewriteSecondTurn
		}
	}
	if c.NewTurn && t.thought && Before(c.Version, t.rules.DropThinkingUntil) && DropsThinking(c.Model) {
		rw |= RewriteThinkingDropped
	}
	if c.NewTurn {
		t.thought = false
	}
	t.thought = t.thought || c.Thought
	if c.NewTurn && t.compacted {
		t.compacted = false
		if AtLeast(c.Version, t.rules.PostCompactTurnFrom) {
			rw |= RewritePostCompact
		}
	}
	t.prev = c
	return rw
}

// modelAndBudget follows the model and the keyword thinking budget a turn
// runs with, and returns the rules they set off at call c (the thread's
// first when first is set): a turn on the model a switched turn went on
// with, and a changed budget.
func (t *Turns) modelAndBudget(c TurnCall, first bool) Rewrite {
	var rw Rewrite
	budget := t.budget
	if first || c.NewTurn {
		if !first && c.Model == t.prev.Model && t.turnModel != "" && t.turnModel != c.Model {
			rw |= RewriteModelNamed
		}
		t.turnModel = c.Model
		budget = 0
		if c.Thought {
			budget = c.Budget
		}
	}
	if !first && t.Keywords(c.Version) && t.Keywords(t.prev.Version) && budget != t.budget {
		rw |= RewriteThinkingBudget
	}
	t.budget = budget
	return rw
}

// Budget is the keyword thinking budget the current turn runs with, as
// of the call Next last returned for (0 when it does not think).
func (t *Turns) Budget() int64 { return t.budget }

// Keywords reports whether a call on version sets its thinking budget
// from its prompt's keywords (before TurnRules.ThinkingKeywordsUntil):
// only then does TurnCall.Budget count.
func (t *Turns) Keywords(version string) bool {
	if !t.kwSet || version != t.kwVersion {
		t.kwVersion, t.kw, t.kwSet = version, Before(version, t.rules.ThinkingKeywordsUntil), true
	}
	return t.kw
}

// Compacted records a compaction before the call Next just returned for
// (its first user turn after is RewritePostCompact's).
func (t *Turns) Compacted() { t.compacted = true }
