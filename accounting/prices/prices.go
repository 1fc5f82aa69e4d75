// Package prices prices API usage: a dated table of Anthropic list prices
// by model family, overridable from a JSON file, with long-context rates
// and dollar rounding. A model the table lacks is unpriced, never free.
package prices

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"sort"
	"strings"

	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/internal/jsonerr"
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
	// Fast is the factor on every rate of the model's fast output mode
	// (the id with "-fast"); 0: it has none.
	Fast float64 `json:"fast,omitempty"`
}

// Long-context pricing (Anthropic's pricing page for
// Sonnet 4/4.5): requests over 200K prompt tokens pay 2× input, 1.5× output.
const (
	LongContextTokens = 200_000
	LongInputFactor   = 2.0
	LongOutputFactor  = 1.5
)

// Table is a dated price table keyed by model family (the model id without
// its date suffix or "[1m]" tag: claudecode.ModelFamily).
type Table struct {
	Date   string           `json:"date"`
	Source string           `json:"source"`
	Models map[string]Price `json:"models"`
}

// The table of LiteLLM's model prices (litellm_gen.go), refreshed from
// LiteLLM's model price list, a file or (by default) its repository:
//
//	LITELLM_PRICES=FILE|URL LITELLM_DATE=YYYY-MM-DD LITELLM_SOURCE=TEXT go generate ./accounting/prices
//
//go:generate go run ./gen -in=${LITELLM_PRICES} -date=${LITELLM_DATE} -source=${LITELLM_SOURCE}

// Default returns the built-in table: Anthropic's list prices on its
// Date, and for the models they lack, LiteLLM's model price list of
// liteLLMDate (docs/reports.md, "Prices").
func Default() *Table {
	t := anthropic()
	for k, v := range liteLLM {
		if _, ok := t.Models[k]; !ok {
			t.Models[k] = v
		}
	}
	// Every report names the table's source: the LiteLLM list's date goes
	// with it, since its prices are as old as that list.
	t.Source = "Anthropic list prices; LiteLLM's model price list of " + liteLLMDate + " for the models those lack; ctxlab's built-in table (docs/reports.md)"
	return t
}

// LiteLLMList says which of LiteLLM's model price lists Default holds,
// for the models Anthropic's table lacks: its date and where it came from.
func LiteLLMList() (date, source string) { return liteLLMDate, liteLLMSource }

// anthropic is the table of Anthropic's list prices.
func anthropic() *Table {
	opus45 := Price{Input: 5, CacheWrite5m: 6.25, CacheWrite1h: 10, CacheRead: 0.50, Output: 25}
	opus4 := Price{Input: 15, CacheWrite5m: 18.75, CacheWrite1h: 30, CacheRead: 1.50, Output: 75}
	sonnet := Price{Input: 3, CacheWrite5m: 3.75, CacheWrite1h: 6, CacheRead: 0.30, Output: 15}
	sonnetLong := sonnet
	sonnetLong.LongContext = true
	opus46 := opus45
	opus46.Fast = 6 // fast mode: 6× every rate, as LiteLLM's model price list says (provider_specific_entry.fast)
	// Older models that transcripts still hold, at the list prices of
	// Anthropic's "Pricing" page (claude.com/pricing, "Legacy models") and
	// its "Models overview" documentation. Claude 3 Haiku's published
	// cache rates are its own ($0.30 write, $0.03 read), not the
	// 1.25×/0.1× rule; the Claude 2 and Instant models predate prompt
	// caching, so their cache rates follow the rule (1.25×, 2×, 0.1×
	// input) for the cache fields a gateway may still report.
	claude2 := Price{Input: 8, CacheWrite5m: 10, CacheWrite1h: 16, CacheRead: 0.80, Output: 24}
	return &Table{
		Date:   "2026-06-09",
		Source: "Anthropic list prices, ctxlab's built-in table (docs/reports.md)",
		Models: map[string]Price{
			"claude-opus-4-7":    opus46,
			"claude-opus-4-6":    opus46,
			"claude-opus-4-5":    opus45,
			"claude-opus-4-1":    opus4,
			"claude-opus-4":      opus4,
			"claude-sonnet-4-6":  sonnet,
			"claude-sonnet-4-5":  sonnetLong,
			"claude-sonnet-4":    sonnetLong,
			"claude-3-7-sonnet":  sonnet,
			"claude-3-5-sonnet":  sonnet,
			"claude-haiku-4-5":   {Input: 1, CacheWrite5m: 1.25, CacheWrite1h: 2, CacheRead: 0.10, Output: 5},
			"claude-3-5-haiku":   {Input: 0.80, CacheWrite5m: 1, CacheWrite1h: 1.6, CacheRead: 0.08, Output: 4},
			"claude-3-opus":      opus4,
			"claude-3-sonnet":    sonnet,
			"claude-3-haiku":     {Input: 0.25, CacheWrite5m: 0.30, CacheWrite1h: 0.50, CacheRead: 0.03, Output: 1.25},
			"claude-2.1":         claude2,
			"claude-2.0":         claude2,
			"claude-instant-1.2": {Input: 0.80, CacheWrite5m: 1, CacheWrite1h: 1.6, CacheRead: 0.08, Output: 2.40},
		},
	}
}

