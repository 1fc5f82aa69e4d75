// Package report holds the documents ctxlab writes, one per command
// (Document for replay, CompareDocument, GateDocument, SweepDocument,
// PolicyList), their constructors, the Format type, and the versioned JSON
// they encode to (docs/json-schema.md), which ReadJSON reads back for
// ctxlab plot. It decides nothing about what is counted: figures, their sums
// (simulate.SumMetrics), deltas (simulate.NewDelta) and fidelity
// (fidelity.New) come from the packages that own them. report/render
// writes a document in any format; report/view and report/html draw it.
package report
