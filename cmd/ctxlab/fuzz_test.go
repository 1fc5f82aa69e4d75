package main

import (
	"encoding/json"
	"hash/crc32"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// FuzzCommands runs replay, compare, sweep and gate on any transcript
// read from standard input: they never panic, exit 0, or 1 when nothing
// in the input is usable (or, for gate, a limit is broken), print JSON
// alone, and one of them, picked by the input, prints the same output
// twice. Each input stays cheap, a few runs of a few milliseconds: compare
// runs two policies without the fidelity report, sweep two points, and
// the statistics run without the bootstrap's resamples. What moved out is
// fuzzed on its own, where an input may cost more: every policy, the
// fidelity report and the bootstrap over the commands' runs (FuzzCompare),
// export's files (FuzzExport), and the statistics on any values
// (FuzzCompareAll and FuzzWilcoxon, in simulate/paired). The seeds are the
// start of each fixture and transcripts that reach the rules a session
// rarely does: a summary before the first call, thinking turns on 1.0.x
// and 2.0.x, a model switched within a turn, a micro-compaction, a
// compatible endpoint and a synthetic response.
//
// Each new input covers new code, and by default the fuzzer spends a
// minute minimising each; -fuzzminimizetime keeps it fuzzing:
//
//	go test -run XXX -fuzz FuzzCommands -fuzztime 10m -fuzzminimizetime 5x ./cmd/ctxlab
func FuzzCommands(f *testing.F) {
	addSeeds(f)
	defer tunedGC()()
	f.Fuzz(func(t *testing.T, in string) { fuzzCommands(t, in) })
}

// fuzzCommands is FuzzCommands' check of one input.
func fuzzCommands(t testing.TB, in string) {
	commands := [][]string{
		{"replay", "--format", "json", "-"},
		{"compare", "--bootstrap", "0", "--format", "json", "--policy", "observed,claude-code", "-"},
		{"sweep", "--policy", "claude-code", "--vary", "pct=60,90", "--bootstrap", "0", "--format", "json", "-"},
		{"gate", "--budget", "../../docs/examples/budget.json", "--format", "json", "-"}, // exit 1: a limit broken
	}
	// Each command's output is checked twice over the inputs, one command
	// an input, picked by the input: a second run of all four doubled an
	// input's cost.
	again := int(crc32.ChecksumIEEE([]byte(in)) % uint32(len(commands)))
	for i, args := range commands {
		out := runFuzzed(t, in, args)
		if i == again && runFuzzed(t, in, args) != out {
			t.Fatalf("%s: two runs differ", args[0])
		}
	}
}

// FuzzCompare runs compare with every policy, the fidelity report, the
// calls and a bootstrap of 50 resamples on any transcript read from
// standard input, twice: it never panics, exits 0, or 1 when nothing in
// the input is usable, prints JSON alone, and prints the same output both
// times. It is what FuzzCommands leaves out to stay cheap, at about one
// and a half times its cost an input. The seeds are FuzzCommands'.
//
//	go test -run XXX -fuzz FuzzCompare -fuzztime 10m -fuzzminimizetime 5x ./cmd/ctxlab
func FuzzCompare(f *testing.F) {
	addSeeds(f)
	defer tunedGC()()
	f.Fuzz(func(t *testing.T, in string) { fuzzCompare(t, in) })
}

// fuzzCompare is FuzzCompare's check of one input.
func fuzzCompare(t testing.TB, in string) {
	args := []string{"compare", "--fidelity", "--calls", "--bootstrap", "50", "--format", "json", "--policy", allPolicies(), "-"}
	if out := runFuzzed(t, in, args); runFuzzed(t, in, args) != out {
		t.Fatal("compare: two runs differ")
	}
}

// BenchmarkFuzzInput is the processor time of one input of FuzzCommands
// and of FuzzCompare (cpu-ms/op), over their seeds in turn, with the
// collector set as under the fuzzer (tunedGC). The fuzzer adds its
// coverage counters and its own work to this; docs/performance.md ("The
// fuzz targets") has both figures.
//
//	go test -run XXX -bench FuzzInput ./cmd/ctxlab
func BenchmarkFuzzInput(b *testing.B) {
	defer tunedGC()()
	in := seeds(b)
	for _, c := range []struct {
		name  string
		check func(testing.TB, string)
	}{{"Commands", fuzzCommands}, {"Compare", fuzzCompare}} {
		b.Run(c.name, func(b *testing.B) {
			start, i := cpuTime(), 0
			for b.Loop() {
				c.check(b, in[i%len(in)])
				i++
			}
			reportCPU(b, cpuTime()-start)
		})
	}
}

// tunedGC sets GOGC to 400, as the binary does (batch.TuneGC), until
// the returned function restores it: a command keeps little of what it
// allocates, and at the test's default of 100 the collector took a
// quarter of an input's CPU (about 4.9 s against 3.8 s for 600 inputs of
// FuzzCommands). The binary's memory limit is left off: under the fuzzer
// it more than halved the executions a second.
func tunedGC() (restore func()) {
	gc := debug.SetGCPercent(400)
	return func() { debug.SetGCPercent(gc) }
}

// runFuzzed runs a command on in and returns its output, failing unless
// it exits 0 or 1 (exitInput) and its output is empty or one JSON value.
func runFuzzed(t testing.TB, in string, args []string) string {
	t.Helper()
	out, errOut, code := ctxlab(t, in, nil, args...)
	if code != exitOK && code != exitInput {
		t.Fatalf("%s: exit %d: %s", args[0], code, errOut)
	}
	if out != "" && !json.Valid([]byte(out)) {
		t.Fatalf("%s: exit %d: output is not one JSON value:\n%.500s", args[0], code, out)
	}
	return out
}

// FuzzExport runs export on any transcript read from standard input: it
// never panics, exits 0, or 1 when nothing in the input is usable, and
// two runs write the same files. The seeds are FuzzCommands'.
//
//	go test -run XXX -fuzz FuzzExport -fuzztime 10m -fuzzminimizetime 5x ./cmd/ctxlab
func FuzzExport(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, in string) {
		var files [2]map[string]string
		for i := range files {
			dir := t.TempDir()
			if _, errOut, code := ctxlab(t, in, nil, "export", "--out", dir, "--policy", "claude-code", "-"); code != 0 && code != exitInput {
				t.Fatalf("export: exit %d: %s", code, errOut)
			}
			files[i] = readDir(t, dir)
		}
		if !maps.Equal(files[0], files[1]) {
			t.Fatal("export: two runs wrote different files")
		}
	})
}

