package claudecode

import "strings"

// ModelIDs is how a model id reads: ParseModel is ctxlab's one reader of
// it, for price lookups (accounting/prices) and short names alike.
var ModelIDs = Fact{Name: "ModelIDs",
	Doc:    "a Claude model id is claude-, a family and version (opus-4-6, 3-5-haiku) and, when pinned, a release date of eight digits; [1m] after it asks for the long window (ParseModel)",
	Source: `Anthropic's "Models overview"; message.model of every transcript`}

// Model is a model id read into its parts.
type Model struct {
	// Family is the id without its release date and "[1m]"
	// ("claude-sonnet-4-5-20250929[1m]" is "claude-sonnet-4-5"): the key
	// of a price table.
	Family string
	// Date is the release date, eight digits, or "".
	Date string
	// Long is set when the id holds "[1m]", the mark Claude Code reads
	// for the 1M-token window (its bundled cli.js tests that the id
	// includes it; LongWindow).
	Long bool
	// Claude is set for a Claude model's id: "claude-" and a family name
	// or a Claude version number, not a name such as "claude-code".
	Claude bool
}

// ParseModel reads a model id. Any id reads: one that is not Claude's
// keeps its whole text, less a date and "[1m]", as Family.
func ParseModel(id string) Model {
	m := Model{Long: hasLongMark(id)}
	m.Family, m.Date = familyDate(id)
	rest, ok := strings.CutPrefix(id, "claude-")
	m.Claude = ok && isModelName(rest)
	return m
}

// ModelFamily is ParseModel(id).Family, which a price lookup asks at every
// call, without the rest.
func ModelFamily(id string) string {
	family, _ := familyDate(id)
	return family
}

// familyDate splits a model id into its family and its release date.
func familyDate(id string) (family, date string) {
	base := strings.TrimSuffix(id, longMark)
	if n := len(base); n > 9 && base[n-9] == '-' && isDate(base[n-8:]) {
		return base[:n-9], base[n-8:]
	}
	return base, ""
}

// ShortModel shortens a Claude model id as a table shows it: its family
// without the "claude-" prefix, and "[1m]" when the id has it at the end
// ("claude-haiku-4-5-20251001" is "haiku-4-5", "claude-3-opus-20240229" is
// "3-opus"). Anything else, such as another vendor's model or a policy
// named "claude-code", is kept whole.
func ShortModel(model string) string {
	m := ParseModel(model)
	if !m.Claude {
		return model
	}
	short := strings.TrimPrefix(m.Family, "claude-")
	if strings.HasSuffix(model, longMark) {
		short += "[1m]"
	}
	return short
}

// longMark is what a model id holds to ask for the 1M-token window.
const longMark = "[1m]"

// hasLongMark reports whether a model id holds longMark, as Claude Code
// tests it (LimitsFor asks at every call, so without the rest of
// ParseModel).
func hasLongMark(id string) bool { return strings.Contains(id, longMark) }

// isModelName tells a model id's rest after "claude-" (opus-4-6,
// 3-5-haiku) from a policy name's (claude-code).
func isModelName(rest string) bool {
	for _, family := range []string{"opus", "sonnet", "haiku", "instant"} {
		if strings.HasPrefix(rest, family) {
			return true
		}
	}
	return rest != "" && '0' <= rest[0] && rest[0] <= '9'
}

// isDate reports whether s is a release date as model ids write it: eight
// digits (20251001).
func isDate(s string) bool {
	if len(s) != 8 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
