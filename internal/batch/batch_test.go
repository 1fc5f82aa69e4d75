package batch

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate"
)

const fixtures = "../../fixtures/testdata/projects"

// inputs finds the fixtures' sessions, in the order replay.Discover gives.
func inputs(t *testing.T) *Inputs {
	t.Helper()
	in, err := Find([]string{fixtures}, &replay.Selection{}, 0)
	if err != nil || len(in.Sources) < 3 || len(in.Errs) > 0 {
		t.Fatalf("Find(fixtures): %v, %v", in, err)
	}
	return in
}

// options reads with a log and the default configurations.
func options(log *bytes.Buffer) Options {
	return Options{Jobs: 2, Log: log, Accounting: accounting.DefaultConfig(), Simulation: simulate.DefaultConfig()}
}

// Each hands every session read to emit in input order, and lists the
// paths that could not be searched and the files that could not be read
// in the report's errors and on the log, in that order.
func TestEach(t *testing.T) {
	in := inputs(t)
	ids := make([]string, len(in.Sources))
	for i, s := range in.Sources {
		ids[i] = s.ID()
	}
	gone := filepath.Join(t.TempDir(), "gone.jsonl")
	in.Sources = append(in.Sources[:1:1], append([]replay.Source{{Path: gone}}, in.Sources[1:]...)...)
	in.Errs = []error{errors.New("nowhere: no such directory")}
	var log bytes.Buffer
	var got []string
	var indexes []int
	o := options(&log)
	o.Jobs = 1
	out, err := Each(in, o, func(s *Session) string {
		indexes = append(indexes, s.Index) // one worker: no race
		if s.Source.ID() != s.ID {
			t.Errorf("session %s read from source %s", s.ID, s.Source.ID())
		}
		return s.ID
	}, func(id string) { got = append(got, id) })
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, ids) {
		t.Errorf("emitted %v, want %v", got, ids)
	}
	if len(out.Errors) != 2 || out.Errors[0] != "nowhere: no such directory" || !strings.Contains(out.Errors[1], "gone.jsonl") {
		t.Errorf("errors %q", out.Errors)
	}
	if out.Clean() || out.Warned {
		t.Errorf("outcome %+v: clean, or warned without a malformed line", out)
	}
	if l := log.String(); !strings.HasPrefix(l, "ctxlab: nowhere: no such directory\nctxlab: ") || !strings.Contains(l, "gone.jsonl") {
		t.Errorf("log:\n%s", l)
	}
	slices.Sort(indexes)
	if !slices.Equal(indexes, []int{0, 2, 3, 4}[:len(ids)]) {
		t.Errorf("work saw indexes %v, want the sources' (1 unreadable)", indexes)
	}
	if (&Outcome{}).Clean() != true || (&Outcome{Warned: true}).Clean() {
		t.Error("Clean")
	}
}

// A batch that reads no session fails: ErrNoMatch when a selection could
// have kept some, ErrNoSession otherwise.
func TestEachNothingRead(t *testing.T) {
	in := inputs(t)
	gone := &Inputs{Sources: []replay.Source{{Path: filepath.Join(t.TempDir(), "gone.jsonl")}}}
	late := replay.Selection{Since: time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()}
	work := func(s *Session) int { return 0 }
	for _, c := range []struct {
		name string
		in   *Inputs
		sel  replay.Selection
		want error
	}{
		{"unreadable", gone, replay.Selection{}, ErrNoSession},
		{"unreadable, selecting", gone, late, ErrNoSession},
		{"none found", &Inputs{}, replay.Selection{}, ErrNoSession},
		{"none found, selecting", &Inputs{}, late, ErrNoMatch},
		{"none in the window", in, late, ErrNoMatch},
	} {
		o := options(&bytes.Buffer{})
		o.Selection = c.sel
		vs, _, err := Collect(c.in, o, work)
		if !errors.Is(err, c.want) || vs != nil {
			t.Errorf("%s: %v, %v; want %v", c.name, vs, err, c.want)
		}
	}
}

