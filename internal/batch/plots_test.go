package batch

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/plots"
)

// Failures with one cause in one directory are one line; others stay.
func TestGroupErrors(t *testing.T) {
	full := func(name string) error {
		return &fs.PathError{Op: "open", Path: filepath.Join("/p", name), Err: syscall.ENOSPC}
	}
	got := groupErrors([]error{full("a.png"), full("b.png"), errors.New("c.png: encoding"), full("d.png"),
		&fs.PathError{Op: "open", Path: "/q/e.png", Err: syscall.ENOSPC}})
	want := []string{
		"open /p/a.png: no space left on device (and 2 more plots, for the same reason)",
		"c.png: encoding",
		"open /q/e.png: no space left on device",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// Write writes each figure whole into the directory and lists it; a
// figure that cannot be written is a failure, the others are written.
// List prints the paths after a prefix and the failures grouped, and
// fails when some plot could not be written.
func TestPlotsWrite(t *testing.T) {
	dir := t.TempDir()
	p := &Plots{Dir: dir, Format: "svg"}
	if err := p.Mkdir(); err != nil {
		t.Fatal(err)
	}
	files := plotFiles(t)
	w := p.Write(files)
	if len(w.Paths) != len(files) || len(w.Errs) > 0 || w.Paths[0] != filepath.Join(dir, files[0].Name) {
		t.Fatalf("wrote %q, failed %v", w.Paths, w.Errs)
	}
	var list, log bytes.Buffer
	if err := w.List(&list, "wrote ", &log); err != nil || list.String() != "wrote "+strings.Join(w.Paths, "\nwrote ")+"\n" || log.Len() > 0 {
		t.Errorf("List: %v, %q, %q", err, list.String(), log.String())
	}
	gone := &Plots{Dir: filepath.Join(dir, "gone"), Format: "svg"}
	w.Add(gone.Write(files))
	list.Reset()
	err := w.List(&list, "", &log)
	if err == nil || err.Error() != fmt.Sprintf("%d of %d plots could not be written", len(files), 2*len(files)) {
		t.Errorf("List with failures: %v", err)
	}
	if strings.Count(log.String(), "ctxlab: ") != 1 || !strings.Contains(log.String(), "more plots, for the same reason") {
		t.Errorf("failures not grouped:\n%s", log.String())
	}
	var none *Plots
	if w := none.Write(files); len(w.Paths)+len(w.Errs) != 0 {
		t.Error("a nil Plots wrote")
	}
	if err := (&Written{}).List(&list, "", &log); err != nil {
		t.Error(err)
	}
}

// Mkdir creates the directory and its parents, and fails, naming the
// cause and not the path, where no file can be written.
func TestPlotsMkdir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	if err := (&Plots{Dir: dir}).Mkdir(); err != nil {
		t.Fatal(err)
	}
	if es, _ := os.ReadDir(dir); len(es) != 0 {
		t.Errorf("left %v", es)
	}
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err := (&Plots{Dir: filepath.Join(file, "x")}).Mkdir()
	if err == nil || !strings.HasPrefix(err.Error(), "cannot write plots there: ") || strings.Contains(err.Error(), file) {
		t.Errorf("under a file: %v", err)
	}
}

// plotFiles are a few figures to write.
func plotFiles(t *testing.T) []plots.File {
	t.Helper()
	var rep *accounting.Report
	for _, s := range sessions(t) {
		rep = accounting.Analyze(s, accounting.DefaultConfig())
		break
	}
	files := plots.TotalFiles(rep, "svg", plots.Options{})
	if len(files) < 2 {
		t.Fatalf("%d figures", len(files))
	}
	return files
}

// The plot pool writes every batch and lists them in submission order.
func TestPlotPool(t *testing.T) {
	dir := t.TempDir()
	p := &Plots{Dir: dir, Format: "svg"}
	files := plotFiles(t)
	pool := p.pool(2)
	for i := range files {
		pool.submit(files[i : i+1])
	}
	w := pool.wait()
	if len(w.Paths) != len(files) {
		t.Fatalf("wrote %q", w.Paths)
	}
	for i, f := range files {
		if w.Paths[i] != filepath.Join(dir, f.Name) {
			t.Errorf("path %d: %s, want %s", i, w.Paths[i], f.Name)
		}
	}
}

// Redraw writes, from a saved report, the plots the command would have
// written, and says which sessions lack what some plots need.
func TestRedraw(t *testing.T) {
	in := inputs(t)
	obs := policies.Observed()
	cs := compileList(t, "observed,none")
	replayed, _, _, _ := Replay(in, options(&bytes.Buffer{}), ReplayPlan{Policy: &obs})
	bare, _, _, _ := Replay(in, options(&bytes.Buffer{}), ReplayPlan{})
	compared, _, _, _ := Compare(in, options(&bytes.Buffer{}), ComparePlan{Policies: cs, Calls: true})
	uncalled, _, _, _ := Compare(in, options(&bytes.Buffer{}), ComparePlan{Policies: cs})
	for _, c := range []struct {
		name   string
		doc    report.Doc
		direct func(p *Plots) Written
		log    string
	}{
		{"replay", replayed, func(p *Plots) Written {
			_, w, _, _ := Replay(in, options(&bytes.Buffer{}), ReplayPlan{Policy: &obs, Plots: p})
			return w
		}, ""},
		{"replay without runs", bare, nil, "4 sessions without a simulation"},
		{"compare", compared, func(p *Plots) Written {
			_, w, _, _ := Compare(in, options(&bytes.Buffer{}), ComparePlan{Policies: cs, Calls: true, Plots: p})
			return w
		}, ""},
		{"compare without calls", uncalled, nil, "4 sessions without per-call results"},
	} {
		var js, log bytes.Buffer
		if err := report.WriteJSON(&js, c.doc); err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		p := &Plots{Dir: dir, Format: "svg"}
		got, err := Redraw(&js, "r.json", p, 2, &log)
		if err != nil || len(got.Errs) > 0 || len(got.Paths) == 0 {
			t.Fatalf("%s: %v, %v", c.name, err, got)
		}
		if c.log != "" && !strings.Contains(log.String(), "ctxlab: r.json: "+c.log) || c.log == "" && log.Len() > 0 {
			t.Errorf("%s: log %q", c.name, log.String())
		}
		if c.direct == nil {
			continue
		}
		want := c.direct(&Plots{Dir: dir, Format: "svg"})
		if !slices.Equal(got.Paths, want.Paths) {
			t.Errorf("%s: redrew %q\nthe command drew %q", c.name, got.Paths, want.Paths)
		}
	}
	for _, c := range []struct{ in, want string }{
		{`{"schema": "ctxlab.replay", "version": 1, "sessions": [{}]}`, `r.json: a session without "summary"`},
		{`{"schema": "ctxlab.replay", "version": 1, "sessions": [`, "r.json: byte 55: "},
		{`[1, 2]`, "r.json"},
	} {
		_, err := Redraw(strings.NewReader(c.in), "r.json", &Plots{Dir: t.TempDir(), Format: "svg"}, 1, &bytes.Buffer{})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.in, err, c.want)
		}
	}
}
