package batch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/replay"
)

func TestParseShard(t *testing.T) {
	for v, want := range map[string]Shard{"1/1": {1, 1}, "1/3": {1, 3}, "3/3": {3, 3}, "16/16": {16, 16}} {
		got, err := ParseShard(v)
		if err != nil || got != want || got.String() != v {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", v, got, err, want)
		}
	}
	for v, msg := range map[string]string{
		"0/3": "shard 0 of 3: want 1 to 3", "4/3": "shard 4 of 3: want 1 to 3", "1/0": "0 shards: want 1 or more", "x/y": "want K/N", "3": "want K/N", "": "want K/N",
		"-1/3": "shard -1 of 3", "1/-2": "-2 shards", "1/3/5": "want K/N", " 1/3": "want K/N",
	} {
		if _, err := ParseShard(v); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("ParseShard(%q): %v, want %q", v, err, msg)
		}
	}
	if got := (Shard{2, 3}).FileName(); got != "2-of-3" {
		t.Errorf("FileName = %q", got)
	}
}

// The shard of an identity is FNV-1a 64 of its bytes modulo N, plus one:
// the hashes below were computed by hand from the algorithm's definition
// (offset basis 0xcbf29ce484222325, prime 0x100000001b3).
func TestShardOf(t *testing.T) {
	for _, c := range []struct {
		id   string
		hash uint64
	}{
		{"-home-dev-demo/d3e4f5a6-b7c8-4d9e-a0f1-b2c3d4e5f6a7", 0x53180a625d8e16e8},
		{"-", 0xaf63a04c86018698},
		{"p/s", 0x78745b1957072529},
		{"", 0xcbf29ce484222325},
	} {
		for _, n := range []int{1, 2, 3, 7, 16} {
			if got, want := ShardOf(c.id, n), int(c.hash%uint64(n))+1; got != want {
				t.Errorf("ShardOf(%q, %d) = %d, want %d", c.id, n, got, want)
			}
		}
	}
	if ShardOf("p/s", 7) != 7 || ShardOf("-", 16) != 9 {
		t.Errorf("ShardOf: %d, %d", ShardOf("p/s", 7), ShardOf("-", 16))
	}
}

// A session's identity is its project folder and id, whatever the path
// above projects/ and whichever file of it is named; its agent files go
// with it.
func TestIdentity(t *testing.T) {
	for _, root := range []string{"/a/projects", "/mnt/b/c/projects", "projects"} {
		src := replay.Source{Path: filepath.Join(root, "-home-x", "s1.jsonl"), Agents: []string{filepath.Join(root, "-home-x", "s1", "subagents", "agent-a.jsonl")}}
		if got := Identity(src); got != "-home-x/s1" {
			t.Errorf("Identity(%s) = %q", src.Path, got)
		}
	}
	if got := Identity(replay.Source{Path: "-"}); got != "-" {
		t.Errorf("Identity(stdin) = %q", got)
	}
}

// The shards of N partition the sessions: each in exactly one, whatever
// the order of the input.
func TestShardsPartition(t *testing.T) {
	in := inputs(t)
	for _, n := range []int{1, 2, 3, 7, 16} {
		seen := map[string]int{}
		for k := 1; k <= n; k++ {
			for _, i := range inShard(in.Sources, Shard{k, n}) {
				seen[in.Sources[i].Path]++
			}
		}
		rev := slices.Clone(in.Sources)
		slices.Reverse(rev)
		for _, src := range in.Sources {
			if seen[src.Path] != 1 {
				t.Errorf("N=%d: %s in %d shards", n, src.Path, seen[src.Path])
			}
		}
		for k := 1; k <= n; k++ {
			var a, b []string
			for _, i := range inShard(in.Sources, Shard{k, n}) {
				a = append(a, in.Sources[i].Path)
			}
			for _, i := range inShard(rev, Shard{k, n}) {
				b = append(b, rev[i].Path)
			}
			slices.Sort(a)
			slices.Sort(b)
			if !slices.Equal(a, b) {
				t.Errorf("shard %d/%d depends on the input's order: %v, %v", k, n, a, b)
			}
		}
	}
}

