package simulate

import (
	"reflect"
	"testing"
	"time"

	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/replay"
)

// edgeTraceText is a message of one text block (a typed prompt when it is
// the user's).
func edgeTraceText(role replay.Role, est int, text string) replay.Message {
	return replay.Message{Role: role, Call: -1, Blocks: []replay.Block{{Kind: replay.BlockText, Est: est, Text: text}}}
}

// edgeTraceThinking is a response with a thinking block before its text.
func edgeTraceThinking(est int) replay.Message {
	return replay.Message{Role: replay.RoleAssistant, Call: -1, Blocks: []replay.Block{
		{Kind: replay.BlockThinking, Est: est}, {Kind: replay.BlockText, Est: est},
	}}
}

// edgeTraceCall is a sent call with usage: its response is message msg,
// its prompt 10 uncached tokens and a cache write.
func edgeTraceCall(msg int, prompt int64, t int64) replay.Call {
	return replay.Call{Msg: msg, Model: sonnet46, Version: "2.1.146", Time: t, Clock: t, HasUsage: true,
		Usage: replay.Usage{Input: 10, CacheWrite5m: prompt - 10, Output: 50}}
}

// edgeTraceFacts is what a test checks of a prepared call.
type edgeTraceFacts struct {
	Index           int
	Time, Ahead     int64
	Thought         bool
	Restarted       bool
	ArtifactByItems []bool
}

// Prepare carries each call's facts over from the thread: its clock (the
// timestamp moved forward by tool run times) and by how much it moved
// (Ahead), whether its response thought, and whether a new Claude Code
// process sent it. The first traced call takes a restart of any call up to
// it: a resumed conversation's copied call (a duplicate, not traced)
// followed by the new process's first call still starts from a restarted
// process, so the cached prefix is lost there. A response that is the
// thread's very first message (a transcript cut at its start) still counts
// its thinking.
func TestEdgeTracePrepareCallFacts(t *testing.T) {
	for _, c := range []struct {
		name string
		th   *replay.Thread
		want []edgeTraceFacts
	}{
		{
			name: "resumed, with a clock moved forward",
			th: func() *replay.Thread {
				th := &replay.Thread{
					Messages: []replay.Message{
						edgeTraceText(replay.RoleUser, 10, "first"),
						edgeTraceText(replay.RoleAssistant, 5, ""), // call 0: copied line
						edgeTraceText(replay.RoleUser, 20, "second"),
						edgeTraceThinking(4), // call 1: the new process's first call
						edgeTraceText(replay.RoleUser, 6, "third"),
						edgeTraceText(replay.RoleAssistant, 7, ""), // call 2
					},
					Calls: []replay.Call{
						edgeTraceCall(1, 1100, at(0)),
						edgeTraceCall(3, 1150, at(10)),
						edgeTraceCall(5, 1170, at(11)),
					},
				}
				th.Calls[0].Duplicate = true
				th.Calls[1].Restart = true
				// The tools ran 45 s longer than the timestamps show.
				th.Calls[1].Clock += 45_000
				return th
			}(),
			// Call 1: Time is the clock, at(10) + 45 s, Ahead the 45 s;
			// thinking; restarted. Call 2: nothing moved, no thinking, and
			// the restart was before the previous traced call.
			want: []edgeTraceFacts{
				{Index: 1, Time: at(10) + 45_000, Ahead: 45_000, Thought: true, Restarted: true},
				{Index: 2, Time: at(11), Ahead: 0},
			},
		},
		{
			name: "response first in the thread",
			th: &replay.Thread{
				Messages: []replay.Message{
					edgeTraceThinking(30), // call 0
					edgeTraceText(replay.RoleUser, 20, "next"),
					edgeTraceText(replay.RoleAssistant, 5, ""), // call 1
				},
				Calls: []replay.Call{edgeTraceCall(0, 1100, at(0)), edgeTraceCall(2, 1200, at(1))},
			},
			want: []edgeTraceFacts{
				{Index: 0, Time: at(0), Thought: true},
				{Index: 1, Time: at(1)},
			},
		},
	} {
		tr := Prepare(&replay.Session{ID: "e", Main: c.th})
		var got []edgeTraceFacts
		for _, tc := range tr.Calls {
			got = append(got, edgeTraceFacts{Index: tc.Index, Time: tc.Time, Ahead: tc.Ahead, Thought: tc.Thought, Restarted: tc.Restarted})
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.want)
		}
	}
}

