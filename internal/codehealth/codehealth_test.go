package codehealth

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The limits, on non-test Go files; generated files are exempt.
const (
	maxFuncLines    = 100
	maxCmdFuncLines = 60 // in cmd/ctxlab, where a command is flags → one call → render
	maxCommentLines = 15
	maxPackageLines = 3000
	maxCmdLines     = 1500 // cmd/ctxlab keeps flags and wiring only
	maxComplexity   = 25
)

// packageLimit is the most non-test lines the package in dir may hold.
func packageLimit(dir string) int {
	if dir == "cmd/ctxlab" {
		return maxCmdLines
	}
	return maxPackageLines
}

// moduleRoot is the directory of go.mod above this package's.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// sourceFile is one parsed non-test Go file, its path relative to the
// module root, with '/' separators.
type sourceFile struct {
	path  string
	file  *ast.File
	lines int
}

// sources parses every non-test Go file of the module: testdata, and
// directories whose names start with '.' or '_', hold none (the go tool
// ignores them), nor do nested modules.
func sources(t *testing.T, root string, fset *token.FileSet) []sourceFile {
	t.Helper()
	var out []sourceFile
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p == root {
				return nil
			}
			if name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, p, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		out = append(out, sourceFile{path: filepath.ToSlash(rel), file: f, lines: strings.Count(string(src), "\n")})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatal("no Go file found under ", root)
	}
	return out
}

// span is how many lines a node covers, its first and last included.
func span(fset *token.FileSet, n ast.Node) int {
	return fset.Position(n.End()).Line - fset.Position(n.Pos()).Line + 1
}

// complexity is a function's cyclomatic complexity counted as gocyclo
// (github.com/fzipp/gocyclo) counts it: 1, plus one for each if, for and
// range statement, each case of a switch or select but the default, and
// each && and ||.
func complexity(fn *ast.FuncDecl) int {
	c := 1
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			c++
		case *ast.CaseClause:
			if n.List != nil {
				c++
			}
		case *ast.CommClause:
			if n.Comm != nil {
				c++
			}
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				c++
			}
		}
		return true
	})
	return c
}

// problems lists what breaks a limit in one file.
func problems(fset *token.FileSet, f sourceFile) []string {
	var out []string
	limit := maxFuncLines
	if strings.HasPrefix(f.path, "cmd/ctxlab/") {
		limit = maxCmdFuncLines
	}
	for _, d := range f.file.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		line := fset.Position(fn.Pos()).Line
		if n := span(fset, fn); n > limit {
			out = append(out, fmt.Sprintf("%s:%d: %s is %d lines, over %d", f.path, line, funcName(fn), n, limit))
		}
		if c := complexity(fn); c > maxComplexity {
			out = append(out, fmt.Sprintf("%s:%d: %s has cyclomatic complexity %d, over %d", f.path, line, funcName(fn), c, maxComplexity))
		}
	}
	for _, cg := range f.file.Comments {
		if n := span(fset, cg); n > maxCommentLines {
			out = append(out, fmt.Sprintf("%s:%d: a comment block of %d lines, over %d", f.path, fset.Position(cg.Pos()).Line, n, maxCommentLines))
		}
	}
	return out
}

// funcName is a function's name as gocyclo prints it: (*T).M, T.M or F.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	typ := fn.Recv.List[0].Type
	star := ""
	if s, ok := typ.(*ast.StarExpr); ok {
		typ, star = s.X, "*"
	}
	if g, ok := typ.(*ast.IndexExpr); ok {
		typ = g.X
	} else if g, ok := typ.(*ast.IndexListExpr); ok {
		typ = g.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return fmt.Sprintf("(%s%s).%s", star, id.Name, fn.Name.Name)
	}
	return fn.Name.Name
}

