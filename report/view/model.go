package view

import (
	"strings"

	"github.com/ctxlab/ctxlab/internal/claudecode"
)

// shortModels is the text tables' short form of a Text cell
// (table.Table.ShortText): each Claude model id among its lines without
// "claude-" and the date (claudecode.ShortModel: claude-haiku-4-5-20251001
// is haiku-4-5), after the "└ " that marks a model's row under its group.
func shortModels(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		mark, id := "", l
		if rest, ok := strings.CutPrefix(l, "└ "); ok {
			mark, id = "└ ", rest
		}
		lines[i] = mark + claudecode.ShortModel(id)
	}
	return strings.Join(lines, "\n")
}
