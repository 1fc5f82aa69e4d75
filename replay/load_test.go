package replay

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/internal/testcorpus"
	"github.com/ctxlab/ctxlab/replay/transcript"
)

// sessionLine is a minimal chained line of session sid.
func sessionLine(sid, uuid string) string {
	return `{"type":"user","uuid":"` + uuid + `","parentUuid":null,"sessionId":"` + sid + `","message":{"role":"user","content":"x"}}` + "\n"
}

// agentLine is the first line of a sub-agent file: a sidechain prompt.
func agentLine(sid, uuid, agentID string) string {
	return `{"type":"user","uuid":"` + uuid + `","parentUuid":null,"isSidechain":true,"agentId":"` + agentID + `","sessionId":"` + sid + `","message":{"role":"user","content":"task"}}` + "\n"
}

func callLine(sid, uuid, msgID string, in, out int) string {
	return `{"type":"assistant","uuid":"` + uuid + `","sessionId":"` + sid + `","requestId":"r-` + msgID + `","message":{"id":"` + msgID +
		`","role":"assistant","content":[],"usage":{"input_tokens":` + strconv.Itoa(in) + `,"output_tokens":` + strconv.Itoa(out) + `}}}` + "\n"
}

func TestDiscover(t *testing.T) {
	dir := writeTree(t, map[string]string{
		// 2.1.x layout
		"projA/S1.jsonl":                                sessionLine("S1", "u1"),
		"projA/S1/subagents/agent-a1.jsonl":             agentLine("S1", "g1", "a1"),
		"projA/S1/subagents/agent-acompact-x.jsonl":     sessionLine("S1", "k1"),
		"projA/S1/subagents/agent-a1.meta.json":         `{"agentType":"Explore"}`,
		"projA/S1/tool-results/toolu_1.txt":             "big output",
		"projA/S1/tool-results/b1.jsonl":                sessionLine("S1", "t1"),
		"projA/S1/tool-results/sub/agent-deep.jsonl":    sessionLine("S1", "t2"),
		"projA/S1/subagents/tool-results/agent-x.jsonl": sessionLine("S1", "t3"),
		// 2.0.x layout: agent files beside the sessions, linked by sessionId
		"projB/S2.jsonl":            sessionLine("S2", "u2"),
		"projB/agent-abc1234.jsonl": agentLine("S2", "g2", "abc1234"),
		"projB/agent-def5678.jsonl": `{"type":"summary","summary":"s","leafUuid":"l"}` + "\n" + sessionLine("S2", "g3"),
		"projB/agent-0rphan1.jsonl": agentLine("S9", "g4", "0rphan1"),
		// a sub-agent directory without its session file
		"projC/S3/subagents/agent-z.jsonl": agentLine("S3", "g5", "z"),
		"projC/notes.txt":                  "not a transcript",
	})
	p := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	want := []Source{
		{Path: p("projA/S1.jsonl"), Agents: []string{p("projA/S1/subagents/agent-a1.jsonl"), p("projA/S1/subagents/agent-acompact-x.jsonl")}},
		{Path: p("projB/S2.jsonl"), Agents: []string{p("projB/agent-abc1234.jsonl"), p("projB/agent-def5678.jsonl")}},
		{Path: p("projB/agent-0rphan1.jsonl")},
		{Path: p("projC/S3/subagents/agent-z.jsonl")},
	}
	got, errs := Discover([]string{dir})
	if len(errs) != 0 {
		t.Fatalf("errors: %v", errs)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Discover =\n%+v, want\n%+v", got, want)
	}
	if ids := []string{got[0].ID(), got[2].ID()}; !reflect.DeepEqual(ids, []string{"S1", "agent-0rphan1"}) {
		t.Errorf("IDs = %q", ids)
	}

	// Each orphan loads as a session of its own, its lines in the main thread.
	for _, src := range got[2:] {
		s, err := Load(src, Options{})
		if err != nil {
			t.Fatalf("Load(%s): %v", src.Path, err)
		}
		if len(s.Main.Messages) != 1 || len(s.Agents) != 0 {
			t.Errorf("%s: main has %d messages, %d agent threads; want 1 and 0", src.Path, len(s.Main.Messages), len(s.Agents))
		}
	}
	s, err := Load(got[3], Options{})
	if err != nil {
		t.Fatalf("Load(%s): %v", got[3].Path, err)
	}
	if s.Project != "projC" {
		t.Errorf("orphan sub-agent Project = %q, want projC", s.Project)
	}

	// The same tree named twice, or a file inside it as well, gives each
	// session once.
	again, errs := Discover([]string{dir, p("projB/S2.jsonl"), dir})
	if len(errs) != 0 || !reflect.DeepEqual(again, want) {
		t.Errorf("Discover(dir, file, dir) = %+v, %v", again, errs)
	}
}

