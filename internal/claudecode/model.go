package claudecode

import "strings"

// ShortModel shortens a Claude model id as a table shows it: without the
// "claude-" prefix and the release date ("claude-haiku-4-5-20251001" is
// "haiku-4-5", "claude-3-opus-20240229" is "3-opus"). Anything else, such
// as another vendor's model or a policy named "claude-code", is kept whole.
func ShortModel(model string) string {
	rest, ok := strings.CutPrefix(model, "claude-")
	if !ok || !isModelName(rest) {
		return model
	}
	if i := strings.LastIndexByte(rest, '-'); i > 0 && isDate(rest[i+1:]) {
		rest = rest[:i]
	}
	return rest
}

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
	return len(s) == 8 && strings.Trim(s, "0123456789") == ""
}
