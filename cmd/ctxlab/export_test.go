package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/internal/testcorpus"
	"github.com/ctxlab/ctxlab/replay"
)

// demoSession is the demo fixture, copied under another name by the tests
// below so that its calls repeat across two sessions.
const demoSession = fixtures + "/-home-dev-demo/d3e4f5a6-b7c8-4d9e-a0f1-b2c3d4e5f6a7.jsonl"

// resumedCopy makes a folder holding a copy of the demo session under
// another id: the input then counts every demo call twice unless calls are
// deduplicated across sessions.
func resumedCopy(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "projects", "-home-dev-copy")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(demoSession)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "copy.jsonl"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestExportQueries runs docs/export.md's queries, as written there, in
// DuckDB over exports of the fixtures (with a copied session, so that
// calls and a compaction repeat across sessions) and of the real
// transcripts, and compares
// the answers with replay's JSON totals and with per-day costs summed here
// straight from the sessions.
func TestExportQueries(t *testing.T) {
	queries := docQueries(t)
	run := duckDB(t)
	inputs := map[string][]string{"fixtures": {fixtures, resumedCopy(t)}}
	if dir, ok := testcorpus.Path(testcorpus.Realdata); ok {
		inputs["realdata"] = []string{dir}
	} else {
		t.Log("no ../shared/realdata beside the repository: fixtures only")
	}
	// calibration3 has compactions two files show (the copied demo
	// session, all of its own).
	if dir, ok := testcorpus.Path(testcorpus.Calibration3); ok {
		inputs["calibration3"] = []string{dir}
	}
	for name, paths := range inputs {
		t.Run(name, func(t *testing.T) {
			want := replayTotals(t, paths)
			if name == "fixtures" && want.Total.Summary.CrossSessionDuplicates == 0 {
				t.Fatal("the copied session repeats no call: the deduplication goes untested")
			}
			for _, format := range []string{"parquet", "ndjson"} {
				if format == "ndjson" && name != "fixtures" {
					continue
				}
				dir := t.TempDir()
				args := append([]string{"export", "--format", format, "--out", filepath.Join(dir, "export")}, paths...)
				if _, errOut, code := ctxlab(t, "", nil, args...); code != exitOK {
					t.Fatalf("export --format %s: exit %d\n%s", format, code, errOut)
				}
				qs := map[string]string{}
				for k, q := range queries {
					if format == "ndjson" {
						q = strings.NewReplacer("read_parquet(", "read_json(", ".parquet'", ".ndjson'").Replace(q)
					}
					qs[k] = q
				}
				// Every row and every Parquet file says its schema version.
				qs["version"] = "SELECT (SELECT list(DISTINCT schema_version) FROM read_parquet('export/*/*/*/*.parquet', union_by_name = true)) AS versions, " +
					"(SELECT list(DISTINCT decode(value)) FROM parquet_kv_metadata('export/*/*/*/*.parquet') WHERE decode(key) = 'ctxlab.schema_version') AS metadata"
				if format == "ndjson" {
					qs["version"] = "SELECT list(DISTINCT schema_version) AS versions FROM read_json('export/*/*/*/*.ndjson', union_by_name = true)"
				}
				got := run(t, dir, qs)
				if v := fmt.Sprint(got["version"]); v != "[map[metadata:[1] versions:[1]]]" && !(format == "ndjson" && v == "[map[versions:[1]]]") {
					t.Errorf("%s: schema versions %s, want 1 everywhere", format, v)
				}
				checkAnswers(t, format, got, want, perDay(t, paths))
			}
		})
	}
}

// replayTotal is what the test reads from replay's JSON total.
type replayTotal struct {
	Total struct {
		Summary struct {
			CrossSessionDuplicates int `json:"cross_session_duplicates"`
		}
		Usage struct {
			Total struct {
				Calls        int     `json:"calls"`
				Input        int64   `json:"input"`
				CacheWrite5m int64   `json:"cache_write_5m"`
				CacheWrite1h int64   `json:"cache_write_1h"`
				CacheRead    int64   `json:"cache_read"`
				Output       int64   `json:"output"`
				Cost         float64 `json:"cost_usd"`
				Unpriced     int     `json:"unpriced_calls"`
			}
		}
		Tokens struct {
			Total         int64 `json:"total"`
			MeasuredTotal int64 `json:"measured_total"`
		}
		CacheBreaks []struct {
			Cost float64 `json:"cost_usd"`
		} `json:"cache_breaks"`
		Compactions []struct {
			Freed int64 `json:"freed"`
		} `json:"compactions"`
	}
}