func TestDiscoverPaths(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"p/S.jsonl":                        sessionLine("S", "u"),
		"p/S/subagents/agent-a.jsonl":      sessionLine("S", "g"),
		"empty/.keep":                      "",
		"spill/S/tool-results/b.jsonl":     sessionLine("S", "t"),
		"spill/S/tool-results/readme.md":   "",
		"nested/deeper/still/T.jsonl":      sessionLine("T", "u"),
		"nested/deeper/still/T.jsonl.bak":  "",
		"nested/deeper/still/T.jsonl.tmp/": "",
	})
	p := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	missing := p("no/such/dir")

	tests := []struct {
		name    string
		paths   []string
		want    []Source
		wantErr []string // substrings, one per error
		is      []error  // errors.Is targets, one per error (nil to skip)
	}{
		{name: "stdin", paths: []string{"-"}, want: []Source{{Path: "-"}}},
		{name: "one file", paths: []string{p("p/S.jsonl")}, want: []Source{{Path: p("p/S.jsonl"), Agents: []string{p("p/S/subagents/agent-a.jsonl")}}}},
		{name: "nested", paths: []string{p("nested")}, want: []Source{{Path: p("nested/deeper/still/T.jsonl")}}},
		{
			name: "no transcripts", paths: []string{p("empty")},
			wantErr: []string{p("empty")}, is: []error{ErrNoTranscripts},
		},
		{
			name: "only spilled tool results", paths: []string{p("spill")},
			wantErr: []string{p("spill")}, is: []error{ErrNoTranscripts},
		},
		{
			name: "missing path", paths: []string{missing},
			wantErr: []string{missing}, is: []error{fs.ErrNotExist},
		},
		{
			name: "missing path beside a good one", paths: []string{missing, p("p/S.jsonl")},
			want:    []Source{{Path: p("p/S.jsonl"), Agents: []string{p("p/S/subagents/agent-a.jsonl")}}},
			wantErr: []string{missing}, is: []error{fs.ErrNotExist},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, errs := Discover(tt.paths)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("sources = %+v, want %+v", got, tt.want)
			}
			if len(errs) != len(tt.wantErr) {
				t.Fatalf("errors = %v, want %d", errs, len(tt.wantErr))
			}
			for i, err := range errs {
				if !strings.Contains(err.Error(), tt.wantErr[i]) {
					t.Errorf("error %q does not name %q", err, tt.wantErr[i])
				}
				if tt.is[i] != nil && !errors.Is(err, tt.is[i]) {
					t.Errorf("error %q is not %v", err, tt.is[i])
				}
			}
		})
	}
}

// TestDiscoverSymlinkedDir: a directory named through a symbolic link (a
// relocated ~/.claude, say) is searched like the directory itself.
func TestDiscoverSymlinkedDir(t *testing.T) {
	dir := writeTree(t, map[string]string{"real/p/S.jsonl": sessionLine("S", "u")})
	link := filepath.Join(dir, "link")
	if err := os.Symlink(filepath.Join(dir, "real"), link); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	got, errs := Discover([]string{link})
	want := []Source{{Path: filepath.Join(link, "p", "S.jsonl")}}
	if len(errs) != 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("Discover(symlink) = %+v, %v; want %+v", got, errs, want)
	}
}

