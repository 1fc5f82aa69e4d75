package report_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/report"
)

func TestReadJSON(t *testing.T) {
	// Unknown fields anywhere are skipped; sessions come one at a time.
	doc := `{"schema":"ctxlab.compare","version":1,"new_field":{"a":[1,2]},"policies":["observed"],
	"sessions":[{"sessions":1,"id":"s1","project":"p","runs":[{"policy":"observed","limits":{"window":200000},"calls":[{"call":1,"prompt":10}],"later":true}]},
	            {"sessions":1,"id":"s2","runs":[{"policy":"observed"}]}],
	"total":{"sessions":2,"runs":[{"policy":"observed","metrics":{"calls":3}}]},"errors":[]}`
	var ids []string
	var withCalls []bool
	h, err := report.ReadJSON(strings.NewReader(doc), func(s report.ReadSession) error {
		if s.Compare == nil || s.Replay != nil {
			t.Fatalf("compare session decoded as %+v", s)
		}
		ids = append(ids, s.Compare.ID)
		withCalls = append(withCalls, s.Compare.Runs[0].Result(s.Compare) != nil)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(ids, ",") != "s1,s2" || !withCalls[0] || withCalls[1] {
		t.Errorf("sessions %v, with calls %v; want s1 (with), s2 (without)", ids, withCalls)
	}
	if h.Schema != report.SchemaCompare || h.Version != 1 || len(h.Policies) != 1 || h.CompareTotal == nil || h.CompareTotal.Runs[0].Metrics.Calls != 3 {
		t.Errorf("header %+v", h)
	}

	// The callback's error stops the reading and comes back as is.
	stop := errors.New("stop")
	n := 0
	_, err = report.ReadJSON(strings.NewReader(doc), func(report.ReadSession) error { n++; return stop })
	if err != stop || n != 1 {
		t.Errorf("err %v after %d sessions, want the callback's after 1", err, n)
	}

	// A syntax error is flagged as one; its offset is where the streaming
	// decoder stopped, and SyntaxOffset finds the offending value's start
	// exactly.
	for _, tc := range []struct {
		doc  string
		want int64
	}{
		{`{"schema":"ctxlab.replay", x}`, 27},
		{`{"schema":"ctxlab.replay","version":x}`, 36},
		{`{"schema":"ctxlab.replay","sessions":[{"summary":{"id":tru}}]}`, 55},
	} {
		_, err = report.ReadJSON(strings.NewReader(tc.doc), func(report.ReadSession) error { return nil })
		var de *report.DecodeError
		if !errors.As(err, &de) || !de.Syntax {
			t.Errorf("%s: err %v, want a syntax DecodeError", tc.doc, err)
		}
		if got := report.SyntaxOffset(strings.NewReader(tc.doc)); got != tc.want {
			t.Errorf("%s: SyntaxOffset %d, want %d (%q)", tc.doc, got, tc.want, tc.doc[tc.want:])
		}
	}
	if got := report.SyntaxOffset(strings.NewReader(doc)); got != -1 {
		t.Errorf("SyntaxOffset of a valid document: %d", got)
	}
}

// TestReadJSONNotAReport: a document must start with "schema"; one that
// starts like a transcript line says so.
func TestReadJSONNotAReport(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{`{"type":"summary","summary":"x","leafUuid":"u"}`, "a transcript, not a ctxlab JSON report"},
		{`{"parentUuid":null,"sessionId":"s","version":"2.1.1"}`, "a transcript, not a ctxlab JSON report"},
		{`{"total":{},"schema":"ctxlab.replay"}`, `it starts with "total", not "schema"`},
		{`{}`, `no "schema"`},
		{`[]`, "want an object"},
	} {
		_, err := report.ReadJSON(strings.NewReader(tc.doc), func(report.ReadSession) error { return nil })
		var de *report.DecodeError
		if !errors.As(err, &de) || de.Offset != -1 || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want a whole-document error with %q", tc.doc, err, tc.want)
		}
	}
}

// TestReadJSONVersions: each schema is read up to its own version (a
// compare document of version 2 is read, one of a replay refused), and
// refused above it.
func TestReadJSONVersions(t *testing.T) {
	for _, tc := range []struct {
		schema  string
		version int
		ok      bool
	}{
		{report.SchemaCompare, 1, true},
		{report.SchemaCompare, report.CompareVersion, true},
		{report.SchemaCompare, report.CompareVersion + 1, false},
		{report.SchemaReplay, report.SchemaVersion, true},
		{report.SchemaReplay, report.SchemaVersion + 1, false},
	} {
		doc := fmt.Sprintf(`{"schema":%q,"version":%d,"sessions":[]}`, tc.schema, tc.version)
		h, err := report.ReadJSON(strings.NewReader(doc), func(report.ReadSession) error { return nil })
		if (err == nil) != tc.ok || err == nil && h.Version != tc.version {
			t.Errorf("%s version %d: err %v, want ok %v", tc.schema, tc.version, err, tc.ok)
		}
		if !tc.ok && (err == nil || !strings.Contains(err.Error(), "written by a later ctxlab")) {
			t.Errorf("%s version %d: %v", tc.schema, tc.version, err)
		}
	}
}

// TestReadJSONWrongKind: a value of the wrong kind is named by the
// document's keys and said in JSON's words, never in Go's type names (a
// replay session embeds its report, which encoding/json names "Report").
func TestReadJSONWrongKind(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{`{"schema":"ctxlab.replay","version":"1"}`, "version: a string where an integer was expected"},
		{`{"schema":"ctxlab.replay","sessions":[{},{"usage":"x"}]}`, "sessions[1].usage: a string where an object was expected"},
		{`{"schema":"ctxlab.replay","sessions":[{"simulation":{"calls":[1]}}]}`, "sessions[0].simulation.calls: a number where an object was expected"},
		{`{"schema":"ctxlab.replay","sessions":[7]}`, "sessions[0]: a number where an object was expected"},
		{`{"schema":"ctxlab.compare","sessions":[{"runs":[{"calls":[{"prompt":"x"}]}]}]}`, "sessions[0].runs.calls.prompt: a string where an integer was expected"},
		{`{"schema":"ctxlab.compare","policies":{}}`, "policies: an object where an array was expected"},
		{`{"schema":"ctxlab.replay","total":{"usage":[]}}`, "total.usage: an array where an object was expected"},
	} {
		_, err := report.ReadJSON(strings.NewReader(tc.doc), func(report.ReadSession) error { return nil })
		var de *report.DecodeError
		if !errors.As(err, &de) || err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.doc, err, tc.want)
		}
	}
}
