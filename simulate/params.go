package simulate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/internal/param"
)

// Param is one of the simulation's named parameters: a Claude Code (or
// endpoint) constant the cache model and the compaction machinery use,
// which Config.Set overrides by name. The policies' own parameters are
// set in their specs (ctxlab policies); these apply to every policy.
type Param struct {
	param.Param
	Field string // the Config field it sets
}

// Params lists the simulation's parameters with their defaults, in the
// order the documentation gives them: the version cut-offs first.
func Params() []Param {
	c := DefaultConfig()
	return bind(&c)
}

// cutoff is a Config field that moves the version at which a Claude Code
// fact starts or stops holding: it defaults to the fact's, and the
// parameter Name sets it.
type cutoff struct {
	dst   *string
	fact  claudecode.Fact
	name  string
	field string
}

// cutoffs lists the Config fields that move a fact's version cut-off, in
// the order Params gives them.
func (c *Config) cutoffs() []cutoff {
	return []cutoff{
		{&c.EstimateFrom, claudecode.Estimate, "estimate-from", "EstimateFrom"},
		{&c.EstimateResponseFrom, claudecode.EstimateResponse, "estimate-response-from", "EstimateResponseFrom"},
		{&c.ImageEstimateFrom, claudecode.ImageEstimate, "image-estimate-from", "ImageEstimateFrom"},
		{&c.AttachmentJSONFrom, claudecode.AttachmentJSON, "attachment-json-from", "AttachmentJSONFrom"},
		{&c.AttachmentSentFrom, claudecode.AttachmentSent, "attachment-sent-from", "AttachmentSentFrom"},
		{&c.AllBlocksFrom, claudecode.AllBlocks, "all-blocks-from", "AllBlocksFrom"},
		{&c.FinalOutputUntil, claudecode.FinalOutputHeld, "final-output-until", "FinalOutputUntil"},
		{&c.FinalOutputFrom, claudecode.FinalOutput, "final-output-from", "FinalOutputFrom"},
		{&c.ThinkingKeywordsUntil, claudecode.ThinkingKeywords, "thinking-keywords-until", "ThinkingKeywordsUntil"},
		{&c.DropThinkingUntil, claudecode.DropThinking, "drop-thinking-until", "DropThinkingUntil"},
		{&c.SecondTurnUntil, claudecode.SecondTurn, "second-turn-until", "SecondTurnUntil"},
		{&c.PostCompactTurnFrom, claudecode.PostCompactTurn, "post-compact-turn-from", "PostCompactTurnFrom"},
		{&c.SharedPrefixFrom, claudecode.SharedPrefix, "shared-prefix-from", "SharedPrefixFrom"},
		{&c.RestoreWrittenFrom, claudecode.RestoreWritten, "restore-written-from", "RestoreWrittenFrom"},
		{&c.PersistResultsFrom, claudecode.PersistResults, "persist-results-from", "PersistResultsFrom"},
		{&c.RestoreReferenceFrom, claudecode.RestoreReference, "restore-reference-from", "RestoreReferenceFrom"},
		{&c.RestoreSeedFrom, claudecode.RestoreSeed, "restore-seed-from", "RestoreSeedFrom"},
		{&c.SharedFilesUntil, claudecode.SharedFiles, "shared-files-until", "SharedFilesUntil"},
		{&c.PlanFileFrom, claudecode.PlanFile, "plan-file-from", "PlanFileFrom"},
		{&c.RestoreEstimateFrom, claudecode.ReadCountFallback, "restore-estimate-from", "RestoreEstimateFrom"},
	}
}

// fromFact is the cut-off's default: the version the fact holds from, or,
// for a fact that holds until a version, that one.
func (k cutoff) fromFact() string {
	if k.fact.From != "" {
		return k.fact.From
	}
	return k.fact.Until
}

// param is the cut-off's parameter, which says what holds from or before
// the version it sets.
func (k cutoff) param() Param {
	doc := "from this version on, " + k.fact.Doc
	if k.fact.From == "" {
		doc = "before this version, " + k.fact.Doc
	}
	return Param{param.Version(k.dst, k.name, *k.dst, doc), k.field}
}

