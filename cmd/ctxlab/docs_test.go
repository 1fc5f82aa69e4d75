package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// example is one "$ ctxlab …" command of a ```console block in docs/ and
// the output the docs show for it (standard error, then standard output).
type example struct {
	file string
	line int
	args []string
	want string
}

func docExamples(t *testing.T, files []string) []example {
	t.Helper()
	var out []example
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var cur *example
		var lines []string
		in := false
		sc := bufio.NewScanner(bytes.NewReader(data))
		n := 0
		flush := func() {
			if cur != nil {
				cur.want = strings.Join(lines, "\n") + "\n"
				out = append(out, *cur)
			}
			cur, lines = nil, nil
		}
		for sc.Scan() {
			n++
			l := sc.Text()
			switch {
			case !in && l == "```console":
				in = true
			case in && l == "```":
				flush()
				in = false
			case in && strings.HasPrefix(l, "$ ctxlab "):
				flush()
				cur = &example{file: f, line: n, args: strings.Fields(strings.TrimPrefix(l, "$ ctxlab "))}
			case in && cur != nil:
				lines = append(lines, l)
			}
		}
	}
	return out
}

// TestDocExamples runs every console example in docs/ from the repository
// root and compares what it prints, so the docs cannot drift from the code.
func TestDocExamples(t *testing.T) {
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range files {
		if files[i], err = filepath.Abs(f); err != nil { // the test moves to the root
			t.Fatal(err)
		}
	}
	exs := docExamples(t, files)
	if len(exs) < 2 {
		t.Fatalf("found %d console examples in docs/, want at least 2", len(exs))
	}
	t.Chdir("../..")
	// Last first, so that rewriting an example (-update) leaves the line
	// numbers of the examples above it right.
	slices.Reverse(exs)
	for _, ex := range exs {
		var out, errb bytes.Buffer
		run(ex.args, env{
			stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
			getenv: func(string) string { return "" }, home: os.UserHomeDir,
		})
		got := errb.String() + out.String()
		if got != ex.want && *update {
			rewriteExample(t, ex, got)
			continue
		}
		if got != ex.want {
			t.Errorf("%s:%d: ctxlab %s prints something else than the docs show (go test ./cmd/ctxlab -run TestDocExamples -update rewrites it):\n%s",
				ex.file, ex.line, strings.Join(ex.args, " "), firstDiff(ex.want, got))
		}
	}
}

// rewriteExample replaces the output the docs show for ex with got: the
// lines after its command up to the next command or the end of the block.
func rewriteExample(t *testing.T, ex example, got string) {
	t.Helper()
	data, err := os.ReadFile(ex.file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	end := ex.line // index of the first output line
	for end < len(lines) && lines[end] != "```" && !strings.HasPrefix(lines[end], "$ ctxlab ") {
		end++
	}
	repl := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	lines = append(lines[:ex.line], append(repl, lines[end:]...)...)
	if err := os.WriteFile(ex.file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReadmeCommands keeps the README's promise: its first block's first
// command reports on a shipped fixture, and its second is the test command
// that .ci/run runs.
func TestReadmeCommands(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "```sh\n")
	block, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("README has no ```sh block")
	}
	cmds := strings.Split(strings.TrimSpace(block), "\n")
	if len(cmds) < 2 {
		t.Fatalf("README's first block has %d commands, want 2", len(cmds))
	}
	args, ok := strings.CutPrefix(cmds[0], "go run ./cmd/ctxlab ")
	if !ok {
		t.Fatalf("first README command %q does not run ctxlab", cmds[0])
	}
	t.Chdir("../..")
	var out, errb bytes.Buffer
	code := run(strings.Fields(args), env{
		stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
		getenv: func(string) string { return "" }, home: os.UserHomeDir,
	})
	if code != exitOK || !strings.Contains(out.String(), "Usage by model") || errb.Len() > 0 {
		t.Errorf("%s: exit %d, stderr %q", cmds[0], code, errb.String())
	}
	ci, err := os.ReadFile(".ci/run")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(ci), "\n"+cmds[1]+"\n") {
		t.Errorf(".ci/run does not run the README's test command %q", cmds[1])
	}
}

