package claudecode

import (
	"testing"

	"github.com/ctxlab/ctxlab/replay"
)

// TestVersionCutoffs pins each version cut-off: the rule holds on one side
// at the exact version and not on the other one version before (or the
// other way round for an Until rule).
func TestVersionCutoffs(t *testing.T) {
	// secondTurn and the others report whether the rule fires on version
	// at the call that should show it.
	secondTurn := func(version string) bool {
		turns := NewTurns(TurnRules{}, false)
		turns.Next(TurnCall{Model: sonnet45, Version: version, NewTurn: true})
		return turns.Next(TurnCall{Model: sonnet45, Version: version, NewTurn: true})&RewriteSecondTurn != 0
	}
	dropThinking := func(version string) bool {
		turns := NewTurns(TurnRules{}, true)
		turns.Next(TurnCall{Model: sonnet45, Version: version, NewTurn: true, Thought: true})
		return turns.Next(TurnCall{Model: sonnet45, Version: version, NewTurn: true})&RewriteThinkingDropped != 0
	}
	postCompact := func(version string) bool {
		turns := NewTurns(TurnRules{}, true)
		turns.Next(TurnCall{Model: sonnet46, Version: version, NewTurn: true})
		turns.Compacted()
		return turns.Next(TurnCall{Model: sonnet46, Version: version, NewTurn: true})&RewritePostCompact != 0
	}
	keywords := func(version string) bool {
		turns := NewTurns(TurnRules{}, true)
		return turns.Keywords(version)
	}
	reservedOld := func(version string) bool {
		return LimitsFor(LimitParams{}, sonnet45, version).Reserved == ReservedOld
	}
	for _, c := range []struct {
		name, cutoff, prev string
		rule               func(string) bool
		from               bool // the rule holds from the cut-off on (else before it)
	}{
		{"ThinkingKeywordsUntil", ThinkingKeywordsUntil, "1.0.128", keywords, false},
		{"SecondTurnUntil", SecondTurnUntil, "2.0.77", secondTurn, false},
		{"DropThinkingUntil", DropThinkingUntil, "2.0.77", dropThinking, false},
		{"PostCompactTurnFrom", PostCompactTurnFrom, "2.1.125", postCompact, true},
		{"ReservedNewFrom", ReservedNewFrom, "2.1.21", reservedOld, false},
		{"MicroFrom", MicroFrom, "2.0.77", MicroBySize, true},
		{"MicroUntil", MicroUntil, "2.1.21", MicroBySize, false},
	} {
		if replay.CompareVersions(c.prev, c.cutoff) >= 0 {
			t.Fatalf("%s: %s is not before %s", c.name, c.prev, c.cutoff)
		}
		if got := c.rule(c.cutoff); got != c.from {
			t.Errorf("%s: at %s: %v, want %v", c.name, c.cutoff, got, c.from)
		}
		if got := c.rule(c.prev); got == c.from {
			t.Errorf("%s: at %s: %v, want %v", c.name, c.prev, got, !c.from)
		}
		if c.rule("") {
			t.Errorf("%s: holds on an unknown version", c.name)
		}
	}
}

// TestCutoffVersions pins the cut-offs the simulator reads as parameter
// defaults, and where each falls (docs/simulation.md gives the evidence).
func TestCutoffVersions(t *testing.T) {
	for name, c := range map[string][2]string{
		"ThinkingKeywordsUntil": {ThinkingKeywordsUntil, "2.0.0"},
		"SecondTurnUntil":       {SecondTurnUntil, "2.1.0"},
		"DropThinkingUntil":     {DropThinkingUntil, "2.1.0"},
		"PostCompactTurnFrom":   {PostCompactTurnFrom, "2.1.126"},
		"ReservedNewFrom":       {ReservedNewFrom, "2.1.22"},
		"EstimateFrom":          {EstimateFrom, "2.1.2"},
		"ImageEstimateFrom":     {ImageEstimateFrom, "2.1.38"},
		"AttachmentJSONFrom":    {AttachmentJSONFrom, "2.1.33"},
		"AttachmentSentFrom":    {AttachmentSentFrom, "2.1.45"},
		"AllBlocksFrom":         {AllBlocksFrom, "2.1.74"},
		"FinalOutputUntil":      {FinalOutputUntil, "2.1.8"},
		"FinalOutputFrom":       {FinalOutputFrom, "2.1.30"},
		"EstimateResponseFrom":  {EstimateResponseFrom, "2.1.88"},
		"SharedPrefixFrom":      {SharedPrefixFrom, "2.0.0"},
		"MicroFrom":             {MicroFrom, "2.1.0"},
		"MicroUntil":            {MicroUntil, "2.1.22"},
		"RestoreWrittenFrom":    {RestoreWrittenFrom, "2.0.0"},
	} {
		if c[0] != c[1] {
			t.Errorf("%s = %s, want %s", name, c[0], c[1])
		}
	}
}

