package export

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

func ms(s string) *Millis {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	m := Millis(t.UnixMilli())
	return &m
}

// files lists the files under dir, relative, sorted.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func TestPartitionValue(t *testing.T) {
	for in, want := range map[string]string{
		"-home-dev-demo":   "-home-dev-demo",
		"C--Users-dev-app": "C--Users-dev-app",
		"":                 DefaultPartition,
		"a b/c=d%":         "a%20b%2Fc%3Dd%25",
		"é":                "%C3%A9",
		"azAZ09._-":        "azAZ09._-",
		"`{@[/:":           "%60%7B%40%5B%2F%3A",
		"\xff\uFFFDa":      "%FF%EF%BF%BDa",
	} {
		if got := partitionValue(in); got != want {
			t.Errorf("partitionValue(%q) = %q, want %q", in, got, want)
		}
	}
	// A value too long for a folder's name is cut to fit, never inside an
	// escape, and ends in ~ and its whole name's hash.
	long := strings.Repeat("a", 300)
	for _, c := range []struct{ in, start string }{
		{long, strings.Repeat("a", 238)},
		{long + "b", strings.Repeat("a", 238)},
		{strings.Repeat("プ", 100), strings.Repeat("%E3%83%97", 26)},
		{"x" + strings.Repeat("プ", 100), "x" + strings.Repeat("%E3%83%97", 26)},
		{"xx" + strings.Repeat("プ", 100), "xx" + strings.Repeat("%E3%83%97", 26)},
	} {
		got := partitionValue(c.in)
		start, hash, ok := strings.Cut(got, "~")
		if !ok || start != c.start || len(hash) != 8 || len("project="+got) > 255 {
			t.Errorf("partitionValue(%d bytes) = %q (%d bytes), want %q and ~hash", len(c.in), got, len(got), c.start)
		}
	}
	if partitionValue(long) == partitionValue(long+"b") {
		t.Error("two long names that share their start have one partition")
	}
	if got := partitionValue(strings.Repeat("a", 247)); got != strings.Repeat("a", 247) {
		t.Errorf("a value that fits was cut: %q", got)
	}
}

