package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDesignFilesExist: every file and folder docs/design.md names (its
// recipes for a new format, policy and Claude Code version above all) is
// in the repository, and an identifier it places in a file, as
// "`Formats` (`report/render/format.go`)", is in that file. A recipe whose
// files moved fails here rather than misleading a reader.
func TestDesignFilesExist(t *testing.T) {
	root := filepath.Join("..", "..")
	doc, err := os.ReadFile(filepath.Join(root, "docs", "design.md"))
	if err != nil {
		t.Fatal(err)
	}
	top := map[string]bool{}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			top[e.Name()] = true
		}
	}
	text := strings.Join(strings.Fields(string(doc)), " ") // a name split across lines reads whole
	paths := 0
	for _, m := range regexp.MustCompile("`([^` ]+)`").FindAllStringSubmatch(text, -1) {
		p := strings.TrimSuffix(m[1], "/")
		first, _, _ := strings.Cut(p, "/")
		if !strings.Contains(m[1], "/") || !top[first] {
			continue // a Go identifier, a flag, a standard package
		}
		paths++
		if found, _ := filepath.Glob(filepath.Join(root, p)); len(found) == 0 {
			t.Errorf("docs/design.md names %s, which is not in the repository", m[1])
		}
	}
	if paths < 40 {
		t.Errorf("docs/design.md names %d files and folders; the check found too few to trust", paths)
	}
	placed := 0
	for _, m := range regexp.MustCompile("`([A-Za-z_][\\w.]*)`[^`()]{0,40}\\(`([\\w/.-]+\\.go)`").FindAllStringSubmatch(text, -1) {
		name, file := m[1], m[2]
		if !strings.Contains(file, "/") {
			continue // a file of the package the sentence is about
		}
		b, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			continue // reported above
		}
		placed++
		ident := name[strings.LastIndex(name, ".")+1:]
		if !regexp.MustCompile(`\b` + regexp.QuoteMeta(ident) + `\b`).Match(b) {
			t.Errorf("docs/design.md places %s in %s, which has no %s", name, file, ident)
		}
	}
	if placed < 6 {
		t.Errorf("docs/design.md places %d identifiers in files; the check found too few to trust", placed)
	}
}
