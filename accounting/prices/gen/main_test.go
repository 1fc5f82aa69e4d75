package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The generator turns a LiteLLM price list into the Go file of the
// table, the same bytes for the same list, and refuses a bad date.
func TestGenerate(t *testing.T) {
	out := filepath.Join(t.TempDir(), "litellm_gen.go")
	if err := run("../testdata/litellm.json", "2026-06-19", "a test list", out); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"const liteLLMDate = \"2026-06-19\"",
		"const liteLLMSource = \"a test list\"",
		"\"claude-opus-4-7\":   {Input: 5, CacheWrite5m: 6.25, CacheWrite1h: 10, CacheRead: 0.5, Output: 25, LongContext: false, Fast: 6},",
		"\"deepseek-v4-flash\": {Input: 0.14,",
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("generated file lacks %q:\n%s", want, got)
		}
	}
	again := filepath.Join(t.TempDir(), "again.go")
	if err := run("../testdata/litellm.json", "2026-06-19", "a test list", again); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(again); string(b) != string(got) {
		t.Error("two runs on one list differ")
	}
	if err := run("../testdata/litellm.json", "June", "", out); err == nil {
		t.Error("a bad date was accepted")
	}
}
