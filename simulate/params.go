package simulate

import (
	"fmt"
	"slices"
	"strings"

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
// order the documentation gives them.
func Params() []Param {
	c := DefaultConfig()
	return bind(&c)
}

// bind returns the parameters bound to c's fields, each defaulting to the
// field's value.
func bind(c *Config) []Param {
	return []Param{
		{param.Version(&c.EstimateFrom, "estimate-from", c.EstimateFrom,
			"first version whose auto-compaction check adds an estimate of what followed the last response"), "EstimateFrom"},
		{param.Version(&c.EstimateResponseFrom, "estimate-response-from", c.EstimateResponseFrom,
			"first version whose auto-compaction check also estimates the last response's blocks after its first"), "EstimateResponseFrom"},
		{param.Version(&c.ImageEstimateFrom, "image-estimate-from", c.ImageEstimateFrom,
			"first version whose auto-compaction check counts an image 2,000 tokens; 1,334 before it"), "ImageEstimateFrom"},
		{param.Version(&c.AttachmentJSONFrom, "attachment-json-from", c.AttachmentJSONFrom,
			"first version whose auto-compaction check counts an attachment, by the estimate of its JSON; nothing before it"), "AttachmentJSONFrom"},
		{param.Version(&c.AttachmentSentFrom, "attachment-sent-from", c.AttachmentSentFrom,
			"first version whose auto-compaction check counts an attachment by what it sends the model"), "AttachmentSentFrom"},
		{param.Version(&c.AllBlocksFrom, "all-blocks-from", c.AllBlocksFrom,
			"first version whose auto-compaction check counts a document 2,000 tokens and every other block by its estimate; before it, only text, tool results and images"), "AllBlocksFrom"},
		{param.Version(&c.FinalOutputUntil, "final-output-until", c.FinalOutputUntil,
			"first version whose auto-compaction check counts the placeholder output of a response's first streamed event, not its final output"), "FinalOutputUntil"},
		{param.Version(&c.FinalOutputFrom, "final-output-from", c.FinalOutputFrom,
			"first version from final-output-until on whose auto-compaction check counts a response's final output again"), "FinalOutputFrom"},
		{param.Version(&c.ThinkingKeywordsUntil, "thinking-keywords-until", c.ThinkingKeywordsUntil,
			"first version whose thinking budget no longer follows the prompt's keywords; before it a changed budget breaks the cached messages"), "ThinkingKeywordsUntil"},
		{param.Version(&c.DropThinkingUntil, "drop-thinking-until", c.DropThinkingUntil,
			"first version whose turns keep the cached conversation after a turn with thinking (on models before Claude Opus 4.5)"), "DropThinkingUntil"},
		{param.Version(&c.SecondTurnUntil, "second-turn-until", c.SecondTurnUntil,
			"first version whose second user turn reads more than the system prompt"), "SecondTurnUntil"},
		{param.Version(&c.PostCompactTurnFrom, "post-compact-turn-from", c.PostCompactTurnFrom,
			"first version whose first user turn after a compaction reads only the system prompt"), "PostCompactTurnFrom"},
		{param.Version(&c.SharedPrefixFrom, "shared-prefix-from", c.SharedPrefixFrom,
			"first version whose first call on a new version still reads the system prompt prefix"), "SharedPrefixFrom"},
		{param.Duration(&c.SharedPrefixTTL, "shared-prefix-ttl", c.SharedPrefixTTL,
			"how long the system prompt prefix stays cached after the session's own last use, when other requests keep it warm"), "SharedPrefixTTL"},
		{param.DurationOrNone(&c.ClockSlack, "clock-slack", c.ClockSlack,
			"how long past its lifetime, by the transcript's clock, a cache entry is still read"), "ClockSlack"},
		{param.Duration(&c.GatewayTTL, "gateway-ttl", c.GatewayTTL,
			"cache lifetime of models reached through an Anthropic-compatible endpoint"), "GatewayTTL"},
		{param.Whole(&c.GatewayCacheUnit, "gateway-cache-unit", c.GatewayCacheUnit, 1,
			"unit in which such an endpoint caches a prompt, in tokens"), "GatewayCacheUnit"},
		{param.Whole(&c.CacheEntries, "cache-entries", c.CacheEntries, 1,
			"cache entries the model keeps (its bookkeeping, not a limit of the API)"), "CacheEntries"},
		{param.WholeOrNone(&c.RestoreFiles, "restore-files", c.RestoreFiles, 0,
			"recent files re-attached after a full compaction (0: none)"), "RestoreFiles"},
		{param.WholeOrNone(&c.RestoreFileTokens, "restore-file-tokens", c.RestoreFileTokens, 0,
			"tokens of each re-attached file at most (0: none)"), "RestoreFileTokens"},
		{param.WholeOrNone(&c.RestoreTotalTokens, "restore-total-tokens", c.RestoreTotalTokens, 0,
			"tokens of all re-attached files at most (0: none)"), "RestoreTotalTokens"},
		{param.OneOf(&c.ManualCompactions, "manual-compactions", c.ManualCompactions,
			"which runs compact where the user ran /compact: the policies that model Claude Code, every policy, or none", ManualClaudeCode, ManualAll, ManualNone), "ManualCompactions"},
		{param.Version(&c.RestoreWrittenFrom, "restore-written-from", c.RestoreWrittenFrom,
			"first version whose restoration after a compaction counts the files a tool wrote, before those only read"), "RestoreWrittenFrom"},
	}
}

// Set overrides parameters by name from a comma-separated list of
// name=value pairs ("second-turn-until=0,shared-prefix-ttl=1h"). The
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
