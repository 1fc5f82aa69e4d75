// Package policies implements simulate.Policy: Claude Code's own scheme and
// the policies researchers compare, each a named, parameterised value
// compiled from a spec string ("keep-last-n:n=10", "a+b" for a
// composition). Registry lists them with their parameters, defaults and
// sources; `ctxlab policies` prints it. See docs/policies.md.
package policies
