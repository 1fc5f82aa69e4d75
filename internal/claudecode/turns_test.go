package claudecode

import (
	"regexp"
	"strings"
	"testing"
)

// Model ids as transcripts record them.
const (
	sonnet4  = "claude-sonnet-4-20250514"
	opus41   = "claude-opus-4-1-20250805"
	sonnet45 = "claude-sonnet-4-5-20250929"
	opus45   = "claude-opus-4-5-20251101"
	sonnet46 = "claude-sonnet-4-6"
)

func TestThinkingBudget(t *testing.T) {
	for text, want := range map[string]int64{
		"fix the parser":                      0,
		"I was thinking about the parser":     0, // "thinking" is not "think"
		"rethink this":                        0,
		"think about the parser":              ThinkBasic.Value, // "think about it" is the middle phrase, not "think about"
		"think about it":                      ThinkMiddle.Value,
		"think":                               ThinkBasic.Value,
		"Please THINK before you edit":        ThinkBasic.Value,
		"think hard about the cache":          ThinkMiddle.Value,
		"megathink: why is it slow":           ThinkMiddle.Value,
		"think deeply, then answer":           ThinkMiddle.Value,
		"think harder":                        ThinkHighest.Value,
		"fix the modules ultrathink":          ThinkHighest.Value,
		"think hard, no, think harder":        ThinkHighest.Value, // the strongest phrase wins
		"Ultrathink analyze self learning":    ThinkHighest.Value,
		"think very hard about the threshold": ThinkHighest.Value,
	} {
		if got := ThinkingBudget(text); got != want {
			t.Errorf("ThinkingBudget(%q) = %d, want %d", text, got, want)
		}
	}
}

