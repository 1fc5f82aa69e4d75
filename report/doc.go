// Package report renders what accounting and simulate computed: as text
// tables and Markdown (tablewriter), CSV, or a versioned JSON document (see
// docs/json-schema.md), and reads that JSON back for ctxlab plot. It
// decides nothing about what is counted: figures, their sums over
// sessions (simulate.SumMetrics), deltas (simulate.NewDelta) and fidelity
// (simulate.NewFidelity, SummarizeFidelity) come from the packages that
// own them; report assembles and formats them, in a stable order, so that
// the same input gives the same bytes.
package report