func replayTotals(t *testing.T, paths []string) replayTotal {
	t.Helper()
	out, errOut, code := ctxlab(t, "", nil, append([]string{"replay", "--format", "json"}, paths...)...)
	if code != exitOK {
		t.Fatalf("replay: exit %d\n%s", code, errOut)
	}
	var r replayTotal
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func checkAnswers(t *testing.T, format string, got map[string][]map[string]any, want replayTotal, days []dayCost) {
	t.Helper()
	u := want.Total.Usage.Total
	row := func(q string) map[string]any {
		if len(got[q]) != 1 {
			t.Fatalf("%s: query %s gave %d rows, want 1", format, q, len(got[q]))
		}
		return got[q][0]
	}
	var breakCost float64
	for _, b := range want.Total.CacheBreaks {
		breakCost += b.Cost
	}
	var freed int64
	for _, c := range want.Total.Compactions {
		freed += c.Freed
	}
	for _, c := range []struct {
		query, column string
		want          string
	}{
		{"totals", "calls", fmt.Sprint(u.Calls)},
		{"totals", "input", fmt.Sprint(u.Input)},
		{"totals", "cache_write_5m", fmt.Sprint(u.CacheWrite5m)},
		{"totals", "cache_write_1h", fmt.Sprint(u.CacheWrite1h)},
		{"totals", "cache_read", fmt.Sprint(u.CacheRead)},
		{"totals", "output", fmt.Sprint(u.Output)},
		{"totals", "cost_usd", fmt.Sprint(u.Cost)},
		{"totals", "unpriced_calls", fmt.Sprint(u.Unpriced)},
		{"tokens", "total", fmt.Sprint(want.Total.Tokens.Total)},
		{"tokens", "measured_total", fmt.Sprint(want.Total.Tokens.MeasuredTotal)},
		{"events", "cache_breaks", fmt.Sprint(len(want.Total.CacheBreaks))},
		{"events", "break_cost_usd", fmt.Sprint(prices.RoundUSD(breakCost))},
		{"events", "compactions", fmt.Sprint(len(want.Total.Compactions))},
		{"events", "freed", fmt.Sprint(freed)},
	} {
		if g := fmt.Sprint(row(c.query)[c.column]); g != c.want && !(strings.HasSuffix(c.column, "_usd") && sameUSD(g, c.want)) {
			t.Errorf("%s: %s.%s = %s, want %s", format, c.query, c.column, g, c.want)
		}
	}
	// The rows by project and model add up to replay's total: each call
	// once, in one project.
	var calls int
	var cost float64
	for _, r := range got["per-project-model"] {
		n, _ := strconv.Atoi(fmt.Sprint(r["calls"]))
		c, _ := strconv.ParseFloat(fmt.Sprint(r["cost_usd"]), 64)
		calls, cost = calls+n, cost+c
	}
	if calls != u.Calls || math.Abs(cost-u.Cost) > 1e-6*float64(len(got["per-project-model"])+1) {
		t.Errorf("%s: per-project-model adds up to %d calls, $%f; replay's total is %d calls, $%f", format, calls, cost, u.Calls, u.Cost)
	}
	if len(got["per-day"]) != len(days) {
		t.Fatalf("%s: per-day gave %d days, want %d: %v", format, len(got["per-day"]), len(days), got["per-day"])
	}
	for i, r := range got["per-day"] {
		d := days[i]
		if fmt.Sprint(r["date"]) != d.date || fmt.Sprint(r["calls"]) != fmt.Sprint(d.calls) || !sameUSD(fmt.Sprint(r["cost_usd"]), fmt.Sprint(prices.RoundUSD(d.cost))) {
			t.Errorf("%s: per-day row %d = %v, want %s %d calls $%v", format, i, r, d.date, d.calls, prices.RoundUSD(d.cost))
		}
	}
}

// sameUSD compares two costs rounded to a millionth of a dollar. Sums of
// the same calls in another order can round a last digit apart when they
// fall on a half millionth: DuckDB adds in parallel, ctxlab in input order
// (docs/export.md says so), so they may differ by one millionth.
func sameUSD(a, b string) bool {
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	return err1 == nil && err2 == nil && math.Abs(x-y) <= 1.000001e-6
}

type dayCost struct {
	date  string
	calls int
	cost  float64
}

// perDay sums the cost of the counted calls by UTC date, straight from the
// sessions and the price table: each call repeated across sessions once,
// as the record with the most tokens (the first on a tie).
func perDay(t *testing.T, paths []string) []dayCost {
	t.Helper()
	srcs, _ := replay.Discover(paths)
	var calls []replay.Call
	index := map[string]int{}
	for _, src := range srcs {
		s, err := replay.Load(src, replay.Options{})
		if err != nil {
			continue
		}
		for _, th := range s.Threads() {
			for _, c := range th.Calls {
				if !c.Counted() {
					continue
				}
				if c.MessageID == "" {
					calls = append(calls, c)
					continue
				}
				if i, ok := index[c.Key()]; ok {
					if c.Usage.Total() > calls[i].Usage.Total() {
						calls[i] = c
					}
					continue
				}
				index[c.Key()] = len(calls)
				calls = append(calls, c)
			}
		}
	}
	table := prices.Default()
	byDay := map[string]*dayCost{}
	for _, c := range calls {
		day := "<nil>"
		if c.Time != 0 {
			day = time.UnixMilli(c.Time).UTC().Format("2006-01-02")
		}
		d := byDay[day]
		if d == nil {
			d = &dayCost{date: day}
			byDay[day] = d
		}
		d.calls++
		if pr, ok := table.Lookup(c.Model); ok {
			d.cost += pr.Cost(c.Usage)
		}
	}
	var out []dayCost
	for _, d := range byDay {
		out = append(out, *d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].date < out[j].date })
	if len(out) > 0 && out[0].date == "<nil>" {
		out = append(out[1:], out[0]) // DuckDB sorts NULL last
	}
	return out
}

