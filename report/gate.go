package report

import "github.com/ctxlab/ctxlab/simulate/budget"

// GateDocument is what `ctxlab gate` reports: a budget's evaluation and,
// when gate compared it with one, the baseline's. Its JSON is the
// evaluation alone (docs/gate.md).
type GateDocument struct {
	Result   *budget.Result
	Baseline *budget.Result // nil: no baseline
}
