package prices

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/replay"
)

// The rows of Anthropic's pricing page, written out.
var (
	pOpus45   = Price{Input: 5, CacheWrite5m: 6.25, CacheWrite1h: 10, CacheRead: 0.50, Output: 25}
	pOpus46   = Price{Input: 5, CacheWrite5m: 6.25, CacheWrite1h: 10, CacheRead: 0.50, Output: 25, Fast: 6}
	pOpus4    = Price{Input: 15, CacheWrite5m: 18.75, CacheWrite1h: 30, CacheRead: 1.50, Output: 75}
	pSonnet   = Price{Input: 3, CacheWrite5m: 3.75, CacheWrite1h: 6, CacheRead: 0.30, Output: 15}
	pSonnetLC = Price{Input: 3, CacheWrite5m: 3.75, CacheWrite1h: 6, CacheRead: 0.30, Output: 15, LongContext: true}
	pHaiku45  = Price{Input: 1, CacheWrite5m: 1.25, CacheWrite1h: 2, CacheRead: 0.10, Output: 5}
	pHaiku35  = Price{Input: 0.80, CacheWrite5m: 1, CacheWrite1h: 1.6, CacheRead: 0.08, Output: 4}
)

func TestLookup(t *testing.T) {
	p := Default()
	for _, tc := range []struct {
		model string
		want  Price
		ok    bool
	}{
		// Every model id seen in the transcripts (message.model).
		{sonnet4, pSonnetLC, true},
		{opus41, pOpus4, true},
		{sonnet45, pSonnetLC, true},
		{haiku45, pHaiku45, true},
		{opus45, pOpus45, true},
		{opus46, pOpus46, true},
		{sonnet46, pSonnet, true},
		{"claude-opus-4-6[1m]", pOpus46, true},
		{"claude-3-5-haiku-20241022", pHaiku35, true},
		{synthetic, Price{}, false},
		{deepseek, Price{}, false},
		{"deepseek-v4-flash", Price{}, false},
		{"deepseek-reasoner", Price{}, false},
		// The rules of alias.go, each once: a provider's prefix, Bedrock's
		// prefix and version tag, Vertex AI's tag, a dated id, Claude's
		// version with a dot, modes billed at the model's rates, fast mode.
		{"anthropic/claude-opus-4-7", pOpus46, true},
		{"us.anthropic.claude-opus-4-7-v1:0", pOpus46, true},
		{"claude-opus-4-7@20260416", pOpus46, true},
		{"claude-opus-4-7-20260416", pOpus46, true},
		{"claude-opus-4.6", pOpus46, true},
		{"claude-opus-4-6-thinking", pOpus46, true},
		{"claude-opus-4.6-1m", pOpus46, true},
		{opusFast, Price{Input: 30, CacheWrite5m: 37.5, CacheWrite1h: 60, CacheRead: 3, Output: 150}, true},
		{"claude-sonnet-4-6-fast", Price{}, false}, // no fast rate
		{"deepseek-ai/deepseek-v4-pro", Price{}, false},
		{"", Price{}, false},
	} {
		got, ok := p.Lookup(tc.model)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Lookup(%q) = %+v, %v; want %+v, %v", tc.model, got, ok, tc.want, tc.ok)
		}
	}
}

func TestDefaultPricesTable(t *testing.T) {
	p := Default()
	want := []string{
		"claude-2.0", "claude-2.1", "claude-3-5-haiku", "claude-3-5-sonnet", "claude-3-7-sonnet",
		"claude-3-haiku", "claude-3-opus", "claude-3-sonnet", "claude-haiku-4-5", "claude-instant-1.2",
		"claude-opus-4", "claude-opus-4-1", "claude-opus-4-5", "claude-opus-4-6", "claude-opus-4-7",
		"claude-sonnet-4", "claude-sonnet-4-5", "claude-sonnet-4-6",
	}
	if got := anthropic().Families(); !reflect.DeepEqual(got, want) {
		t.Errorf("Anthropic's families = %q, want %q", got, want)
	}
	// LiteLLM's list fills in the models Anthropic's table lacks, and
	// changes none it has.
	for k, v := range liteLLM {
		if got := p.Models[k]; got != v && anthropic().Models[k] != got {
			t.Errorf("%s: %+v, neither Anthropic's nor LiteLLM's", k, got)
		}
	}
	if p.Date == "" || p.Source == "" {
		t.Errorf("table is not dated: %+v", p)
	}
	// Anthropic's pricing rule: a 5m write is 1.25× input, a 1h write 2×, a
	// read 0.1×.
	for fam, pr := range p.Models {
		if fam == "claude-3-haiku" {
			continue // published with rates of its own (TestOlderModels)
		}
		if !near(pr.CacheWrite5m, 1.25*pr.Input) || !near(pr.CacheWrite1h, 2*pr.Input) || !near(pr.CacheRead, 0.1*pr.Input) {
			t.Errorf("%s: %+v breaks the 1.25×/2×/0.1× ratios", fam, pr)
		}
	}
}

