package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/ctxlab/ctxlab/internal/jsonscan"
	"github.com/ctxlab/ctxlab/internal/testcorpus"
	"github.com/ctxlab/ctxlab/replay/transcript"
)

// benchTranscript generates a transcript of about size bytes shaped like a
// 2.1.x session: per turn a user prompt, streamed assistant lines
// (thinking, text, tool_use) sharing a message id, a tool result holding
// source text (escapes, tabs, some non-ASCII), a progress line and the
// metadata lines. Tool results carry most of the bytes, as in real files.
func benchTranscript(size int) []byte {
	rng := rand.New(rand.NewPCG(7, 11))
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	emit := func(v any) {
		if err := enc.Encode(v); err != nil {
			panic(err)
		}
	}
	const sid = "4a5c6ea5-9101-4d5d-9310-2e808347c4c6"
	words := strings.Fields("func return if err != nil { } package main import fmt Println café naïve 😀 := for range ctx context \"quoted\" \\path\\to x <- chan")
	text := func(n int) string {
		var sb strings.Builder
		for sb.Len() < n {
			sb.WriteString(words[rng.IntN(len(words))])
			switch rng.IntN(8) {
			case 0:
				sb.WriteString("\n\t")
			case 1:
				sb.WriteString("\n")
			default:
				sb.WriteByte(' ')
			}
		}
		return sb.String()
	}
	env := func(typ, uuid, parent string, t int) map[string]any {
		return map[string]any{
			"parentUuid": parent, "isSidechain": false, "userType": "external", "cwd": "/home/dev/project",
			"sessionId": sid, "version": "2.1.146", "gitBranch": "main", "slug": "effervescent-popping-quokka",
			"type": typ, "uuid": uuid, "timestamp": fmt.Sprintf("2026-01-01T10:%02d:%02d.%03dZ", t/60%60, t%60, t%1000),
			"entrypoint": "cli",
		}
	}
	usage := func(out int) map[string]any {
		return map[string]any{
			"input_tokens": 3, "cache_creation_input_tokens": 900 + rng.IntN(5000), "cache_read_input_tokens": 20000 + rng.IntN(100000),
			"output_tokens": out, "service_tier": "standard", "inference_geo": "", "speed": "standard",
			"cache_creation":  map[string]any{"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 900},
			"server_tool_use": map[string]any{"web_search_requests": 0, "web_fetch_requests": 0},
		}
	}
	parent := ""
	for turn := 0; buf.Len() < size; turn++ {
		id := func(s string) string { return fmt.Sprintf("%s-%06d", s, turn) }
		u := env("user", id("u"), parent, turn)
		u["message"] = map[string]any{"role": "user", "content": text(80 + rng.IntN(400))}
		emit(u)
		msg := id("msg")
		blocks := []map[string]any{
			{"type": "thinking", "thinking": text(200 + rng.IntN(800)), "signature": strings.Repeat("Eq", 200)},
			{"type": "text", "text": text(50 + rng.IntN(300))},
			{"type": "tool_use", "id": id("toolu"), "name": "Read", "input": map[string]any{"file_path": "/home/dev/project/main.go", "offset": 1, "limit": 400}},
		}
		prev := id("u")
		for i, b := range blocks {
			a := env("assistant", fmt.Sprintf("%s-%d", id("a"), i), prev, turn)
			a["requestId"] = id("req")
			a["message"] = map[string]any{
				"id": msg, "type": "message", "role": "assistant", "model": "claude-opus-4-6",
				"content": []any{b}, "stop_reason": "tool_use", "stop_sequence": nil, "usage": usage(100 + i*50),
			}
			emit(a)
			prev = a["uuid"].(string)
		}
		p := env("progress", id("p"), prev, turn)
		p["data"] = map[string]any{"type": "hook_progress", "hookEvent": "PostToolUse", "hookName": "PostToolUse:Read", "command": "true"}
		p["toolUseID"] = id("toolu")
		emit(p)
		r := env("user", id("r"), prev, turn)
		out := text(2000 + rng.IntN(12000))
		r["message"] = map[string]any{"role": "user", "content": []any{map[string]any{"tool_use_id": id("toolu"), "type": "tool_result", "content": out}}}
		r["toolUseResult"] = map[string]any{"type": "text", "file": map[string]any{"filePath": "/home/dev/project/main.go", "content": out, "numLines": 400, "startLine": 1, "totalLines": 400}}
		r["sourceToolAssistantUUID"] = prev
		emit(r)
		emit(map[string]any{"type": "file-history-snapshot", "messageId": id("u"), "isSnapshotUpdate": false,
			"snapshot": map[string]any{"messageId": id("u"), "trackedFileBackups": map[string]any{}, "timestamp": "2026-01-01T10:00:00.000Z"}})
		emit(map[string]any{"type": "last-prompt", "lastPrompt": "continue", "sessionId": sid})
		parent = id("r")
	}
	return buf.Bytes()
}

func TestBenchTranscriptIsValid(t *testing.T) {
	data := benchTranscript(256 << 10)
	r := transcript.NewReader(bytes.NewReader(data), "bench")
	n := 0
	for r.Scan() {
		if se, ok := r.Result().(*SyntaxError); ok {
			t.Fatalf("generated line: %v", se)
		}
		n++
	}
	if want := bytes.Count(data, []byte("\n")); n != want {
		t.Fatalf("%d entries, want one per line: %d", n, want)
	}
	s, err := Load(Source{Path: "-"}, Options{Stdin: bytes.NewReader(data)})
	if err != nil || len(s.Main.Calls) == 0 || len(s.Main.Tools) != len(s.Main.Calls) || s.Main.OrphanResults != 0 {
		t.Fatalf("Load: %v (%d calls, %d tools)", err, len(s.Main.Calls), len(s.Main.Tools))
	}
}

var benchData []byte

func BenchmarkRead(b *testing.B) {
	if benchData == nil {
		benchData = benchTranscript(16 << 20)
	}
	b.SetBytes(int64(len(benchData)))
	b.ReportAllocs()
	for b.Loop() {
		r := transcript.NewReader(bytes.NewReader(benchData), "bench")
		n := 0
		for r.Scan() {
			n++
		}
		if n == 0 || r.Err() != nil {
			b.Fatal(n, r.Err())
		}
	}
}

// BenchmarkReadRealdata reads the genuine transcripts of realdata, held in
// memory, as Load does (one reused transcript.Entry): the parsing alone, on real
// strings, without the file system.
func BenchmarkReadRealdata(b *testing.B) {
	var data []byte
	for _, src := range realdataSources(b) {
		for _, p := range append([]string{src.Path}, src.Agents...) {
			f, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			data = append(data, f...)
		}
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r := transcript.NewReader(bytes.NewReader(data), "realdata")
		r.ReuseEntry = true
		n := 0
		for r.Scan() {
			n++
		}
		r.Close()
		if n == 0 || r.Err() != nil {
			b.Fatal(n, r.Err())
		}
	}
}

func BenchmarkLoad(b *testing.B) {
	if benchData == nil {
		benchData = benchTranscript(16 << 20)
	}
	b.SetBytes(int64(len(benchData)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(Source{Path: "-"}, Options{Stdin: bytes.NewReader(benchData)}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoadRealdata(b *testing.B) {
	srcs := realdataSources(b)
	var size int64
	for _, src := range srcs {
		for _, p := range append([]string{src.Path}, src.Agents...) {
			info, err := os.Stat(p)
			if err != nil {
				b.Fatal(err)
			}
			size += info.Size()
		}
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, src := range srcs {
			if _, err := Load(src, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkLoadCorpus loads every session of a generated corpus one after
// another on one goroutine: the reading and parsing that replay and compare
// spread over their workers. The corpus is CTXLAB_BENCH_MB megabytes
// (default 64) or the one in CTXLAB_BENCH_DIR (see testcorpus.Generated):
//
//	CTXLAB_BENCH_MB=420 go test -run XXX -bench LoadCorpus -benchtime 3x ./replay
func BenchmarkLoadCorpus(b *testing.B) {
	dir, size := testcorpus.Generated(b, 64)
	srcs, errs := Discover([]string{dir})
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		for _, src := range srcs {
			if _, err := Load(src, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkLayersCorpus takes BenchmarkLoadCorpus apart, layer by layer:
// the same files read on one goroutine, "lines" finding each line through
// the reader's buffer size and nothing more, "valid" also validating each
// line as encoding/json would (jsonscan.Valid: the least a reader that
// rejects what encoding/json rejects must do), "entries" the transcript
// reader turning every line into its Entry. Load adds the sessions built
// from the entries. docs/performance.md ("Sixteenth round") sets them
// side by side:
//
//	CTXLAB_BENCH_DIR=/tmp/c1g go test -run XXX -bench 'LayersCorpus|LoadCorpus' -benchtime 3x ./replay
func BenchmarkLayersCorpus(b *testing.B) {
	dir, size := testcorpus.Generated(b, 64)
	srcs, errs := Discover([]string{dir})
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	var paths []string
	for _, src := range srcs {
		paths = append(paths, src.Path)
		paths = append(paths, src.Agents...)
	}
	each := func(b *testing.B, read func(f *os.File) (lines, bad int)) {
		b.SetBytes(size)
		defer reportCPU(b, cpuTime())
		for b.Loop() {
			lines, bad := 0, 0
			for _, p := range paths {
				f, err := os.Open(p)
				if err != nil {
					b.Fatal(err)
				}
				n, nb := read(f)
				f.Close()
				lines, bad = lines+n, bad+nb
			}
			if lines == 0 || bad > lines/100 {
				b.Fatalf("%d lines, %d invalid", lines, bad)
			}
		}
	}
	br := bufio.NewReaderSize(nil, 1<<20)
	scanLines := func(f *os.File, valid bool) (lines, bad int) {
		br.Reset(f)
		for {
			line, err := br.ReadSlice('\n')
			if len(line) > 0 {
				lines++
				// The line is read in place, as the reader reads it.
				if valid && !jsonscan.Valid(unsafe.String(&line[0], len(line))) {
					bad++
				}
			}
			if err != nil && err != bufio.ErrBufferFull {
				return lines, bad
			}
		}
	}
	b.Run("lines", func(b *testing.B) {
		each(b, func(f *os.File) (int, int) { return scanLines(f, false) })
	})
	b.Run("valid", func(b *testing.B) {
		each(b, func(f *os.File) (int, int) { return scanLines(f, true) })
	})
	b.Run("entries", func(b *testing.B) {
		each(b, func(f *os.File) (lines, bad int) {
			r := transcript.NewReader(f, f.Name())
			r.ReuseEntry = true
			for r.Scan() {
				lines++
				if _, ok := r.Result().(*transcript.Entry); !ok {
					bad++
				}
			}
			r.Close()
			return lines, bad
		})
	})
}

// BenchmarkDiscover finds the sessions of a generated corpus: the walk,
// and the first lines of every 2.0.x agent file read to learn its session.
// It runs before any session is loaded, on one goroutine for the walk:
//
//	CTXLAB_BENCH_MB=420 go test -run XXX -bench Discover -benchtime 50x ./replay
func BenchmarkDiscover(b *testing.B) {
	dir, _ := testcorpus.Generated(b, 64)
	b.ReportAllocs()
	b.ResetTimer()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		if _, errs := Discover([]string{dir}); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}

// genuineSources returns the sessions of every set of genuine transcripts
// present (testcorpus.All), and their files' total size; it skips
// when there are none.
func genuineSources(tb testing.TB) ([]Source, int64) {
	tb.Helper()
	var srcs []Source
	var size int64
	for _, name := range testcorpus.All {
		dir, ok := testcorpus.Path(name)
		if !ok {
			continue
		}
		s, errs := Discover([]string{dir})
		if len(errs) > 0 {
			tb.Fatalf("Discover(%s): %v", dir, errs)
		}
		for _, src := range s {
			for _, p := range append([]string{src.Path}, src.Agents...) {
				info, err := os.Stat(p)
				if err != nil {
					tb.Fatal(err)
				}
				size += info.Size()
			}
		}
		srcs = append(srcs, s...)
	}
	if len(srcs) == 0 {
		tb.Skip("no genuine transcripts beside the repository")
	}
	return srcs, size
}

// BenchmarkReadGenuine is BenchmarkReadRealdata over every set of genuine
// transcripts present (about 120 MB): the parser alone, in memory.
func BenchmarkReadGenuine(b *testing.B) {
	srcs, _ := genuineSources(b)
	var data []byte
	for _, src := range srcs {
		for _, p := range append([]string{src.Path}, src.Agents...) {
			f, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			data = append(data, f...)
		}
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		r := transcript.NewReader(bytes.NewReader(data), "genuine")
		r.ReuseEntry = true
		n := 0
		for r.Scan() {
			n++
		}
		r.Close()
		if n == 0 || r.Err() != nil {
			b.Fatal(n, r.Err())
		}
	}
}

// BenchmarkLoadGenuine loads every session of every set of genuine
// transcripts present, one after another on one goroutine, from the files.
func BenchmarkLoadGenuine(b *testing.B) {
	srcs, size := genuineSources(b)
	b.SetBytes(size)
	b.ReportAllocs()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		for _, src := range srcs {
			if _, err := Load(src, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// reportCPU reports the processor time the process used per iteration
// since start (cpu-ms/op), garbage collection included: on a machine
// shared with other jobs, time spent waiting for a processor inflates
// ns/op but not this.
func reportCPU(b *testing.B, start time.Duration) {
	if used := cpuTime() - start; start > 0 && b.N > 0 {
		b.ReportMetric(float64(used)/float64(b.N)/1e6, "cpu-ms/op")
	}
}
