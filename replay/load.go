package replay

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/ctxlab/ctxlab/internal/numtext"
	"github.com/ctxlab/ctxlab/replay/transcript"
)

// DefaultDirs finds the transcript folders as Claude Code and ccusage do:
// the projects folder of each comma-separated directory of
// CLAUDE_CONFIG_DIR when it is set, else ~/.config/claude/projects and
// ~/.claude/projects; those that exist, in that order. getenv and home are
// os.Getenv and os.UserHomeDir, or a test's.
func DefaultDirs(getenv func(string) string, home func() (string, error)) ([]string, error) {
	var cands []string
	if v := getenv("CLAUDE_CONFIG_DIR"); v != "" {
		for _, d := range strings.Split(v, ",") {
			if d = strings.TrimSpace(d); d != "" {
				cands = append(cands, filepath.Join(d, "projects"))
			}
		}
	} else {
		h, err := home()
		if err != nil {
			return nil, fmt.Errorf("no path given and no home directory: %w", err)
		}
		cands = []string{filepath.Join(h, ".config", "claude", "projects"), filepath.Join(h, ".claude", "projects")}
	}
	var out []string
	for _, c := range cands {
		if info, err := os.Stat(c); err == nil && info.IsDir() {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no path given and no Claude Code transcripts found in %s (set CLAUDE_CONFIG_DIR or pass paths)", strings.Join(cands, ", "))
	}
	return out, nil
}

// Source is one session's files: a main transcript and its agent files.
type Source struct {
	// Path is the main transcript, or "-" for standard input.
	Path   string
	Agents []string // sorted
	// ContinuedIn is the session whose file continues this one after an
	// auto-compaction past this file's last call (MarkContinued sets it).
	ContinuedIn string
	// continuedAt is the uuid of the summary the continuing file starts
	// from: when this file holds that line, the conversation went on from
	// a compaction the file records itself, not one past its last call.
	continuedAt string
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
// is searched recursively for *.jsonl, following symbolic links (see
// discoverDir). Agent transcripts are attached to their parent session:
// <session>/subagents/agent-*.jsonl (2.1.x) by directory, agent-*.jsonl
// beside the session files (2.0.x) by the sessionId on their first lines.
// A session file named on its own brings its agent files; an agent file
// whose parent session is not in the input is a session of its own. "-"
// is standard input. Sources come in argument order, those found in one
// directory sorted by path. Each file comes back once, however often,
// through whichever links and in whatever order the arguments name it
// (only "-" counts each time): a source stands where its main file is
// first named, an attached agent file in its session's Agents (sorted).
// Errors name the path; the sources found are returned alongside them.
func Discover(paths []string) ([]Source, []error) {
	var (
		errs  []error
		files []string // in the order first named; "-" for each standard input
		seen  = map[string]bool{}
		own   = owners{}
	)
	// A file is known by its real path, so that one reached through a
	// symbolic link and by its own path, or through two links, counts once.
	add := func(f, real string) {
		if !seen[real] {
			seen[real] = true
			files = append(files, f)
		}
	}
	for _, p := range paths {
		if p == "-" {
			files = append(files, "-")
			continue
		}
		info, err := os.Stat(p)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", p, unwrapPathError(err)))
			continue
		}
		if !info.IsDir() {
			add(p, realPath(p))
			if !isAgentFile(p) {
				for _, a := range own.agentsOf(p) {
					add(a, realPath(a))
				}
			}
			continue
		}
		found, reals, derrs := discoverDir(p)
		errs = append(errs, derrs...)
		if len(found) == 0 && len(derrs) == 0 {
			errs = append(errs, fmt.Errorf("%s: %w", p, ErrNoTranscripts))
		}
		if len(paths) == 1 {
			files = found // one folder: its walk listed each file once
			continue
		}
		if len(seen) == 0 {
			seen = make(map[string]bool, len(found))
		}
		for i, f := range found {
			add(f, reals[i])
		}
	}

	// Attach each agent file to its session when that session is in the
	// input; the others stand alone.
	mains := make(map[string]bool, len(files))
	for _, f := range files {
		if f != "-" && !isAgentFile(f) {
			mains[filepath.Clean(f)] = true
		}
	}
	own.resolve(files)
	agentsOf := map[string][]string{}
	attached := map[string]bool{}
	for _, f := range files {
		if f == "-" || !isAgentFile(f) {
			continue
		}
		if parent := own.of(f); parent != "" && mains[parent] {
			agentsOf[parent] = append(agentsOf[parent], f)
			attached[f] = true
		}
	}
	var srcs []Source
	for _, f := range files {
		switch {
		case f == "-":
			srcs = append(srcs, Source{Path: "-"})
		case isAgentFile(f):
			if !attached[f] {
				srcs = append(srcs, Source{Path: f})
			}
		default:
			agents := agentsOf[filepath.Clean(f)]
			sort.Strings(agents)
			srcs = append(srcs, Source{Path: f, Agents: agents})
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

// discoverDir returns the *.jsonl files below root, sorted, skipping
// tool-results folders, and beside each its real path (symbolic links
// resolved), by which Discover counts a file once. It follows symbolic
// links to files and folders, as ccusage does, once the tree itself is
// walked: a folder already searched (a link back up the tree, a loop, a
// second link to one folder) is not searched again, and a file already
// found is not listed again, so each file comes once, under its path in
// the tree when it has one, else under the link met first. A link named
// *.jsonl whose target is missing is an error naming it.
func discoverDir(root string) (files, reals []string, errs []error) {
	w := &dirWalker{dirs: map[string]bool{}}
	w.walk(root)
	if len(w.links) > 0 {
		w.seen = make(map[string]bool, len(w.reals))
		for _, r := range w.reals {
			w.seen[r] = true
		}
	}
	for len(w.links) > 0 {
		links := w.links
		w.links = nil
		for _, l := range links {
			w.follow(l)
		}
	}
	idx := make([]int, len(w.files))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return w.files[idx[a]] < w.files[idx[b]] })
	for _, i := range idx {
		files, reals = append(files, w.files[i]), append(reals, w.reals[i])
	}
	return files, reals, w.errs
}

// dirWalker is discoverDir's state: the folders searched and the files
// found, by real path, and the symbolic links met and not yet followed.
type dirWalker struct {
	dirs, seen   map[string]bool
	files, reals []string
	links        []string
	errs         []error
	failed       bool // the walk under way met an error
}

// walk searches the folder dir (a path that may pass through links) unless
// its real folder was searched already; symbolic links below it are kept
// for follow. It visits what filepath.WalkDir would, in its order, with
// the same paths, but opens each folder without offering it to the
// runtime's poller (openFile) and builds each path and real path from its
// folder's instead of cleaning it anew: a corpus has hundreds of folders
// and thousands of files, and every shard of a sharded run walks them all.
func (w *dirWalker) walk(dir string) {
	realRoot := realPath(dir)
	if w.dirs[realRoot] {
		return
	}
	// Lstat does not follow a symbolic link at the root; with a trailing
	// separator it resolves it, so a linked directory is searched too.
	walkRoot := dir
	if fi, err := os.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		walkRoot = dir + string(filepath.Separator)
	}
	w.failed = false
	info, err := os.Lstat(walkRoot)
	if err != nil {
		w.fail(walkRoot, err)
		return
	}
	w.visit(walkRoot, realRoot, fs.FileInfoToDirEntry(info), true)
}

// visit is one path of the walk: a folder is searched (unless it is a
// tool-results folder of spilled tool outputs, or its real folder was),
// a symbolic link kept for follow, a transcript listed. root marks the
// walk's root, whose children's paths are cleaned as filepath.Join
// cleans them; below it every path is clean already.
func (w *dirWalker) visit(p, real string, d fs.DirEntry, root bool) {
	switch {
	case d.IsDir():
		if d.Name() == "tool-results" || w.dirs[real] {
			return
		}
		w.dirs[real] = true
	case d.Type()&fs.ModeSymlink != 0:
		w.links = append(w.links, p)
		return
	case isTranscript(d):
		w.add(p, real)
		return
	default:
		return
	}
	ents, err := readDir(p)
	if err != nil {
		w.fail(p, err)
		return
	}
	for _, e := range ents {
		var child string
		if root {
			child = filepath.Join(p, e.Name())
		} else {
			child = p + string(filepath.Separator) + e.Name()
		}
		w.visit(child, joinName(real, e.Name()), e, false)
	}
}

// fail records the first error of a walk: the rest of a folder that
// cannot be read would only repeat it.
func (w *dirWalker) fail(p string, err error) {
	if !w.failed {
		w.failed = true
		w.errs = append(w.errs, fmt.Errorf("%s: %w", p, unwrapPathError(err)))
	}
}

// joinName is filepath.Join(dir, name) for a clean dir and a name that
// is neither a path nor . or .. (a folder's entry).
func joinName(dir, name string) string {
	if dir != "" && dir != "." && !os.IsPathSeparator(dir[len(dir)-1]) {
		return dir + string(filepath.Separator) + name
	}
	return filepath.Join(dir, name)
}

// readDir is os.ReadDir, the folder opened by openFile: its entries
// sorted by name, or those read before an error with the error.
func readDir(dir string) ([]fs.DirEntry, error) {
	f, err := openFile(dir)
	if err != nil {
		return nil, err
	}
	ents, err := f.ReadDir(-1)
	f.Close()
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return ents, err
}

// follow resolves a symbolic link met in the walk: a folder is searched, a
// transcript listed, each unless its real path was already.
func (w *dirWalker) follow(link string) {
	fi, err := os.Stat(link)
	switch {
	case err != nil:
		if strings.HasSuffix(link, ".jsonl") {
			what := "symbolic link to a missing file"
			if errors.Is(err, syscall.ELOOP) { // links that lead back to themselves
				what = "symbolic link loop"
			}
			w.errs = append(w.errs, fmt.Errorf("%s: %s: %w", link, what, unwrapPathError(err)))
		}
	case fi.IsDir():
		if filepath.Base(link) != "tool-results" {
			w.walk(link)
		}
	case fi.Mode().IsRegular() && strings.HasSuffix(link, ".jsonl"):
		w.add(link, realPath(link))
	}
}

// add lists a transcript unless its real path is listed already. The
// walk of the tree meets each real path once (each real folder is
// searched once), so the set of those listed (seen) is built only before
// links are followed.
func (w *dirWalker) add(p, real string) {
	if w.seen == nil {
		w.files, w.reals = append(w.files, p), append(w.reals, real)
		return
	}
	if !w.seen[real] {
		w.seen[real] = true
		w.files, w.reals = append(w.files, p), append(w.reals, real)
	}
}

// realPath is p made absolute with its symbolic links resolved, or as
// far as that goes when they cannot be.
func realPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	return abs
}