// A session's malformed lines go to the log, at most MaxWarnings a file
// and then how many more, and mark the outcome.
func TestEachWarnings(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fixtures, "-home-dev-ledger", "3f2a9c10-7d4e-4b6a-8c21-5e9f0a1b2c3d.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "3f2a9c10-7d4e-4b6a-8c21-5e9f0a1b2c3d.jsonl")
	if err := os.WriteFile(path, append([]byte("{bad\n[1]\nnot json\n"), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	in := &Inputs{Sources: []replay.Source{{Path: path}}}
	for _, c := range []struct {
		max   int
		shown int
		more  string
	}{{0, 3, ""}, {5, 3, ""}, {1, 1, "2 more malformed lines not shown"}, {2, 2, "1 more malformed lines not shown"}} {
		var log bytes.Buffer
		o := options(&log)
		o.MaxWarnings = c.max
		_, out, err := Collect(in, o, func(*Session) int { return 0 })
		if err != nil || !out.Warned || out.Clean() {
			t.Fatalf("max %d: %v, %+v", c.max, err, out)
		}
		if n := strings.Count(log.String(), path+":"); n != c.shown+min(1, len(c.more)) {
			t.Errorf("max %d: %d lines name the file, want %d:\n%s", c.max, n, c.shown, log.String())
		}
		if c.more != "" && !strings.Contains(log.String(), "warning: "+path+": "+c.more+" (--max-warnings)\n") {
			t.Errorf("max %d: no %q:\n%s", c.max, c.more, log.String())
		}
		if c.more == "" && strings.Contains(log.String(), "more malformed") {
			t.Errorf("max %d: a count of lines not shown:\n%s", c.max, log.String())
		}
	}
}

// With the log a terminal, progress counts the sessions done and is
// erased at the end; with one session, or not a terminal, nothing shows.
func TestEachProgress(t *testing.T) {
	in := inputs(t)
	for _, c := range []struct {
		in       *Inputs
		terminal bool
		want     string
	}{
		{in, true, "\rctxlab: 1/"},
		{&Inputs{Sources: in.Sources[:1]}, true, ""},
		{in, false, ""},
	} {
		var log bytes.Buffer
		o := options(&log)
		o.Progress = c.terminal
		if _, _, err := Collect(c.in, o, func(*Session) int { return 0 }); err != nil {
			t.Fatal(err)
		}
		switch l := log.String(); {
		case c.want == "" && l != "":
			t.Errorf("%d sessions, terminal %v: log %q", len(c.in.Sources), c.terminal, l)
		case c.want != "" && (!strings.HasPrefix(l, c.want) || !strings.HasSuffix(l, "\r\033[K") || !strings.Contains(l, "/4 sessions")):
			t.Errorf("progress %q", l)
		}
	}
	p := newProgress(&bytes.Buffer{}, true, 2)
	p.clear()
	if got := p.w.(*bytes.Buffer).String(); got != "\r\033[K" {
		t.Errorf("clear wrote %q", got)
	}
}

// A session prepares its trace once and runs each policy once, however
// many ask for the run.
func TestSessionRunsOnce(t *testing.T) {
	o := options(&bytes.Buffer{})
	none, err := policies.Compile("none")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Collect(inputs(t), o, func(s *Session) int {
		r, tr, rep := s.Run(none), s.Trace(), s.Report()
		if s.Run(none) != r || s.Trace() != tr || s.Report() != rep {
			t.Errorf("%s: a second ask ran again", s.ID)
		}
		rs := s.Runs([]policies.Compiled{policies.Observed(), none})
		if rs[1] != r || rs[0].Policy != "observed" || rs[0] != s.Run(policies.Observed()) {
			t.Errorf("%s: Runs %v", s.ID, rs)
		}
		if want := none.Run(simulate.Prepare(s.Session), o.Simulation); want.Metrics != r.Metrics {
			t.Errorf("%s: run %+v, want %+v", s.ID, r.Metrics, want.Metrics)
		}
		return 0
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Find picks the sources of the selection's projects and sessions, a
// session by a prefix of its id, then the newest.
func TestFind(t *testing.T) {
	all := inputs(t)
	in, err := Find([]string{fixtures}, &replay.Selection{Sessions: []string{"d3e4"}}, 0)
	if err != nil || len(in.Sources) != 1 || in.Sources[0].ID() != "d3e4f5a6-b7c8-4d9e-a0f1-b2c3d4e5f6a7" {
		t.Errorf("by prefix: %v, %v", in, err)
	}
	in, err = Find([]string{fixtures}, &replay.Selection{Projects: []string{"-home-dev-*"}}, 2)
	if err != nil || len(in.Sources) != 2 {
		t.Errorf("the last 2: %v, %v", in, err)
	}
	if _, err := Find([]string{fixtures}, &replay.Selection{Sessions: []string{""}}, 0); err == nil {
		t.Error("an empty prefix, which begins every id: no error")
	}
	in, _ = Find([]string{fixtures, filepath.Join(t.TempDir(), "nowhere")}, &replay.Selection{}, 0)
	if len(in.Errs) != 1 || len(in.Sources) != len(all.Sources) {
		t.Errorf("a path that cannot be searched: %v", in)
	}
}

// warnUnpriced names each model without a price and its calls.
func TestWarnUnpriced(t *testing.T) {
	var b bytes.Buffer
	warnUnpriced(&b, []accounting.Count{{Name: "m1", Count: 1}, {Name: "m2", Count: 8698}})
	want := "warning: model m1 has no price: its 1 call is left out of every cost (give it one with --prices, docs/reports.md)\n" +
		"warning: model m2 has no price: its 8,698 calls are left out of every cost (give it one with --prices, docs/reports.md)\n"
	if b.String() != want {
		t.Errorf("got %q", b.String())
	}
	warnUnpriced(nil, []accounting.Count{{Name: "m", Count: 1}}) // no log: nothing, no panic
}

// TuneGC sets the collector's tuning unless GOGC or GOMEMLIMIT is set,
// and allows the huge-page heap unless GODEBUG turns it off.
func TestTuneGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	for _, c := range []struct {
		env  func(string) string
		huge bool
		gc   int
	}{
		{env(), true, gcPercent},
		{env("GODEBUG", "gctrace=1,disablethp=1"), false, gcPercent},
		{env("GOGC", "50"), false, 100},
		{env("GOMEMLIMIT", "1GiB"), false, 100},
	} {
		debug.SetGCPercent(100)
		if got := TuneGC(c.env); got != c.huge {
			t.Errorf("TuneGC = %v, want %v", got, c.huge)
		}
		if gc := debug.SetGCPercent(100); gc != c.gc {
			t.Errorf("GOGC %d, want %d", gc, c.gc)
		}
	}
	if Build() == "" {
		t.Error("Build is empty")
	}
}
