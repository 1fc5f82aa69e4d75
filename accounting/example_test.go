package accounting_test

import (
	"fmt"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/replay"
)

// Analyze a session: what it cost, and where its cache broke.
func Example() {
	srcs, _ := replay.Discover([]string{"../fixtures/testdata/projects/-home-dev-demo"})
	s, err := replay.Load(srcs[0], replay.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	r := accounting.Analyze(s, accounting.Config{}) // the zero Config is the defaults
	fmt.Printf("%d calls, $%.6f, cache hit ratio %.4f\n", r.Usage.Total.Calls, r.Usage.Total.Cost, r.Usage.HitRatio)
	for _, b := range r.CacheBreaks {
		fmt.Printf("break at %s call %d: %s, read %d after %d\n", b.Thread, b.Call, b.Cause, b.Read, b.PrevRead)
	}
	// Output:
	// 26 calls, $0.298592, cache hit ratio 0.9704
	// break at main call 16: compaction, read 21566 after 23618
}
