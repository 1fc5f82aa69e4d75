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
// calls repeat across sessions) and of the real transcripts, and compares
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
				checkAnswers(t, format, run(t, dir, qs), want, perDay(t, paths))
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
	for _, name := range []string{"totals", "per-day", "tokens", "events"} {
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
