// Package policies implements simulate.Policy: Claude Code's own scheme and
// the policies researchers compare, each a named, parameterised value
// compiled from a spec string ("keep-last-n:n=10", "a+b" for a
// composition) by Parse. Each policy is described once, in a fixed table:
// its name, documentation, source, and its parameters with their defaults,
// the values they take and what they mean. Parsing, validation, the
// canonical names and Registry, which `ctxlab policies` prints, all come
// from that table. See docs/policies.md.
package policies