// addSeeds adds the fuzz targets' seeds.
func addSeeds(f *testing.F) {
	for _, in := range seeds(f) {
		f.Add(in)
	}
}

// seeds are the fuzz targets' seeds: the start of each fixture, and
// transcripts that reach the rules a session rarely does.
func seeds(f testing.TB) []string {
	var out []string
	add := func(in string) { out = append(out, in) }
	files, err := filepath.Glob(filepath.Join(fixtures, "*", "*.jsonl"))
	if err != nil || len(files) == 0 {
		f.Fatalf("fixtures: %v %v", files, err)
	}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		lines := strings.SplitAfter(string(data), "\n")
		add(strings.Join(lines[:min(len(lines), 40)], ""))
	}
	user := func(v, text string) string {
		return `{"type":"user","version":"` + v + `","cwd":"/w","sessionId":"s","timestamp":"2025-08-06T16:45:18.724Z","message":{"role":"user","content":"` + text + `"}}` + "\n"
	}
	call := func(v, id, model, ts string, read, write int, blocks string) string {
		return `{"type":"assistant","version":"` + v + `","cwd":"/w","sessionId":"s","requestId":"r` + id + `","timestamp":"` + ts + `","message":{"id":"m` + id + `","role":"assistant","model":"` + model +
			`","content":[` + blocks + `],"usage":{"input_tokens":3,"cache_read_input_tokens":` + strconv.Itoa(read) + `,"cache_creation_input_tokens":` + strconv.Itoa(write) + `,"output_tokens":9}}}` + "\n"
	}
	const think = `{"type":"thinking","thinking":"t","signature":"s"},{"type":"text","text":"x"}`
	const text = `{"type":"text","text":"x"}`
	add(`{"type":"user","isCompactSummary":true,"parentUuid":null,"message":{"role":"user","content":"summary"}}` + "\n" +
		user("1.0.81", "go on") + call("1.0.81", "1", "claude-sonnet-4-20250514", "2025-08-06T16:46:00Z", 15000, 2000, text) +
		user("1.0.81", "think harder") + call("1.0.81", "2", "claude-sonnet-4-20250514", "2025-08-06T16:47:00Z", 0, 18000, think))
	add(user("2.0.76", "a") + call("2.0.76", "1", "claude-sonnet-4-5-20250929", "2025-08-06T16:46:00Z", 0, 20000, think) +
		user("2.0.76", "b") + call("2.0.76", "2", "claude-sonnet-4-5-20250929", "2025-08-06T16:47:00Z", 14000, 7000, think) +
		user("2.0.76", "c") + call("2.0.76", "3", "claude-sonnet-4-5-20250929", "2025-08-06T16:48:00Z", 14000, 8000, text))
	add(user("1.0.89", "a") + call("1.0.89", "1", "claude-opus-4-1-20250805", "2025-08-06T16:46:00Z", 11000, 16000, text) +
		`{"type":"system","content":"Claude Opus limit reached, now using Sonnet 4","timestamp":"2025-08-06T16:46:01Z"}` + "\n" +
		call("1.0.89", "2", "claude-sonnet-4-20250514", "2025-08-06T16:46:30Z", 0, 27000, text) +
		user("1.0.89", "b") + call("1.0.89", "3", "claude-sonnet-4-20250514", "2025-08-06T16:47:00Z", 11000, 17000, text))
	add(user("2.1.41", "a") + call("2.1.41", "1", "claude-sonnet-4-5-20250929", "2025-08-06T16:46:00Z", 0, 30000, think) +
		`{"type":"system","subtype":"microcompact_boundary","content":"Context microcompacted","microcompactMetadata":{"trigger":"auto","preTokens":30000,"tokensSaved":2000}}` + "\n" +
		user("2.1.41", "b") + call("2.1.41", "2", "claude-sonnet-4-5-20250929", "2025-08-06T16:47:00Z", 18000, 10000, think))
	add(user("2.1.120", "a") + call("2.1.120", "1", "deepseek-v4-flash", "2025-08-06T16:46:00Z", 0, 0, text) +
		call("2.1.120", "2", "<synthetic>", "2025-08-06T16:46:01Z", 0, 0, text) +
		user("2.1.120", "b") + call("2.1.120", "3", "deepseek-v4-flash", "2025-08-06T16:47:00Z", 23872, 0, text))
	return out
}

// readDir returns the files under dir by their path in it.
func readDir(t *testing.T, dir string) map[string]string {
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		files[strings.TrimPrefix(path, dir)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