// writeParts runs Each under every shard of n over the fixtures, each
// session's value its id, and returns the parts, made with args.
func writeParts(t *testing.T, n int, args []string, table *prices.Table) map[string][]byte {
	t.Helper()
	in := inputs(t)
	out := map[string][]byte{}
	f := pflag.NewFlagSet("replay", pflag.ContinueOnError)
	f.StringSlice("policy", nil, "")
	f.Int("jobs", 0, "")
	if err := f.Parse(args); err != nil {
		t.Fatal(err)
	}
	for k := 1; k <= n; k++ {
		var buf bytes.Buffer
		o := options(nil)
		o.Shard = Shard{k, n}
		o.Part = NewPart(&buf, f, []string{"jobs"}, []string{fixtures}, o.Shard, table, replay.Selection{})
		_, err := Each(in, o, func(s *Session) string { return s.ID }, func(string) { t.Error("a shard emitted a value") })
		if err != ErrPartWritten {
			t.Fatalf("shard %d/%d: %v", k, n, err)
		}
		out[fmt.Sprintf("p%d.json", k)] = buf.Bytes()
	}
	return out
}

func readFrom(parts map[string][]byte) func(string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		b, ok := parts[name]
		if !ok {
			return nil, os.ErrNotExist
		}
		return b, nil
	}
}

// Merged parts hand back every session's value in input order, whatever
// the order the parts are named in, and a shard that received no session
// is a part like the others.
func TestMergeParts(t *testing.T) {
	in := inputs(t)
	var want []string
	for _, s := range in.Sources {
		want = append(want, s.ID())
	}
	for _, n := range []int{1, 2, 3, 7, 16} {
		parts := writeParts(t, n, []string{"--jobs=1", "--policy=a,b"}, prices.Default())
		var names []string
		for k := n; k >= 1; k-- {
			names = append(names, fmt.Sprintf("p%d.json", k))
		}
		m, err := ReadParts(names, readFrom(parts))
		if err != nil {
			t.Fatalf("N=%d: %v", n, err)
		}
		if m.Header.Command != "replay" || !slices.Equal(m.Header.Args, []string{"--policy=a", "--policy=b"}) || m.Header.Shard.K != 1 {
			t.Errorf("N=%d: header %+v", n, m.Header)
		}
		var got []string
		o := options(nil)
		o.Merge = m
		if _, err := Each(m.Inputs(), o, nil, func(id string) { got = append(got, id) }); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("N=%d: merged %v, want %v", n, got, want)
		}
	}
}