// isTranscript is the test for a transcript file found in a directory.
func isTranscript(d fs.DirEntry) bool {
	return strings.HasSuffix(d.Name(), ".jsonl") && d.Type().IsRegular()
}

// owners answers "which session owns this agent file", remembering the
// answers: a 2.0.x agent file is opened to read its sessionId.
type owners map[string]string

// of returns the cleaned path of the session file that owns the agent file
// a, or "" when its first lines name no session: for
// <session>/subagents/agent-*.jsonl (2.1.x) <session>.jsonl, for an agent
// file elsewhere (2.0.x, beside the session files) the file named by its
// sessionId in the same directory. Whether that file exists is not checked.
func (o owners) of(a string) string {
	a = cleanPath(a)
	if dir := dirOf(a); filepath.Base(dir) == "subagents" {
		return dirOf(dir) + ".jsonl" // by name alone: nothing to remember
	}
	if p, ok := o[a]; ok {
		return p
	}
	parent := sessionNamed(a, firstSessionID(a))
	o[a] = parent
	return parent
}

// resolve finds the owners of the agent files among files, reading the
// first lines of those beside the session files (2.0.x) in parallel: a
// corpus has hundreds, and reading them one after another held back the
// first session's load.
func (o owners) resolve(files []string) {
	var todo []string
	for _, f := range files {
		if f == "-" || !isAgentFile(f) {
			continue
		}
		a := cleanPath(f)
		if _, ok := o[a]; !ok && filepath.Base(dirOf(a)) != "subagents" {
			todo = append(todo, a)
		}
	}
	ids := make([]string, len(todo))
	parallel(len(todo), func(i int) { ids[i] = firstSessionID(todo[i]) })
	for i, a := range todo {
		o[a] = sessionNamed(a, ids[i])
	}
}

