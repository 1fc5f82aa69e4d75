package replay_test

import (
	"fmt"

	"github.com/ctxlab/ctxlab/replay"
)

// Load a session with its sub-agents and sum what its API calls billed.
func Example() {
	srcs, errs := replay.Discover([]string{"../fixtures/testdata/projects/-home-dev-demo"})
	if len(errs) > 0 {
		fmt.Println(errs)
		return
	}
	s, err := replay.Load(srcs[0], replay.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, th := range s.Threads() {
		var u replay.Usage
		calls := 0
		for _, c := range th.Calls {
			if c.HasUsage && !c.Duplicate && !c.Synthetic { // a synthetic line was never sent
				u = u.Add(c.Usage)
				calls++
			}
		}
		fmt.Printf("%-6s %2d calls: input %d, cache write %d, cache read %d, output %d\n",
			th.Kind, calls, u.Input, u.CacheWrite(), u.CacheRead, u.Output)
	}
	// Output:
	// main   21 calls: input 112, cache write 5421, cache read 468868, output 1489
	// agent   4 calls: input 21, cache write 10239, cache read 30033, output 132
	// aside   1 calls: input 3, cache write 111, cache read 23059, output 80
}
