package policies_test

import (
	"fmt"

	"github.com/ctxlab/ctxlab/policies"
)

// Compile a spec once: parameters left out take their defaults, and the
// name is the canonical spec, with only the parameters that differ from
// them. Each run takes a fresh policy of it.
func ExampleCompile() {
	c, err := policies.Compile("keep-last-n:n=5,polling=1")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Name(), c.New() != c.New())
	// Output:
	// keep-last-n:n=5 true
}

// Parse a spec: parameters left out take their defaults, and the name is
// the canonical spec, with only the parameters that differ from them.
func ExampleParse() {
	p, err := policies.Parse("keep-last-n:n=5,polling=1")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Name())
	_, err = policies.Parse("claude-code:window=5")
	fmt.Println(err)
	// Output:
	// keep-last-n:n=5
	// policy "claude-code": window=5 leaves no room for a threshold: want 0 (the model's) or more than reserve + buffer (32000 + 13000)
}

// List the policies and what each parameter takes.
func ExampleLookup() {
	e, ok := policies.Lookup("keep-last-n")
	if !ok {
		return
	}
	for _, p := range e.Params {
		fmt.Printf("%s=%s: %s\n", p.Name, p.Default, p.Range)
	}
	// Output:
	// n=10: a whole number ≥ 0
	// polling=1: a whole number ≥ 1
}

// The settings a spec gives, with the defaults for the rest, in canonical
// form: what a study records as its fixed parameters.
func ExampleSettings() {
	set, err := policies.Settings("threshold:pct=70.0")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range set {
		fmt.Printf("%s=%s (default %s)\n", s.Name, s.Value, s.Default)
	}
	// Output:
	// pct=70 (default 80)
	// window=0 (default 0)
	// restore=false (default false)
}