// Of what a call appends across a real full compaction, only what Claude
// Code wrote because it compacted is an artifact (which counterfactual
// runs drop): the summary and the attachments from the summary on (the
// files it re-attached). An attachment that came before the compaction, a
// hook's output after the previous response, belongs to the conversation,
// as do the previous response and the prompt typed after the summary.
func TestEdgeTraceArtifactsFromTheBoundary(t *testing.T) {
	summary := edgeTraceText(replay.RoleUser, 300, "summary")
	summary.CompactSummary = true
	th := &replay.Thread{
		Messages: []replay.Message{
			edgeTraceText(replay.RoleUser, 10, "start"),
			edgeTraceText(replay.RoleAssistant, 5, ""), // call 0
			{Role: replay.RoleAttachment, Call: -1, AttachmentEst: 30},
			summary, // the compaction's first message
			{Role: replay.RoleAttachment, Call: -1, AttachmentEst: 40},
			edgeTraceText(replay.RoleUser, 6, "go on"),
			edgeTraceText(replay.RoleAssistant, 7, ""), // call 1
		},
		Calls:       []replay.Call{edgeTraceCall(1, 1100, at(0)), edgeTraceCall(6, 1400, at(1))},
		Compactions: []replay.Compaction{{Kind: replay.CompactFull, Trigger: "manual", Msg: 3, CallsBefore: 1}},
	}
	tr := Prepare(&replay.Session{ID: "e", Main: th})
	if len(tr.Calls) != 2 || tr.Calls[1].RealCompact == nil {
		t.Fatalf("calls %+v, want two, the second after the compaction", tr.Calls)
	}
	var kinds []ItemKind
	var artifact []bool
	for _, it := range tr.Calls[1].Items {
		kinds = append(kinds, it.Kind)
		artifact = append(artifact, it.Artifact)
	}
	// Response, attachment before, summary, attachment after, prompt.
	if want := []ItemKind{KindAssistant, KindAttachment, KindSummary, KindAttachment, KindUser}; !reflect.DeepEqual(kinds, want) {
		t.Fatalf("kinds %v, want %v", kinds, want)
	}
	if want := []bool{false, false, true, true, false}; !reflect.DeepEqual(artifact, want) {
		t.Errorf("artifacts %v, want %v", artifact, want)
	}
}