// TestDiscoverFollowsSymlinks: a projects folder that holds a project or a
// transcript through a symbolic link (a project kept on another disk, a
// session linked in) has its sessions read, as ccusage reads them. Each
// file comes once: a link to a folder or file already in the tree, a
// second link to one target and a link back up the tree (a loop) add
// nothing. A link named *.jsonl whose target is gone is an error that
// names it; other dangling links are not transcripts and say nothing.
func TestDiscoverFollowsSymlinks(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"projects/here/A.jsonl":                   sessionLine("A", "u1"),
		"elsewhere/far/B.jsonl":                   sessionLine("B", "u2"),
		"elsewhere/far/B/subagents/agent-x.jsonl": agentLine("B", "g1", "x"),
		"elsewhere/C.jsonl":                       sessionLine("C", "u3"),
	})
	p := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	links := map[string]string{
		"projects/far":             p("elsewhere/far"),     // a project on another disk
		"projects/far-again":       p("elsewhere/far"),     // the same target twice
		"projects/here/C.jsonl":    p("elsewhere/C.jsonl"), // a session linked in
		"projects/here/A2.jsonl":   p("projects/here/A.jsonl"),
		"projects/here/up":         p("projects"), // a loop
		"projects/here/gone.jsonl": p("elsewhere/gone.jsonl"),
		"projects/here/gone-dir":   p("elsewhere/gone"),
	}
	for l, target := range links {
		if err := os.Symlink(target, p(l)); err != nil {
			t.Skipf("no symlinks here: %v", err)
		}
	}
	want := []Source{
		{Path: p("projects/far/B.jsonl"), Agents: []string{p("projects/far/B/subagents/agent-x.jsonl")}},
		{Path: p("projects/here/A.jsonl")},
		{Path: p("projects/here/C.jsonl")},
	}
	got, errs := Discover([]string{p("projects")})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Discover =\n%+v, want\n%+v", got, want)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), p("projects/here/gone.jsonl")) || !errors.Is(errs[0], fs.ErrNotExist) {
		t.Errorf("errors = %v, want one naming the dangling link gone.jsonl", errs)
	}
	if got[0].Project() != "far" {
		t.Errorf("Project() = %q, want the link's name, far", got[0].Project())
	}

	// A projects folder of links only is not "no transcripts found"; a
	// file named again by its own path after a link reached it counts once.
	only := writeTree(t, nil)
	if err := os.Symlink(p("elsewhere/far"), filepath.Join(only, "far")); err != nil {
		t.Fatal(err)
	}
	got, errs = Discover([]string{only, p("elsewhere/far/B.jsonl")})
	want = []Source{{Path: filepath.Join(only, "far", "B.jsonl"), Agents: []string{filepath.Join(only, "far", "B", "subagents", "agent-x.jsonl")}}}
	if len(errs) != 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("Discover(links only, the file again) = %+v, %v; want %+v", got, errs, want)
	}
}

// TestDiscoverSymlinkLoop: a link named *.jsonl that leads back to itself
// (through another) is an error that says it is a loop, not a link to a
// missing file; the transcripts beside it are read.
func TestDiscoverSymlinkLoop(t *testing.T) {
	dir := writeTree(t, map[string]string{"projects/p/A.jsonl": sessionLine("A", "u1")})
	p := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	if err := os.Symlink(p("projects/p/b.jsonl"), p("projects/p/a.jsonl")); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	if err := os.Symlink(p("projects/p/a.jsonl"), p("projects/p/b.jsonl")); err != nil {
		t.Fatal(err)
	}
	got, errs := Discover([]string{p("projects")})
	if want := []Source{{Path: p("projects/p/A.jsonl")}}; !reflect.DeepEqual(got, want) {
		t.Errorf("Discover = %+v, want %+v", got, want)
	}
	if len(errs) != 2 {
		t.Fatalf("errors = %v, want one for each link of the loop", errs)
	}
	for i, name := range []string{"a.jsonl", "b.jsonl"} {
		if msg := errs[i].Error(); !strings.HasPrefix(msg, p("projects/p/"+name)+": symbolic link loop: ") || strings.Contains(msg, "missing") {
			t.Errorf("error %d = %q, want one naming %s as a symbolic link loop", i, msg, name)
		}
	}
}

