package claudecode

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Fact is one thing Claude Code, or the Anthropic API it calls, does that
// ctxlab's reports and simulator apply: its name (the variable here that
// holds it, and the name docs/claude-code.md lists it by), the versions it
// holds in, what it does, and where anyone can check it. Code reads a
// rule's versions from the variable, and a Value's value; Facts lists
// them all.
type Fact struct {
	Name string
	// From is the first Claude Code version the fact holds in, Until the
	// first it no longer holds in; "" leaves that end open, so a fact
	// with neither holds in every version.
	From, Until string
	// Doc says what it does, as a clause that reads after "before it," or
	// "from it on," for a rule with one cut-off.
	Doc string
	// Source is where anyone can check it: a version's bundled cli.js or
	// CHANGELOG, a transcript field, one of Anthropic's documents by title.
	Source string
}

// In reports whether the fact holds in version: a known version from
// From on and before Until.
func (f Fact) In(version string) bool {
	return version != "" && (f.From == "" || CompareVersions(version, f.From) >= 0) &&
		(f.Until == "" || CompareVersions(version, f.Until) < 0)
}

// Versions says in words which versions the fact holds in.
func (f Fact) Versions() string {
	if f.Until == "0" {
		return "no version"
	}
	var parts []string
	if f.From != "" {
		parts = append(parts, "from "+f.From)
	}
	if f.Until != "" {
		parts = append(parts, "before "+f.Until)
	}
	if len(parts) == 0 {
		return "every version"
	}
	return strings.Join(parts, ", ")
}

// Value is a fact that is a value: a number of tokens, a duration, a
// share, a list.
type Value[T any] struct {
	Fact
	Value T
}

// Listed is a fact as docs/claude-code.md lists it: the fact and its
// value in words ("" for a fact that is a rule).
type Listed struct {
	Fact
	Value string
}

func (f Fact) listed() Listed { return Listed{Fact: f} }

func (v Value[T]) listed() Listed { return Listed{Fact: v.Fact, Value: valueText(v.Value)} }

// Row is the fact's row in docs/claude-code.md's table.
func (l Listed) Row() string {
	return fmt.Sprintf("| `%s` | %s | %s | %s | %s |", l.Name, l.Versions(), l.Value, l.Doc, l.Source)
}

// Facts lists every fact, in the order docs/claude-code.md gives them.
func Facts() []Listed {
	return []Listed{
		VersionOrder.listed(), ModelIDs.listed(), SyntheticModel.listed(), PlaceholderOutput.listed(),
		SummarySaysAuto.listed(), ResultAsSent.listed(),

		ContextWindow.listed(), LongWindow.listed(), LongWindowModels.listed(), ReservedOld.listed(),
		ReservedNew.listed(), AutoCompactBuffer.listed(), WarningOffset.listed(), BlockingOffset.listed(),
		Estimate.listed(), FinalOutputHeld.listed(), FinalOutput.listed(), EstimateResponse.listed(),
		ImageTokens.listed(), ImageEstimate.listed(), ImageEstimateOld.listed(), AttachmentJSON.listed(), AttachmentSent.listed(), AllBlocks.listed(),
		PersistResults.listed(), ResultLimitOld.listed(), ResultLimit.listed(), ToolResultLimits.listed(), PersistPreview.listed(),
		PersistedWrapper.listed(),

		CacheTTL5m.listed(), CacheTTL1h.listed(), CacheWriteModels.listed(), MinCacheable.listed(),
		MinCacheableOther.listed(), BreakMinFraction.listed(), BreakMinTokens.listed(), BreakExcludedModels.listed(),
		SharedPrefix.listed(),

		ThinkingKeywords.listed(), ThinkBasic.listed(), ThinkMiddle.listed(), ThinkHighest.listed(),
		SecondTurn.listed(), AllowedTools.listed(), AskingTools.listed(), DateUTC.listed(), DropThinking.listed(), DropThinkingModels.listed(),
		PostCompactTurn.listed(), SkillsReload.listed(), MCPToolsLive.listed(),

		MicroBySize.listed(), MicroKeep.listed(), MicroTarget.listed(), MicroMinSavings.listed(),
		CompactableTools.listed(), Placeholder.listed(),

		RestoreFiles.listed(), RestoreFileTokensOld.listed(), RestoreFileTokens.listed(), RestoreCounted.listed(), ReadCountFallback.listed(),
		RestoreReference.listed(), RestoreTotalTokens.listed(), RestoreWritten.listed(), SharedFiles.listed(),
		RestoreSeed.listed(), PlanFile.listed(), ReadLinePrefix.listed(), ReadLineLimit.listed(),
		RestoreWrapChars.listed(), ReferenceChars.listed(), TruncatedChars.listed(), PlanChars.listed(),
		AttachmentJSONChars.listed(), ReferenceJSONChars.listed(),
	}
}

// valueText writes a fact's value as docs/claude-code.md shows it.
func valueText(v any) string {
	switch v := v.(type) {
	case int:
		return groupDigits(int64(v))
	case int64:
		return groupDigits(v)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case time.Duration:
		if v%time.Hour == 0 {
			return strconv.FormatInt(int64(v/time.Hour), 10) + "h"
		}
		return strconv.FormatInt(int64(v/time.Minute), 10) + "m"
	case string:
		return "`" + v + "`"
	case []string:
		return "`" + strings.Join(v, "`, `") + "`"
	case []ToolLimit:
		parts := make([]string, len(v))
		for i, l := range v {
			parts[i] = "`" + l.Tool + "` " + groupDigits(int64(l.Chars))
		}
		return strings.Join(parts, ", ")
	case []MinPrefix:
		parts := make([]string, len(v))
		for i, r := range v {
			parts[i] = "`" + r.Match + "` " + groupDigits(r.Tokens)
		}
		return strings.Join(parts, ", ")
	}
	return fmt.Sprint(v)
}

// groupDigits writes n with a comma between groups of three digits.
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	sign := ""
	if n < 0 {
		sign, s = "-", s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return sign + s
}
