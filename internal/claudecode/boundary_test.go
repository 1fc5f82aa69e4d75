package claudecode

import "testing"

// TestVersionCutoffs pins each version cut-off: the rule holds on one side
// at the exact version and not on the other one version before (or the
// other way round for an Until rule).
func TestVersionCutoffs(t *testing.T) {
	// secondTurn and the others report whether the rule fires on version
	// at the call that should show it.
	secondTurn := func(version string) bool {
		turns := NewTurns(TurnRules{SecondTurnUntil: "2.1.0"}, false) // off by default: turned on at 2.1.0
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
		return LimitsFor(LimitParams{}, sonnet45, version).Reserved == ReservedOld.Value
	}
	// ResultLimitFor gives an unknown version the newest limits, as the
	// count's rules do (TestResultLimitFor): these check the known ones.
	persist := func(version string) bool { return version != "" && ResultLimitFor(version, "Read", "") > 0 }
	limitOld := func(version string) bool {
		return version != "" && ResultLimitFor(version, "Read", "") == ResultLimitOld.Value
	}
	for _, c := range []struct {
		name, cutoff, prev string
		rule               func(string) bool
		from               bool // the rule holds from the cut-off on (else before it)
	}{
		{"ThinkingKeywords", ThinkingKeywords.Until, "1.0.128", keywords, false},
		{"SecondTurn turned on until 2.1.0", "2.1.0", "2.0.77", secondTurn, false},
		{"AllowedTools from", AllowedTools.From, "1.0.65", AllowedTools.In, true},
		{"AllowedTools until", AllowedTools.Until, "2.0.76", AllowedTools.In, false},
		{"DateUTC", DateUTC.Until, "1.0.109", DateUTC.In, false},
		{"DropThinking", DropThinking.Until, "2.0.77", dropThinking, false},
		{"PostCompactTurn", PostCompactTurn.From, "2.1.125", postCompact, true},
		{"ReservedOld", ReservedOld.Until, "2.1.21", reservedOld, false},
		{"MicroBySize from", MicroBySize.From, "2.0.77", MicroBySize.In, true},
		{"MicroBySize until", MicroBySize.Until, "2.1.21", MicroBySize.In, false},
		{"SkillsReload", SkillsReload.From, "2.0.77", SkillsReload.In, true},
		{"PlaceholderOutput from", PlaceholderOutput.From, "2.1.8", PlaceholderOutput.In, true},
		{"PlaceholderOutput until", PlaceholderOutput.Until, "2.1.41", PlaceholderOutput.In, false},
		{"PersistResults", PersistResults.From, "2.1.1", persist, true},
		{"ResultLimitOld until", ResultLimitOld.Until, "2.1.5", limitOld, false},
		{"RestoreReference", RestoreReference.From, "1.0.84", RestoreReference.In, true},
		{"RestoreWritten", RestoreWritten.From, "1.0.113", RestoreWritten.In, true},
		{"SharedFiles", SharedFiles.Until, "1.0.116", SharedFiles.In, false},
		{"RestoreSeed", RestoreSeed.From, "2.0.58", RestoreSeed.In, true},
		{"PlanFile", PlanFile.From, "2.0.55", PlanFile.In, true},
		{"ReadCountFallback", ReadCountFallback.From, "2.1.5", ReadCountFallback.In, true},
	} {
		if CompareVersions(c.prev, c.cutoff) >= 0 {
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
		"ThinkingKeywords until":  {ThinkingKeywords.Until, "2.0.0"},
		"SecondTurn until":        {SecondTurn.Until, "0"},
		"AllowedTools from":       {AllowedTools.From, "1.0.66"},
		"AllowedTools until":      {AllowedTools.Until, "2.1.0"},
		"DateUTC until":           {DateUTC.Until, "1.0.110"},
		"DropThinking until":      {DropThinking.Until, "2.1.0"},
		"PostCompactTurn from":    {PostCompactTurn.From, "2.1.126"},
		"ReservedOld until":       {ReservedOld.Until, "2.1.22"},
		"ReservedNew from":        {ReservedNew.From, "2.1.22"},
		"Estimate from":           {Estimate.From, "2.1.2"},
		"EstimateResponse from":   {EstimateResponse.From, "2.1.88"},
		"FinalOutput from":        {FinalOutput.From, "2.1.30"},
		"FinalOutputHeld until":   {FinalOutputHeld.Until, "2.1.8"},
		"ImageEstimate from":      {ImageEstimate.From, "2.1.38"},
		"AttachmentJSON from":     {AttachmentJSON.From, "2.1.33"},
		"AttachmentSent from":     {AttachmentSent.From, "2.1.45"},
		"AllBlocks from":          {AllBlocks.From, "2.1.74"},
		"SharedPrefix from":       {SharedPrefix.From, "2.0.0"},
		"MicroBySize from":        {MicroBySize.From, "2.1.0"},
		"MicroBySize until":       {MicroBySize.Until, "2.1.22"},
		"RestoreWritten from":     {RestoreWritten.From, "1.0.114"},
		"RestoreReference from":   {RestoreReference.From, "1.0.85"},
		"RestoreFileTokens from":  {RestoreFileTokens.From, "1.0.85"},
		"RestoreFileTokensOld":    {RestoreFileTokensOld.Until, "1.0.85"},
		"SharedFiles until":       {SharedFiles.Until, "1.0.117"},
		"RestoreSeed from":        {RestoreSeed.From, "2.0.59"},
		"PlanFile from":           {PlanFile.From, "2.0.56"},
		"ReadCountFallback from":  {ReadCountFallback.From, "2.1.6"},
		"SkillsReload from":       {SkillsReload.From, "2.1.0"},
		"PlaceholderOutput from":  {PlaceholderOutput.From, "2.1.9"},
		"PlaceholderOutput until": {PlaceholderOutput.Until, "2.1.42"},
		"PersistResults from":     {PersistResults.From, "2.1.2"},
		"ResultLimitOld until":    {ResultLimitOld.Until, "2.1.6"},
		"ResultLimit from":        {ResultLimit.From, "2.1.6"},
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
		{Model: sonnet4, Version: "1.0.0", NewTurn: true, Budget: ThinkHighest.Value},
		{Model: sonnet4, Version: "98.0.0", NewTurn: true},
	} {
		if got := turns.Next(c); got != 0 {
			t.Errorf("call %d: %05b, want none", i+1, got)
		}
		turns.Compacted()
	}
	if d := (TurnRules{}).WithDefaults(); d != (TurnRules{ThinkingKeywords.Until, PostCompactTurn.From, DropThinking.Until, SecondTurn.Until}) {
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
			Limits{Window: 200_000, Reserved: 20_000, Available: 180_000, Threshold: 1, Warning: 1 - WarningOffset.Value, Blocking: 197_000}},
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
		"ContextWindow":     {ContextWindow.Value, 200_000},
		"LongWindow":        {LongWindow.Value, 1_000_000},
		"ReservedOld":       {ReservedOld.Value, 32_000},
		"ReservedNew":       {ReservedNew.Value, 20_000},
		"AutoCompactBuffer": {AutoCompactBuffer.Value, 13_000},
		"WarningOffset":     {WarningOffset.Value, 20_000},
		"BlockingOffset":    {BlockingOffset.Value, 3_000},
	} {
		if c[0] != c[1] {
			t.Errorf("%s = %d, want %d", name, c[0], c[1])
		}
	}
}
