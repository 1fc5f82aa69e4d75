package claudecode

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// factVars returns the package-level variables of the package's files
// whose value is a Fact or a Value.
func factVars(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, v := range vs.Values {
					if isFactLit(v) {
						out = append(out, vs.Names[i].Name)
					}
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// isFactLit reports whether e is a Fact{…} or Value[T]{…} literal.
func isFactLit(e ast.Expr) bool {
	c, ok := e.(*ast.CompositeLit)
	if !ok {
		return false
	}
	switch t := c.Type.(type) {
	case *ast.Ident:
		return t.Name == "Fact"
	case *ast.IndexExpr:
		id, ok := t.X.(*ast.Ident)
		return ok && id.Name == "Value"
	}
	return false
}

// TestFactsListed checks that Facts lists every fact this package
// declares, once, each under the name of its variable, with what it does
// and its source, and no '|' that would break its row.
func TestFactsListed(t *testing.T) {
	var listed []string
	for _, f := range Facts() {
		listed = append(listed, f.Name)
		if f.Doc == "" || f.Source == "" {
			t.Errorf("%s: no Doc or Source", f.Name)
		}
		if strings.Contains(f.Row(), "\n") || strings.Count(f.Row(), "|") != 6 {
			t.Errorf("%s: its row breaks the table: %s", f.Name, f.Row())
		}
	}
	slices.Sort(listed)
	if vars := factVars(t); !slices.Equal(listed, vars) {
		t.Errorf("Facts lists %v;\nthe package declares %v", listed, vars)
	}
}

// docRows returns the table rows of a section of docs/claude-code.md: the
// lines that begin with "| `" between its heading and the next.
func docRows(t *testing.T, heading string) []string {
	t.Helper()
	b, err := os.ReadFile("../../docs/claude-code.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "## ") {
			in = line == "## "+heading
		}
		if in && strings.HasPrefix(line, "| `") {
			rows = append(rows, line)
		}
	}
	return rows
}

// TestFactsDocumented checks docs/claude-code.md's table of facts against
// Facts: one row per fact, in order, with its versions, value, what it
// does and its source.
func TestFactsDocumented(t *testing.T) {
	rows := docRows(t, "Facts")
	facts := Facts()
	if len(rows) != len(facts) {
		t.Errorf("docs/claude-code.md lists %d facts, the code %d", len(rows), len(facts))
	}
	for i, f := range facts {
		if i >= len(rows) || rows[i] != f.Row() {
			t.Errorf("docs/claude-code.md, fact %d (%s): want\n%s", i+1, f.Name, f.Row())
		}
	}
}

// TestFieldsDocumented checks docs/claude-code.md's tables of transcript
// fields and line types against TranscriptFields and LineTypes.
func TestFieldsDocumented(t *testing.T) {
	for _, c := range []struct {
		heading string
		fields  []Field
	}{{"Transcript fields", TranscriptFields()}, {"Line types", LineTypes()}} {
		rows := docRows(t, c.heading)
		if len(rows) != len(c.fields) {
			t.Errorf("docs/claude-code.md, %s: %d rows, the code %d", c.heading, len(rows), len(c.fields))
		}
		for i, f := range c.fields {
			if i >= len(rows) || rows[i] != f.Row() {
				t.Errorf("docs/claude-code.md, %s %d: want\n%s", c.heading, i+1, f.Row())
			}
		}
	}
}

// TestFactIn pins Fact.In and Versions at both ends of a range.
func TestFactIn(t *testing.T) {
	both := Fact{From: "2.1.0", Until: "2.1.22"}
	for v, want := range map[string]bool{"": false, "2.0.76": false, "2.1.0": true, "2.1.21": true, "2.1.22": false} {
		if got := both.In(v); got != want {
			t.Errorf("In(%q) = %v", v, got)
		}
	}
	if !(Fact{}).In("1.0.0") || (Fact{}).In("") || !(Fact{Until: "2.0.0"}).In("1.0.89") || (Fact{Until: "2.0.0"}).In("2.0.0") {
		t.Error("an open end")
	}
	for f, want := range map[Fact]string{
		both: "from 2.1.0, before 2.1.22", {From: "2.0.0"}: "from 2.0.0", {Until: "2.1.0"}: "before 2.1.0", {}: "every version",
	} {
		if got := f.Versions(); got != want {
			t.Errorf("%+v: %q, want %q", f, got, want)
		}
	}
}

// TestValueText pins how docs/claude-code.md writes a fact's value.
func TestValueText(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{int64(1_000_000), "1,000,000"}, {int64(999), "999"}, {int64(1000), "1,000"}, {int64(-20_000), "-20,000"},
		{3, "3"}, {int64(0), "0"}, {0.05, "0.05"}, {0.125, "0.125"}, {5 * time.Minute, "5m"}, {time.Hour, "1h"}, {90 * time.Minute, "90m"},
		{"x", "`x`"}, {[]string{"a", "b"}, "`a`, `b`"},
		{[]MinPrefix{{"opus", 4096}, {"haiku", 2048}}, "`opus` 4,096, `haiku` 2,048"}, {true, "true"},
	} {
		if got := valueText(c.v); got != c.want {
			t.Errorf("valueText(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}