// TestOlderModels: the model ids older transcripts hold are priced at the
// published list prices; costs worked by hand.
func TestOlderModels(t *testing.T) {
	p := Default()
	u := replay.Usage{Input: 1000, CacheWrite5m: 2000, CacheWrite1h: 0, CacheRead: 10_000, Output: 500}
	for _, tt := range []struct {
		model string
		usd   float64
	}{
		// 1000×15 + 2000×18.75 + 10,000×1.5 + 500×75 = 15,000+37,500+15,000+37,500 µ$
		{"claude-3-opus-20240229", 0.105},
		// 1000×3 + 2000×3.75 + 10,000×0.3 + 500×15 = 3,000+7,500+3,000+7,500
		{"claude-3-sonnet-20240229", 0.021},
		// 1000×0.25 + 2000×0.30 + 10,000×0.03 + 500×1.25 = 250+600+300+625
		{"claude-3-haiku-20240307", 0.001775},
		// 1000×8 + 2000×10 + 10,000×0.8 + 500×24 = 8,000+20,000+8,000+12,000
		{"claude-2.1", 0.048},
		{"claude-2.0", 0.048},
		// 1000×0.8 + 2000×1 + 10,000×0.08 + 500×2.4 = 800+2,000+800+1,200
		{"claude-instant-1.2", 0.0048},
	} {
		pr, ok := p.Lookup(tt.model)
		if !ok {
			t.Errorf("%s: unpriced", tt.model)
			continue
		}
		if got := pr.Cost(u); !near(RoundUSD(got), tt.usd) {
			t.Errorf("%s: cost %.6f, want %.6f", tt.model, got, tt.usd)
		}
	}
	// Still unpriced: what Anthropic does not sell.
	for _, m := range []string{"deepseek-v4-pro", "claude-haiku-4-5-fast", "gpt-5"} {
		if _, ok := p.Lookup(m); ok {
			t.Errorf("%s has a price", m)
		}
	}
}

func near(a, b float64) bool { return a-b < 1e-12 && b-a < 1e-12 }

func TestCost(t *testing.T) {
	p := Default()
	for _, tc := range []struct {
		name  string
		model string
		u     use
		want  float64 // USD
	}{
		{"zero", sonnet45, use{}, 0},
		// 1000×3 + 2000×3.75 + 10000×0.3 + 500×15 = 3000+7500+3000+7500 = 21000 µ$
		{"sonnet 5m write", sonnet45, use{in: 1000, w5: 2000, read: 10000, out: 500}, 0.021},
		// 1000×3 + 2000×6 + 10000×0.3 + 500×15 = 3000+12000+3000+7500 = 25500 µ$
		{"sonnet 1h write", sonnet45, use{in: 1000, w1: 2000, read: 10000, out: 500}, 0.0255},
		// 1h write at 2× input: 1,000,000×10 = $10
		{"opus 4.6 1h write", opus46, use{w1: 1_000_000}, 10},
		// 1,000,000×6.25 = $6.25
		{"opus 4.6 5m write", opus46, use{w5: 1_000_000}, 6.25},
		// 100×1 + 100×1.25 + 100×2 + 1000×0.1 + 10×5 = 100+125+200+100+50 = 575 µ$
		{"haiku 4.5", haiku45, use{in: 100, w5: 100, w1: 100, read: 1000, out: 10}, 0.000575},
		// 10×15 + 10×18.75 + 10×30 + 100×1.5 + 10×75 = 150+187.5+300+150+750 = 1537.5 µ$
		{"opus 4.1", opus41, use{in: 10, w5: 10, w1: 10, read: 100, out: 10}, 0.0015375},
		// 10×5 + 10×6.25 + 10×10 + 100×0.5 + 10×25 = 50+62.5+100+50+250 = 512.5 µ$
		{"opus 4.5", opus45, use{in: 10, w5: 10, w1: 10, read: 100, out: 10}, 0.0005125},
		// prompt 1 + 200,000 = 200,001 > 200K: (1×3 + 200000×0.3)×2 + 1000×15×1.5
		// = 60003×2 + 22500 = 142506 µ$
		{"sonnet 4.5 long context", sonnet45, use{in: 1, read: 200_000, out: 1000}, 0.142506},
		// prompt exactly 200,000: 200000×0.3 + 1000×15 = 60000+15000 = 75000 µ$
		{"sonnet 4.5 at 200K", sonnet45, use{read: 200_000, out: 1000}, 0.075},
		// prompt 1+100000+50000+50000 = 200,001: every input-side rate ×2:
		// (1×3 + 100000×3.75 + 50000×6 + 50000×0.3)×2 + 1000×15×1.5
		// = (3+375000+300000+15000)×2 + 22500 = 1380006 + 22500 = 1402506 µ$
		{"sonnet 4 long context, writes", sonnet4, use{in: 1, w5: 100_000, w1: 50_000, read: 50_000, out: 1000}, 1.402506},
		// Sonnet 4.6 has no long-context rate: 300000×0.3 + 1000×15 = 90000+15000 = 105000 µ$
		{"sonnet 4.6 300K", sonnet46, use{read: 300_000, out: 1000}, 0.105},
		// Opus 4.6 never: 1×5 + 300000×0.5 + 1000×25 = 5+150000+25000 = 175005 µ$
		{"opus 4.6 300K", opus46, use{in: 1, read: 300_000, out: 1000}, 0.175005},
		{"opus 4.6 [1m] 300K", "claude-opus-4-6[1m]", use{in: 1, read: 300_000, out: 1000}, 0.175005},
	} {
		pr, ok := p.Lookup(tc.model)
		if !ok {
			t.Fatalf("%s: %s unpriced", tc.name, tc.model)
		}
		usd(t, tc.name, pr.Cost(tc.u.usage()), tc.want)
	}
}