// TestDiscoverFileAttachesAgents: a session file named on its own should
// bring its sub-agent files, as it does when its directory is named; their
// usage is part of the session's spend.
func TestDiscoverFileAttachesAgents(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"p/S.jsonl":                   sessionLine("S", "u"),
		"p/S/subagents/agent-a.jsonl": sessionLine("S", "g"),
		"q/T.jsonl":                   sessionLine("T", "u2"),
		"q/agent-1234567.jsonl":       sessionLine("T", "g2"),
	})
	for _, tt := range []struct{ file, agent string }{
		{"p/S.jsonl", "p/S/subagents/agent-a.jsonl"},
		{"q/T.jsonl", "q/agent-1234567.jsonl"},
	} {
		file, agent := filepath.Join(dir, tt.file), filepath.Join(dir, tt.agent)
		got, errs := Discover([]string{file})
		want := []Source{{Path: file, Agents: []string{agent}}}
		if len(errs) != 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("Discover(%s) = %+v, %v; want %+v", tt.file, got, errs, want)
		}
	}
}

// TestDiscoverArgumentOrder: an agent file named beside its session (itself,
// through its directory, or both) is attached to the session once, whatever
// the order of the arguments; one whose session is not in the input stays a
// session of its own.
func TestDiscoverArgumentOrder(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"p/S.jsonl":                   sessionLine("S", "u1"),
		"p/S/subagents/agent-a.jsonl": agentLine("S", "g1", "a"),
		"p/S/subagents/agent-b.jsonl": agentLine("S", "g2", "b"),
		"q/T.jsonl":                   sessionLine("T", "u2"),
		"q/agent-1234567.jsonl":       agentLine("T", "g3", "1234567"),
		"q/agent-7654321.jsonl":       agentLine("X", "g4", "7654321"), // its session is elsewhere
	})
	p := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	S := Source{Path: p("p/S.jsonl"), Agents: []string{p("p/S/subagents/agent-a.jsonl"), p("p/S/subagents/agent-b.jsonl")}}
	T := Source{Path: p("q/T.jsonl"), Agents: []string{p("q/agent-1234567.jsonl")}}
	X := Source{Path: p("q/agent-7654321.jsonl")}
	tests := []struct {
		name  string
		paths []string
		want  []Source
	}{
		{"agent, session", []string{p("p/S/subagents/agent-a.jsonl"), p("p/S.jsonl")}, []Source{S}},
		{"session, agent", []string{p("p/S.jsonl"), p("p/S/subagents/agent-a.jsonl")}, []Source{S}},
		{"agent, dir", []string{p("p/S/subagents/agent-b.jsonl"), p("p")}, []Source{S}},
		{"dir, agent", []string{p("p"), p("p/S/subagents/agent-b.jsonl")}, []Source{S}},
		{"subagents dir, session", []string{p("p/S/subagents"), p("p/S.jsonl")}, []Source{S}},
		{"session, subagents dir", []string{p("p/S.jsonl"), p("p/S/subagents")}, []Source{S}},
		{"dir, its subdirectory", []string{p("p"), p("p/S")}, []Source{S}},
		{"dir, session, agent, dir", []string{p("p"), p("p/S.jsonl"), p("p/S/subagents/agent-a.jsonl"), p("p")}, []Source{S}},
		{"2.0.x agent, session", []string{p("q/agent-1234567.jsonl"), p("q/T.jsonl")}, []Source{T}},
		{"2.0.x session, agent", []string{p("q/T.jsonl"), p("q/agent-1234567.jsonl")}, []Source{T}},
		{"2.0.x agent, dir", []string{p("q/agent-1234567.jsonl"), p("q")}, []Source{T, X}},
		{"2.0.x dir, agent", []string{p("q"), p("q/agent-1234567.jsonl")}, []Source{T, X}},
		{"2.0.x orphans alone", []string{p("q/agent-7654321.jsonl"), p("q/agent-1234567.jsonl")}, []Source{X, {Path: p("q/agent-1234567.jsonl")}}},
		{"2.0.x orphan, session", []string{p("q/agent-7654321.jsonl"), p("q/T.jsonl")}, []Source{X, T}},
		{"agent alone", []string{p("p/S/subagents/agent-a.jsonl")}, []Source{{Path: p("p/S/subagents/agent-a.jsonl")}}},
		{"argument order kept", []string{p("q/T.jsonl"), p("p/S/subagents/agent-a.jsonl"), p("p")}, []Source{T, S}},
		{"unclean paths", []string{p("p") + "/./S.jsonl", p("p/S/subagents/agent-a.jsonl"), p("q/../p")}, []Source{{Path: p("p") + "/./S.jsonl", Agents: S.Agents}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, errs := Discover(tt.paths)
			if len(errs) != 0 || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Discover =\n%+v, %v; want\n%+v", got, errs, tt.want)
			}
		})
	}
}

