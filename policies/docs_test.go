package policies

import (
	"os"
	"strings"
	"testing"
)

const policiesDoc = "../docs/policies.md"

// TestPoliciesDocumented keeps docs/policies.md true: every registered
// policy has a section "## `name`", and that section has a table row for
// every parameter with its default ("" for an empty one).
func TestPoliciesDocumented(t *testing.T) {
	b, err := os.ReadFile(policiesDoc)
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]string{}
	for _, s := range strings.Split(string(b), "\n## ")[1:] {
		head, body, _ := strings.Cut(s, "\n")
		sections[strings.TrimSpace(head)] = body
	}
	for _, e := range Registry {
		body, ok := sections["`"+e.Name+"`"]
		if !ok {
			t.Errorf("%s: no section \"## `%s`\" in %s", e.Name, e.Name, policiesDoc)
			continue
		}
		if !strings.Contains(string(b), "| `"+e.Name+"` |") {
			t.Errorf("%s: not in the overview table", e.Name)
		}
		for _, p := range e.Params {
			def := p.Default
			if def == "" {
				def = `""`
			}
			row := "| `" + p.Name + "` | `" + def + "` |"
			if !strings.Contains(body, row) {
				t.Errorf("%s: section lacks the row %q", e.Name, row)
			}
		}
	}
}
