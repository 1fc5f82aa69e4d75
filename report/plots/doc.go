// Package plots draws a session's context, prompt cache, cost, token
// accounting and duplicate reads, a whole input's cost by policy, and
// ctxlab sweep's figures, with gonum/plot.
//
// Each plot has two halves: a series function of report/plots/plotdata
// extracts its numbers into plain exported types (its tests pin them), and
// a renderer here (Context, Cache, Cost, Tokens, Duplicates, CostByPolicy,
// Sweep, Heatmap, Pareto) turns the same inputs into a *Figure, whose
// Write draws it as PNG, SVG or PDF to an io.Writer; the package never
// opens files. Everything is deterministic: no clock, no map order. See
// docs/plots.md and docs/sweep.md.
package plots