// bind returns the parameters bound to c's fields, each defaulting to the
// field's value.
func bind(c *Config) []Param {
	var ps []Param
	for _, k := range c.cutoffs() {
		ps = append(ps, k.param())
	}
	return append(ps,
		Param{param.Duration(&c.SharedPrefixTTL, "shared-prefix-ttl", c.SharedPrefixTTL,
			"how long the system prompt prefix stays cached after the session's own last use, when other requests keep it warm"), "SharedPrefixTTL"},
		Param{param.DurationOrNone(&c.ClockSlack, "clock-slack", c.ClockSlack,
			"how long past its lifetime, by the transcript's clock, a cache entry is still read"), "ClockSlack"},
		Param{param.Duration(&c.GatewayTTL, "gateway-ttl", c.GatewayTTL,
			"cache lifetime of models reached through an Anthropic-compatible endpoint"), "GatewayTTL"},
		Param{param.Whole(&c.GatewayCacheUnit, "gateway-cache-unit", c.GatewayCacheUnit, 1,
			"unit in which such an endpoint caches a prompt, in tokens"), "GatewayCacheUnit"},
		Param{param.Whole(&c.CacheEntries, "cache-entries", c.CacheEntries, 1,
			"cache entries the model keeps (its bookkeeping, not a limit of the API)"), "CacheEntries"},
		Param{param.WholeOrNone(&c.RestoreFiles, "restore-files", c.RestoreFiles, 0,
			"recent files re-attached after a full compaction (0: none)"), "RestoreFiles"},
		Param{param.WholeOrNone(&c.RestoreFileTokens, "restore-file-tokens", c.RestoreFileTokens, 0,
			"tokens of each re-attached file at most, from restore-reference-from (0: none)"), "RestoreFileTokens"},
		Param{param.WholeOrNone(&c.RestoreFileTokensOld, "restore-file-tokens-old", c.RestoreFileTokensOld, 0,
			"tokens of each re-attached file at most, before restore-reference-from (0: none)"), "RestoreFileTokensOld"},
		Param{param.WholeOrNone(&c.RestoreTotalTokens, "restore-total-tokens", c.RestoreTotalTokens, 0,
			"tokens of all re-attached files at most (0: none)"), "RestoreTotalTokens"},
		Param{param.WholeOrNone(&c.ToolsGrowthMin, "tools-growth-min", c.ToolsGrowthMin, 0,
			"tokens the tools and system prompt must grow by at a call, beyond its messages, for a full compaction to keep the growth (0: none)"), "ToolsGrowthMin"},
		Param{param.Whole(&c.PersistedChars, "persisted-chars", c.PersistedChars, 1,
			"characters of the message Claude Code sends in place of a tool result over its tool's limit: the preview, the saved file's path and size"), "PersistedChars"},
		Param{param.OneOf(&c.ManualCompactions, "manual-compactions", c.ManualCompactions,
			"which runs compact where the user ran /compact: the policies that model Claude Code, every policy, or none", ManualClaudeCode, ManualAll, ManualNone), "ManualCompactions"},
	)
}

// Set overrides parameters by name from a comma-separated list of
// name=value pairs ("drop-thinking-until=0,shared-prefix-ttl=1h"). The
// error names the pair and what was wrong: an unknown name (with the
// known ones) or a value the parameter does not take. Config is left
// unchanged on error.
func (c *Config) Set(list string) error {
	next := *c
	ps := bind(&next)
	for _, kv := range strings.Split(list, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		name, v, ok := strings.Cut(kv, "=")
		name, v = strings.TrimSpace(name), strings.TrimSpace(v)
		if !ok || v == "" {
			return fmt.Errorf("%q: want name=value", kv)
		}
		i := slices.IndexFunc(ps, func(p Param) bool { return p.Name == name })
		if i < 0 {
			names := make([]string, len(ps))
			for i, p := range ps {
				names[i] = p.Name
			}
			return fmt.Errorf("unknown simulation parameter %q (known: %s)", name, strings.Join(names, ", "))
		}
		p := ps[i]
		if _, ok := p.Set(v); !ok {
			return fmt.Errorf("%s=%s: %s takes %s", name, v, name, p.Takes)
		}
	}
	*c = next
	return nil
}