// TestNDJSON pins one call row's line: every column, times in RFC 3339
// with milliseconds when they have them, a missing time as null, the
// project and date in the path only.
func TestNDJSON(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir, Options{Format: FormatNDJSON})
	if err != nil {
		t.Fatal(err)
	}
	key := "msg_1:req_1"
	err = w.Add(&Rows{Project: "-p", Calls: []Call{
		{SchemaVersion: 1, Session: "s", Thread: "main", ThreadKind: "main", Call: 1, Line: 3, Time: ms("2026-05-19T09:04:42.250Z"),
			Model: "m", MessageID: "msg_1", RequestID: "req_1", DedupKey: &key, Counted: true, HasUsage: true,
			Input: 1, CacheWrite5m: 2, CacheWrite1h: 3, CacheRead: 4, Output: 5, Prompt: 10, Cost: 0.5, Priced: true},
		{SchemaVersion: 1, Session: "s", Thread: "main", ThreadKind: "main", Call: 2, Line: 4, Model: "<synthetic>", Synthetic: true},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got := files(t, dir)
	want := []string{
		"calls/project=-p/date=2026-05-19/part-0.ndjson",
		"calls/project=-p/date=" + DefaultPartition + "/part-0.ndjson",
		ManifestName,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("files:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	data, _ := os.ReadFile(filepath.Join(dir, want[0]))
	line := `{"schema_version":1,"session":"s","session_index":0,"thread":"main","thread_kind":"main","thread_index":0,"call":1,"line":3,` +
		`"time":"2026-05-19T09:04:42.250Z","model":"m","version":"","session_id":"","message_id":"msg_1","request_id":"req_1",` +
		`"dedup_key":"msg_1:req_1","counted":true,"has_usage":true,"synthetic":false,"api_error":false,"duplicate":false,` +
		`"input":1,"cache_write_5m":2,"cache_write_1h":3,"cache_read":4,"output":5,"prompt":10,"output_lower_bound":false,"cost_usd":0.5,"priced":true}` + "\n"
	if string(data) != line {
		t.Errorf("row:\n%s\nwant:\n%s", data, line)
	}
	data, _ = os.ReadFile(filepath.Join(dir, want[1]))
	if !strings.Contains(string(data), `"time":null,`) || !strings.Contains(string(data), `"dedup_key":null,`) {
		t.Errorf("row without time or key: %s", data)
	}
}

// TestBounds: a partition is written as a new file each time it reaches
// PartitionRows, and past BufferedRows the largest partitions are written
// until half remain; the manifest counts every row and file.
func TestBounds(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir, Options{Format: FormatNDJSON, PartitionRows: 3, BufferedRows: 4})
	if err != nil {
		t.Fatal(err)
	}
	day := func(d string) []Message {
		return []Message{{Time: ms(d + "T10:00:00Z")}}
	}
	// 7 rows on day 1: files of 3, 3 and (at Close) 1.
	for range 7 {
		if err := w.Add(&Rows{Project: "a", Messages: day("2026-01-01")}); err != nil {
			t.Fatal(err)
		}
	}
	// Day 2 gets 2 rows and day 3 one, 1 still buffered on day 1: 4 in
	// all, at the bound. A row on day 4 makes 5: day 2 (the largest) is
	// written, then day 1 (ties in path order), leaving 2 ≤ 4/2.
	for _, d := range []string{"2026-01-02", "2026-01-02", "2026-01-03"} {
		if err := w.Add(&Rows{Project: "a", Messages: day(d)}); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(files(t, filepath.Join(dir, "messages"))); n != 2 || w.buffered != 4 {
		t.Fatalf("before the bound: %d files, %d buffered; want 2, 4", n, w.buffered)
	}
	if err := w.Add(&Rows{Project: "a", Messages: day("2026-01-04")}); err != nil {
		t.Fatal(err)
	}
	if n := len(files(t, filepath.Join(dir, "messages"))); n != 4 || w.buffered != 2 {
		t.Fatalf("past the bound: %d files, %d buffered; want 4, 2", n, w.buffered)
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(files(t, filepath.Join(dir, "messages")), " ")
	want := "project=a/date=2026-01-01/part-0.ndjson project=a/date=2026-01-01/part-1.ndjson project=a/date=2026-01-01/part-2.ndjson " +
		"project=a/date=2026-01-02/part-0.ndjson project=a/date=2026-01-03/part-0.ndjson project=a/date=2026-01-04/part-0.ndjson"
	if got != want {
		t.Errorf("files %s\nwant %s", got, want)
	}
	m, _ := os.ReadFile(filepath.Join(dir, ManifestName))
	if !strings.Contains(string(m), `"name": "messages",
      "rows": 11,
      "files": 6`) || !strings.Contains(string(m), `"complete": true`) || !strings.Contains(string(m), `"sessions": 11`) {
		t.Errorf("manifest:\n%s", m)
	}
}

// TestCreate: a folder with other files is refused unless Overwrite; a
// previous export is replaced, its tables removed, other files kept.
func TestCreate(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644)
	if _, err := Create(dir, Options{}); !errors.Is(err, ErrNotExport) {
		t.Fatalf("non-empty folder: %v, want ErrNotExport", err)
	}
	if got := files(t, dir); len(got) != 1 {
		t.Fatalf("refusing wrote files: %v", got)
	}
	w, err := Create(dir, Options{Overwrite: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Add(&Rows{Project: "a", Sessions: []Session{{Session: "s"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	// Again, without Overwrite: the folder is an export now.
	w, err = Create(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(files(t, dir), " "); got != ManifestName+" notes.txt" {
		t.Errorf("after Create over an export: %s", got)
	}
	m, _ := os.ReadFile(filepath.Join(dir, ManifestName))
	if !strings.Contains(string(m), `"complete": false`) {
		t.Errorf("manifest before Close: %s", m)
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(filepath.Join(dir, "notes.txt", "x"), Options{}); err == nil {
		t.Error("a folder under a file: no error")
	}
}
