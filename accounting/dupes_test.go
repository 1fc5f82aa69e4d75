package accounting

import (
	"fmt"
	"reflect"
	"testing"
)

// read writes a Read call and its result.
func (x *tr) read(id, input, content string) {
	x.call(sonnet45, use{in: 1}, toolUse(id, "Read", input))
	x.user([]any{result(id, content)})
}

// tool writes a call of another tool and its result.
func (x *tr) tool(id, name, input string) {
	x.call(sonnet45, use{in: 1}, toolUse(id, name, input))
	x.user([]any{result(id, "ok")})
}

func fp(path string) string { return fmt.Sprintf(`{"file_path":%q}`, path) }

func TestDuplicateReads(t *testing.T) {
	m := newTr("d")
	// Three reads of 10, 11 and 13 tokens, each different: overhead
	// floor(34/3)×2 = 11×2 = 22; both re-reads justified by the content.
	m.read("o1", fp("/over.go"), rep("a", 40)) // 10
	m.read("o2", fp("/over.go"), rep("b", 44)) // 11
	m.read("o3", fp("/over.go"), rep("c", 52)) // 13
	// The same 20-token content three times: two wasted re-reads.
	m.read("w1", fp("/waste.go"), rep("w", 80))
	m.read("w2", fp("/waste.go"), rep("w", 80))
	m.read("w3", fp("/waste.go"), rep("w", 80))
	// Edited, written or notebook-edited in between: justified.
	m.read("e1", fp("/edit.go"), rep("e", 40))
	m.tool("e2", "Edit", `{"file_path":"/edit.go","old_string":"a","new_string":"b"}`)
	m.read("e3", fp("/edit.go"), rep("e", 40))
	m.read("r1", fp("/write.go"), rep("e", 40))
	m.tool("r2", "Write", `{"file_path":"/write.go","content":"x"}`)
	m.read("r3", fp("/write.go"), rep("e", 40))
	m.read("n1", fp("/nb.ipynb"), rep("e", 40))
	m.tool("n2", "NotebookEdit", `{"notebook_path":"/nb.ipynb","new_source":"x"}`)
	m.read("n3", fp("/nb.ipynb"), rep("e", 40))
	// An edit before the first read justifies nothing.
	m.tool("p0", "Edit", `{"file_path":"/edit-before.go","old_string":"a","new_string":"b"}`)
	m.read("p1", fp("/edit-before.go"), rep("p", 40))
	m.read("p2", fp("/edit-before.go"), rep("p", 40))
	// Micro-compaction: clearing the earlier read forces the re-read;
	// clearing another tool's result does not.
	m.read("tm1", fp("/micro.go"), rep("m", 40))
	m.read("to1", fp("/micro-other.go"), rep("o", 40))
	m.micro(`{"trigger":"auto","preTokens":50000,"tokensSaved":20000,"compactedToolIds":["tm1","tzz"]}`)
	m.read("tm2", fp("/micro.go"), rep("m", 40))
	m.read("to2", fp("/micro-other.go"), rep("o", 40))
	// Ranges are rows of their own; a range read once has none.
	m.read("g1", fp("/range.go"), rep("r", 40))
	m.read("g2", `{"file_path":"/range.go","offset":10,"limit":5}`, rep("s", 8)) // 2
	m.read("g3", fp("/range.go"), rep("r", 40))
	m.read("g4", `{"file_path":"/range.go","offset":10,"limit":5}`, rep("s", 8))
	m.read("g5", `{"file_path":"/range.go","offset":10,"limit":6}`, rep("s", 8))
	// A failed read is not a read.
	m.read("v1", fp("/err.go"), rep("v", 40))
	m.call(sonnet45, use{in: 1}, toolUse("v2", "Read", fp("/err.go")))
	m.user([]any{errResult("v2", rep("v", 40))})
	// Read once only.
	m.read("s1", fp("/single.go"), rep("s", 40))
	m.read("h1", fp("/shared.go"), rep("h", 40))
	// A full compaction clears every earlier read: forced.
	m.read("k1", fp("/compact.go"), rep("k", 40))
	m.boundary(`{"trigger":"auto","preTokens":150000}`, "summary")
	m.read("k2", fp("/compact.go"), rep("k", 40))

	// Reads are compared within a thread: one read here and one in the main
	// thread are no duplicate.
	a := agentTr("d", "a1")
	a.user("go")
	a.read("ah1", fp("/shared.go"), rep("h", 40))

	got := analyze(t, m, map[string]*tr{"a1": a}).Duplicates
	want := []DuplicateRead{
		// 20×3 = 60 tokens, overhead floor(60/3)×2 = 40, waste 20+20 = 40.
		{Path: "/waste.go", Reads: 3, Tokens: 60, Overhead: 40, Waste: 2, WasteTokens: 40},
		// 10+10 = 20, overhead 10×1 = 10, waste 10; ties sort by path.
		{Path: "/edit-before.go", Reads: 2, Tokens: 20, Overhead: 10, Waste: 1, WasteTokens: 10},
		{Path: "/micro-other.go", Reads: 2, Tokens: 20, Overhead: 10, Waste: 1, WasteTokens: 10},
		{Path: "/range.go", Reads: 2, Tokens: 20, Overhead: 10, Waste: 1, WasteTokens: 10},
		// 2+2 = 4, overhead 2.
		{Path: "/range.go", Offset: 10, Limit: 5, Reads: 2, Tokens: 4, Overhead: 2, Waste: 1, WasteTokens: 2},
		// 10+11+13 = 34, overhead floor(34/3)×2 = 22.
		{Path: "/over.go", Reads: 3, Tokens: 34, Overhead: 22, Justified: 2},
		{Path: "/compact.go", Reads: 2, Tokens: 20, Overhead: 10, Forced: 1},
		{Path: "/edit.go", Reads: 2, Tokens: 20, Overhead: 10, Justified: 1},
		{Path: "/micro.go", Reads: 2, Tokens: 20, Overhead: 10, Forced: 1},
		{Path: "/nb.ipynb", Reads: 2, Tokens: 20, Overhead: 10, Justified: 1},
		{Path: "/write.go", Reads: 2, Tokens: 20, Overhead: 10, Justified: 1},
	}
	if !reflect.DeepEqual(got, want) {
		rowDiff(t, got, want)
	}
}

