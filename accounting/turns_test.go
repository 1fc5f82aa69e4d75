package accounting

import (
	"testing"

	"github.com/ctxlab/ctxlab/internal/claudecode"
)

// TestRewriteCause names a set of turn rules by the first that Next checks.
func TestRewriteCause(t *testing.T) {
	for rw, want := range map[claudecode.Rewrite]string{
		0:                                 "",
		claudecode.RewriteThinkingDropped: CauseThinkingDropped,
		claudecode.RewriteSecondTurn | claudecode.RewriteThinkingDropped: CauseSecondTurn, // the first rule Next checks
		claudecode.RewriteModelNamed | claudecode.RewritePostCompact:     CauseModelNamed,
		claudecode.RewriteThinkingBudget:                                 CauseThinkingBudget,
		claudecode.RewritePostCompact:                                    CausePostCompaction,
	} {
		if got := rewriteCause(rw); got != want {
			t.Errorf("%05b: %q, want %q", rw, got, want)
		}
	}
}

// A thread continues a conversation when a full compaction comes before
// its first sent call; a micro-compaction there, or a compaction later on,
// does not make it one.
func TestContinues(t *testing.T) {
	for _, c := range []struct {
		name  string
		write func(m *tr)
		want  bool
	}{
		{"summary first", func(m *tr) { m.summaryOnly("s"); m.user("go on"); m.call(sonnet4, use{in: 1, out: 1}, text("x")) }, true},
		{"boundary first", func(m *tr) {
			m.boundary(`{"trigger":"manual"}`, "s")
			m.call(sonnet4, use{in: 1, out: 1}, text("x"))
		}, true},
		{"synthetic, then summary", func(m *tr) {
			m.user("a")
			m.call(synthetic, use{}, text("No response requested."))
			m.summaryOnly("s")
			m.call(sonnet4, use{in: 1, out: 1}, text("x"))
		}, true},
		{"micro first", func(m *tr) {
			m.micro(`{"trigger":"auto","preTokens":60000,"tokensSaved":25000}`)
			m.call(sonnet4, use{in: 1, out: 1}, text("x"))
		}, false},
		{"compaction later", func(m *tr) {
			m.user("a")
			m.call(sonnet4, use{in: 1, out: 1}, text("x"))
			m.summaryOnly("s")
			m.call(sonnet4, use{in: 1, out: 1}, text("x"))
		}, false},
		{"no call", func(m *tr) { m.summaryOnly("s") }, false},
	} {
		m := newTr("c")
		c.write(m)
		s := loadLax(t, m, nil)
		if got := s.Main.Continues(); got != c.want {
			t.Errorf("%s: Continues = %v, want %v", c.name, got, c.want)
		}
	}
}
