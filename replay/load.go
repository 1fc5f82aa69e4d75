package replay

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Source is one session's files: a main transcript and its agent files.
type Source struct {
	// Path is the main transcript, or "-" for standard input.
	Path   string
	Agents []string // sorted
}

// ID is the session id a Source stands for: its file name without .jsonl.
func (s Source) ID() string {
	if s.Path == "-" {
		return "-"
	}
	return strings.TrimSuffix(filepath.Base(s.Path), ".jsonl")
}

// Project is the directory name under projects/ (the encoded cwd) of the
// Source's session; "" for standard input. An agent file loaded on its own
// (<project>/<session>/subagents/agent-*.jsonl) belongs to <project>.
func (s Source) Project() string {
	if s.Path == "-" {
		return ""
	}
	dir := filepath.Dir(s.Path)
	if isAgentFile(s.Path) && filepath.Base(dir) == "subagents" {
		return filepath.Base(filepath.Dir(filepath.Dir(dir)))
	}
	return filepath.Base(dir)
}

// ErrNoTranscripts is wrapped by Discover's error for a directory that holds
// no .jsonl file.
var ErrNoTranscripts = errors.New("no transcripts (.jsonl files) found")

// Discover expands paths into sessions. A file is one session; a directory
// is searched recursively for *.jsonl. Agent transcripts are attached to
// their parent session: <session>/subagents/agent-*.jsonl (2.1.x) by
// directory, agent-*.jsonl beside the session files (2.0.x) by the
// sessionId on their first line. An agent file without its parent becomes a
// session of its own. "-" is standard input. Errors name the path; the
// sources found are returned alongside them.
func Discover(paths []string) ([]Source, []error) {
	var (
		srcs []Source
		errs []error
		seen = map[string]bool{}
	)
	for _, p := range paths {
		if p == "-" {
			srcs = append(srcs, Source{Path: "-"})
			continue
		}
		info, err := os.Stat(p)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", p, unwrapPathError(err)))
			continue
		}
		if !info.IsDir() {
			if !seen[p] {
				seen[p] = true
				src := Source{Path: p}
				if !isAgentFile(p) {
					src.Agents = agentsOf(p)
				}
				for _, a := range src.Agents {
					seen[a] = true
				}
				srcs = append(srcs, src)
			}
			continue
		}
		found, err := discoverDir(p)
		if err != nil {
			errs = append(errs, err)
		}
		if len(found) == 0 && err == nil {
			errs = append(errs, fmt.Errorf("%s: %w", p, ErrNoTranscripts))
		}
		for _, s := range found {
			if !seen[s.Path] {
				seen[s.Path] = true
				srcs = append(srcs, s)
			}
		}
	}
	return srcs, errs
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func discoverDir(root string) ([]Source, error) {
	var files []string
	var walkErr error
	// WalkDir does not follow a symbolic link at its root; with a trailing
	// separator Lstat resolves it, so a linked directory is searched too.
	walkRoot := root
	if fi, err := os.Lstat(root); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		walkRoot = root + string(filepath.Separator)
	}
	err := filepath.WalkDir(walkRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if walkErr == nil {
				walkErr = fmt.Errorf("%s: %w", p, unwrapPathError(err))
			}
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if d.Name() == "tool-results" {
				return fs.SkipDir // spilled tool outputs, not transcripts
			}
			return nil
		}
		if strings.HasSuffix(d.Name(), ".jsonl") && d.Type().IsRegular() {
			files = append(files, p)
		}
		return nil
	})
	if err != nil && walkErr == nil {
		walkErr = err
	}
	sort.Strings(files)

	byPath := map[string]*Source{}
	var mains []string
	var agents []string
	for _, f := range files {
		if isAgentFile(f) {
			agents = append(agents, f)
			continue
		}
		byPath[f] = &Source{Path: f}
		mains = append(mains, f)
	}
	var orphans []string
	for _, a := range agents {
		parent := ""
		dir := filepath.Dir(a)
		if filepath.Base(dir) == "subagents" {
			parent = filepath.Dir(dir) + ".jsonl"
		} else if sid := firstSessionID(a); sid != "" {
			parent = filepath.Join(dir, sid+".jsonl")
		}
		if s, ok := byPath[parent]; ok {
			s.Agents = append(s.Agents, a)
		} else {
			orphans = append(orphans, a)
		}
	}
	out := make([]Source, 0, len(mains)+len(orphans))
	for _, m := range mains {
		out = append(out, *byPath[m])
	}
	for _, o := range orphans {
		out = append(out, Source{Path: o})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, walkErr
}

