package accounting

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/ctxlab/ctxlab/replay"
)

// Price is a model's list price in USD per million tokens.
type Price struct {
	Input        float64 `json:"input"`
	CacheWrite5m float64 `json:"cache_write_5m"`
	CacheWrite1h float64 `json:"cache_write_1h"`
	CacheRead    float64 `json:"cache_read"`
	Output       float64 `json:"output"`
	// LongContext prices a request whose prompt exceeds LongContextTokens
	// entirely at the long-context rate: input-side rates × LongInputFactor,
	// output × LongOutputFactor (Anthropic's pricing page: Sonnet 4 and 4.5
	// above 200K input tokens).
	LongContext bool `json:"long_context,omitempty"`
}

// Long-context pricing (Anthropic's pricing page for
// Sonnet 4/4.5): requests over 200K prompt tokens pay 2× input, 1.5× output.
const (
	LongContextTokens = 200_000
	LongInputFactor   = 2.0
	LongOutputFactor  = 1.5
)

// Prices is a dated price table keyed by model family (the model id without
// its date suffix or "[1m]" tag).
type Prices struct {
	Date   string           `json:"date"`
	Source string           `json:"source"`
	Models map[string]Price `json:"models"`
}

// DefaultPrices returns the built-in table, from Anthropic's pricing page
// on its Date.
func DefaultPrices() *Prices {
	opus45 := Price{Input: 5, CacheWrite5m: 6.25, CacheWrite1h: 10, CacheRead: 0.50, Output: 25}
	opus4 := Price{Input: 15, CacheWrite5m: 18.75, CacheWrite1h: 30, CacheRead: 1.50, Output: 75}
	sonnet := Price{Input: 3, CacheWrite5m: 3.75, CacheWrite1h: 6, CacheRead: 0.30, Output: 15}
	sonnetLong := sonnet
	sonnetLong.LongContext = true
	return &Prices{
		Date:   "2026-06-09",
		Source: "Anthropic list prices, ctxlab's built-in table (docs/reports.md)",
		Models: map[string]Price{
			"claude-opus-4-6":   opus45,
			"claude-opus-4-5":   opus45,
			"claude-opus-4-1":   opus4,
			"claude-opus-4":     opus4,
			"claude-sonnet-4-6": sonnet,
			"claude-sonnet-4-5": sonnetLong,
			"claude-sonnet-4":   sonnetLong,
			"claude-3-7-sonnet": sonnet,
			"claude-3-5-sonnet": sonnet,
			"claude-haiku-4-5":  {Input: 1, CacheWrite5m: 1.25, CacheWrite1h: 2, CacheRead: 0.10, Output: 5},
			"claude-3-5-haiku":  {Input: 0.80, CacheWrite5m: 1, CacheWrite1h: 1.6, CacheRead: 0.08, Output: 4},
		},
	}
}

// ReadPrices reads a JSON price table ({"date":…, "models":{family: Price}})
// and lays it over base: families it names replace base's.
func ReadPrices(r io.Reader, base *Prices) (*Prices, error) {
	var p Prices
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("reading price table: %w", err)
	}
	out := &Prices{Date: base.Date, Source: base.Source, Models: map[string]Price{}}
	for k, v := range base.Models {
		out.Models[k] = v
	}
	for k, v := range p.Models {
		out.Models[Family(k)] = v
	}
	if p.Date != "" {
		out.Date = p.Date
	}
	if p.Source != "" {
		out.Source = p.Source
	} else if len(p.Models) > 0 {
		out.Source = base.Source + ", overridden"
	}
	return out, nil
}

// Family reduces a model id to its price-table key:
// "claude-sonnet-4-5-20250929" → "claude-sonnet-4-5", "claude-opus-4-6[1m]"
// → "claude-opus-4-6".
func Family(model string) string {
	m := strings.TrimSuffix(model, "[1m]")
	if n := len(m); n > 9 && m[n-9] == '-' && allDigits(m[n-8:]) {
		m = m[:n-9]
	}
	return m
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Lookup returns the price of a model and whether the table has it.
func (p *Prices) Lookup(model string) (Price, bool) {
	pr, ok := p.Models[Family(model)]
	return pr, ok
}

// Families lists the table's keys, sorted.
func (p *Prices) Families() []string {
	out := make([]string, 0, len(p.Models))
	for k := range p.Models {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Cost prices one API call's usage.
func (pr Price) Cost(u replay.Usage) float64 {
	in, out := pr.factors(u)
	inside := float64(u.Input)*pr.Input + float64(u.CacheWrite5m)*pr.CacheWrite5m +
		float64(u.CacheWrite1h)*pr.CacheWrite1h + float64(u.CacheRead)*pr.CacheRead
	return (inside*in + float64(u.Output)*pr.Output*out) / 1e6
}

// factors returns the multipliers of the input-side and output rates for a
// request with usage u: the long-context ones when its whole prompt exceeds
// LongContextTokens on a model that has them, else 1.
func (pr Price) factors(u replay.Usage) (in, out float64) {
	if pr.LongContext && u.Prompt() > LongContextTokens {
		return LongInputFactor, LongOutputFactor
	}
	return 1, 1
}
