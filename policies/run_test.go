package policies

import (
	"testing"

	"github.com/ctxlab/ctxlab/simulate"
)

// Run and RunList compile each policy afresh: two runs of a stateful
// policy on one trace give the same result, and a bad spec is an error.
func TestRunFresh(t *testing.T) {
	tr := reads(40_000, 40_000, 40_000, 40_000, 40_000, 40_000)
	a, err := Run(tr, "summary-nm:n=3,m=2", simulate.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Run(tr, "summary-nm:n=3,m=2", simulate.DefaultConfig())
	if a.Metrics != b.Metrics || a.Metrics.Compactions == 0 {
		t.Errorf("two runs differ or are misnamed: %+v / %+v", a.Metrics, b.Metrics)
	}
	rs, err := RunList(tr, "observed,summary-nm:n=3,m=2", simulate.DefaultConfig())
	if err != nil || len(rs) != 2 || rs[0].Policy != "observed" || rs[1].Metrics != a.Metrics || rs[1].Policy != a.Policy {
		t.Errorf("RunList: %v, %d runs", err, len(rs))
	}
	if _, err := Run(tr, "no-such-policy", simulate.DefaultConfig()); err == nil {
		t.Error("Run of an unknown policy: no error")
	}
	if _, err := RunList(tr, "observed,observed", simulate.DefaultConfig()); err == nil {
		t.Error("RunList of a repeated policy: no error")
	}
}