// TestRulesOff checks the versions that turn each rule off: "0" before
// every version for an Until rule, "99" after every version for a From one.
func TestRulesOff(t *testing.T) {
	off := TurnRules{ThinkingKeywordsUntil: "0", PostCompactTurnFrom: "99", DropThinkingUntil: "0", SecondTurnUntil: "0"}
	turns := NewTurns(off, false)
	for i, c := range []TurnCall{
		{Model: sonnet4, Version: "1.0.0", NewTurn: true, Thought: true},
		{Model: sonnet4, Version: "1.0.0", NewTurn: true, Budget: ThinkHighest},
		{Model: sonnet4, Version: "98.0.0", NewTurn: true},
	} {
		if got := turns.Next(c); got != 0 {
			t.Errorf("call %d: %05b, want none", i+1, got)
		}
		turns.Compacted()
	}
	if d := (TurnRules{}).WithDefaults(); d != (TurnRules{ThinkingKeywordsUntil, PostCompactTurnFrom, DropThinkingUntil, SecondTurnUntil}) {
		t.Errorf("WithDefaults: %+v", d)
	}
	if d := off.WithDefaults(); d != off {
		t.Errorf("WithDefaults changed set rules: %+v", d)
	}
}

// TestLimitBounds pins the numeric bounds of LimitsFor: each parameter at
// its value and one unit past, and the pct override's range (0, 100].
func TestLimitBounds(t *testing.T) {
	const v = "2.1.146"
	for _, c := range []struct {
		name string
		p    LimitParams
		want Limits
	}{
		{"window, buffer, reserve set", LimitParams{Window: 100_001, Reserved: 10_001, Buffer: 1_001},
			Limits{Window: 100_001, Reserved: 10_001, Available: 90_000, Threshold: 88_999, Warning: 68_999, Blocking: 97_001}},
		{"pct 0 is unset", LimitParams{Pct: 0},
			Limits{Window: 200_000, Reserved: 20_000, Available: 180_000, Threshold: 167_000, Warning: 147_000, Blocking: 197_000}},
		{"pct just above 0", LimitParams{Pct: 0.001},
			Limits{Window: 200_000, Reserved: 20_000, Available: 180_000, Threshold: 1, Warning: 1 - WarningOffset, Blocking: 197_000}},
		{"pct 100 cannot raise", LimitParams{Pct: 100},
			Limits{Window: 200_000, Reserved: 20_000, Available: 180_000, Threshold: 167_000, Warning: 147_000, Blocking: 197_000}},
		{"pct above 100 is unset", LimitParams{Pct: 100.5, Buffer: -1},
			Limits{Window: 200_000, Reserved: 20_000, Available: 180_000, Threshold: 180_001, Warning: 160_001, Blocking: 197_000}},
		{"pct 100 with a negative buffer", LimitParams{Pct: 100, Buffer: -1},
			Limits{Window: 200_000, Reserved: 20_000, Available: 180_000, Threshold: 180_000, Warning: 160_000, Blocking: 197_000}},
	} {
		if got := LimitsFor(c.p, sonnet46, v); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
	// The constants the thresholds are built from.
	for name, c := range map[string][2]int64{
		"DefaultWindow":     {DefaultWindow, 200_000},
		"LongWindow":        {LongWindow, 1_000_000},
		"ReservedOld":       {ReservedOld, 32_000},
		"ReservedNew":       {ReservedNew, 20_000},
		"AutoCompactBuffer": {AutoCompactBuffer, 13_000},
		"WarningOffset":     {WarningOffset, 20_000},
		"BlockingOffset":    {BlockingOffset, 3_000},
	} {
		if c[0] != c[1] {
			t.Errorf("%s = %d, want %d", name, c[0], c[1])
		}
	}
}