func TestRead(t *testing.T) {
	base := Default()
	in := `{"date":"2026-07-01","models":{"claude-opus-4-6-20260101":{"input":1,"cache_write_5m":1.25,"cache_write_1h":2,"cache_read":0.1,"output":4},
	"deepseek-v4-pro":{"input":0.5,"cache_write_5m":0,"cache_write_1h":0,"cache_read":0.05,"output":2,"long_context":true}}}`
	p, err := Read(strings.NewReader(in), base)
	if err != nil {
		t.Fatal(err)
	}
	if p.Date != "2026-07-01" || p.Source != base.Source+", overridden" {
		t.Errorf("Date, Source = %q, %q", p.Date, p.Source)
	}
	// The dated id is stored under its family.
	if got, _ := p.Lookup(opus46); got != (Price{Input: 1, CacheWrite5m: 1.25, CacheWrite1h: 2, CacheRead: 0.1, Output: 4}) {
		t.Errorf("overridden opus 4.6 = %+v", got)
	}
	if got, ok := p.Lookup(deepseek); !ok || got != (Price{Input: 0.5, CacheRead: 0.05, Output: 2, LongContext: true}) {
		t.Errorf("added deepseek = %+v, %v", got, ok)
	}
	// Other families stay.
	if got, _ := p.Lookup(opus45); got != pOpus45 {
		t.Errorf("opus 4.5 = %+v, want the default", got)
	}
	if got, _ := p.Lookup(sonnet45); got != pSonnetLC {
		t.Errorf("sonnet 4.5 = %+v, want the default", got)
	}
	if n := len(Default().Models) + 1; len(p.Models) != n { // the default families + deepseek
		t.Errorf("%d families, want %d", len(p.Models), n)
	}
	// The base table is not changed.
	if got, _ := base.Lookup(opus46); got.Input != pOpus45.Input || got.Fast != 6 || base.Date != Default().Date {
		t.Errorf("base changed: opus 4.6 %+v, date %q", got, base.Date)
	}
	// 1000×1 + 1000×4 = 5000 µ$ with the new opus 4.6 price.
	pr, _ := p.Lookup(opus46)
	usd(t, "overridden cost", pr.Cost(use{in: 1000, out: 1000}.usage()), 0.005)

	// An explicit source and no date keep the base date.
	p, err = Read(strings.NewReader(`{"source":"my contract","models":{}}`), base)
	if err != nil || p.Date != base.Date || p.Source != "my contract" || len(p.Models) != len(Default().Models) {
		t.Errorf("source only: %+v, %v", p, err)
	}

	for _, bad := range []string{
		`{"models":{"claude-opus-4-6":{"inptu":1}}}`, // typo in a price field
		`{"currency":"EUR","models":{}}`,             // unknown top-level field
		`{"models":[]}`,
		`not json`,
	} {
		if _, err := Read(strings.NewReader(bad), base); err == nil || !strings.Contains(err.Error(), "reading price table") {
			t.Errorf("Read(%s) error = %v, want a price-table error", bad, err)
		}
	}
}

