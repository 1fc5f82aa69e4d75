package table

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportsNothingClaudeCode: the table engine knows neither documents
// nor Claude Code: of ctxlab's packages it imports internal/numtext alone
// (report/view gives it what it needs of the rest, as Table.ShortText).
func TestImportsNothingClaudeCode(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range ast.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(p, "github.com/ctxlab/ctxlab/") && p != "github.com/ctxlab/ctxlab/internal/numtext" {
				t.Errorf("%s imports %s", f, p)
			}
		}
	}
}
