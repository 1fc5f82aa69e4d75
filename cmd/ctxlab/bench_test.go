package main

import (
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/ctxlab/ctxlab/internal/batch"
	"github.com/ctxlab/ctxlab/internal/testcorpus"
)

// BenchmarkReplayCorpus runs the whole `replay` command (discovery, parallel
// load and analysis, merge, table output) over a generated corpus. The
// corpus is CTXLAB_BENCH_MB megabytes (default 64); the target,
// 400 MB in under a second, is
//
//	CTXLAB_BENCH_MB=400 go test -run XXX -bench ReplayCorpus -benchtime 5x ./cmd/ctxlab
func BenchmarkReplayCorpus(b *testing.B) {
	benchReplayCorpus(b)
}

// BenchmarkReplayPlotCorpus is BenchmarkReplayCorpus with --plot: every
// session's context, cost, cache, tokens and duplicates plots, as PNG.
//
//	CTXLAB_BENCH_MB=400 go test -run XXX -bench ReplayPlotCorpus -benchtime 1x ./cmd/ctxlab
func BenchmarkReplayPlotCorpus(b *testing.B) {
	benchReplayCorpus(b, "--plot", b.TempDir())
}

func benchReplayCorpus(b *testing.B, flags ...string) {
	dir := benchCorpus(b, 64)
	args := append([]string{"replay", "--sessions=false"}, flags...)
	benchLoop(b, append(args, dir))
}

// BenchmarkReplayJSONCorpus is the full `replay --format json` report
// (every session and the total) over a generated corpus, the command timed
// against ccusage in docs/performance.md:
//
//	CTXLAB_BENCH_MB=420 go test -run XXX -bench ReplayJSONCorpus -benchtime 5x ./cmd/ctxlab
func BenchmarkReplayJSONCorpus(b *testing.B) {
	dir := benchCorpus(b, 64)
	benchCommand(b, []string{"replay", "--format", "json", dir})
}

// BenchmarkCompareCorpus is `compare --format json` with every built-in
// policy over a generated corpus:
//
//	CTXLAB_BENCH_MB=420 go test -run XXX -bench CompareCorpus -benchtime 5x ./cmd/ctxlab
func BenchmarkCompareCorpus(b *testing.B) {
	dir := benchCorpus(b, 64)
	benchCommand(b, []string{"compare", "--format", "json", "--policy", allPolicies(), dir})
}

// benchCommand is benchLoop under the binary's GC tuning (batch.TuneGC), with
// the process's peak resident memory as peak-RSS-MB: with CTXLAB_BENCH_DIR
// set the process does nothing else, so that is the command's peak (run
// one benchmark per process: the figure never goes down).
func benchCommand(b *testing.B, args []string) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	batch.TuneGC(func(string) string { return "" })
	benchLoop(b, args)
	if rss := peakRSS(); rss > 0 {
		b.ReportMetric(float64(rss)/(1<<20), "peak-RSS-MB")
	}
}

// benchCorpus returns a generated corpus for a benchmark (see
// testcorpus.Generated: CTXLAB_BENCH_MB megabytes, mb by default, or the
// corpus in CTXLAB_BENCH_DIR), sets its bytes and resets its timer.
func benchCorpus(b *testing.B, mb int) string {
	dir, size := testcorpus.Generated(b, mb)
	b.SetBytes(size)
	b.ResetTimer()
	return dir
}

// BenchmarkCompareRealdata runs `compare` with every registered policy and
// the fidelity table over the real transcripts (skipped when absent). The
// issue's target is under 2 seconds on 2 cores:
//
//	go test -run XXX -bench CompareRealdata -benchtime 10x ./cmd/ctxlab
func BenchmarkCompareRealdata(b *testing.B) {
	realdata := testcorpus.Dir(b, testcorpus.Realdata)
	args := []string{"compare", "--fidelity", "--policy", allPolicies(), realdata}
	benchLoop(b, args)
}

// BenchmarkCompareVsReplay times `compare` with every built-in policy
// against `replay` on the same input, both whole commands, and reports
// their ratio (compare/replay; the bar is 2): on the real transcripts when
// present, and on a generated corpus of CTXLAB_BENCH_MB megabytes
// (default 16).
//
//	go test -run XXX -bench CompareVsReplay -benchtime 10x ./cmd/ctxlab
func BenchmarkCompareVsReplay(b *testing.B) {
	corpus := benchCorpus(b, 16)
	inputs := map[string]string{"synthetic": corpus}
	if dir, ok := testcorpus.Path(testcorpus.Realdata); ok {
		inputs["realdata"] = dir
	}
	for _, name := range []string{"realdata", "synthetic"} {
		dir, ok := inputs[name]
		if !ok {
			continue
		}
		b.Run(name, func(b *testing.B) {
			alternate(b, "replay", []string{"replay", "--sessions=false", dir},
				"compare", []string{"compare", "--sessions=false", "--policy", allPolicies(), dir})
		})
	}
}

