package transcript

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/internal/claudecode"
)

// caseStrings returns the string literals the named functions of a file
// compare their key with (an identifier named key): in the cases of a
// switch on it, or with ==.
func caseStrings(t *testing.T, file, key string, funcs ...string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	isKey := func(e ast.Expr) bool { id, ok := e.(*ast.Ident); return ok && id.Name == key }
	var out []string
	lit := func(e ast.Expr) {
		if b, ok := e.(*ast.BasicLit); ok && b.Kind == token.STRING {
			s, _ := strconv.Unquote(b.Value)
			out = append(out, s)
		}
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || !slices.Contains(funcs, fd.Name.Name) {
			continue
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SwitchStmt:
				if n.Tag != nil && isKey(n.Tag) {
					for _, c := range n.Body.List {
						for _, e := range c.(*ast.CaseClause).List {
							lit(e)
						}
					}
				}
			case *ast.BinaryExpr:
				if n.Op == token.EQL && isKey(n.X) {
					lit(n.Y)
				}
			}
			return true
		})
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// names returns the sorted names of the fields for which keep holds.
func names(fields []claudecode.Field, keep func(claudecode.Field) bool) []string {
	var out []string
	for _, f := range fields {
		if keep(f) {
			out = append(out, f.Name)
		}
	}
	slices.Sort(out)
	return out
}

// TestKnownFields checks the reader against claudecode's tables of the
// fields and line types ctxlab knows: the fields it reads are the table's
// fields that are not skimmed, and fields_gen.go's switches list the
// skimmed fields and the line types (run go generate ./replay/transcript when they
// do not).
func TestKnownFields(t *testing.T) {
	fields := claudecode.TranscriptFields()
	all := func(claudecode.Field) bool { return true }
	if got := names(fields, all); len(slices.Compact(got)) != len(fields) {
		t.Errorf("TranscriptFields lists a field twice")
	}
	read := names(fields, func(f claudecode.Field) bool { return !f.Skimmed })
	if got := caseStrings(t, "reader.go", "k", "value", "field", "flag"); !slices.Equal(got, read) {
		t.Errorf("reader.go reads %v; TranscriptFields lists as read %v", got, read)
	}
	skimmedNames := names(fields, func(f claudecode.Field) bool { return f.Skimmed })
	if got := caseStrings(t, "fields_gen.go", "k", "skimmedField"); !slices.Equal(got, skimmedNames) {
		t.Errorf("fields_gen.go skims %v; TranscriptFields lists %v: go generate ./replay/transcript", got, skimmedNames)
	}
	types := names(claudecode.LineTypes(), all)
	if got := caseStrings(t, "fields_gen.go", "t", "knownType"); !slices.Equal(got, types) {
		t.Errorf("fields_gen.go knows the types %v; LineTypes lists %v: go generate ./replay/transcript", got, types)
	}
	for _, f := range append(fields, claudecode.LineTypes()...) {
		if f.From != "" && claudecode.CompareVersions(f.From, "1.0.0") < 0 {
			t.Errorf("%s: From %q is not a version", f.Name, f.From)
		}
	}
}

// TestKnownFieldsRead reads a line of every known type carrying every
// known field: none counts as unknown, and a field or type the tables do
// not list does.
func TestKnownFieldsRead(t *testing.T) {
	var line strings.Builder
	for _, typ := range claudecode.LineTypes() {
		line.WriteString(`{"type":"` + typ.Name + `"`)
		for _, f := range claudecode.TranscriptFields() {
			if f.Name != "type" {
				line.WriteString(`,"` + f.Name + `":null`)
			}
		}
		line.WriteString("}\n")
	}
	line.WriteString(`{"type":"user","notAField":1}` + "\n" + `{"type":"notAType"}` + "\n")
	r := NewReader(strings.NewReader(line.String()), "t")
	for r.Scan() {
		if se, ok := r.Result().(*SyntaxError); ok {
			t.Errorf("unexpected error %v", se)
		}
	}
	want := map[string]int{"user.notAField": 1, "notAType": 1}
	if got := r.Stats().Unknown; !maps.Equal(got, want) {
		t.Errorf("Unknown = %v, want %v", got, want)
	}
}
