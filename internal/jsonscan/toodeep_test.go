package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTooDeep: TooDeep tells exactly the nestings encoding/json refuses
// for depth, whatever brackets and escaped quotes the strings hold.
func TestTooDeep(t *testing.T) {
	for _, n := range []int{1, MaxDepth - 1, MaxDepth, MaxDepth + 1, 3 * MaxDepth} {
		for _, wrap := range []string{"%s", `{"s":"[{\"[","x":%s}`} {
			s := strings.Replace(wrap, "%s", strings.Repeat("[", n)+strings.Repeat("]", n), 1)
			if got, std := TooDeep(s), !json.Valid([]byte(s)); got != std {
				t.Errorf("depth %d in %q: TooDeep %v, encoding/json refuses %v", n, wrap, got, std)
			}
		}
	}
}
