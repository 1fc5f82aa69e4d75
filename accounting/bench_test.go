package accounting

import (
	"fmt"
	"testing"

	"github.com/ctxlab/ctxlab/internal/testcorpus"
	"github.com/ctxlab/ctxlab/internal/testcorpus/corpusload"
	"github.com/ctxlab/ctxlab/replay"
)

// genThread builds a thread of n calls directly: each call reads one of 50
// files (so re-reads are common) and gets its result; the cache read grows
// and falls back every 300 calls at a full compaction, and every 97th call
// drops its cache for a break.
func genThread(kind replay.ThreadKind, agentID string, n int) *replay.Thread {
	th := &replay.Thread{Kind: kind, AgentID: agentID}
	var read int64
	ms := int64(1_767_261_600_000) // 2026-01-01T10:00:00Z
	for i := 0; i < n; i++ {
		if i > 0 && i%300 == 0 {
			th.Compactions = append(th.Compactions, replay.Compaction{
				Kind: replay.CompactFull, Trigger: "auto", Line: len(th.Messages) + 1, Time: ms,
				Msg: len(th.Messages), CallsBefore: i, PreTokens: read, SummaryChars: 8000, SummaryEst: 2000,
			})
			th.Messages = append(th.Messages, replay.Message{Role: replay.RoleUser, Call: -1, CompactSummary: true,
				Blocks: []replay.Block{{Kind: replay.BlockText, Chars: 8000, Est: 2000}}})
			read = 0
		}
		ms += 20_000
		u := replay.Usage{Input: 3, CacheRead: read, CacheWrite5m: 1500, Output: 200}
		if i%97 == 96 {
			u.CacheRead, u.CacheWrite5m = 0, read
		}
		id := fmt.Sprintf("toolu_%s_%d", agentID, i)
		path := fmt.Sprintf("/src/file%02d.go", i%50)
		am := len(th.Messages)
		th.Calls = append(th.Calls, replay.Call{
			MessageID: fmt.Sprintf("msg_%s_%d", agentID, i), RequestID: fmt.Sprintf("req_%s_%d", agentID, i),
			Model: sonnet45, Version: "2.1.100", SessionID: "bench", Line: am + 1, Time: ms, Msg: am,
			Usage: u, HasUsage: true,
		})
		th.Messages = append(th.Messages, replay.Message{Role: replay.RoleAssistant, Time: ms, Call: i, Blocks: []replay.Block{
			{Kind: replay.BlockThinking, Chars: 400, Est: 100},
			{Kind: replay.BlockText, Chars: 200, Est: 50},
			{Kind: replay.BlockToolUse, ToolID: id, Name: "Read", Chars: 40, Est: 10},
		}})
		rm := len(th.Messages)
		th.Messages = append(th.Messages, replay.Message{Role: replay.RoleUser, Time: ms, Call: -1, Blocks: []replay.Block{
			{Kind: replay.BlockToolResult, ToolID: id, Chars: 6000, Est: 1500, Hash: uint64(i % 50)},
		}})
		th.Tools = append(th.Tools, replay.ToolCall{
			ID: id, Name: "Read", Input: replay.ToolInput{FilePath: path}, InputChars: 40, InputEst: 10,
			UseMsg: am, Call: i, HasResult: true, ResultMsg: rm, ResultChars: 6000, ResultEst: 1500, ResultHash: uint64(i % 50),
		})
		read += 1500
	}
	return th
}

// genSession is a main thread of 2,000 calls and four agents of 250.
func genSession() *replay.Session {
	s := &replay.Session{ID: "bench", SessionIDs: []string{"bench"}, Main: genThread(replay.KindMain, "", 2000)}
	for i := 0; i < 4; i++ {
		s.Agents = append(s.Agents, genThread(replay.KindAgent, fmt.Sprint("a", i), 250))
	}
	return s
}

func TestGenSession(t *testing.T) {
	r := Analyze(genSession(), DefaultConfig())
	// 2,000 + 4×250 = 3,000 calls; compactions after calls 300, 600, …,
	// 1,800 of the main thread: 6 (the agents stop at 250); each of the 50
	// files is read again: 50 rows.
	if r.Summary.Calls != 3000 || len(r.Compactions) != 6 || len(r.CacheBreaks) == 0 || len(r.Duplicates) != 50 {
		t.Errorf("calls %d, compactions %d, breaks %d, duplicates %d", r.Summary.Calls, len(r.Compactions), len(r.CacheBreaks), len(r.Duplicates))
	}
}

func BenchmarkAnalyze(b *testing.B) {
	b.Run("generated", func(b *testing.B) {
		s := genSession()
		cfg := DefaultConfig()
		b.ReportAllocs()
		for b.Loop() {
			Analyze(s, cfg)
		}
	})
	b.Run("realdata", func(b *testing.B) {
		sessions := corpusload.Sessions(b, testcorpus.Realdata)
		cfg := DefaultConfig()
		b.ReportAllocs()
		for b.Loop() {
			reports := make([]*Report, 0, len(sessions))
			for _, s := range sessions {
				reports = append(reports, Analyze(s, cfg))
			}
			Merge(reports, cfg.Prices)
		}
	})
}

// BenchmarkDedupe is the cross-session deduplication a corpus merge ends
// with, over a million calls in a thousand logs, one in ten a repeat of an
// earlier call (a resumed session's history).
func BenchmarkDedupe(b *testing.B) {
	var ls callLogs
	x := uint64(0x9e3779b97f4a7c15)
	next := func() uint64 { // splitmix64
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
	var keys []callKey
	for range 1000 {
		l := &callLog{recs: make([]callRecord, 1000)}
		for i := range l.recs {
			k := callKey{next(), next()}
			if len(keys) > 0 && next()%10 == 0 {
				k = keys[next()%uint64(len(keys))]
			}
			keys = append(keys, k)
			l.recs[i] = callRecord{key: k, usage: [5]uint32{uint32(next() % 1000)}, flags: keyed}
		}
		ls.add(l)
	}
	b.ReportAllocs()
	for b.Loop() {
		dedupe(ls)
	}
}
