package replay

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/internal/testcorpus"
)

func realdataSources(tb testing.TB) []Source {
	tb.Helper()
	dir := testcorpus.Dir(tb, testcorpus.Realdata)
	srcs, errs := Discover([]string{dir})
	if len(errs) > 0 {
		tb.Fatalf("Discover(%s): %v", dir, errs)
	}
	return srcs
}

// tokens is a usage total in the four columns ccusage reports.
type tokens struct{ Input, Output, CacheWrite, CacheRead int64 }

func (t *tokens) add(u Usage) {
	t.Input += u.Input
	t.Output += u.Output
	t.CacheWrite += u.CacheWrite()
	t.CacheRead += u.CacheRead
}

// sessionTokens sums the counted (non-Duplicate) calls of every thread.
func sessionTokens(s *Session) tokens {
	var t tokens
	for _, th := range s.Threads() {
		for _, c := range th.Calls {
			if !c.Duplicate {
				t.add(c.Usage)
			}
		}
	}
	return t
}

// referenceTokens is an independent implementation of the counting rule
// (the one ccusage follows) with encoding/json: every assistant line's message.usage, deduplicated over the
// session's files by message.id+requestId (message.id alone when requestId is
// missing), keeping the record with the most tokens. Lines without a
// message.id are each counted. Lines that are not JSON are skipped.
func referenceTokens(tb testing.TB, files []string) tokens {
	tb.Helper()
	type usage struct {
		Input       int64 `json:"input_tokens"`
		Output      int64 `json:"output_tokens"`
		CacheCreate int64 `json:"cache_creation_input_tokens"`
		CacheRead   int64 `json:"cache_read_input_tokens"`
	}
	type line struct {
		Type      string `json:"type"`
		RequestID string `json:"requestId"`
		Message   *struct {
			ID    string `json:"id"`
			Usage *usage `json:"usage"`
		} `json:"message"`
	}
	best := map[string]usage{}
	var order []string
	var total tokens
	sum := func(u usage) int64 { return u.Input + u.Output + u.CacheCreate + u.CacheRead }
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			tb.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 512<<20)
		for sc.Scan() {
			var l line
			if json.Unmarshal(sc.Bytes(), &l) != nil {
				continue
			}
			if l.Type != "assistant" || l.Message == nil || l.Message.Usage == nil {
				continue
			}
			u := *l.Message.Usage
			if l.Message.ID == "" {
				total.Input += u.Input
				total.Output += u.Output
				total.CacheWrite += u.CacheCreate
				total.CacheRead += u.CacheRead
				continue
			}
			key := l.Message.ID
			if l.RequestID != "" {
				key += "/" + l.RequestID
			}
			old, seen := best[key]
			if !seen {
				order = append(order, key)
			}
			if !seen || sum(u) > sum(old) {
				best[key] = u
			}
		}
		if err := sc.Err(); err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		fh.Close()
	}
	for _, k := range order {
		u := best[k]
		total.Input += u.Input
		total.Output += u.Output
		total.CacheWrite += u.CacheCreate
		total.CacheRead += u.CacheRead
	}
	return total
}

// ccusageTotals were measured with ccusage 20.0.24
// (`ccusage claude session --json --offline`) on ../shared/realdata.
var ccusageTotals = map[string]tokens{
	"a8e99a7c-converted":                    {1224, 82356, 1215920, 24688783},
	"5f2d5220-e018-4795-8fcb-23e42b068058":  {1265, 18201, 1373026, 22148594},
	"4a5c6ea5-9101-4d5d-9310-2e808347c4c6":  {2126, 116358, 809506, 23534937},
	"c7d2069e-c561-4759-8adf-b0745be78c29":  {2431, 52949, 1634164, 20124454},
	"eb58ac6d-1d26-40b0-b0d2-e767a62574a3":  {506, 50427, 338728, 8387684},
	"21037e11-89de-484d-abba-8705254aa991":  {1084, 294, 333766, 9904303},
	"21d5136b-c250-47d9-b1f9-912b1111f151":  {676, 8271, 296357, 7202879},
	"general-tool-calls-with-comment-lines": {2908, 105, 366948, 2980648},
	"8fd119a6-9ab8-407b-810f-329cfb6153e0":  {409, 56580, 80714, 3979075},
	"97b0ffde-ece9-4977-91cb-5c8cdeabdf3f":  {8, 3094, 35049, 1536099},
	"00ef2a14-f073-4f39-aca6-a3cfdd5bab7d":  {993050, 218885, 0, 25179584},
	"0ccf1a04-1b4c-43b6-8aa5-79e41db43a68":  {78, 38, 58034, 225539},
}

var ccusageFolderTotal = tokens{1005765, 607558, 6542212, 149892579}

