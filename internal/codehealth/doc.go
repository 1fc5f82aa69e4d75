// Package codehealth has no code: its test holds every non-test Go file of
// the module to the project's code-health limits (a function's length and
// cyclomatic complexity, a comment block's length, a package's size), so
// that they cannot slip unnoticed. docs/design.md lists the limits.
package codehealth
