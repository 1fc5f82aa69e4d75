package simulate

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Param is one of the simulation's named parameters: a Claude Code (or
// endpoint) constant the cache model and the compaction machinery use,
// which Config.Set overrides by name. The policies' own parameters are
// set in their specs (ctxlab policies); these apply to every policy.
type Param struct {
	Name string
	// Takes says what values it takes, as its errors word them.
	Takes string
	// Doc says what it is, and Field the Config field it sets.
	Doc, Field string
	set        func(c *Config, v string) bool
	get        func(c Config) string
}

// Default returns the parameter's default value, in the form Set takes.
func (p Param) Default() string { return p.get(DefaultConfig()) }

// Params lists the simulation's parameters, in the order the
// documentation gives them.
func Params() []Param { return slices.Clone(params) }

var versionRE = regexp.MustCompile(`^\d+(\.\d+){0,2}$`)

// version binds a Claude Code version field: the first version a rule
// applies from, or the first it no longer applies to. "0" is before every
// version and "99" after.
func version(name, field, doc string, f func(*Config) *string) Param {
	return Param{
		Name: name, Field: field, Doc: doc, Takes: `a Claude Code version (2.1.0; "0" before every version, "99" after)`,
		set: func(c *Config, v string) bool {
			if !versionRE.MatchString(v) {
				return false
			}
			*f(c) = v
			return true
		},
		get: func(c Config) string { return *f(&c) },
	}
}

// duration binds a positive duration field.
func duration(name, field, doc string, f func(*Config) *time.Duration) Param {
	return Param{
		Name: name, Field: field, Doc: doc, Takes: "a duration above 0 (90s, 5m, 6h)",
		set: func(c *Config, v string) bool {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return false
			}
			*f(c) = d
			return true
		},
		get: func(c Config) string { return formatDuration(*f(&c)) },
	}
}

// count binds a whole-number field of at least least. Where the Config
// field takes a negative value for none, none is 0 here (least 0).
func count[T int | int64](name, field, doc string, least T, f func(*Config) *T) Param {
	return Param{
		Name: name, Field: field, Doc: doc, Takes: fmt.Sprintf("a whole number ≥ %d", least),
		set: func(c *Config, v string) bool {
			n, err := strconv.ParseInt(strings.ReplaceAll(v, "_", ""), 10, 64)
			if err != nil || n < int64(least) {
				return false
			}
			if n == 0 {
				n = -1 // the Config's none; its 0 is the default
			}
			*f(c) = T(n)
			return true
		},
		get: func(c Config) string { return strconv.FormatInt(max(int64(*f(&c)), 0), 10) },
	}
}

// formatDuration writes d as time.ParseDuration reads it, without the
// zero units time.Duration.String adds ("6h", not "6h0m0s").
func formatDuration(d time.Duration) string {
	s := d.String()
	for _, zeros := range []string{"m0s", "h0m"} { // 6h0m0s → 6h0m → 6h
		if strings.HasSuffix(s, zeros) {
			s = s[:len(s)-2]
		}
	}
	return s
}

