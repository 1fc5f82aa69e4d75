package simulate

import (
	"reflect"
	"testing"

	"github.com/ctxlab/ctxlab/replay"
)

// file is a successful file tool's result in a test context.
func file(path string, est int, wrote bool) Item {
	return Item{Kind: KindToolResult, Tool: "Read", Path: path, Tokens: int64(est), Est: est, File: FileSize{Est: est, RawEst: est}, Wrote: wrote}
}

// The files a run keeps follow Claude Code's: a restarted process (here a
// resumed conversation's first call) starts with none before 2.0.59 and,
// from it, with the files the history shows whole; a sub-agent's files
// are the session's before 1.0.117; a compaction leaves only the files it
// re-attached; from 2.0.56 the session's plan file comes back whole after
// the files, and is not one of them.
func TestRestoreFiles(t *testing.T) {
	whole := func(path string, est int, wrote bool) Item {
		it := file(path, est, wrote)
		it.Whole = true
		return it
	}
	part := file("part.go", 100, false) // a Read of part of the file
	plan := whole("/home/u/.claude/plans/tidy-plan.md", 300, true)
	plan.Tool = "Write"
	run := func(version string, restartAt int, agent *FileTouch, extra ...Item) [][]string {
		tr := build(
			step{0, "", []Item{user(500)}},
			step{1, "", append([]Item{whole("a.go", 100, false), part}, extra...)},
			step{2, "", []Item{user(50)}},
			step{3, "", []Item{whole("b.go", 100, false)}},
			step{4, "", []Item{asst(50)}},
			step{5, "", []Item{whole("c.go", 100, false)}},
			step{6, "", []Item{asst(50)}},
		)
		tr.Thread.Messages = make([]replay.Message, len(tr.Calls))
		for i := range tr.Calls {
			tr.Calls[i].Version = version
			tr.Thread.Messages[i].Time = tr.Calls[i].Time
		}
		if restartAt > 0 {
			tr.Calls[restartAt].Restarted = true
		}
		if agent != nil {
			tr.AgentFiles = []FileTouch{*agent}
		}
		var got [][]string
		Run(tr, policyFunc(func(s *State) {
			if s.Call == 4 || s.Call == 6 {
				s.Compact(Compaction{From: 1, To: len(s.Items), Restore: true, Label: "auto"})
				var names []string
				for _, it := range s.Items {
					if it.Kind == KindRestored {
						names = append(names, it.Path+"/"+it.Tool)
					}
				}
				got = append(got, names)
			}
		}), DefaultConfig())
		return got
	}
	agent := &FileTouch{Path: "x.go", File: FileSize{Est: 100, RawEst: 100}, Time: at(2)}
	for _, c := range []struct {
		name, version string
		restartAt     int
		agent         *FileTouch
		extra         []Item
		want          [][]string
	}{
		// Compacting at call 4, then at call 6: the second finds what
		// the first re-attached and c.go.
		{"one process", "1.0.89", 0, nil, nil,
			[][]string{{"b.go/Read", "part.go/Read", "a.go/Read"}, {"c.go/Read", "b.go/Read", "part.go/Read", "a.go/Read"}}},
		{"restarted, 1.0.89", "1.0.89", 2, nil, nil,
			[][]string{{"b.go/Read"}, {"c.go/Read", "b.go/Read"}}},
		// The whole Read of a.go is in the history; part.go's is not.
		{"restarted, 2.0.59", "2.0.59", 2, nil, nil,
			[][]string{{"b.go/Read", "a.go/Read"}, {"c.go/Read", "b.go/Read", "a.go/Read"}}},
		// The agent read x.go between a.go and b.go (before call 3).
		{"sub-agent, 1.0.115", "1.0.115", 0, agent, nil,
			[][]string{{"b.go/Read", "x.go/Read", "part.go/Read", "a.go/Read"}, {"c.go/Read", "b.go/Read", "x.go/Read", "part.go/Read", "a.go/Read"}}},
		{"sub-agent, 1.0.117", "1.0.117", 0, agent, nil,
			[][]string{{"b.go/Read", "part.go/Read", "a.go/Read"}, {"c.go/Read", "b.go/Read", "part.go/Read", "a.go/Read"}}},
		{"plan, 2.0.56", "2.0.56", 0, nil, []Item{plan},
			[][]string{{"b.go/Read", "part.go/Read", "a.go/Read", plan.Path + "/plan_file_reference"},
				{"c.go/Read", "b.go/Read", "part.go/Read", "a.go/Read", plan.Path + "/plan_file_reference"}}},
		// Before 2.0.56 a plan file is a file the session wrote, first
		// from 1.0.114.
		{"plan, 2.0.55", "2.0.55", 0, nil, []Item{plan},
			[][]string{{plan.Path + "/Read", "b.go/Read", "part.go/Read", "a.go/Read"}, {plan.Path + "/Read", "c.go/Read", "b.go/Read", "part.go/Read", "a.go/Read"}}},
	} {
		if got := run(c.version, c.restartAt, c.agent, c.extra...); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %v\nwant %v", c.name, got, c.want)
		}
	}
}