// TestDuplicateOverheadFloor pins Claude Code's floor(total/count)×(count−1).
func TestDuplicateOverheadFloor(t *testing.T) {
	for _, tc := range []struct {
		chars    []int // result lengths; tokens are round(len/4)
		tokens   int
		overhead int
	}{
		{[]int{40, 44, 48}, 33, 22},         // 10+11+12 = 33: floor(33/3)×2 = 22
		{[]int{40, 44, 52}, 34, 22},         // 10+11+13 = 34: floor(34/3)×2 = 11×2 = 22
		{[]int{40, 44}, 21, 10},             // 10+11 = 21: floor(21/2)×1 = 10
		{[]int{4, 8, 8, 8}, 7, 3},           // 1+2+2+2 = 7: floor(7/4)×3 = 1×3 = 3
		{[]int{400, 400, 400, 4}, 301, 225}, // 100×3+1 = 301: floor(301/4)×3 = 75×3 = 225
	} {
		m := newTr("f")
		for i, n := range tc.chars {
			m.read(fmt.Sprint("r", i), fp("/f.go"), rep(string(rune('a'+i)), n))
		}
		d := analyze(t, m, nil).Duplicates
		if len(d) != 1 || d[0].Reads != len(tc.chars) || d[0].Tokens != tc.tokens || d[0].Overhead != tc.overhead {
			t.Errorf("%v: %+v, want %d reads, %d tokens, overhead %d", tc.chars, d, len(tc.chars), tc.tokens, tc.overhead)
		}
	}
}

func TestDuplicateReadsNone(t *testing.T) {
	m := newTr("n")
	m.read("a", fp("/a.go"), "x")
	m.read("b", fp("/b.go"), "x")
	d := analyze(t, m, nil).Duplicates
	if d == nil || len(d) != 0 {
		t.Errorf("Duplicates = %#v, want empty, not nil", d)
	}
}