// TestReadRefused: a price table that would price a model at zero or less
// without saying so (a rate left out, a model given as null, a negative
// rate), or that has more after its JSON, is refused; the error names the
// model and the field.
func TestReadRefused(t *testing.T) {
	const rates = `"input":0.55,"cache_write_5m":0.55,"cache_write_1h":0.55,"cache_read":0.07,"output":2.19`
	for _, tc := range []struct{ in, want string }{
		{`{"models":{"deepseek-v4-pro":{"input":0.55,"cache_read":0.07,"output":2.19}}}`,
			"models.deepseek-v4-pro.cache_write_5m: missing: a price gives input, cache_write_5m, cache_write_1h, cache_read and output, in USD per million tokens"},
		{`{"models":{"deepseek-v4-pro":null}}`, "models.deepseek-v4-pro: null where an object was expected"},
		{`{"models":{"deepseek-v4-pro":{"input":-0.55,"cache_write_5m":0.55,"cache_write_1h":0.55,"cache_read":0.07,"output":2.19}}}`,
			"models.deepseek-v4-pro.input: -0.55: must be 0 or more"},
		{`{"models":{"deepseek-v4-pro":{` + rates + `,"fast":-2}}}`, "models.deepseek-v4-pro.fast: -2: must be 0 or more"},
		{`{"models":{"deepseek-v4-pro":{` + rates + `,"output":"2"}}}`, "models.deepseek-v4-pro.output: a string where a number was expected"},
		{`{"models":{"deepseek-v4-pro":{` + rates + `,"inptu":1}}}`, "models.deepseek-v4-pro.inptu: unknown field"},
		{`{"models":{"deepseek-v4-pro":[1]}}`, "models.deepseek-v4-pro: an array where an object was expected"},
		{`{"models":{"b":{"input":1},"a":{"output":1}}}`, "models.a.input: missing"}, // the first model by name
		{`{"models":{"deepseek-v4-pro":{` + rates + `}}}trailing`, "invalid JSON: data after the JSON value"},
		{`{"models":{}}{}`, "invalid JSON: data after the JSON value"},
	} {
		_, err := Read(strings.NewReader(tc.in), Default())
		if err == nil || !strings.HasPrefix(err.Error(), "reading price table: "+tc.want) {
			t.Errorf("Read(%s):\n got %v\nwant reading price table: %s", tc.in, err, tc.want)
		}
	}
	// Zero is a price (a free model is a choice the table states), and
	// whitespace after the table is no data.
	if _, err := Read(strings.NewReader(`{"models":{"deepseek-v4-pro":{"input":0,"cache_write_5m":0,"cache_write_1h":0,"cache_read":0,"output":0}}}`+"\n\n"), Default()); err != nil {
		t.Errorf("a zero price: %v", err)
	}
}

// Model ids as they appear in transcripts (message.model).
const (
	sonnet4   = "claude-sonnet-4-20250514"
	opus41    = "claude-opus-4-1-20250805"
	sonnet45  = "claude-sonnet-4-5-20250929"
	haiku45   = "claude-haiku-4-5-20251001"
	opus45    = "claude-opus-4-5-20251101"
	opus46    = "claude-opus-4-6"
	sonnet46  = "claude-sonnet-4-6"
	synthetic = "<synthetic>"
	deepseek  = "deepseek-v4-pro"
	opusFast  = "claude-opus-4.6-fast"
)

// use is a usage record: w5 and w1 are the 5-minute and 1-hour writes.
type use struct{ in, w5, w1, read, out int64 }

func (u use) usage() replay.Usage {
	return replay.Usage{Input: u.in, CacheWrite5m: u.w5, CacheWrite1h: u.w1, CacheRead: u.read, Output: u.out}
}

// usd compares dollar amounts computed in micro-dollars by hand.
func usd(tb testing.TB, what string, got, want float64) {
	tb.Helper()
	if math.Abs(got-want) > 1e-9 {
		tb.Errorf("%s = %.9f, want %.9f", what, got, want)
	}
}

// TestRoundUSD rounds to a millionth of a dollar, half away from zero.
func TestRoundUSD(t *testing.T) {
	for in, want := range map[float64]float64{
		0: 0, 1.2345674: 1.234567, 1.2345675: 1.234568, 0.0000005: 0.000001, 0.0000004: 0,
		-0.0000005: -0.000001, -1.2345674: -1.234567, 12345.6789: 12345.6789,
	} {
		if got := RoundUSD(in); got != want {
			t.Errorf("RoundUSD(%v) = %v, want %v", in, got, want)
		}
	}
}