// markPrefixReads marks a base read (the shortest read on a model below the
// system prompt's end) and a system prompt read (a read other than the
// prefix the model takes, within the session's lifetime after the previous
// call on its model). Overhead 25,000 tokens; lifetime 5 minutes.
func TestEdgeTracePrefixReads(t *testing.T) {
	const opus = "claude-opus-4-1-20250805"
	type call struct {
		model string
		time  int64
		read  int64
	}
	for _, c := range []struct {
		name      string
		calls     []call
		base, sys []bool
	}{
		// A call that read nothing shows no prefix. The first read,
		// 15,000, is both (a minute after the previous call, against the
		// 25,000 the cold model takes); the same read again is neither: not
		// shorter than the base, and the prefix the model now takes.
		{"nothing, then the same read twice",
			[]call{{"", at(0), 0}, {"", at(1), 15_000}, {"", at(2), 15_000}},
			[]bool{false, true, false}, []bool{false, true, false}},
		// Calls that share one timestamp (a resumed conversation's
		// copied lines) prove no gap within the lifetime.
		{"same timestamp",
			[]call{{"", at(0), 0}, {"", at(0), 15_000}},
			[]bool{false, true}, []bool{false, false}},
		// Opus's warm first read puts the system prompt's end at 20,000.
		// Sonnet reading exactly 20,000 reads no shorter prefix (and has
		// no previous call of its own to be within the lifetime of).
		{"at the system prompt's end, on another model",
			[]call{{opus, at(0), 20_000}, {"", at(1), 20_000}},
			[]bool{false, false}, []bool{false, false}},
		// The first call on a model has no previous call on it, however
		// early its clock: it is a base read, not a system prompt read.
		{"first call on a model, early clock",
			[]call{{opus, 60_000, 0}, {"", 120_000, 15_000}},
			[]bool{false, true}, []bool{false, false}},
	} {
		tr := &Trace{Overhead: 25_000, TTL: 5 * time.Minute}
		for i, k := range c.calls {
			model := k.model
			if model == "" {
				model = sonnet46
			}
			tr.Calls = append(tr.Calls, TraceCall{Index: i, Model: model, Time: k.time,
				Usage: replay.Usage{Input: 10, CacheRead: k.read, CacheWrite5m: 3000, Output: 100}})
		}
		tr.SystemPrefix, tr.SystemPrefixSource = SystemPrefixOf(tr.Overhead, tr.Calls)
		tr.markPrefixReads()
		var base, sys []bool
		for _, tc := range tr.Calls {
			base, sys = append(base, tc.BaseRead), append(sys, tc.SysRead)
		}
		if !reflect.DeepEqual(base, c.base) || !reflect.DeepEqual(sys, c.sys) {
			t.Errorf("%s: BaseRead %v SysRead %v, want %v %v", c.name, base, sys, c.base, c.sys)
		}
	}
}

// MainModel is the model most calls used; of models used as often, the
// one that got there first. MainVersion counts the same way.
func TestEdgeTraceMainModel(t *testing.T) {
	for _, c := range []struct {
		models []string
		want   string
	}{
		{nil, ""},
		{[]string{"a"}, "a"},
		{[]string{"a", "b"}, "a"},           // a tie: a had one first
		{[]string{"a", "b", "b"}, "b"},      // b has more
		{[]string{"a", "b", "b", "a"}, "b"}, // a tie at two: b got there first
		{[]string{"a", "a", "b"}, "a"},
	} {
		tr := &Trace{}
		for _, m := range c.models {
			tr.Calls = append(tr.Calls, TraceCall{Model: m, Version: "v" + m})
		}
		if got := tr.MainModel(); got != c.want {
			t.Errorf("%v: MainModel %q, want %q", c.models, got, c.want)
		}
		want := ""
		if c.want != "" {
			want = "v" + c.want
		}
		if got := tr.MainVersion(); got != want {
			t.Errorf("%v: MainVersion %q, want %q", c.models, got, want)
		}
	}
}

// MissOnly needs proof: a call through a compatible endpoint (a model
// Anthropic does not bill writes for) that recorded strictly less input
// than cache read. Equal counts prove nothing, and Claude models never
// count.
func TestEdgeTraceMissOnly(t *testing.T) {
	const gateway = "glm-4.6"
	for _, c := range []struct {
		name        string
		model       string
		input, read int64
		want        bool
	}{
		{"less input than read", gateway, 900, 1000, true},
		{"as much input as read", gateway, 1000, 1000, false},
		{"more input than read", gateway, 1100, 1000, false},
		{"a Claude model", sonnet46, 900, 1000, false},
	} {
		calls := []TraceCall{{Model: c.model, Usage: replay.Usage{Input: c.input, CacheRead: c.read}}}
		if got := MissOnly(calls); got != c.want {
			t.Errorf("%s: MissOnly %v, want %v", c.name, got, c.want)
		}
	}
}