// cleanPath is filepath.Clean(p), without its pass over every byte when p
// plainly has nothing to clean (no empty, . or .. element, no trailing
// separator), as the paths of a walk have not: Discover cleans each of
// thousands of paths several times.
func cleanPath(p string) string {
	if filepath.Separator != '/' || p == "" || p[len(p)-1] == '/' || strings.HasPrefix(p, "./") ||
		strings.HasSuffix(p, "/.") || strings.HasSuffix(p, "/..") ||
		strings.Contains(p, "//") || strings.Contains(p, "/./") || strings.Contains(p, "/../") {
		return filepath.Clean(p)
	}
	return p
}

// dirOf is filepath.Dir of a clean path, without cleaning it again.
func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i > 0 && filepath.Separator == '/' {
		return p[:i]
	}
	return filepath.Dir(p)
}

// sessionNamed is the session file beside agent file a with session id
// sid, or "" when sid is.
func sessionNamed(a, sid string) string {
	if sid == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(a), sid+".jsonl")
}

// agentsOf finds the agent files that the session file p owns (see of)
// where they can be: in <session>/subagents/ (2.1.x) and beside p (2.0.x).
// It lists the directories rather than globbing, so that a path holding
// '[', '*' or '?' is taken literally.
func (o owners) agentsOf(p string) []string {
	p = filepath.Clean(p)
	var out []string
	for _, dir := range []string{filepath.Join(strings.TrimSuffix(p, ".jsonl"), "subagents"), filepath.Dir(p)} {
		ents, _ := os.ReadDir(dir)
		for _, d := range ents {
			if !strings.HasPrefix(d.Name(), "agent-") || !isTranscript(d) {
				continue
			}
			if a := filepath.Join(dir, d.Name()); o.of(a) == p {
				out = append(out, a)
			}
		}
	}
	sort.Strings(out)
	return out
}