// TestDiscoverPatternCharacters: paths are names, not patterns: a project
// directory named with '[', '*' or '?' still finds a session's agents.
func TestDiscoverPatternCharacters(t *testing.T) {
	projs := []string{"proj[1]", "a*b", "what?", `back\slash`}
	if runtime.GOOS == "windows" {
		projs = projs[:1] // '*' and '?' are not allowed in names; '\' separates
	}
	for _, proj := range projs {
		dir := writeTree(t, map[string]string{
			proj + "/S.jsonl":                   sessionLine("S", "u1"),
			proj + "/S/subagents/agent-a.jsonl": agentLine("S", "g1", "a"),
			proj + "/T.jsonl":                   sessionLine("T", "u2"),
			proj + "/agent-1234567.jsonl":       agentLine("T", "g2", "1234567"),
		})
		p := func(rel string) string { return filepath.Join(dir, proj, filepath.FromSlash(rel)) }
		for _, tt := range []struct{ file, agent string }{
			{"S.jsonl", "S/subagents/agent-a.jsonl"},
			{"T.jsonl", "agent-1234567.jsonl"},
		} {
			got, errs := Discover([]string{p(tt.file)})
			want := []Source{{Path: p(tt.file), Agents: []string{p(tt.agent)}}}
			if len(errs) != 0 || !reflect.DeepEqual(got, want) {
				t.Errorf("Discover(%s) = %+v, %v; want %+v", p(tt.file), got, errs, want)
			}
		}
	}
}