// attachSide gives each side request to the first traced call after it: the
// call whose index in the thread is at least the side request's count of
// calls before it. A side request after the last call has no call to read
// the cache it kept warm and is dropped. The traced calls here are thread
// calls 0, 2 and 5.
func TestEdgeTraceAttachSide(t *testing.T) {
	side := func(before int) replay.SideRequest {
		return replay.SideRequest{Kind: "away_summary", CallsBefore: before}
	}
	for _, c := range []struct {
		name   string
		before []int
		want   [][]int // CallsBefore of the side requests each call gets
	}{
		{"before the first call", []int{0}, [][]int{{0}, nil, nil}},
		{"after an untraced call", []int{1}, [][]int{nil, {1}, nil}},
		{"just before a call", []int{2}, [][]int{nil, {2}, nil}},
		{"two to one call, one later", []int{1, 2, 3}, [][]int{nil, {1, 2}, {3}}},
		{"one to each", []int{0, 2, 5}, [][]int{{0}, {2}, {5}}},
		{"after the last call", []int{3, 6, 7}, [][]int{nil, nil, {3}}},
	} {
		calls := []TraceCall{{Index: 0}, {Index: 2}, {Index: 5}}
		var srs []replay.SideRequest
		for _, b := range c.before {
			srs = append(srs, side(b))
		}
		attachSide(calls, srs)
		var got [][]int
		for _, tc := range calls {
			var bs []int
			for _, sr := range tc.Side {
				bs = append(bs, sr.CallsBefore)
			}
			got = append(got, bs)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// A successful file tool's result carries the size of the whole file, as
// a compaction would re-attach it; a failed one, and a tool naming no
// file, carry none. A whole Read of 10 lines, 1,070 characters with the
// line numbers: 1,070/4 and 1,000/4.
func TestEdgeTraceResultFileSize(t *testing.T) {
	read := func(id, path string) replay.ToolCall {
		return replay.ToolCall{ID: id, Name: "Read", Input: replay.ToolInput{FilePath: path}, ResultChars: 1070,
			File: replay.FileFacts{ReadLines: 10, TotalLines: 10}}
	}
	tools := map[string]replay.ToolCall{
		"ok":   read("ok", "/src/a.go"),
		"err":  read("err", "/src/b.go"),
		"bash": {ID: "bash", Name: "Bash"},
	}
	m := &replay.Message{Role: replay.RoleUser, Call: -1, Blocks: []replay.Block{
		{Kind: replay.BlockToolResult, ToolID: "ok", Est: 268},
		{Kind: replay.BlockToolResult, ToolID: "err", Est: 10, IsError: true},
		{Kind: replay.BlockToolResult, ToolID: "bash", Est: 10},
	}}
	items := appendItems(nil, m, 4, tools, fileSizes{}, false)
	var got []FileSize
	for _, it := range items {
		got = append(got, it.File)
	}
	if want := []FileSize{{Est: 268, RawEst: 250, Lines: 10}, {}, {}}; !reflect.DeepEqual(got, want) {
		t.Errorf("file sizes %v, want %v", got, want)
	}
	if items[0].Path != "/src/a.go" || items[0].Tool != "Read" || items[0].Wrote {
		t.Errorf("read result %+v, want Read of /src/a.go, not written", items[0])
	}
}

// A Read whose result shows no lines (an offset past the end of the file)
// has nothing to scale to the whole file by: its text is taken as it is,
// 400 characters, 100 by the estimate.
func TestEdgeTraceReadOfNoLines(t *testing.T) {
	fs := fileSizes{}
	got, wrote := fs.After(&replay.ToolCall{Name: "Read", Input: replay.ToolInput{FilePath: "a", Offset: 50},
		ResultChars: 400, File: replay.FileFacts{ReadLines: 0, TotalLines: 10}})
	if want := (FileSize{Est: 100, RawEst: 100}); got != want || wrote {
		t.Errorf("%+v wrote %v, want %+v, not written", got, wrote, want)
	}
}

// appendItems keeps what Claude Code's count weighs by version
// (versionRules.countEst): the images and documents of a tool result, of
// an image block and of a document block, and the estimate of an
// attachment's JSON beside the estimate of what it sends.
func TestEdgeTraceCountParts(t *testing.T) {
	user := &replay.Message{Role: replay.RoleUser, Blocks: []replay.Block{
		{Kind: replay.BlockToolResult, ToolID: "t1", Est: 2003, Images: 1, Documents: 2},
		{Kind: replay.BlockImage, Est: claudecode.ImageTokens.Value},
		{Kind: replay.BlockDocument, Est: 9000},
		{Kind: replay.BlockOther, Name: "container_upload", Est: 30},
	}}
	att := &replay.Message{Role: replay.RoleAttachment, AttachmentType: "file", AttachmentChars: 401, AttachmentEst: 50}
	items := appendItems(nil, user, 0, map[string]replay.ToolCall{}, fileSizes{}, false)
	items = appendItems(items, att, 1, map[string]replay.ToolCall{}, fileSizes{}, false)
	type parts struct {
		kind         ItemKind
		est          int
		images, docs int32
		raw          int
	}
	var got []parts
	for _, it := range items {
		got = append(got, parts{it.Kind, it.Est, it.Images, it.Docs, it.Raw})
	}
	want := []parts{
		{KindToolResult, 2003, 1, 2, 0},
		{KindImage, 2000, 1, 0, 0},
		{KindImage, 9000, 0, 1, 0},
		{KindImage, 30, 0, 0, 0},
		{KindAttachment, 50, 0, 0, 100}, // round(401/4)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("items %+v, want %+v", got, want)
	}
}

// A turn's first call is AfterAsk when the turn before it used a tool
// Claude Code asks permission for, as the session had not used it before
// (askKey): a Bash command by its prefix, file edits together, an MCP
// server's tool by its name. Turn 2 follows a first "git status"; turn 3
// follows another "git status" and a Read (which does not ask); turn 4
// follows a first Edit and a first MCP tool.
func TestEdgeTraceAfterAsk(t *testing.T) {
	use := func(id, name string) replay.Block {
		return replay.Block{Kind: replay.BlockToolUse, ToolID: id, Name: name, Est: 10}
	}
	res := func(id string) replay.Message {
		return replay.Message{Role: replay.RoleUser, Call: -1, Blocks: []replay.Block{{Kind: replay.BlockToolResult, ToolID: id, Est: 10}}}
	}
	asst := func(blocks ...replay.Block) replay.Message {
		return replay.Message{Role: replay.RoleAssistant, Call: -1, Blocks: blocks}
	}
	th := &replay.Thread{
		Messages: []replay.Message{
			edgeTraceText(replay.RoleUser, 10, "one"),
			asst(use("b1", "Bash")), res("b1"), // call 0
			asst(replay.Block{Kind: replay.BlockText, Est: 5}), // call 1
			edgeTraceText(replay.RoleUser, 10, "two"),
			asst(use("b2", "Bash")), res("b2"), // call 2
			asst(use("b3", "Read")), res("b3"), // call 3
			asst(replay.Block{Kind: replay.BlockText, Est: 5}), // call 4
			edgeTraceText(replay.RoleUser, 10, "three"),
			asst(use("b4", "Edit"), use("b5", "mcp__jira__get_issue")), res("b4"), res("b5"), // call 5
			asst(replay.Block{Kind: replay.BlockText, Est: 5}), // call 6
			edgeTraceText(replay.RoleUser, 10, "four"),
			asst(replay.Block{Kind: replay.BlockText, Est: 5}), // call 7
		},
		Tools: []replay.ToolCall{
			{ID: "b1", Name: "Bash", Input: replay.ToolInput{Command: "git status"}},
			{ID: "b2", Name: "Bash", Input: replay.ToolInput{Command: "git status --short"}},
			{ID: "b3", Name: "Read", Input: replay.ToolInput{FilePath: "/a"}},
			{ID: "b4", Name: "Edit", Input: replay.ToolInput{FilePath: "/a"}},
			{ID: "b5", Name: "mcp__jira__get_issue"},
		},
	}
	msgs := []int{1, 3, 5, 7, 9, 11, 14, 16}
	for i, m := range msgs {
		th.Calls = append(th.Calls, edgeTraceCall(m, 1100+int64(100*i), at(i)))
		th.Messages[m].Call = i
	}
	tr := Prepare(&replay.Session{ID: "e", Main: th})
	var got []int
	for _, tc := range tr.Calls {
		if tc.AfterAsk {
			got = append(got, tc.Index)
		}
	}
	if want := []int{2, 7}; !reflect.DeepEqual(got, want) {
		t.Errorf("AfterAsk at calls %v, want %v", got, want)
	}
}

// askKey names what a permission rule allows: a Bash command's prefix
// (its first word and a subcommand), a WebFetch's domain, file edits
// together, any other tool by name.
func TestAskKey(t *testing.T) {
	for _, c := range []struct {
		tool replay.ToolCall
		want string
	}{
		{replay.ToolCall{Name: "Bash", Input: replay.ToolInput{Command: "git push -u origin main"}}, "Bash git push"},
		{replay.ToolCall{Name: "Bash", Input: replay.ToolInput{Command: "python test_x.py"}}, "Bash python"},
		{replay.ToolCall{Name: "Bash", Input: replay.ToolInput{Command: "ls -la"}}, "Bash ls"},
		{replay.ToolCall{Name: "Bash", Input: replay.ToolInput{Command: "npm run build2"}}, "Bash npm run"},
		{replay.ToolCall{Name: "Bash"}, "Bash"},
		{replay.ToolCall{Name: "WebFetch", Input: replay.ToolInput{URL: "https://docs.anthropic.com/en/x"}}, "WebFetch docs.anthropic.com"},
		{replay.ToolCall{Name: "WebFetch", Input: replay.ToolInput{URL: "::"}}, "WebFetch"},
		{replay.ToolCall{Name: "MultiEdit"}, "edits"},
		{replay.ToolCall{Name: "Write"}, "edits"},
		{replay.ToolCall{Name: "mcp__jira__get_issue"}, "mcp__jira__get_issue"},
	} {
		if got := askKey(&c.tool); got != c.want {
			t.Errorf("%s %+v: %q, want %q", c.tool.Name, c.tool.Input, got, c.want)
		}
	}
}

// A turn begun on another UTC date than the turn before is DateChanged:
// by its prompt's timestamp, or the call's where the prompt has none; the
// first call's date is the first turn's, and a call without a clock
// leaves the date unknown. Turn 2's prompt is written at 23:59:50 UTC
// (its response after midnight: the date is the prompt's), turn 3's at
// 00:00:30; turn 4 has no timestamps at all, turn 5 none on its prompt.
func TestEdgeTraceDateChanged(t *testing.T) {
	midnight := time.Date(2025, 8, 30, 0, 0, 0, 0, time.UTC).UnixMilli()
	th := &replay.Thread{}
	var calls []replay.Call
	for i, c := range []struct{ prompt, call int64 }{
		{midnight - 3_600_000, midnight - 3_590_000},
		{midnight - 10_000, midnight + 5_000},
		{midnight + 30_000, midnight + 40_000},
		{0, 0},
		{0, midnight + 86_400_000},
	} {
		p := edgeTraceText(replay.RoleUser, 10, "go on")
		p.Time = c.prompt
		th.Messages = append(th.Messages, p, edgeTraceText(replay.RoleAssistant, 5, ""))
		calls = append(calls, edgeTraceCall(2*i+1, 1100+int64(100*i), c.call))
	}
	th.Calls = calls
	tr := Prepare(&replay.Session{ID: "e", Main: th})
	var got []bool
	for _, tc := range tr.Calls {
		got = append(got, tc.DateChanged)
	}
	if want := []bool{false, false, true, false, true}; !reflect.DeepEqual(got, want) {
		t.Errorf("DateChanged %v, want %v", got, want)
	}
}
