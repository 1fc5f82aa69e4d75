// Package plots draws a session's context, prompt cache, cost, token
// accounting and duplicate reads, and a whole input's cost by policy, with
// gonum/plot.
//
// Each plot has two halves. A series function of report/plots/plotdata
// (ContextSeries, CacheSeries, CostSeries, TokenBars, DuplicateBars,
// PolicyCosts) extracts the numbers from simulate.Result, simulate.Metrics
// or accounting.Report values into plain exported types; its tests pin
// those exactly. A renderer here (Context, Cache, Cost, Tokens,
// Duplicates, CostByPolicy) turns the same inputs into a *Figure: one or
// more gonum plots, a title and a legend drawn outside the data area. (*Figure).Write draws it as PNG, SVG or PDF to an io.Writer; the
// package never opens files. ctxlab sweep's plots (Sweep, Heatmap, Pareto)
// take their numbers from plotdata's SweepSeries, HeatmapSeries,
// ParetoSeries and FrontLabels, and name their axes by the metric's unit
// (simulate/metric).
//
// Everything is deterministic: no clock, no map order. See docs/plots.md.
package plots