// docQueries reads the named queries of docs/export.md: the ```sql
// export-query=NAME blocks.
func docQueries(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile("../../docs/export.md")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?s)```sql export-query=([a-z-]+)\n(.*?)```")
	out := map[string]string{}
	for _, m := range re.FindAllStringSubmatch(string(data), -1) {
		out[m[1]] = m[2]
	}
	for _, name := range []string{"totals", "per-day", "tokens", "events", "per-project-model"} {
		if out[name] == "" {
			t.Fatalf("docs/export.md has no query %s", name)
		}
	}
	return out
}

// duckDBScript runs each query of a JSON object {name: sql} read from
// standard input in an in-memory DuckDB and writes {name: rows}.
const duckDBScript = `
const { createRequire } = require('module');
const { DuckDBInstance } = createRequire(process.env.CTXLAB_DUCKDB_DIR + '/')('@duckdb/node-api');
(async () => {
  const queries = JSON.parse(require('fs').readFileSync(0, 'utf8'));
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const out = {};
  for (const name of Object.keys(queries).sort()) {
    try {
      out[name] = (await conn.runAndReadAll(queries[name])).getRowObjectsJson();
    } catch (e) {
      throw new Error('query ' + name + ': ' + e.message);
    }
  }
  process.stdout.write(JSON.stringify(out));
})().catch(e => { console.error(e.message); process.exit(1); });
`

// duckDB returns a function running queries in DuckDB in a folder: the
// @duckdb/node-api package installed under $CTXLAB_DUCKDB_DIR, run by
// node. Without them the test is skipped, or fails when
// CTXLAB_DUCKDB_TESTS=1 (as .ci/run sets it).
func duckDB(t *testing.T) func(t *testing.T, dir string, queries map[string]string) map[string][]map[string]any {
	t.Helper()
	missing := func(why string) {
		msg := "DuckDB unavailable (" + why + "): run `npm install --prefix DIR @duckdb/node-api` and set CTXLAB_DUCKDB_DIR=DIR (.ci/run does)"
		if os.Getenv("CTXLAB_DUCKDB_TESTS") == "1" {
			t.Fatal(msg + "; CTXLAB_DUCKDB_TESTS=1 makes this a failure")
		}
		t.Skip(msg)
	}
	dir := os.Getenv("CTXLAB_DUCKDB_DIR")
	node, err := exec.LookPath("node")
	switch {
	case dir == "":
		missing("CTXLAB_DUCKDB_DIR is not set")
	case err != nil:
		missing("no node on PATH")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@duckdb", "node-api")); err != nil {
		missing(err.Error())
	}
	script := filepath.Join(t.TempDir(), "duckdb.js")
	if err := os.WriteFile(script, []byte(duckDBScript), 0o644); err != nil {
		t.Fatal(err)
	}
	return func(t *testing.T, cwd string, queries map[string]string) map[string][]map[string]any {
		t.Helper()
		in, _ := json.Marshal(queries)
		cmd := exec.Command(node, script)
		cmd.Dir = cwd
		cmd.Stdin = bytes.NewReader(in)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		cmd.Env = append(os.Environ(), "CTXLAB_DUCKDB_DIR="+dir)
		if err := cmd.Run(); err != nil {
			t.Fatalf("duckdb: %v\n%s", err, errOut.String())
		}
		var got map[string][]map[string]any
		dec := json.NewDecoder(&out)
		dec.UseNumber()
		if err := dec.Decode(&got); err != nil {
			t.Fatal(err)
		}
		return got
	}
}

