package render_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/internal/testcorpus/corpusload"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/report/render"
)

// The table: every format once, with a writer and the documents it
// writes; the lists the commands take come from it in its order.
func TestFormats(t *testing.T) {
	var seen []report.Format
	for _, s := range render.Formats {
		if slices.Contains(seen, s.Format) || s.Write == nil || len(s.Kinds) == 0 {
			t.Errorf("format %q: listed twice, or without a writer or documents", s.Format)
		}
		seen = append(seen, s.Format)
	}
	for k, want := range map[report.Kind][]string{
		report.ReplayKind:   {"table", "json", "csv", "markdown", "html"},
		report.PoliciesKind: {"table", "json", "csv", "markdown", "html"},
		report.CompareKind:  {"table", "json", "csv", "markdown", "html", "latex"},
		report.SweepKind:    {"table", "json", "csv", "markdown", "html", "latex"},
		report.GateKind:     {"table", "json", "csv", "markdown", "junit", "html"},
	} {
		if got := render.For(k); !slices.Equal(got, want) {
			t.Errorf("For(%s) = %v, want %v", k, got, want)
		}
	}
	if s, ok := render.Lookup(""); !ok || s.Format != report.Table {
		t.Errorf(`Lookup("") = %v, %v: want table`, s.Format, ok)
	}
	if _, ok := render.Lookup("yaml"); ok {
		t.Error("Lookup of an unknown format")
	}
	var streams []report.Format
	for _, s := range render.Formats {
		if s.Stream != nil {
			streams = append(streams, s.Format)
		}
	}
	if !slices.Equal(streams, []report.Format{report.JSON}) {
		t.Errorf("formats that stream: %v, want json", streams)
	}
}

// A format that streams writes, a session at a time, the bytes its writer
// gives for the whole document.
func TestStreamIsWrite(t *testing.T) {
	cfg := accounting.DefaultConfig()
	var reps []*accounting.Report
	for _, s := range corpusload.Path(t, "../../fixtures/testdata/projects") {
		reps = append(reps, accounting.Analyze(s, cfg))
	}
	doc := report.NewDocument(reps, cfg.Prices, []string{"x.jsonl: unreadable"})
	doc.Since, doc.Until = replay.Time(1), replay.Time(2)
	for _, s := range render.Formats {
		if s.Stream == nil {
			continue
		}
		var whole, streamed bytes.Buffer
		if err := render.Write(&whole, doc, report.Options{Format: s.Format}); err != nil {
			t.Fatal(err)
		}
		sw := s.Stream(&streamed, cfg.Prices, doc.Since, doc.Until)
		for _, sess := range doc.Sessions {
			if err := sw.Session(sess); err != nil {
				t.Fatal(err)
			}
		}
		if err := sw.Close(doc.Total, doc.Errors); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(whole.Bytes(), streamed.Bytes()) {
			t.Errorf("%s: streamed bytes differ from the document's", s.Format)
		}
	}
}