func TestLoadErrors(t *testing.T) {
	// Random bytes with NULs: not a transcript.
	rng := rand.New(rand.NewPCG(1, 2))
	binary := make([]byte, 64<<10)
	for i := range binary {
		binary[i] = byte(rng.UintN(256))
		if i%97 == 0 {
			binary[i] = 0
		}
	}
	dir := writeTree(t, map[string]string{
		"empty.jsonl":  "",
		"blank.jsonl":  "\n  \n\r\n",
		"binary.jsonl": string(binary),
		"text.jsonl":   "hello\nworld\n",
		"one.jsonl":    "hello\n",
		"utf16.jsonl":  "\xff\xfe{\x00}\x00\n\x00{\x00}\x00\n\x00",
		"json.jsonl":   "{\"a\":1}\n[1,2]\n",
		"d.jsonl/x":    "",
	})
	p := func(rel string) string { return filepath.Join(dir, rel) }
	tests := []struct {
		name string
		src  Source
		opt  Options
		want []string // substrings of the error
		is   error
	}{
		{name: "empty file", src: Source{Path: p("empty.jsonl")}, want: []string{p("empty.jsonl"), "empty file"}},
		{name: "blank lines", src: Source{Path: p("blank.jsonl")}, want: []string{p("blank.jsonl"), "only blank lines"}},
		{name: "binary", src: Source{Path: p("binary.jsonl")}, want: []string{p("binary.jsonl"), "not a Claude Code transcript"}},
		{name: "plain text", src: Source{Path: p("text.jsonl")}, want: []string{"no valid transcript line in 2 lines", "not a Claude Code transcript"}},
		{name: "one line of text", src: Source{Path: p("one.jsonl")}, want: []string{"no valid transcript line in 1 line ("}},
		{name: "UTF-16", src: Source{Path: p("utf16.jsonl")}, want: []string{p("utf16.jsonl") + ": UTF-16 text, not UTF-8 as Claude Code writes transcripts: save the file as UTF-8"}},
		{name: "JSON without a record", src: Source{Path: p("json.jsonl")}, want: []string{p("json.jsonl"), "no transcript record in 2 lines", "not a Claude Code transcript"}},
		{name: "missing", src: Source{Path: p("gone.jsonl")}, want: []string{p("gone.jsonl")}, is: fs.ErrNotExist},
		{name: "directory", src: Source{Path: p("d.jsonl")}, want: []string{p("d.jsonl"), "is a directory"}},
		{name: "stdin without a reader", src: Source{Path: "-"}, want: []string{"standard input"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Load(tt.src, tt.opt)
			if err == nil {
				t.Fatalf("Load succeeded: %+v", s)
			}
			if s != nil {
				t.Errorf("Load returned a session with %v", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %q is not %v", err, tt.is)
			}
		})
	}
}

func TestLoadStdin(t *testing.T) {
	in := sessionLine("S", "u1") + "// pasted note\n" + callLine("S", "a1", "m1", 3, 4)
	s, err := Load(Source{Path: "-"}, Options{Stdin: strings.NewReader(in)})
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != "-" || s.Path != "-" || s.Project != "" {
		t.Errorf("ID, Path, Project = %q, %q, %q", s.ID, s.Path, s.Project)
	}
	if len(s.Warnings) != 1 || s.Warnings[0].File != "<stdin>" || s.Warnings[0].Line != 2 {
		t.Errorf("warnings = %v, want one for <stdin>:2", s.Warnings)
	}
	if got := sessionTokens(s); got != (tokens{Input: 3, Output: 4}) {
		t.Errorf("tokens = %+v", got)
	}
	if s.Stats.Lines != 3 || s.Stats.Bad != 1 || s.Stats.BytesRead != int64(len(in)) || s.Stats.Types["user"] != 1 {
		t.Errorf("stats = %+v", s.Stats)
	}
}

func TestLoadOptions(t *testing.T) {
	long := `{"type":"user","uuid":"big","message":{"role":"user","content":"` + strings.Repeat("x", 3000) + `"}}` + "\n"
	in := sessionLine("S", "u1") + long + callLine("S", "a1", "m1", 1, 1)
	s, err := Load(Source{Path: "-"}, Options{Stdin: strings.NewReader(in), MaxLineBytes: 1024})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Warnings) != 1 || s.Warnings[0].Line != 2 || !strings.Contains(s.Warnings[0].Msg, "longer than 1,024 bytes") {
		t.Errorf("warnings = %v, want line 2 over 1024 bytes", s.Warnings)
	}
	if len(s.Main.Messages) != 2 {
		t.Errorf("%d messages, want 2", len(s.Main.Messages))
	}
}

// TestLoadPartial: a session whose agent file cannot be read still loads,
// and the error names the file; so does one whose main file is gone.
func TestLoadPartial(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"p/S.jsonl":                   sessionLine("S", "u1") + callLine("S", "a1", "m1", 1, 2),
		"p/S/subagents/agent-b.jsonl": callLine("S", "b1", "mb", 5, 6),
	})
	main := filepath.Join(dir, "p", "S.jsonl")
	good := filepath.Join(dir, "p", "S", "subagents", "agent-b.jsonl")
	gone := filepath.Join(dir, "p", "S", "subagents", "agent-gone.jsonl")

	s, err := Load(Source{Path: main, Agents: []string{good, gone}}, Options{})
	if err == nil || !strings.Contains(err.Error(), gone) {
		t.Errorf("error = %v, want one naming %s", err, gone)
	}
	if s == nil {
		t.Fatal("no session")
	}
	if got := sessionTokens(s); got != (tokens{Input: 6, Output: 8}) {
		t.Errorf("tokens = %+v", got)
	}
	if s.ID != "S" || s.Project != "p" || len(s.Agents) != 2 || s.Agents[0].Path != good {
		t.Errorf("session %q project %q agents %d", s.ID, s.Project, len(s.Agents))
	}

	s, err = Load(Source{Path: filepath.Join(dir, "p", "gone.jsonl"), Agents: []string{good}}, Options{})
	if err == nil || s == nil || len(s.Agents) != 1 || len(s.Agents[0].Calls) != 1 {
		t.Errorf("Load with a missing main file = %v, %v; want the agent and an error", s, err)
	}
}