// TestTurns follows threads call by call: each rule fires at its turn
// only, within its versions and on its models, and "0"/"99" turn it off.
func TestTurns(t *testing.T) {
	turn := func(model, version string, budget int64, thought bool) TurnCall {
		return TurnCall{Model: model, Version: version, NewTurn: true, Budget: budget, Thought: thought}
	}
	within := func(model, version string, budget int64, thought bool) TurnCall {
		return TurnCall{Model: model, Version: version, Budget: budget, Thought: thought}
	}
	const compacted = "compacted" // Compacted after the call
	type call struct {
		c     TurnCall
		after string
		want  Rewrite
	}
	off := TurnRules{ThinkingKeywordsUntil: "0", PostCompactTurnFrom: "99", DropThinkingUntil: "0", SecondTurnUntil: "0"}
	for _, tc := range []struct {
		name      string
		rules     TurnRules
		continued bool
		calls     []call
	}{
		// The second-turn rule holds in no version by default
		// (SecondTurn); turned on, it fires once, within its versions.
		{"second turn, by default", TurnRules{}, false, []call{
			{c: turn(sonnet45, "2.0.76", 0, false)},
			{c: turn(sonnet45, "2.0.76", 0, false)},
		}},
		{"second turn, once", TurnRules{SecondTurnUntil: "2.1.0"}, false, []call{
			{c: turn(sonnet45, "2.0.76", 0, false)},
			{c: within(sonnet45, "2.0.76", 0, false)},
			{c: turn(sonnet45, "2.0.76", 0, false), want: RewriteSecondTurn},
			{c: turn(sonnet45, "2.0.76", 0, false)},
		}},
		{"second turn, 2.1", TurnRules{SecondTurnUntil: "2.1.0"}, false, []call{
			{c: turn(sonnet45, "2.1.11", 0, false)},
			{c: turn(sonnet45, "2.1.11", 0, false)},
		}},
		{"second turn, continued", TurnRules{SecondTurnUntil: "2.1.0"}, true, []call{
			{c: within(sonnet45, "1.0.81", 0, false)},
			{c: turn(sonnet45, "1.0.81", 0, false)},
		}},
		// Thinking within a turn drops at the next turn, once.
		{"thinking dropped", TurnRules{}, true, []call{
			{c: turn(sonnet45, "2.0.76", 0, false)},
			{c: within(sonnet45, "2.0.76", 0, true)},
			{c: within(sonnet45, "2.0.76", 0, false)},
			{c: turn(sonnet45, "2.0.76", 0, false), want: RewriteThinkingDropped},
			{c: turn(sonnet45, "2.0.76", 0, false)},
		}},
		{"thinking kept: Opus 4.5", TurnRules{}, true, []call{
			{c: turn(opus45, "2.0.76", 0, true)},
			{c: turn(opus45, "2.0.76", 0, false)},
		}},
		{"thinking kept: 2.1", TurnRules{}, true, []call{
			{c: turn(sonnet45, "2.1.41", 0, true)},
			{c: turn(sonnet45, "2.1.41", 0, false)},
		}},
		// A turn runs with its keyword budget when its first response
		// thinks; a budget that changes breaks, once per turn, and not
		// from 2.0. (The drop rule is off: these models drop thinking.)
		{"thinking budget", TurnRules{DropThinkingUntil: "0"}, true, []call{
			{c: turn(sonnet4, "1.0.89", 0, false)},
			{c: turn(sonnet4, "1.0.89", ThinkHighest.Value, true), want: RewriteThinkingBudget},
			{c: within(sonnet4, "1.0.89", 0, false)},
			{c: turn(sonnet4, "1.0.89", ThinkHighest.Value, true)},
			{c: turn(sonnet4, "1.0.89", ThinkBasic.Value, true), want: RewriteThinkingBudget},
			{c: turn(sonnet4, "1.0.89", ThinkBasic.Value, false), want: RewriteThinkingBudget},
			{c: turn(sonnet4, "2.0.0", ThinkHighest.Value, true)},
		}},
		// A keyword whose response did not think set no budget: 1.0.80's
		// "i think that belongs …" (Opus 4.1), read whole both ways.
		{"keyword without thinking", TurnRules{}, true, []call{
			{c: turn(opus41, "1.0.80", 0, false)},
			{c: turn(opus41, "1.0.80", ThinkBasic.Value, false)},
			{c: within(opus41, "1.0.80", ThinkBasic.Value, false)},
			{c: turn(opus41, "1.0.80", 0, false)},
		}},
		{"model named", TurnRules{}, true, []call{
			{c: turn(opus41, "1.0.89", 0, false)},
			{c: within(sonnet4, "1.0.89", 0, false)},
			{c: turn(sonnet4, "1.0.89", 0, false), want: RewriteModelNamed},
			{c: turn(sonnet4, "1.0.89", 0, false)},
		}},
		// A model chosen between turns (/model) is named from its first turn.
		{"model chosen", TurnRules{}, true, []call{
			{c: turn(opus41, "1.0.89", 0, false)},
			{c: turn(sonnet4, "1.0.89", 0, false)},
			{c: turn(sonnet4, "1.0.89", 0, false)},
		}},
		{"post compaction", TurnRules{}, true, []call{
			{c: turn(sonnet46, "2.1.146", 0, false), after: compacted},
			{c: within(sonnet46, "2.1.146", 0, false)},
			{c: turn(sonnet46, "2.1.146", 0, false), want: RewritePostCompact},
			{c: turn(sonnet46, "2.1.146", 0, false)},
		}},
		{"post compaction, 2.1.41", TurnRules{}, true, []call{
			{c: turn(sonnet45, "2.1.41", 0, false), after: compacted},
			{c: turn(sonnet45, "2.1.41", 0, false)},
		}},
		{"rules off", off, false, []call{
			{c: turn(sonnet4, "1.0.89", 0, true), after: compacted},
			{c: turn(sonnet4, "1.0.89", ThinkHighest.Value, true)},
			{c: turn(sonnet4, "1.0.89", 0, false)},
		}},
		{"unknown version", TurnRules{}, false, []call{
			{c: turn(sonnet45, "", 0, true)},
			{c: turn(sonnet45, "", ThinkHighest.Value, false)},
		}},
	} {
		turns := NewTurns(tc.rules, tc.continued)
		for i, c := range tc.calls {
			if got := turns.Next(c.c); got != c.want {
				t.Errorf("%s: call %d: %05b, want %05b", tc.name, i+1, got, c.want)
			}
			if c.after == compacted {
				turns.Compacted()
			}
		}
	}
}

