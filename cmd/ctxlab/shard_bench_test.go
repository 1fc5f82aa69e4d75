package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/ctxlab/ctxlab/internal/batch"
	"github.com/ctxlab/ctxlab/report"
)

// BenchmarkShardCPU runs `replay --format json` over a generated corpus
// (CTXLAB_BENCH_DIR, or CTXLAB_BENCH_MB megabytes, 64 by default) once
// whole and then as N shards, each writing its part, one after the
// other, and reports the processor time of both and their ratio
// (shards-cpu/one-cpu; the bar is 1.1): what a sharded run costs beyond
// one run, each shard finding every file and hashing every session's
// identity before it reads its own. The merge is BenchmarkMerge's.
//
//	CTXLAB_BENCH_DIR=/tmp/c1g go test -run XXX -bench ShardCPU -benchtime 3x ./cmd/ctxlab
func BenchmarkShardCPU(b *testing.B) {
	dir := benchCorpus(b, 64)
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	batch.TuneGC(func(string) string { return "" })
	benchShards(b, func(b *testing.B, args []string) time.Duration {
		c0 := cpuTime()
		runOnce(b, append([]string{"replay", "--format", string(report.JSON)}, args...))
		return cpuTime() - c0
	}, dir)
}

// BenchmarkShardProcesses is BenchmarkShardCPU with every run a process
// of its own, as a batch system starts them: ctxlab is built once (as go
// build builds it, with its profile), then run whole and as N shards,
// each writing to a file, and the processor time is the children's, so
// each shard's start, initialisation and heap of its own count.
//
//	CTXLAB_BENCH_DIR=/tmp/c1g go test -run XXX -bench ShardProcesses -benchtime 3x ./cmd/ctxlab
func BenchmarkShardProcesses(b *testing.B) {
	dir := benchCorpus(b, 64)
	tmp := b.TempDir()
	bin := filepath.Join(tmp, "ctxlab")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	benchShards(b, func(b *testing.B, args []string) time.Duration {
		f, err := os.Create(filepath.Join(tmp, "out.json"))
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		cmd := exec.Command(bin, append([]string{"replay", "--format", string(report.JSON)}, args...)...)
		cmd.Stdout = f
		if err := cmd.Run(); err != nil {
			b.Fatalf("%s: %v", cmd, err)
		}
		return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}, dir)
}

// benchShards times one run over dir and then its N shards, one after the
// other, for N = 4 and 16; runCPU runs `replay --format json` with args
// for the (sub-)benchmark b and returns the processor time it took. It
// reports both and their ratio (shards/one; the bar is 1.1).
func benchShards(b *testing.B, runCPU func(b *testing.B, args []string) time.Duration, dir string) {
	for _, n := range []int{4, 16} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			var one, shards time.Duration
			for b.Loop() {
				one += runCPU(b, []string{dir})
				for k := 1; k <= n; k++ {
					shards += runCPU(b, []string{"--shard", fmt.Sprintf("%d/%d", k, n), dir})
				}
			}
			b.ReportMetric(float64(one)/float64(b.N)/1e6, "one-cpu-ms/op")
			b.ReportMetric(float64(shards)/float64(b.N)/1e6, "shards-cpu-ms/op")
			b.ReportMetric(float64(shards)/float64(one), "shards/one")
		})
	}
}

// BenchmarkEmptyShard runs `replay --format json --shard 1/1000` over a
// generated corpus: a shard that keeps no session (or very few), so its
// cost is what every shard pays beyond its sessions, finding the input
// and writing its part.
//
//	CTXLAB_BENCH_DIR=/tmp/c1g go test -run XXX -bench EmptyShard -benchtime 20x ./cmd/ctxlab
func BenchmarkEmptyShard(b *testing.B) {
	dir := benchCorpus(b, 64)
	benchCommand(b, []string{"replay", "--format", string(report.JSON), "--shard", "1/1000", dir})
}

// BenchmarkMerge merges the 100 parts of `replay --format json --shard
// K/100` over a generated corpus (as BenchmarkShardCPU's), written once
// before the timer starts; the bar is 2 s an operation. Bytes are the
// parts'.
//
//	CTXLAB_BENCH_DIR=/tmp/c1g go test -run XXX -bench Merge -benchtime 3x ./cmd/ctxlab
func BenchmarkMerge(b *testing.B) {
	dir := benchCorpus(b, 64)
	out := b.TempDir()
	const n = 100
	args := []string{"merge"}
	var size int64
	for k := 1; k <= n; k++ {
		var part strings.Builder
		code := run([]string{"replay", "--format", string(report.JSON), "--shard", fmt.Sprintf("%d/%d", k, n), dir}, env{
			stdin: strings.NewReader(""), stdout: &part, stderr: io.Discard,
			getenv: func(string) string { return "" }, home: os.UserHomeDir,
		})
		if code != exitOK {
			b.Fatalf("shard %d/%d: exit %d", k, n, code)
		}
		path := filepath.Join(out, fmt.Sprintf("part-%d.json", k))
		if err := os.WriteFile(path, []byte(part.String()), 0o644); err != nil {
			b.Fatal(err)
		}
		args = append(args, path)
		size += int64(part.Len())
	}
	b.SetBytes(size)
	b.ResetTimer()
	benchLoop(b, args)
}

// BenchmarkSweepPointCorpus is one point of a sweep (claude-code at one
// threshold, against the recorded run) over a generated corpus: with
// BenchmarkReplayJSONCorpus and BenchmarkCompareCorpus, the throughput
// per core docs/scale.md sizes a sharded run with.
//
//	CTXLAB_BENCH_DIR=/tmp/c1g go test -run XXX -bench SweepPointCorpus -benchtime 3x ./cmd/ctxlab
func BenchmarkSweepPointCorpus(b *testing.B) {
	dir := benchCorpus(b, 64)
	benchCommand(b, []string{"sweep", "--format", string(report.JSON), "--policy", "claude-code", "--vary", "pct=80", dir})
}