func TestSourceID(t *testing.T) {
	tests := map[string]string{
		"-": "-",
		filepath.Join("a", "b", "4a5c6ea5-9101.jsonl"):         "4a5c6ea5-9101",
		filepath.Join("a", "S", "subagents", "agent-x1.jsonl"): "agent-x1",
		"plain": "plain",
	}
	for path, want := range tests {
		if got := (Source{Path: path}).ID(); got != want {
			t.Errorf("Source{%q}.ID() = %q, want %q", path, got, want)
		}
	}
}

// A 1.0.x file that starts with a compaction summary carrying another
// session's id continues that session; a resumed file (its first line an
// ordinary message of the old session) does not mark it, nor does a
// summary naming a session not in the input.
func TestMarkContinued(t *testing.T) {
	summary := func(sid string) string {
		return `{"type":"user","uuid":"c-` + sid + `","sessionId":"` + sid + `","isCompactSummary":true,"message":{"role":"user","content":"This session is being continued"}}` + "\n"
	}
	dir := writeTree(t, map[string]string{
		"p/A.jsonl": sessionLine("A", "a1"),
		// title lines first, as Claude Code writes them
		"p/B.jsonl": `{"type":"summary","summary":"t","leafUuid":"x"}` + "\n" + summary("A") + sessionLine("B", "b1"),
		"p/C.jsonl": sessionLine("C", "c1"),
		"p/D.jsonl": sessionLine("C", "d0") + sessionLine("D", "d1"), // resumed from C
		"p/E.jsonl": summary("Z") + sessionLine("E", "e1"),           // Z not in the input
		"p/F.jsonl": summary("F") + sessionLine("F", "f1"),           // its own summary
		// G's conversation goes on in H from a summary G holds (a resume's
		// copy), and in I from a /compact's summary (1.0.89 writes it
		// without the instruction to go on): neither is an automatic
		// compaction past G's last call.
		"p/G.jsonl": sessionLine("G", "g1") + summary("G"),
		"p/H.jsonl": summary("G") + sessionLine("H", "h1"),
		"p/J.jsonl": sessionLine("J", "j1"),
		"p/K.jsonl": `{"type":"user","uuid":"k0","sessionId":"J","version":"1.0.89","isCompactSummary":true,"message":{"role":"user","content":"This session is being continued from a previous conversation that ran out of context. The conversation is summarized below: a report."}}` + "\n" + sessionLine("K", "k1"),
	})
	srcs, errs := Discover([]string{dir})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	MarkContinued(srcs)
	got := map[string]string{}
	for _, s := range srcs {
		got[s.ID()] = s.ContinuedIn
	}
	want := map[string]string{"A": "B", "B": "", "C": "", "D": "", "E": "", "F": "", "G": "H", "H": "", "J": "", "K": ""}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ContinuedIn %v, want %v", got, want)
	}
	s, err := Load(srcs[0], Options{})
	if err != nil || s.ContinuedIn != "B" {
		t.Errorf("Load: ContinuedIn %q, %v; want B", s.ContinuedIn, err)
	}
	for _, src := range srcs {
		if src.ID() == "G" {
			if s, err := Load(src, Options{}); err != nil || s.ContinuedIn != "" {
				t.Errorf("Load(G): ContinuedIn %q, %v; want none, G holds the summary", s.ContinuedIn, err)
			}
		}
	}
}

