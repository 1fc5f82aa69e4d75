package report_test

import (
	"bytes"
	"encoding/json"
	"github.com/ctxlab/ctxlab/simulate/paired"
	"testing"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/internal/testcorpus/corpusload"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/fidelity"
)

// wholeJSON is the document encoded in one piece, indented as the JSON
// writers indent: what they wrote before they wrote one session at a time.
func wholeJSON(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// The JSON writers encode one session at a time; their output is byte for
// byte the whole document's encoding, with several sessions, with none,
// with simulations, fidelity rows and errors.
func TestJSONWrittenBySessionIsTheDocument(t *testing.T) {
	cfg := accounting.DefaultConfig()
	sessions := corpusload.Path(t, corpusFixtures)
	if len(sessions) < 2 {
		t.Fatalf("%s: %d sessions, want several", corpusFixtures, len(sessions))
	}
	var reps []*accounting.Report
	var runs []*report.Compared
	var fid []report.Fidelity
	specs := []string{"observed", "claude-code"}
	for _, s := range sessions {
		reps = append(reps, accounting.Analyze(s, cfg))
		tr := simulate.Prepare(s)
		var res []*simulate.Result
		for _, spec := range specs {
			res = append(res, simulate.Run(tr, parsePolicy(t, spec), simulate.DefaultConfig()))
		}
		runs = append(runs, report.NewCompared(s, res, true))
		fid = append(fid, fidelity.New(s, tr, res[0], res[1], fidelity.DefaultTolerances()))
	}
	withSim := report.NewDocument(reps, cfg.Prices, []string{"x.jsonl: <broken> & \"quoted\""})
	withSim.Sessions[0].Simulation = simulate.Run(simulate.Prepare(sessions[0]), parsePolicy(t, "keep-last-n"), simulate.DefaultConfig())
	grouped := report.NewDocument(reps, cfg.Prices, nil)
	grouped.By, grouped.Groups = "day", accounting.Groups(reps, accounting.ByDay, nil, cfg.Prices)
	grouped.CostPartial, grouped.UnpricedModels = true, []accounting.Count{{Name: "deepseek-chat", Count: 3}}
	for name, doc := range map[string]*report.Document{
		"grouped":     grouped,
		"sessions":    report.NewDocument(reps, cfg.Prices, nil),
		"one":         report.NewDocument(reps[:1], cfg.Prices, nil),
		"none":        report.NewDocument(nil, cfg.Prices, nil),
		"simulation":  withSim,
		"nil-session": {Schema: report.SchemaReplay, Total: reps[0]},
	} {
		var got bytes.Buffer
		if err := report.WriteJSON(&got, doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var whole any = doc
		if doc.By != "" {
			whole = doc.GroupsDocument() // the grouped view alone
		}
		if want := wholeJSON(t, whole); !bytes.Equal(got.Bytes(), want) {
			t.Errorf("replay %s: written by session differs from the document's encoding:\n%s\nwant:\n%s", name, got.Bytes(), want)
		}
	}
	for name, doc := range map[string]*report.CompareDocument{
		"fidelity": report.NewCompareDocument(specs, runs, fid, prices.Default(), []string{"e"}),
		"plain":    report.NewCompareDocument(specs, runs, nil, prices.Default(), nil),
		"none":     report.NewCompareDocument(specs, nil, nil, prices.Default(), nil),
		"stats": func() *report.CompareDocument {
			d := report.NewCompareDocument(specs, runs, nil, prices.Default(), nil)
			d.Compare(0, comparisonMeasures(t), paired.Options{Resamples: 100})
			return d
		}(),
		"unpriced": func() *report.CompareDocument {
			d := report.NewCompareDocument(specs, runs, nil, prices.Default(), nil)
			d.CostPartial, d.UnpricedModels = true, []accounting.Count{{Name: "deepseek-chat", Count: 3}}
			return d
		}(),
	} {
		var got bytes.Buffer
		if err := report.WriteJSON(&got, doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if want := wholeJSON(t, doc); !bytes.Equal(got.Bytes(), want) {
			t.Errorf("compare %s: written by session differs from the document's encoding:\n%s\nwant:\n%s", name, got.Bytes(), want)
		}
	}
}

// ReplayJSON, given the sessions one by one and the total at the end,
// writes what Write writes for the whole document.
func TestReplayJSONIsWrite(t *testing.T) {
	cfg := accounting.DefaultConfig()
	var reps []*accounting.Report
	for _, s := range corpusload.Path(t, corpusFixtures) {
		reps = append(reps, accounting.Analyze(s, cfg))
	}
	for _, n := range []int{0, 1, len(reps)} {
		errs := []string{"a.jsonl: unreadable"}
		if n == 1 {
			errs = nil
		}
		doc := report.NewDocument(reps[:n], cfg.Prices, errs)
		var want, got bytes.Buffer
		if err := report.WriteJSON(&want, doc); err != nil {
			t.Fatal(err)
		}
		j := report.NewReplayJSON(&got, cfg.Prices)
		m := accounting.NewMerger(cfg.Prices)
		for _, r := range reps[:n] {
			m.Add(r)
			if err := j.Session(&report.Session{Report: r}); err != nil {
				t.Fatal(err)
			}
		}
		if err := j.Close(m.Report(), errs); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%d sessions: ReplayJSON differs from Write:\n%s\nwant:\n%s", n, got.Bytes(), want.Bytes())
		}
	}
}
