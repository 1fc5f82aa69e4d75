package prices

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/internal/jsonerr"
)

// liteLLMEntry is the part of an entry of LiteLLM's model price list
// (model_prices_and_context_window.json, BerriAI/litellm) that prices
// usage: USD per token.
type liteLLMEntry struct {
	Input        *float64 `json:"input_cost_per_token"`
	Output       *float64 `json:"output_cost_per_token"`
	CacheWrite   *float64 `json:"cache_creation_input_token_cost"`
	CacheWrite1h *float64 `json:"cache_creation_input_token_cost_above_1hr"`
	CacheRead    *float64 `json:"cache_read_input_token_cost"`
	InputLong    *float64 `json:"input_cost_per_token_above_200k_tokens"`
	Provider     struct {
		Fast float64 `json:"fast"`
	} `json:"provider_specific_entry"`
}

// FromLiteLLM reads LiteLLM's model price list and returns a price per
// model, keyed as Lookup reads an id: provider prefixes and version tags
// dropped, so "anthropic.claude-opus-4-7" and "claude-opus-4-7" are one
// model. Where several entries are one model, the one whose key is the
// model's own id wins, else the first by key. An entry without input and
// output prices is left out. Missing cache rates follow Anthropic's
// rule: a 5-minute write 1.25× input, a 1-hour write 2× input, a read
// 0.1× input. An entry with rates above 200K input tokens has
// LongContext (whose factors are this package's).
func FromLiteLLM(r io.Reader) (map[string]Price, error) {
	var raw map[string]json.RawMessage
	if err := json.NewDecoder(r).Decode(&raw); err != nil {
		return nil, fmt.Errorf("reading LiteLLM's price list: %w", jsonerr.Describe(err))
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := map[string]Price{}
	own := map[string]bool{}
	for _, k := range keys {
		var e liteLLMEntry
		if json.Unmarshal(raw[k], &e) != nil || e.Input == nil || e.Output == nil || *e.Input+*e.Output == 0 {
			continue // sample_spec, image and audio models, and no price (never free)
		}
		id := claudecode.ModelFamily(canonicalID(k))
		if _, seen := out[id]; seen && (own[id] || canonicalID(k) != k) {
			continue
		}
		m := 1e6 // per token → per million tokens
		in := *e.Input * m
		pr := Price{Input: in, Output: *e.Output * m, CacheWrite5m: 1.25 * in, CacheWrite1h: 2 * in, CacheRead: 0.1 * in,
			LongContext: e.InputLong != nil, Fast: e.Provider.Fast}
		if e.CacheWrite != nil {
			pr.CacheWrite5m = *e.CacheWrite * m
		}
		if e.CacheWrite1h != nil {
			pr.CacheWrite1h = *e.CacheWrite1h * m
		}
		if e.CacheRead != nil {
			pr.CacheRead = *e.CacheRead * m
		}
		out[id], own[id] = roundRates(pr), canonicalID(k) == k
	}
	return out, nil
}

// roundRates rounds each rate to a millionth of a dollar per million
// tokens, undoing the binary fractions of per-token prices (3e-6 × 1e6).
func roundRates(p Price) Price {
	for _, r := range []*float64{&p.Input, &p.CacheWrite5m, &p.CacheWrite1h, &p.CacheRead, &p.Output} {
		*r = RoundUSD(*r)
	}
	return p
}