// TestHeadWithSession checks the one-read path that learns an agent
// file's session (and, under MarkContinued, what a file continues) from
// its first 16 KB against reading the file from its start: the same line,
// or no answer and the whole read, on lines that end within the head,
// one that crosses it, a head without a newline, title lines before the
// session's, a malformed line first, and every transcript of the fixtures
// and of the genuine sets present.
func TestHeadWithSession(t *testing.T) {
	long := `{"type":"user","uuid":"l1","sessionId":"L","message":{"role":"user","content":"` + strings.Repeat("x", headBytes) + `"}}` + "\n"
	dir := writeTree(t, map[string]string{
		"p/short.jsonl":  agentLine("S", "s1", "a1") + callLine("S", "s2", "m1", 1, 1),
		"p/long.jsonl":   long + sessionLine("L", "l2"),
		"p/cross.jsonl":  strings.Repeat(`{"type":"summary","summary":"t","leafUuid":"x"}`+"\n", headBytes/48) + sessionLine("C", "c1"),
		"p/titles.jsonl": `{"type":"summary","summary":"t","leafUuid":"x"}` + "\n" + sessionLine("T", "t1"),
		"p/bad.jsonl":    "{not json\n" + sessionLine("B", "b1"),
		"p/none.jsonl":   `{"type":"summary","summary":"t","leafUuid":"x"}` + "\n",
		"p/open.jsonl":   strings.TrimSuffix(sessionLine("O", "o1"), "\n"),
	})
	files := []string{}
	for _, name := range []string{"short", "long", "cross", "titles", "bad", "none", "open"} {
		files = append(files, filepath.Join(dir, "p", name+".jsonl"))
	}
	// answered from the head, of the first 20 lines and of 1000: cross's
	// first 20 lines are title lines within the head, its 1000 cross it
	want := map[string][2]bool{"short": {true, true}, "titles": {true, true}, "bad": {true, true}, "cross": {true, false}}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		for i, lines := range []int{20, 1000} {
			if _, ok := headWithSession(f, lines); ok != want[name][i] {
				t.Errorf("%s, %d lines: answered from the head %v, want %v", name, lines, ok, want[name][i])
			}
		}
	}
	roots := []string{"testdata", "../fixtures"}
	for _, name := range testcorpus.All {
		if d, ok := testcorpus.Path(name); ok {
			roots = append(roots, d)
		}
	}
	for _, root := range roots {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
				files = append(files, p)
			}
			return nil
		})
	}
	for _, f := range files {
		for _, lines := range []int{20, 1000} {
			whole := firstFromStart(f, lines)
			got := firstWithSession(f, lines)
			if (got == nil) != (whole == nil) || got != nil && (got.SessionID != whole.SessionID || got.UUID != whole.UUID || got.CompactSummary != whole.CompactSummary || got.Summary != whole.Summary || got.Version != whole.Version) {
				t.Errorf("%s, %d lines: %+v from the head, %+v from the whole file", f, lines, got, whole)
			}
		}
	}
}

// firstFromStart is firstWithSession reading the file from its start.
func firstFromStart(path string, lines int) *transcript.Entry {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	r := transcript.NewReader(f, path)
	defer r.Close()
	for i := 0; i < lines && r.Scan(); i++ {
		if e, ok := r.Result().(*transcript.Entry); ok && e.SessionID != "" {
			return e
		}
	}
	return nil
}

// TestCleanPath checks the quick filepath.Clean and filepath.Dir of
// Discover against them.
func TestCleanPath(t *testing.T) {
	for _, p := range []string{"", ".", "..", "/", "//", "a", "/a", "a/", "a//b", "./a", "../a", "../..", "a/..", "a/.", "/..", "/../a",
		"a/./b", "a/../b", "/a/b/c.jsonl", "a/b/", ".../a", "a/...", "a/.b/..c", "/tmp/p/-home-x/s/subagents/agent-1.jsonl", "x/./", "/./"} {
		if got, want := cleanPath(p), filepath.Clean(p); got != want {
			t.Errorf("cleanPath(%q) = %q, want %q", p, got, want)
		}
		if c := filepath.Clean(p); dirOf(c) != filepath.Dir(c) {
			t.Errorf("dirOf(%q) = %q, want %q", c, dirOf(c), filepath.Dir(c))
		}
	}
}