func isAgentFile(p string) bool {
	return strings.HasPrefix(filepath.Base(p), "agent-")
}

// firstSessionID reads the sessionId of the first lines of a 2.0.x agent
// file, to find the session it belongs to.
func firstSessionID(path string) string {
	if e := firstWithSession(path, 20); e != nil {
		return e.SessionID
	}
	return ""
}

// firstWithSession returns the first of a file's first lines that carries
// a sessionId, or nil.
func firstWithSession(path string, lines int) *transcript.Entry {
	if e, ok := headWithSession(path, lines); ok {
		return e
	}
	f, err := openFile(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	r := transcript.NewReader(smallReads{io.LimitReader(f, 4<<20)}, path)
	defer r.Close()
	for i := 0; i < lines && r.Scan(); i++ {
		if e, ok := r.Result().(*transcript.Entry); ok && e.SessionID != "" {
			return e
		}
	}
	return nil
}

// headBytes is how much of a file headWithSession reads: a few lines of a
// transcript's start, in one read.
const headBytes = 16 << 10

var headPool = sync.Pool{New: func() any { return new([headBytes]byte) }}

// headWithSession is firstWithSession from the file's first headBytes
// alone, read in one system call: the complete lines there are read as
// the whole file's first lines are. ok is false when the answer may lie
// past them (no line of those there carries a sessionId, and fewer than
// lines are complete) or the file cannot be read; firstWithSession then
// reads the file from its start. Every shard of a sharded run reads the
// start of every 2.0.x agent file (hundreds in a corpus) to learn its
// session; most of those lines are well under a kilobyte.
func headWithSession(path string, lines int) (*transcript.Entry, bool) {
	buf := headPool.Get().(*[headBytes]byte)
	defer headPool.Put(buf)
	n, err := readHead(path, buf[:])
	if err != nil {
		return nil, false
	}
	head := buf[:n]
	end := bytes.LastIndexByte(head, '\n')
	if end < 0 {
		return nil, false
	}
	r := transcript.NewReader(bytes.NewReader(head[:end+1]), path)
	defer r.Close()
	i := 0
	for ; i < lines && r.Scan(); i++ {
		if e, ok := r.Result().(*transcript.Entry); ok && e.SessionID != "" {
			return e, true
		}
	}
	return nil, i == lines && r.Err() == nil
}

// parallel runs f(0) … f(n-1) on a worker per CPU.
func parallel(n int, f func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(i)
			}
		})
	}
	wg.Wait()
}

