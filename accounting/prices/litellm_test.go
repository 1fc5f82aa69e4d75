package prices

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// FromLiteLLM reads LiteLLM's model price list: per-token costs as
// per-million rates, provider prefixes dropped (the model's own entry
// winning over a provider's), missing cache rates by Anthropic's rule,
// long-context and fast rates kept, and entries without a price left out.
func TestFromLiteLLM(t *testing.T) {
	f, err := os.Open("testdata/litellm.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := FromLiteLLM(f)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Price{
		"claude-opus-4-7":   {Input: 5, CacheWrite5m: 6.25, CacheWrite1h: 10, CacheRead: 0.5, Output: 25, Fast: 6},
		"claude-sonnet-4-5": {Input: 3, CacheWrite5m: 3.75, CacheWrite1h: 6, CacheRead: 0.3, Output: 15, LongContext: true},
		"deepseek-v4-flash": {Input: 0.14, CacheWrite5m: 0.175, CacheWrite1h: 0.28, CacheRead: 0.028, Output: 0.28},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("FromLiteLLM =\n%+v\nwant\n%+v", got, want)
	}
	if _, err := FromLiteLLM(strings.NewReader("[1,2]")); err == nil {
		t.Error("a list is not a price list")
	}
	// A model the table has through LiteLLM's list is looked up by the
	// same rules as any.
	tab := &Table{Models: got}
	if p, ok := tab.Lookup("deepseek-ai/deepseek-v4-flash"); !ok || p != want["deepseek-v4-flash"] {
		t.Errorf("deepseek-ai/deepseek-v4-flash: %+v, %v", p, ok)
	}
}