// wantWarnings is the number of unreadable lines each real session has;
// sessions not listed have none.
var wantWarnings = map[string]int{
	"21037e11-89de-484d-abba-8705254aa991":  28, // malformed lines
	"general-tool-calls-with-comment-lines": 2,  // two // comment lines
	"c7d2069e-c561-4759-8adf-b0745be78c29":  1,  // one line broken by the owner's redaction
}

func loadRealdata(t *testing.T) map[string]*Session {
	t.Helper()
	srcs := realdataSources(t)
	out := map[string]*Session{}
	for _, src := range srcs {
		s, err := Load(src, Options{})
		if err != nil {
			t.Errorf("Load(%s): %v", src.Path, err)
			continue
		}
		if _, dup := out[s.ID]; dup {
			t.Errorf("two sources with id %s", s.ID)
		}
		out[s.ID] = s
	}
	return out
}

func TestRealdataUsageTotals(t *testing.T) {
	srcs := realdataSources(t)
	if len(srcs) != len(ccusageTotals) {
		var ids []string
		for _, s := range srcs {
			ids = append(ids, s.ID())
		}
		t.Errorf("Discover found %d sessions %v, want %d", len(srcs), ids, len(ccusageTotals))
	}
	var folder, refFolder tokens
	for _, src := range srcs {
		s, err := Load(src, Options{})
		if err != nil {
			t.Errorf("Load(%s): %v", src.Path, err)
			continue
		}
		got := sessionTokens(s)
		ref := referenceTokens(t, append([]string{src.Path}, src.Agents...))
		if got != ref {
			t.Errorf("%s: Load totals %+v, independent implementation %+v", s.ID, got, ref)
		}
		want, ok := ccusageTotals[s.ID]
		if !ok {
			t.Errorf("%s: no ccusage figures for this session", s.ID)
		} else if got != want {
			t.Errorf("%s: Load totals %+v, ccusage %+v", s.ID, got, want)
		}
		folder.Input += got.Input
		folder.Output += got.Output
		folder.CacheWrite += got.CacheWrite
		folder.CacheRead += got.CacheRead
		refFolder.Input += ref.Input
		refFolder.Output += ref.Output
		refFolder.CacheWrite += ref.CacheWrite
		refFolder.CacheRead += ref.CacheRead
	}
	if folder != ccusageFolderTotal {
		t.Errorf("folder total %+v, ccusage %+v", folder, ccusageFolderTotal)
	}
	if refFolder != ccusageFolderTotal {
		t.Errorf("reference folder total %+v, ccusage %+v", refFolder, ccusageFolderTotal)
	}
}