// TestExportFiles: the same input gives the same files, byte for byte,
// whatever --jobs; --policy adds simulated_calls; the manifest counts the
// rows; nothing is left half-written.
func TestExportFiles(t *testing.T) {
	read := func(dir string) map[string]string {
		out := map[string]string{}
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				data, _ := os.ReadFile(p)
				rel, _ := filepath.Rel(dir, p)
				out[filepath.ToSlash(rel)] = string(data)
			}
			return err
		})
		return out
	}
	var first map[string]string
	for _, jobs := range []string{"1", "3"} {
		dir := filepath.Join(t.TempDir(), "out")
		_, errOut, code := ctxlab(t, "", nil, "export", "--jobs", jobs, "--policy", "observed,claude-code", "-o", dir, fixtures)
		if code != exitOK {
			t.Fatalf("exit %d\n%s", code, errOut)
		}
		files := read(dir)
		for name := range files {
			if strings.Contains(name, ".tmp") {
				t.Errorf("temporary file left: %s", name)
			}
		}
		if first == nil {
			first = files
			continue
		}
		if len(files) != len(first) {
			t.Fatalf("--jobs %s: %d files, --jobs 1: %d", jobs, len(files), len(first))
		}
		for name, data := range first {
			if files[name] != data {
				t.Errorf("--jobs %s: %s differs", jobs, name)
			}
		}
	}
	var m struct {
		Complete bool
		Sessions int
		Tables   []struct {
			Name  string
			Rows  int
			Files int
		}
	}
	if err := json.Unmarshal([]byte(first["ctxlab-export.json"]), &m); err != nil {
		t.Fatal(err)
	}
	// The fixtures: 4 sessions, 97 counted calls of 101, the demo
	// session's 21 main-thread calls under two policies, …
	var got []string
	for _, tb := range m.Tables {
		got = append(got, fmt.Sprintf("%s %d", tb.Name, tb.Rows))
	}
	if !m.Complete || m.Sessions != 4 || !strings.HasPrefix(strings.Join(got, ", "), "calls 101, messages 218, sessions 4, cache_breaks 3, compactions 4, simulated_calls ") {
		t.Errorf("manifest: complete %v, %d sessions, tables %s", m.Complete, m.Sessions, strings.Join(got, ", "))
	}
	if _, ok := first["simulated_calls/project=-home-dev-demo/date=2026-05-19/part-0.parquet"]; !ok {
		t.Error("no simulated_calls partition for the demo session")
	}
}