// Each wrong merge is refused with a message that says what is wrong.
func TestMergeRefused(t *testing.T) {
	parts := writeParts(t, 3, []string{"--policy=a"}, prices.Default())
	for name, b := range writeParts(t, 3, []string{"--policy=b"}, prices.Default()) {
		parts["flags-"+name] = b
	}
	for name, b := range writeParts(t, 2, []string{"--policy=a"}, prices.Default()) {
		parts["two-"+name] = b
	}
	other := *prices.Default()
	other.Date = "2001-01-01"
	for name, b := range writeParts(t, 3, []string{"--policy=a"}, &other) {
		parts["prices-"+name] = b
	}
	parts["cut.json"] = parts["p3.json"][:len(parts["p3.json"])/2]
	parts["typed.json"] = bytes.Replace(parts["p3.json"], []byte(`"complete": true`), []byte(`"complete": "yes"`), 1)
	parts["shard.json"] = bytes.Replace(parts["p3.json"], []byte(`"k": 3`), []byte(`"k": "3"`), 1)
	parts["k0.json"] = bytes.Replace(parts["p2.json"], []byte(`"k": 2`), []byte(`"k": 0`), 1)
	parts["k4.json"] = bytes.Replace(parts["p2.json"], []byte(`"k": 2`), []byte(`"k": 4`), 1)
	parts["open.json"] = bytes.Replace(parts["p3.json"], []byte(`"complete": true`), []byte(`"complete": false`), 1)
	parts["other.json"] = []byte(`{"schema": "ctxlab.replay", "version": 1}`)
	parts["text.json"] = []byte("hello\n")
	parts["v9.json"] = bytes.Replace(parts["p3.json"], []byte(`"version": 1`), []byte(`"version": 9`), 1)
	parts["build.json"] = bytes.Replace(parts["p3.json"], []byte(`"ctxlab": "`+Build()+`"`), []byte(`"ctxlab": "v0.0.1"`), 1)
	parts["sweep.json"] = bytes.Replace(parts["p3.json"], []byte(`"command": "replay"`), []byte(`"command": "sweep"`), 1)
	parts["export.json"] = bytes.Replace(parts["p1.json"], []byte(`"command": "replay"`), []byte(`"command": "export"`), 1)
	for _, c := range []struct {
		names []string
		msg   string
	}{
		{[]string{"p1.json", "p2.json"}, "shard 3/3 missing"},
		{[]string{"p1.json", "p3.json"}, "shard 2/3 missing"},
		{[]string{"p1.json", "p2.json", "p3.json", "p2.json"}, "shard 2/3 given twice: p2.json and p2.json"},
		{[]string{"p1.json", "p2.json", "flags-p3.json"}, "made with different flags (--policy=a; --policy=b)"},
		{[]string{"p1.json", "p2.json", "two-p2.json"}, "parts of 3 and of 2 shards"},
		{[]string{"p1.json", "p2.json", "prices-p3.json"}, "priced with different price tables (" + prices.Default().Date + " and 2001-01-01"},
		{[]string{"p1.json", "p2.json", "cut.json"}, "cut.json: a ctxlab part cut short"},
		{[]string{"p1.json", "p2.json", "typed.json"}, "typed.json: a damaged ctxlab part (complete: a string where true or false was expected): write it again"},
		{[]string{"p1.json", "p2.json", "shard.json"}, "shard.json: a damaged ctxlab part (shard.k: a string where an integer was expected): write it again"},
		{[]string{"p1.json", "k0.json", "p3.json"}, "k0.json: a damaged ctxlab part (shard 0/3: K runs from 1 to N): write it again"},
		{[]string{"p1.json", "k4.json", "p3.json"}, "k4.json: a damaged ctxlab part (shard 4/3: K runs from 1 to N): write it again"},
		{[]string{"p1.json", "p2.json", "open.json"}, "open.json: a ctxlab part cut short (no end)"},
		{[]string{"other.json"}, "other.json: not a ctxlab part"},
		{[]string{"text.json", "p1.json"}, "text.json: not a ctxlab part"},
		{[]string{"p1.json", "p2.json", "v9.json"}, "v9.json: part version 9, this ctxlab merges version 1"},
		{[]string{"p1.json", "p2.json", "build.json"}, "written by ctxlab " + Build() + " and v0.0.1"},
		{[]string{"build.json", "p2.json", "p1.json"}, "written by ctxlab " + Build() + " and v0.0.1"},
		{[]string{"p1.json", "p2.json", "sweep.json"}, "parts of ctxlab replay and ctxlab sweep"},
		{[]string{"export.json", "p2.json", "p3.json"}, `a part of ctxlab "export", which has no merge`},
		{[]string{"p1.json", "gone.json"}, "file does not exist"},
		{nil, "name the parts to merge"},
	} {
		_, err := ReadParts(c.names, readFrom(parts))
		var pe *PartError
		if err == nil || !strings.Contains(err.Error(), c.msg) || !errorsAs(err, &pe) {
			t.Errorf("ReadParts(%v): %v, want %q", c.names, err, c.msg)
		}
	}
}

func errorsAs(err error, pe **PartError) bool {
	p, ok := err.(*PartError)
	*pe = p
	return ok
}

// TestPartEntries checks that a part's entries are written as
// json.Marshal writes them (Part.add writes them by hand), each flag and
// an error with the characters Marshal escapes.
func TestPartEntries(t *testing.T) {
	value, err := marshalValue(measured{})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := json.Marshal(measured{})
	if err != nil || !bytes.Equal(value, plain) {
		t.Fatalf("marshalValue %s, json.Marshal %s (%v)", value, plain, err)
	}
	entries := []partEntry{
		{Index: 0, Value: value},
		{Index: 7, Value: value, Warned: true},
		{Index: 12, Skipped: true},
		{Index: 123456, Error: "a/b.jsonl: <no> & \"line\" \u2028 é\x01"},
		{Index: 3, Value: value, Warned: true, Skipped: true, Error: "x"},
	}
	var got bytes.Buffer
	p := &Part{W: &got}
	p.begin(&Inputs{})
	start := got.Len() + p.bw.Buffered()
	var want []byte
	for i, e := range entries {
		p.add(e)
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			want = append(want, ",\n"...)
		}
		want = append(want, b...)
	}
	p.bw.Flush()
	if g := got.Bytes()[start:]; !bytes.Equal(g, want) {
		t.Errorf("entries\n%s\nwant\n%s", g, want)
	}
}
