package report_test

import (
	"errors"
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

	// A syntax error points at where the decoder stopped: the blank
	// before the x, the last byte it accepted.
	_, err = report.ReadJSON(strings.NewReader(`{"schema":"ctxlab.replay", x}`), func(report.ReadSession) error { return nil })
	var de *report.DecodeError
	if !errors.As(err, &de) || de.Offset != 26 {
		t.Errorf("err %v (at %d), want a DecodeError at byte 26", err, de.Offset)
	}
}