// Read reads a JSON price table ({"date":…, "models":{family: Price}})
// and lays it over base: families it names replace base's. A price must
// give each of the five rates, none below 0: a rate left out, a model
// given as null or a negative rate would price calls at zero or less,
// where a model the table lacks is unpriced, never free. Its errors name
// the model and the field ("models.deepseek-v4-pro.cache_read: missing").
func Read(r io.Reader, base *Table) (*Table, error) {
	var p struct {
		Date   string                     `json:"date"`
		Source string                     `json:"source"`
		Models map[string]json.RawMessage `json:"models"`
	}
	if err := decodeStrict(r, &p); err != nil {
		return nil, fmt.Errorf("reading price table: %w", jsonerr.Describe(err))
	}
	out := &Table{Date: base.Date, Source: base.Source, Models: map[string]Price{}}
	for k, v := range base.Models {
		out.Models[k] = v
	}
	names := make([]string, 0, len(p.Models))
	for k := range p.Models {
		names = append(names, k)
	}
	sort.Strings(names) // the first error is the same on every run
	for _, k := range names {
		pr, err := readPrice(p.Models[k])
		if err != nil {
			return nil, fmt.Errorf("reading price table: models.%s%w", k, err)
		}
		out.Models[claudecode.ModelFamily(k)] = pr
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

// readPrice reads one model's price; its error starts with the field it
// is about (".input: …"), or ": " for the price as a whole. A field of
// Price without omitempty (a rate) must be given; no number may be below
// 0.
func readPrice(data json.RawMessage) (Price, error) {
	if string(data) == "null" {
		return Price{}, fmt.Errorf(": null where an object was expected")
	}
	var pr Price
	if err := decodeStrict(bytes.NewReader(data), &pr); err != nil {
		if f := jsonerr.Field(err); f != "" {
			return Price{}, fmt.Errorf(".%s: %w", f, jsonerr.Cause(err))
		}
		return Price{}, fmt.Errorf(": %w", jsonerr.Cause(err))
	}
	var given map[string]json.RawMessage
	_ = json.Unmarshal(data, &given) // decoded above: an object
	v := reflect.ValueOf(pr)
	for i, f := range reflect.VisibleFields(v.Type()) {
		key, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if _, ok := given[key]; !ok && opts != "omitempty" {
			return Price{}, fmt.Errorf(".%s: missing: a price gives %s, in USD per million tokens", key, priceRates())
		}
		if x, ok := v.Field(i).Interface().(float64); ok && x < 0 {
			return Price{}, fmt.Errorf(".%s: %v: must be 0 or more", key, x)
		}
	}
	return pr, nil
}

// priceRates names the JSON keys a price must give, Price's fields
// without omitempty: "input, cache_write_5m, … and output".
func priceRates() string {
	var keys []string
	for _, f := range reflect.VisibleFields(reflect.TypeFor[Price]()) {
		if key, opts, _ := strings.Cut(f.Tag.Get("json"), ","); opts != "omitempty" {
			keys = append(keys, key)
		}
	}
	return strings.Join(keys[:len(keys)-1], ", ") + " and " + keys[len(keys)-1]
}

// decodeStrict decodes one JSON value from r into v, refusing unknown
// fields and anything after the value.
func decodeStrict(r io.Reader, v any) error {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the JSON value")
	}
	return nil
}

// Lookup returns the price of a model and whether the table has it: by
// its family, else by the rules that read provider prefixes, version
// tags and mode suffixes (resolve).
func (p *Table) Lookup(model string) (Price, bool) {
	if pr, ok := p.exact(model); ok {
		return pr, ok
	}
	return p.resolve(model)
}

// exact returns the price of a model's family (claudecode.ModelFamily).
func (p *Table) exact(model string) (Price, bool) {
	pr, ok := p.Models[claudecode.ModelFamily(model)]
	return pr, ok
}

// Families lists the table's keys, sorted.
func (p *Table) Families() []string {
	out := make([]string, 0, len(p.Models))
	for k := range p.Models {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Cost prices one API call's usage.
func (pr Price) Cost(u replay.Usage) float64 {
	r := pr.Rates(u)
	return (float64(u.Input)*r.Input + float64(u.CacheWrite5m)*r.CacheWrite5m +
		float64(u.CacheWrite1h)*r.CacheWrite1h + float64(u.CacheRead)*r.CacheRead + float64(u.Output)*r.Output) / 1e6
}

// Rates returns the rates a request with usage u pays: the long-context
// ones (input side × LongInputFactor, output × LongOutputFactor) when its
// whole prompt exceeds LongContextTokens on a model that has them, else
// the list rates.
func (pr Price) Rates(u replay.Usage) Price {
	if !pr.LongContext || u.Prompt() <= LongContextTokens {
		return pr
	}
	r := pr
	r.Input *= LongInputFactor
	r.CacheWrite5m *= LongInputFactor
	r.CacheWrite1h *= LongInputFactor
	r.CacheRead *= LongInputFactor
	r.Output *= LongOutputFactor
	return r
}

// RoundUSD rounds a dollar amount to a millionth of a dollar, as every
// report shows costs. It is the one place costs, and the figures compared
// with them, are rounded.
func RoundUSD(x float64) float64 { return math.Round(x*1e6) / 1e6 }