var params = []Param{
	version("estimate-from", "EstimateFrom", "first version whose auto-compaction check adds an estimate of what followed the last response",
		func(c *Config) *string { return &c.EstimateFrom }),
	version("estimate-response-from", "EstimateResponseFrom", "first version whose auto-compaction check also estimates the last response's blocks after its first",
		func(c *Config) *string { return &c.EstimateResponseFrom }),
	version("thinking-keywords-until", "ThinkingKeywordsUntil", "first version whose thinking budget no longer follows the prompt's keywords; before it a changed budget breaks the cached messages",
		func(c *Config) *string { return &c.ThinkingKeywordsUntil }),
	version("drop-thinking-until", "DropThinkingUntil", "first version whose turns keep the cached conversation after a turn with thinking (on models before Claude Opus 4.5)",
		func(c *Config) *string { return &c.DropThinkingUntil }),
	version("second-turn-until", "SecondTurnUntil", "first version whose second user turn reads more than the system prompt",
		func(c *Config) *string { return &c.SecondTurnUntil }),
	version("post-compact-turn-from", "PostCompactTurnFrom", "first version whose first user turn after a compaction reads only the system prompt",
		func(c *Config) *string { return &c.PostCompactTurnFrom }),
	version("shared-prefix-from", "SharedPrefixFrom", "first version whose first call on a new version still reads the system prompt prefix",
		func(c *Config) *string { return &c.SharedPrefixFrom }),
	duration("shared-prefix-ttl", "SharedPrefixTTL", "how long the system prompt prefix stays cached after the session's own last use, when other requests keep it warm",
		func(c *Config) *time.Duration { return &c.SharedPrefixTTL }),
	{
		Name: "clock-slack", Field: "ClockSlack", Takes: "a duration of 0 or more (0: none)",
		Doc: "how long past its lifetime, by the transcript's clock, a cache entry is still read",
		set: func(c *Config, v string) bool {
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 {
				return false
			}
			if d == 0 {
				d = -1 // the Config's none; its 0 is the default
			}
			c.ClockSlack = d
			return true
		},
		get: func(c Config) string { return formatDuration(max(c.ClockSlack, 0)) },
	},
	duration("gateway-ttl", "GatewayTTL", "cache lifetime of models reached through an Anthropic-compatible endpoint",
		func(c *Config) *time.Duration { return &c.GatewayTTL }),
	count("gateway-cache-unit", "GatewayCacheUnit", "unit in which such an endpoint caches a prompt, in tokens", int64(1),
		func(c *Config) *int64 { return &c.GatewayCacheUnit }),
	count("cache-entries", "CacheEntries", "cache entries the model keeps (its bookkeeping, not a limit of the API)", 1,
		func(c *Config) *int { return &c.CacheEntries }),
	count("restore-files", "RestoreFiles", "recent files re-attached after a full compaction (0: none)", 0,
		func(c *Config) *int { return &c.RestoreFiles }),
	count("restore-file-tokens", "RestoreFileTokens", "tokens of each re-attached file at most (0: none)", int64(0),
		func(c *Config) *int64 { return &c.RestoreFileTokens }),
	count("restore-total-tokens", "RestoreTotalTokens", "tokens of all re-attached files at most (0: none)", int64(0),
		func(c *Config) *int64 { return &c.RestoreTotalTokens }),
	{
		Name: "manual-compactions", Field: "ManualCompactions", Takes: "claude-code, all or none",
		Doc: "which runs compact where the user ran /compact: the policies that model Claude Code, every policy, or none",
		set: func(c *Config, v string) bool {
			if v != ManualClaudeCode && v != ManualAll && v != ManualNone {
				return false
			}
			c.ManualCompactions = v
			return true
		},
		get: func(c Config) string { return c.ManualCompactions },
	},
	version("restore-written-from", "RestoreWrittenFrom", "first version whose restoration after a compaction counts the files a tool wrote, before those only read",
		func(c *Config) *string { return &c.RestoreWrittenFrom }),
}

// Set overrides parameters by name from a comma-separated list of
// name=value pairs ("second-turn-until=0,shared-prefix-ttl=1h"). The
// error names the pair and what was wrong: an unknown name (with the
// known ones) or a value the parameter does not take. Config is left
// unchanged on error.
func (c *Config) Set(list string) error {
	next := *c
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
		p, found := lookupParam(name)
		if !found {
			names := make([]string, len(params))
			for i, p := range params {
				names[i] = p.Name
			}
			return fmt.Errorf("unknown simulation parameter %q (known: %s)", name, strings.Join(names, ", "))
		}
		if !p.set(&next, v) {
			return fmt.Errorf("%s=%s: %s takes %s", name, v, name, p.Takes)
		}
	}
	*c = next
	return nil
}

func lookupParam(name string) (Param, bool) {
	for _, p := range params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}