// TestThinkingBudgetRegexps checks ThinkingBudget against the phrases
// written as regular expressions, over every sequence of up to three of
// these words.
func TestThinkingBudgetRegexps(t *testing.T) {
	highest := regexp.MustCompile(`\bultrathink\b|\bthink (harder|intensely|longer|really hard|super hard|very hard)\b`)
	middle := regexp.MustCompile(`\bmegathink\b|\bthink (about it|a lot|deeply|hard|more)\b`)
	basic := regexp.MustCompile(`\bthink\b`)
	want := func(s string) int64 {
		s = strings.ToLower(s)
		switch {
		case highest.MatchString(s):
			return ThinkHighest.Value
		case middle.MatchString(s):
			return ThinkMiddle.Value
		case basic.MatchString(s):
			return ThinkBasic.Value
		}
		return 0
	}
	words := []string{"think", "Think", "THINK", "ultrathink", "megathink", "xultrathink", "ultra", "thinking", "rethink",
		"hard", "harder", "hardest", "very", "really", "super", "deeply", "longer", "intensely", "about", "it", "its", "a", "lot", "more", "_think", "think_", "think9", "é", "think,", " ", "\n"}
	seps := []string{" ", "", "\n", ", "}
	n := 0
	for _, a := range words {
		for _, b := range words {
			for _, c := range words {
				for _, sep := range seps {
					s := a + sep + b + " " + c
					if got, w := ThinkingBudget(s), want(s); got != w {
						t.Errorf("ThinkingBudget(%q) = %d, want %d", s, got, w)
						if n++; n > 10 {
							t.FailNow()
						}
					}
				}
			}
		}
	}
}

// TestWordEnd pins each range of word characters at its ends and one
// byte past them.
func TestWordEnd(t *testing.T) {
	for c, word := range map[byte]bool{
		'@': false, 'A': true, 'Z': true, '[': false,
		'`': false, 'a': true, 'z': true, '{': false,
		'/': false, '0': true, '9': true, ':': false,
		'_': true, ' ': false, 0xc3: false,
	} {
		if got := wordEnd(string(c), 0); got == word {
			t.Errorf("wordEnd(%q) = %v, want %v", c, got, !word)
		}
		if got := ThinkingBudget("think" + string(c)); (got == 0) != word {
			t.Errorf("ThinkingBudget(%q) = %d", "think"+string(c), got)
		}
	}
	if !wordEnd("ab", -1) || !wordEnd("ab", 2) || wordEnd("ab", 1) || wordEnd("ab", 0) {
		t.Error("wordEnd outside the text")
	}
}

// TestAsks: the tools Claude Code asks permission for, and an MCP
// server's (its name begins with "mcp_"); the read-only ones do not ask.
func TestAsks(t *testing.T) {
	for name, want := range map[string]bool{
		"Bash": true, "Edit": true, "MultiEdit": true, "NotebookEdit": true, "WebFetch": true, "WebSearch": true, "Write": true,
		"mcp__github__get_issue": true, "mcp_docker_jira": true,
		"Read": false, "Glob": false, "Grep": false, "LS": false, "TodoWrite": false, "Task": false, "mcp": false, "": false,
	} {
		if got := Asks(name); got != want {
			t.Errorf("Asks(%q) = %v, want %v", name, got, want)
		}
	}
}
