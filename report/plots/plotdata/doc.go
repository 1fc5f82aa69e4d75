// Package plotdata extracts the numbers each of report/plots' figures
// draws, into plain exported types, apart from the drawing (as gonum/plot
// keeps its plotters' data apart from plot): a session's context, cache,
// cost, token accounting and duplicate reads (ContextSeries, CacheSeries,
// CostSeries, TokenBars, DuplicateBars), the cost by policy (PolicyCosts),
// and a sweep's lines, heatmaps and Pareto front (SweepSeries,
// HeatmapSeries, ParetoSeries, FrontLabels).
//
// Its tests pin every number on small hand-computed inputs
// (plotdata/plotdatatest). Everything is deterministic: no clock, no map
// order. See docs/plots.md.
package plotdata