// TestDocImages keeps docs/images what docs/plots.md says draws it: the
// ```sh block under "## Examples" is run with its --plot directory moved
// to a temporary one, and every image a page of docs/ shows must equal
// the one drawn, byte for byte; docs/images may hold nothing else.
// -update rewrites docs/images from the commands.
func TestDocImages(t *testing.T) {
	data, err := os.ReadFile("../../docs/plots.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "## Examples")
	_, rest, ok2 := strings.Cut(rest, "```sh\n")
	block, _, ok3 := strings.Cut(rest, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("docs/plots.md has no ```sh block under ## Examples")
	}
	t.Chdir("../..")
	tmp := t.TempDir()
	cmds := strings.Split(strings.TrimSpace(block), "\n")
	if len(cmds) < 2 {
		t.Fatalf("%d commands under ## Examples, want replay and compare", len(cmds))
	}
	for _, c := range cmds {
		args, ok := strings.CutPrefix(c, "go run ./cmd/ctxlab ")
		if !ok {
			t.Fatalf("%q does not run ctxlab", c)
		}
		fields := strings.Fields(args)
		moved := false
		for i := range fields {
			if i > 0 && fields[i-1] == "--plot" && fields[i] == "docs/images" {
				fields[i], moved = tmp, true
			}
		}
		if !moved {
			t.Fatalf("%q does not plot into docs/images", c)
		}
		var out, errb bytes.Buffer
		code := run(fields, env{
			stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
			getenv: func(string) string { return "" }, home: os.UserHomeDir,
		})
		if code != exitOK {
			t.Fatalf("%s: exit %d\n%s", c, code, errb.String())
		}
	}

	// The images the pages show.
	pages, _ := filepath.Glob("docs/*.md")
	shown := map[string]bool{}
	for _, p := range pages {
		b, _ := os.ReadFile(p)
		for _, m := range imageRE.FindAllStringSubmatch(string(b), -1) {
			shown[m[1]] = true
		}
	}
	if len(shown) < 6 {
		t.Fatalf("docs show %d images, want one of each plot kind", len(shown))
	}
	for name := range shown {
		drawn, err := os.ReadFile(filepath.Join(tmp, name))
		if err != nil {
			t.Errorf("docs show images/%s, which the commands do not draw", name)
			continue
		}
		path := filepath.Join("docs", "images", name)
		if *update {
			if err := os.WriteFile(path, drawn, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if old, err := os.ReadFile(path); err != nil || !bytes.Equal(old, drawn) {
			t.Errorf("%s is not what the commands draw (go test ./cmd/ctxlab -run TestDocImages -update)", path)
		}
	}
	files, _ := os.ReadDir(filepath.Join("docs", "images"))
	for _, f := range files {
		if !shown[f.Name()] {
			t.Errorf("docs/images/%s: no page shows it", f.Name())
		}
	}
}

var imageRE = regexp.MustCompile(`!\[[^\]]*\]\(images/([^)]+)\)`)

// TestFlagsDocumented: every flag of every command appears, as `--name`,
// in docs/cli.md or docs/plots.md.
func TestFlagsDocumented(t *testing.T) {
	var docs string
	for _, f := range []string{"../../docs/cli.md", "../../docs/plots.md", "../../docs/gate.md", "../../docs/sweep.md"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs += string(b)
	}
	e := env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
	for _, c := range []*cobra.Command{newReplayCmd(e), newCompareCmd(e), newGateCmd(e), newSweepCmd(e), newPlotCmd(e), newPoliciesCmd(e)} {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if !strings.Contains(docs, "`--"+f.Name) && !strings.Contains(docs, ", --"+f.Name) {
				t.Errorf("%s --%s is not in docs/cli.md, docs/plots.md, docs/gate.md or docs/sweep.md", c.Name(), f.Name)
			}
		})
	}
}

// TestCLIProseFigures: the sentence under docs/cli.md's replay --policy
// example reads its figures from the example's table: the total cost's Δ
// and the cache writes' Δ.
func TestCLIProseFigures(t *testing.T) {
	data, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	m := regexp.MustCompile(`would have cost \$([0-9.]+) more,\s+writing ([0-9,]+) more tokens into the cache`).FindStringSubmatch(doc)
	if m == nil {
		t.Fatal("docs/cli.md: no sentence reading the Δ column")
	}
	i := strings.Index(doc, m[0])
	delta := func(row string) string {
		j := strings.LastIndex(doc[:i], "| "+row+" ")
		if j < 0 {
			t.Fatalf("docs/cli.md: no row %q above the sentence", row)
		}
		cells := strings.Split(doc[j:j+strings.Index(doc[j:], "\n")], "|")
		return strings.TrimSpace(cells[len(cells)-2])
	}
	if got := delta("total cost"); got != "+$"+m[1] {
		t.Errorf("the prose says $%s more, the table's total cost Δ is %s", m[1], got)
	}
	w5, w1 := delta("cache write 5m"), delta("cache write 1h")
	n := func(s string) int { v, _ := strconv.Atoi(strings.NewReplacer(",", "", "+", "").Replace(s)); return v }
	if got := n(w5) + n(w1); fmt.Sprint(got) != strings.ReplaceAll(m[2], ",", "") {
		t.Errorf("the prose says %s more tokens written, the table's cache writes Δ are %s and %s", m[2], w5, w1)
	}
}