// TestExportErrors: each refusal is one clear message with its exit code,
// and writes nothing.
func TestExportErrors(t *testing.T) {
	tmp := t.TempDir()
	file := filepath.Join(tmp, "file")
	os.WriteFile(file, []byte("x"), 0o644)
	full := filepath.Join(tmp, "full")
	os.MkdirAll(full, 0o755)
	os.WriteFile(filepath.Join(full, "notes.txt"), []byte("x"), 0o644)
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"export", fixtures}, exitUsage, "ctxlab: --out DIR is required\n"},
		{[]string{"export", "--format", "csv", "-o", filepath.Join(tmp, "a"), fixtures}, exitUsage, `ctxlab: --format "csv": want one of parquet, ndjson` + "\n"},
		{[]string{"export", "--policy", "nope", "-o", filepath.Join(tmp, "a"), fixtures}, exitUsage, "ctxlab: --policy: "},
		{[]string{"export", "-o", full, fixtures}, exitUsage, "ctxlab: --out " + full + ": not empty and not a ctxlab export (--overwrite writes into it anyway)\n"},
		{[]string{"export", "-o", filepath.Join(file, "sub"), fixtures}, exitInput, "ctxlab: --out " + filepath.Join(file, "sub") + ": mkdir " + file + ": not a directory\n"},
		{[]string{"export", "-o", filepath.Join(tmp, "b"), filepath.Join(tmp, "missing")}, exitInput, "ctxlab: no session could be read\n"},
	} {
		_, errOut, code := ctxlab(t, "", nil, c.args...)
		if code != c.code || !strings.HasPrefix(errOut, c.msg) && !strings.HasSuffix(errOut, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d, %q", c.args, code, errOut, c.code, c.msg)
		}
	}
	if entries, _ := os.ReadDir(full); len(entries) != 1 {
		t.Errorf("the refused folder holds %d files", len(entries))
	}
	if _, err := os.Stat(filepath.Join(tmp, "a")); err == nil {
		t.Error("a usage error created --out")
	}
	// A run that read nothing leaves nothing it created: not the folder
	// b, and in a folder that was there (empty, or holding an export), no
	// file of its own and nothing removed but the previous tables.
	if _, err := os.Stat(filepath.Join(tmp, "b")); err == nil {
		t.Error("a failed export left its folder")
	}
	empty := filepath.Join(tmp, "empty")
	os.MkdirAll(empty, 0o755)
	if _, _, code := ctxlab(t, "", nil, "export", "-o", empty, filepath.Join(tmp, "missing")); code != exitInput {
		t.Errorf("empty input: exit %d", code)
	}
	if entries, err := os.ReadDir(empty); err != nil || len(entries) != 0 {
		t.Errorf("a failed export into an empty folder left %v (%v)", entries, err)
	}
	// --overwrite writes beside the other file.
	if _, errOut, code := ctxlab(t, "", nil, "export", "--overwrite", "-o", full, fixtures); code != exitOK {
		t.Fatalf("--overwrite: exit %d\n%s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(full, "notes.txt")); err != nil {
		t.Error(err)
	}
}

// TestExportSimulatedCalls: the simulated_calls rows of `export --policy P`
// are replay --policy P's simulation.calls, column for field, session by
// session in order.
func TestExportSimulatedCalls(t *testing.T) {
	const policy = "claude-code:window=55000"
	dir := filepath.Join(t.TempDir(), "out")
	if _, errOut, code := ctxlab(t, "", nil, "export", "--format", "ndjson", "--policy", policy, "-o", dir, fixtures); code != exitOK {
		t.Fatalf("export: exit %d\n%s", code, errOut)
	}
	out, errOut, code := ctxlab(t, "", nil, "replay", "--format", "json", "--policy", policy, fixtures)
	if code != exitOK {
		t.Fatalf("replay: exit %d\n%s", code, errOut)
	}
	var doc struct {
		Sessions []struct {
			Simulation struct {
				Policy  string           `json:"policy"`
				Session string           `json:"session"`
				Calls   []map[string]any `json:"calls"`
			} `json:"simulation"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	// The exported rows, by session, in call order.
	rows := map[string][]map[string]any{}
	files, _ := filepath.Glob(filepath.Join(dir, "simulated_calls", "*", "*", "*.ndjson"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var r map[string]any
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatal(err)
			}
			rows[r["session"].(string)] = append(rows[r["session"].(string)], r)
		}
	}
	compared := 0
	for _, s := range doc.Sessions {
		sim := s.Simulation
		got := rows[sim.Session]
		sort.Slice(got, func(i, j int) bool { return got[i]["call"].(float64) < got[j]["call"].(float64) })
		if len(got) != len(sim.Calls) {
			t.Fatalf("%s: %d rows, %d simulated calls", sim.Session, len(got), len(sim.Calls))
		}
		for i, c := range sim.Calls {
			if got[i]["policy"] != sim.Policy {
				t.Errorf("%s call %v: policy %v, want %s", sim.Session, c["call"], got[i]["policy"], sim.Policy)
			}
			for k, v := range c {
				switch k {
				case "time": // whole seconds in the report, milliseconds here
					if ts, ok := got[i]["time"].(string); !ok || ts[:19] != v.(string)[:19] {
						t.Errorf("%s call %v: time %v, want %v", sim.Session, c["call"], got[i]["time"], v)
					}
				case "predicted": // not a column
				default:
					if fmt.Sprint(got[i][k]) != fmt.Sprint(v) {
						t.Errorf("%s call %v: %s = %v, want %v", sim.Session, c["call"], k, got[i][k], v)
					}
				}
			}
			compared++
		}
	}
	if compared < 80 {
		t.Errorf("compared %d calls; the fixtures have more", compared)
	}
}