// agentsOf finds the agent files of the session file p when p is named on
// its own: <session>/subagents/agent-*.jsonl (2.1.x) and agent-*.jsonl
// beside it whose sessionId is the session's (2.0.x).
func agentsOf(p string) []string {
	id := strings.TrimSuffix(filepath.Base(p), ".jsonl")
	sub, _ := filepath.Glob(filepath.Join(strings.TrimSuffix(p, ".jsonl"), "subagents", "agent-*.jsonl"))
	near, _ := filepath.Glob(filepath.Join(filepath.Dir(p), "agent-*.jsonl"))
	for _, a := range near {
		if firstSessionID(a) == id {
			sub = append(sub, a)
		}
	}
	sort.Strings(sub)
	return sub
}

func isAgentFile(p string) bool {
	return strings.HasPrefix(filepath.Base(p), "agent-")
}

// firstSessionID reads the sessionId of the first lines of a 2.0.x agent
// file, to find the session it belongs to.
func firstSessionID(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	r := NewReader(io.LimitReader(f, 4<<20), path)
	for i := 0; i < 20 && r.Scan(); i++ {
		if e, ok := r.Result().(*Entry); ok && e.SessionID != "" {
			return e.SessionID
		}
	}
	return ""
}

// Options tune loading.
type Options struct {
	// MaxLineBytes overrides DefaultMaxLineBytes when positive.
	MaxLineBytes int
	// Stdin is read for the source "-".
	Stdin io.Reader
}

// Load reads a source's files and builds its Session. Bad lines become
// Session.Warnings; the error is for a file that cannot be read at all
// (missing, unreadable, a directory, empty or without a single usable line)
// and for I/O errors. A session is returned whenever anything was read.
func Load(src Source, opt Options) (*Session, error) {
	b := newBuilder(src.Path)
	s := b.s
	s.ID = src.ID()
	s.Project = src.Project()
	// An agent file loaded on its own (its session file is gone) is its own
	// main thread: its lines all carry isSidechain, which would otherwise send
	// them to inline sidechain threads and leave Main empty.
	var mainTh *Thread
	if src.Path != "-" && isAgentFile(src.Path) {
		mainTh = s.Main
	}
	mainErr := b.readFile(src.Path, mainTh, opt)
	if mainErr != nil && len(s.Main.Messages) == 0 && len(src.Agents) == 0 {
		return nil, mainErr
	}
	var errs []error
	if mainErr != nil {
		errs = append(errs, mainErr)
	}
	for _, a := range src.Agents {
		id := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(a), "agent-"), ".jsonl")
		th := newThread(agentKind(id), id, a)
		s.Agents = append(s.Agents, th)
		if err := b.readFile(a, th, opt); err != nil {
			errs = append(errs, err)
		}
	}
	return b.finish(), errors.Join(errs...)
}

// readFile streams one file into the builder.
func (b *builder) readFile(path string, th *Thread, opt Options) error {
	var in io.Reader
	if path == "-" {
		if opt.Stdin == nil {
			return errors.New("-: no standard input")
		}
		in = opt.Stdin
		path = "<stdin>"
	} else {
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("%s: %w", path, unwrapPathError(err))
		}
		defer f.Close()
		if info, err := f.Stat(); err == nil && info.IsDir() {
			return fmt.Errorf("%s: is a directory", path)
		}
		in = f
	}
	r := NewReader(in, path)
	r.MaxLineBytes = opt.MaxLineBytes
	entries := 0
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *SyntaxError:
			b.s.Warnings = append(b.s.Warnings, rec)
		case *Entry:
			entries++
			b.add(rec, th)
		}
	}
	b.s.Stats.merge(r.Stats())
	if err := r.Err(); err != nil {
		return err
	}
	st := r.Stats()
	switch {
	case st.BytesRead == 0:
		return fmt.Errorf("%s: empty file", path)
	case entries == 0 && st.Bad > 0:
		return fmt.Errorf("%s: no valid transcript line in %d lines (not a Claude Code transcript?)", path, st.Lines)
	case entries == 0:
		return fmt.Errorf("%s: only blank lines", path)
	}
	return nil
}

func (s *Stats) merge(o *Stats) {
	s.Lines += o.Lines
	s.Blank += o.Blank
	s.Bad += o.Bad
	s.BytesRead += o.BytesRead
	s.Truncated = s.Truncated || o.Truncated
	s.InvalidUTF = s.InvalidUTF || o.InvalidUTF
	for k, v := range o.Types {
		s.Types[k] += v
	}
	for k, v := range o.Unknown {
		s.Unknown[k] += v
	}
}