// MarkContinued sets ContinuedIn on each source that another source
// continues. Claude Code 1.0.x starts a new file after an auto-compaction:
// the new file's first message is the summary (isCompactSummary), still
// carrying the compacted session's sessionId. A resumed conversation's
// file starts the same way with a copy of a summary the earlier file
// already holds (Load then clears ContinuedIn), and a summary whose text
// shows a /compact (summaryTrigger) is no auto-compaction. The files'
// first lines are read in parallel.
func MarkContinued(srcs []Source) {
	of := make([]*transcript.Entry, len(srcs)) // the summary each source starts from
	parallel(len(srcs), func(i int) {
		if p := srcs[i].Path; p != "-" && !isAgentFile(p) {
			of[i] = continues(p)
		}
	})
	index := make(map[string]int, len(srcs))
	for i, s := range srcs {
		index[s.ID()] = i
	}
	for i, e := range of {
		if e == nil {
			continue
		}
		if j, ok := index[e.SessionID]; ok && e.SessionID != srcs[i].ID() && srcs[j].ContinuedIn == "" {
			srcs[j].ContinuedIn, srcs[j].continuedAt = srcs[i].ID(), e.UUID
		}
	}
}

// continues returns a file's first line that carries a sessionId when that
// line is a compaction summary that does not show a /compact: its
// sessionId is the session the file continues. Title lines (type summary)
// come before it, one per earlier conversation.
func continues(path string) *transcript.Entry {
	if e := firstWithSession(path, 1000); e != nil && e.CompactSummary && summaryTrigger(e.Summary, e.Version) != "manual" {
		return e
	}
	return nil
}

// smallReads reads at most 64 KB at a time: firstSessionID needs the first
// lines of a file, and the Reader's buffer would read the first megabyte.
type smallReads struct{ r io.Reader }

func (s smallReads) Read(p []byte) (int, error) {
	return s.r.Read(p[:min(len(p), 64<<10)])
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
	s.ContinuedIn = src.ContinuedIn
	// An agent file loaded on its own (its session file is gone) is its own
	// main thread: its lines all carry isSidechain, which would otherwise send
	// them to inline sidechain threads and leave Main empty.
	var mainTh *Thread
	if src.Path != "-" && isAgentFile(src.Path) {
		mainTh = s.Main
		if k := agentKind(strings.TrimSuffix(strings.TrimPrefix(filepath.Base(src.Path), "agent-"), ".jsonl")); k.IsAuxiliary() {
			s.Auxiliary = k
		}
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
	if _, ok := b.seenUUID[src.continuedAt]; ok && src.continuedAt != "" {
		s.ContinuedIn = "" // the file holds the summary the next one goes on from
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
		f, err := openFile(path)
		if err != nil {
			return fmt.Errorf("%s: %w", path, unwrapPathError(err))
		}
		defer f.Close()
		info, err := f.Stat()
		if err == nil && info.IsDir() {
			return fmt.Errorf("%s: is a directory", path)
		}
		if err == nil {
			b.reserve(th, info.Size())
		}
		in = f
	}
	r := transcript.NewReader(in, path)
	defer r.Close()
	r.MaxLineBytes, r.ReuseEntry = opt.MaxLineBytes, true // b.add keeps nothing of the Entry itself
	entries, records := 0, 0                              // records: entries with a type, as every transcript line has
	firstWarning := len(b.s.Warnings)
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *SyntaxError:
			b.s.Warnings = append(b.s.Warnings, rec)
		case *transcript.Entry:
			entries++
			if rec.Type != transcript.NoType {
				records++
			}
			b.add(rec, th)
		}
	}
	b.s.Stats.Merge(r.Stats())
	if err := r.Err(); err != nil {
		return err
	}
	st := r.Stats()
	switch {
	case st.BytesRead == 0:
		return fmt.Errorf("%s: empty file", path)
	case entries == 0 && st.Bad > 0 && len(b.s.Warnings) > firstWarning && strings.HasSuffix(b.s.Warnings[firstWarning].Msg, transcript.UTF16Hint):
		return fmt.Errorf("%s: UTF-16 text, not UTF-8 as Claude Code writes transcripts: save the file as UTF-8", path)
	case entries == 0 && st.Bad > 0:
		return fmt.Errorf("%s: no valid transcript line in %s (not a Claude Code transcript?)", path, numtext.Count(st.Lines, "line", "lines"))
	case entries == 0:
		return fmt.Errorf("%s: only blank lines", path)
	case records == 0:
		return fmt.Errorf("%s: no transcript record in %s: JSON, but no line has a type (not a Claude Code transcript?)", path, numtext.Count(st.Lines, "line", "lines"))
	}
	return nil
}