// BenchmarkCompareStats times `compare --format json` with every built-in
// policy with its default statistics (54 comparisons, 10,000 resamples)
// and without them (--bootstrap 0 on one metric), alternately on the same
// input, and reports what the statistics add (stats/plain; the bar is
// 1.10):
//
//	CTXLAB_BENCH_MB=420 go test -run XXX -bench CompareStats -benchtime 5x ./cmd/ctxlab
func BenchmarkCompareStats(b *testing.B) {
	dir := benchCorpus(b, 64)
	alternate(b, "plain", []string{"compare", "--format", "json", "--policy", allPolicies(), "--stats", "total_cost_usd", "--bootstrap", "0", dir},
		"stats", []string{"compare", "--format", "json", "--policy", allPolicies(), dir})
}

// alternate runs the commands base and other in turn on every iteration
// and reports each one's milliseconds an iteration and other/base.
func alternate(b *testing.B, baseName string, base []string, otherName string, other []string) {
	var tb, to time.Duration
	for b.Loop() {
		t0 := time.Now()
		runOnce(b, base)
		t1 := time.Now()
		runOnce(b, other)
		tb, to = tb+t1.Sub(t0), to+time.Since(t1)
	}
	b.ReportMetric(float64(tb.Milliseconds())/float64(b.N), baseName+"-ms/op")
	b.ReportMetric(float64(to.Milliseconds())/float64(b.N), otherName+"-ms/op")
	b.ReportMetric(float64(to)/float64(tb), otherName+"/"+baseName)
}

// BenchmarkComparePlotRealdata is `compare --plot` over the real
// transcripts (skipped when absent): three policies, every session's
// context, cost and cache plots and the cost by policy, as PNG.
//
//	go test -run XXX -bench ComparePlotRealdata -benchtime 5x ./cmd/ctxlab
func BenchmarkComparePlotRealdata(b *testing.B) {
	realdata := testcorpus.Dir(b, testcorpus.Realdata)
	dir := b.TempDir()
	args := []string{"compare", "--policy", "observed,claude-code,keep-last-n", "--plot", dir, realdata}
	benchLoop(b, args)
}

// BenchmarkPlotReport is `ctxlab plot` on the saved `compare --calls`
// report of the real transcripts (skipped when absent): reading the JSON
// one session at a time and drawing the same plots as the benchmark above.
// Bytes are the report's.
//
//	go test -run XXX -bench PlotReport -benchtime 5x ./cmd/ctxlab
func BenchmarkPlotReport(b *testing.B) {
	realdata := testcorpus.Dir(b, testcorpus.Realdata)
	var rep strings.Builder
	code := run([]string{"compare", "--calls", "--format", "json", "--policy", "observed,claude-code,keep-last-n", realdata}, env{
		stdin: strings.NewReader(""), stdout: &rep, stderr: io.Discard,
		getenv: func(string) string { return "" }, home: os.UserHomeDir,
	})
	if code != exitOK {
		b.Fatalf("compare: exit %d", code)
	}
	path := filepath.Join(b.TempDir(), "c.json")
	if err := os.WriteFile(path, []byte(rep.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(rep.Len()))
	dir := b.TempDir()
	benchLoop(b, []string{"plot", path, "-o", dir})
}

// BenchmarkExportCorpus runs `export` (Parquet) over a generated corpus of
// CTXLAB_BENCH_MB megabytes (default 64) and reports, besides MB/s, the
// peak of the memory the Go runtime held (sampled every 10 ms): the figures
// of docs/export.md come from
//
//	CTXLAB_BENCH_MB=400 go test -run XXX -bench ExportCorpus -benchtime 3x ./cmd/ctxlab
func BenchmarkExportCorpus(b *testing.B) {
	for _, format := range []string{"parquet", "ndjson"} {
		b.Run(format, func(b *testing.B) {
			out := filepath.Join(b.TempDir(), "export")
			dir := benchCorpus(b, 64)
			stop := samplePeak()
			benchLoop(b, []string{"export", "--format", format, "--out", out, dir})
			b.ReportMetric(float64(stop())/(1<<20), "peak-MB")
		})
	}
}

// samplePeak samples the memory the Go runtime holds from the OS (heap,
// stacks and runtime structures, less what it released) until the
// returned function is called, which returns the largest sample.
func samplePeak() func() uint64 {
	done := make(chan struct{})
	result := make(chan uint64)
	go func() {
		var peak uint64
		var m runtime.MemStats
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&m)
			peak = max(peak, m.Sys-m.HeapReleased)
			select {
			case <-done:
				result <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		return <-result
	}
}

// benchLoop runs the command args once per benchmark iteration, output
// discarded.
func benchLoop(b *testing.B, args []string) {
	start := cpuTime()
	for b.Loop() {
		runOnce(b, args)
	}
	reportCPU(b, cpuTime()-start)
}

// reportCPU reports the processor time the process used per iteration
// (cpu-ms/op): on a machine shared with other jobs, time spent waiting for
// a processor inflates ns/op but not this.
func reportCPU(b *testing.B, used time.Duration) {
	if used > 0 {
		b.ReportMetric(float64(used)/float64(b.N)/1e6, "cpu-ms/op")
	}
}

// runOnce runs the command args, output discarded.
func runOnce(b *testing.B, args []string) {
	var errb strings.Builder
	code := run(args, env{
		stdin: strings.NewReader(""), stdout: io.Discard, stderr: &errb,
		getenv: func(string) string { return "" }, home: os.UserHomeDir,
	})
	if code != exitOK {
		b.Fatalf("exit %d: %s", code, errb.String())
	}
}
