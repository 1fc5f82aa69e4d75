// Package policies implements simulate.Policy: Claude Code's own scheme and
// the policies researchers compare, each a named, parameterised value
// compiled from a spec string ("keep-last-n:n=10", "a+b" for a
// composition) by Compile, once per command: the compiled spec makes a
// fresh policy for each run. Each policy is described once, in a fixed table:
// its name, documentation, source, and its parameters with their defaults,
// the values they take and what they mean. Parsing, validation, the
// canonical names and Registry, which `ctxlab policies` prints, all come
// from that table. Observed and ClaudeCode name the two policies a report
// may need whatever a command lists (roles.go). See docs/policies.md.
package policies