// TestCodeHealth fails on a non-test function over maxFuncLines lines
// (maxCmdFuncLines in cmd/ctxlab) or over maxComplexity, a comment block
// over maxCommentLines, and a package (its directory's non-test .go files)
// over its packageLimit.
func TestCodeHealth(t *testing.T) {
	root := moduleRoot(t)
	fset := token.NewFileSet()
	pkgLines := map[string]int{}
	for _, f := range sources(t, root, fset) {
		pkgLines[pathDir(f.path)] += f.lines
		if ast.IsGenerated(f.file) {
			continue
		}
		for _, p := range problems(fset, f) {
			t.Error(p)
		}
	}
	dirs := make([]string, 0, len(pkgLines))
	for dir := range pkgLines {
		dirs = append(dirs, dir)
	}
	sort.Strings(dirs)
	for _, dir := range dirs {
		if n, limit := pkgLines[dir], packageLimit(dir); n > limit {
			t.Errorf("%s: %d non-test lines, over %d: split what holds several ideas", dir, n, limit)
		}
	}
}

// pathDir is the directory of a slash-separated path, "." at the root.
func pathDir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return "."
}

// parseSource parses src as the file at path (relative to the module root).
func parseSource(t *testing.T, fset *token.FileSet, path, src string) sourceFile {
	t.Helper()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	return sourceFile{path: path, file: f, lines: strings.Count(src, "\n")}
}

// TestComplexity counts each kind of branch once, and no default case.
func TestComplexity(t *testing.T) {
	src := `package p

func (r *T) f(a, b bool, ch chan int, xs []int) {
	if a && b || a {
	}
	for i := 0; i < 1; i++ {
	}
	for range xs {
	}
	switch {
	case a, b:
	case !a:
	default:
	}
	select {
	case <-ch:
	default:
	}
	_ = func() bool { return a && b }
}
`
	fset := token.NewFileSet()
	fn := parseSource(t, fset, "p/p.go", src).file.Decls[0].(*ast.FuncDecl)
	// 1, if, &&, ||, for, range, two cases, one select case, the literal's &&.
	if got := complexity(fn); got != 10 {
		t.Errorf("complexity = %d, want 10", got)
	}
	if got := funcName(fn); got != "(*T).f" {
		t.Errorf("funcName = %q", got)
	}
}

// TestProblems finds a long function (by the cmd/ctxlab limit there), a
// long comment and a complex function, and nothing at the limits.
func TestProblems(t *testing.T) {
	body := func(lines int) string { return strings.Repeat("\t_ = 0\n", lines-2) }
	comment := func(lines int) string { return strings.Repeat("// c\n", lines) }
	branches := func(n int) string { return strings.Repeat("\tif x {\n\t}\n", n) }
	for _, c := range []struct {
		path, src string
		want      int
	}{
		{"a/a.go", "package a\n\n" + comment(15) + "func f() {\n" + body(100) + "}\n", 0},
		{"a/a.go", "package a\n\n" + comment(16) + "func f() {\n" + body(101) + "}\n", 2},
		{"cmd/ctxlab/a.go", "package main\n\nfunc f() {\n" + body(60) + "}\n", 0},
		{"cmd/ctxlab/a.go", "package main\n\nfunc f() {\n" + body(61) + "}\n", 1},
		{"a/a.go", "package a\n\nfunc f(x bool) {\n" + branches(24) + "}\n", 0},
		{"a/a.go", "package a\n\nfunc f(x bool) {\n" + branches(25) + "}\n", 1},
	} {
		fset := token.NewFileSet()
		if got := problems(fset, parseSource(t, fset, c.path, c.src)); len(got) != c.want {
			t.Errorf("%s: %d problems %q, want %d", c.path, len(got), got, c.want)
		}
	}
}

func TestPathDir(t *testing.T) {
	for p, want := range map[string]string{"doc.go": ".", "a/b.go": "a", "a/b/c.go": "a/b"} {
		if got := pathDir(p); got != want {
			t.Errorf("pathDir(%q) = %q, want %q", p, got, want)
		}
	}
}