func TestRealdataWarnings(t *testing.T) {
	sessions := loadRealdata(t)
	for id, s := range sessions {
		want := wantWarnings[id]
		if len(s.Warnings) != want {
			t.Errorf("%s: %d warnings, want %d:", id, len(s.Warnings), want)
			for _, w := range s.Warnings {
				t.Logf("  %v", truncate(w.Error(), 200))
			}
		}
		for _, w := range s.Warnings {
			if w.File == "" || w.Line <= 0 {
				t.Errorf("%s: warning without file and line: %+v", id, w)
			}
		}
		if len(s.Main.Calls) == 0 {
			t.Errorf("%s: no calls in the main thread", id)
		}
	}
	if s := sessions["general-tool-calls-with-comment-lines"]; s != nil && len(s.Warnings) == 2 {
		for i, w := range s.Warnings {
			if w.Line != i+1 || !strings.Contains(w.Msg, "comment") {
				t.Errorf("comment-line warning %d = %v, want line %d mentioning a comment", i, w, i+1)
			}
		}
	}
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

func TestRealdataFacts(t *testing.T) {
	sessions := loadRealdata(t)
	get := func(id string) *Session {
		s := sessions[id]
		if s == nil {
			t.Fatalf("session %s not loaded", id)
		}
		return s
	}
	full := func(s *Session) []Compaction {
		var out []Compaction
		for _, c := range s.Main.Compactions {
			if c.Kind == CompactFull {
				out = append(out, c)
			}
		}
		return out
	}

	t.Run("2.0.76 auto compaction", func(t *testing.T) {
		s := get("c7d2069e-c561-4759-8adf-b0745be78c29")
		cs := full(s)
		if len(cs) != 1 || cs[0].Trigger != "auto" || cs[0].PreTokens != 155548 {
			t.Fatalf("compactions = %+v, want one auto with preTokens 155548", cs)
		}
		if cs[0].SummaryLine == 0 || cs[0].SummaryChars == 0 {
			t.Errorf("compaction has no summary: %+v", cs[0])
		}
		if !contains(s.Versions, "2.0.76") {
			t.Errorf("versions %v lack 2.0.76", s.Versions)
		}
	})
	t.Run("2.0.60 manual compaction", func(t *testing.T) {
		cs := full(get("97b0ffde-ece9-4977-91cb-5c8cdeabdf3f"))
		if len(cs) != 1 || cs[0].Trigger != "manual" || cs[0].PreTokens != 31469 {
			t.Fatalf("compactions = %+v, want one manual with preTokens 31469", cs)
		}
	})
	t.Run("21037e11 malformed lines", func(t *testing.T) {
		s := get("21037e11-89de-484d-abba-8705254aa991")
		if len(s.Warnings) != 28 {
			t.Errorf("%d warnings, want 28", len(s.Warnings))
		}
		if len(s.Main.Calls) == 0 {
			t.Error("no calls loaded")
		}
		lower := 0
		for _, c := range s.Main.Calls {
			if c.OutputLowerBound {
				lower++
			}
		}
		if lower == 0 {
			t.Error("2.1.9 calls not marked OutputLowerBound")
		}
	})
	t.Run("2.1.146 two auto compactions", func(t *testing.T) {
		cs := full(get("4a5c6ea5-9101-4d5d-9310-2e808347c4c6"))
		want := []struct{ pre, post int64 }{{170719, 17071}, {170055, 5358}}
		if len(cs) != len(want) {
			t.Fatalf("compactions = %+v, want 2", cs)
		}
		for i, w := range want {
			c := cs[i]
			if c.Trigger != "auto" || c.PreTokens != w.pre || c.PostTokens != w.post || c.DurationMs == 0 || c.SummaryLine == 0 {
				t.Errorf("compaction %d = %+v, want auto %d→%d with duration and summary", i, c, w.pre, w.post)
			}
		}
	})
	t.Run("2.1.41 acompact fork", func(t *testing.T) {
		s := get("21d5136b-c250-47d9-b1f9-912b1111f151")
		n := 0
		for _, a := range s.Agents {
			if a.Kind == KindCompact {
				n++
				if !strings.HasPrefix(a.AgentID, "acompact") {
					t.Errorf("compact thread id %q", a.AgentID)
				}
			}
		}
		if n != 1 {
			t.Errorf("%d acompact threads, want 1", n)
		}
		if cs := full(s); len(cs) != 1 || cs[0].PreTokens != 167828 {
			t.Errorf("compactions = %+v, want one at 167828", cs)
		}
	})
	t.Run("8fd119a6 aside replay", func(t *testing.T) {
		s := get("8fd119a6-9ab8-407b-810f-329cfb6153e0")
		n := 0
		for _, a := range s.Agents {
			if a.Kind == KindAside {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%d aside threads, want 1", n)
		}
		if s.ReplayedLines == 0 {
			t.Error("ReplayedLines = 0, want the aside file's copies of parent lines")
		}
	})
	t.Run("00ef2a14 five manual compactions", func(t *testing.T) {
		s := get("00ef2a14-f073-4f39-aca6-a3cfdd5bab7d")
		cs := full(s)
		if len(cs) != 5 {
			t.Fatalf("%d compactions, want 5", len(cs))
		}
		for i, c := range cs {
			if c.Trigger != "manual" || c.PostTokens == 0 {
				t.Errorf("compaction %d = %+v, want manual with postTokens", i, c)
			}
		}
		for _, c := range s.Main.Calls {
			if c.RequestID != "" {
				t.Errorf("line %d: DeepSeek call has requestId %q", c.Line, c.RequestID)
				break
			}
		}
	})
	t.Run("subagents attached", func(t *testing.T) {
		for id, n := range map[string]int{
			"0ccf1a04-1b4c-43b6-8aa5-79e41db43a68": 2,
			"00ef2a14-f073-4f39-aca6-a3cfdd5bab7d": 1,
		} {
			s := get(id)
			if len(s.Agents) != n {
				t.Errorf("%s: %d agent threads, want %d", id, len(s.Agents), n)
			}
			for _, a := range s.Agents {
				if a.Kind != KindAgent || len(a.Calls) == 0 {
					t.Errorf("%s: agent %s kind %s with %d calls", id, a.AgentID, a.Kind, len(a.Calls))
				}
			}
		}
	})
	t.Run("1.0.x inline sidechains", func(t *testing.T) {
		s := get("a8e99a7c-converted")
		n := 0
		for _, a := range s.Agents {
			if a.Kind == KindSidechain {
				n++
			}
		}
		if n == 0 {
			t.Error("no sidechain threads in the 1.0.70 file")
		}
	})
	t.Run("1.0.x summary compactions", func(t *testing.T) {
		for _, id := range []string{"eb58ac6d-1d26-40b0-b0d2-e767a62574a3", "5f2d5220-e018-4795-8fcb-23e42b068058"} {
			s := get(id)
			n := 0
			for _, c := range s.Main.Compactions {
				if c.Kind == CompactSummaryOnly && c.SummaryChars > 0 {
					n++
				}
			}
			if n != 1 {
				t.Errorf("%s: %d summary-only compactions, want 1", id, n)
			}
		}
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
