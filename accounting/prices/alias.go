package prices

import (
	"regexp"
	"strings"
)

// The rules that read a model id the table does not hold as it is, in
// order, each tried on what the one before left (docs/reports.md,
// "Prices"). A price is the model's own: no rule maps one model to
// another one.
var (
	// A provider's or gateway's prefix: "anthropic/claude-opus-4-7",
	// "deepseek-ai/deepseek-v4-pro", "us.anthropic.claude-…" (Amazon
	// Bedrock's inference profiles), "anthropic.claude-…".
	bedrockPrefix = regexp.MustCompile(`^(?:[a-z]{2}\.)?anthropic\.`)
	// Amazon Bedrock's version tags ("-v1:0", "-v2", after its prefix
	// only: "claude-v1" is a model) and Google Vertex AI's ("@20250514").
	bedrockTag = regexp.MustCompile(`-v\d+(?::\d+)?$`)
	vertexTag  = regexp.MustCompile(`@\d{8}$`)
	// Claude's version written with a dot: "claude-opus-4.6".
	claudeDot = regexp.MustCompile(`^(claude-[a-z]+-\d+)\.(\d+)`)
)

// Modes of a model that Claude Code names by a suffix of the id and the
// API bills at the model's own rates: extended thinking, the 1M-token
// window (whose long-context rates Price.LongContext says).
var sameRateSuffixes = []string{"-thinking", "-1m"}

// fastSuffix names a model's fast output mode, billed at its rates times
// Price.Fast (a model without Fast has no fast price).
const fastSuffix = "-fast"

// resolve finds the price of a model id the table lacks as it is, by the
// rules above; ok is false when none finds one.
func (p *Table) resolve(model string) (Price, bool) {
	id := canonicalID(model)
	fast := false
	for changed := true; changed; {
		changed = false
		for _, s := range append(sameRateSuffixes, fastSuffix) {
			if base, ok := strings.CutSuffix(id, s); ok {
				id, changed, fast = base, true, fast || s == fastSuffix
			}
		}
	}
	pr, ok := p.exact(id)
	if !ok || !fast {
		return pr, ok
	}
	if pr.Fast <= 0 {
		return Price{}, false
	}
	f := pr.Fast
	pr.Input, pr.CacheWrite5m, pr.CacheWrite1h, pr.CacheRead, pr.Output = pr.Input*f, pr.CacheWrite5m*f, pr.CacheWrite1h*f, pr.CacheRead*f, pr.Output*f
	pr.Fast = 0
	return pr, true
}

// canonicalID is a model id without a provider's prefix or a version
// tag, lower case, with Claude's version written with a dash.
func canonicalID(model string) string {
	id := model
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		id = id[i+1:]
	}
	id = strings.ToLower(id)
	// Each rule is tried only where its pattern can match: an id no rule
	// changes (a model the table lacks, priced at every call of every
	// policy's run) costs no regular expression.
	if strings.Contains(id, "anthropic.") {
		if bare := bedrockPrefix.ReplaceAllString(id, ""); bare != id {
			if id = bedrockTag.ReplaceAllString(bare, ""); id == "claude" {
				id = bare // Claude 1's id is claude-v1
			}
		}
	}
	if strings.IndexByte(id, '@') >= 0 {
		id = vertexTag.ReplaceAllString(id, "")
	}
	if strings.HasPrefix(id, "claude-") && strings.IndexByte(id, '.') >= 0 {
		id = claudeDot.ReplaceAllString(id, "$1-$2")
	}
	return id
}
