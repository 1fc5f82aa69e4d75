package plots

import (
	"strings"

	"bytes"
	"image/png"
	"io"
	"testing"

	"rsc.io/pdf"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/internal/testcorpus"
	"github.com/ctxlab/ctxlab/internal/testcorpus/corpusload"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/report/plots/plotdata"
	"github.com/ctxlab/ctxlab/simulate"
)

// realPolicies are the policies the real-data tests replay.
var realPolicies = []string{"observed", "claude-code", "none"}

// sessionFiles loads one source and returns its plots the way the
// commands build them: observed, claude-code and none, and the report
// and the runs.
func sessionFiles(t testing.TB, src replay.Source) ([]File, *accounting.Report, []*simulate.Result) {
	t.Helper()
	s, err := replay.Load(src, replay.Options{})
	if err != nil {
		t.Fatalf("%s: %v", src.Path, err)
	}
	tr := simulate.Prepare(s)
	cfg := simulate.DefaultConfig()
	var runs []*simulate.Result
	for _, spec := range realPolicies {
		p, err := policies.Parse(spec)
		if err != nil {
			t.Fatalf("policy %s: %v", spec, err)
		}
		runs = append(runs, simulate.Run(tr, p, cfg))
	}
	rep := accounting.Analyze(s, accounting.DefaultConfig())
	return SessionFiles(s.ID, runs, rep, "png", Options{}), rep, runs
}

// TestRealdataRenders draws every plot of every real session (all five
// kinds, the cache plot once per run) and the corpus totals (with the
// cost by policy), as PNG and SVG, and checks that each cost and cache
// plot shows the run's own cost and cache breaks.
func TestRealdataRenders(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	var reps []*accounting.Report
	sums := make([]simulate.Metrics, len(realPolicies))
	srcs := corpusload.Sources(t, testcorpus.Realdata)
	for _, src := range srcs {
		files, rep, runs := sessionFiles(t, src)
		reps = append(reps, rep)
		for i, r := range runs {
			sums[i] = simulate.SumMetrics([]simulate.Metrics{sums[i], r.Metrics})
			// What is drawn is what the reports say.
			if got, want := plotdata.CostSeries([]*simulate.Result{r}).Lines[0].Total, prices.RoundUSD(r.Metrics.Cost); got != want {
				t.Errorf("%s %s: cost plot total %v, metrics %v", src.Path, realPolicies[i], got, want)
			}
			if got, want := len(plotdata.CacheSeries(r).Breaks), r.Metrics.CacheBreaks; got != want {
				t.Errorf("%s %s: cache plot marks %d breaks, metrics count %d", src.Path, realPolicies[i], got, want)
			}
		}
		if len(files) != 7 {
			t.Errorf("%s: %d plots, want 7 (context, cost, 3 × cache, tokens, duplicates)", src.Path, len(files))
		}
		for _, f := range files {
			for _, format := range Formats {
				var b bytes.Buffer
				if err := f.Figure.Write(&b, format); err != nil {
					t.Errorf("%s %s %s: %v", src.Path, f.Name, format, err)
				}
				if !drawn(b.Bytes(), format) {
					t.Errorf("%s %s %s: %d bytes starting %q, not a drawn image", src.Path, f.Name, format, b.Len(), b.Bytes()[:min(8, b.Len())])
				}
			}
		}
	}
	totals := TotalFiles(accounting.Merge(reps, nil), "png", Options{})
	totals = append(totals, CompareTotalFiles(realPolicies, sums, len(srcs), CostIntervals{}, "png", Options{})...)
	for _, f := range totals {
		for _, format := range Formats {
			if err := f.Figure.Write(io.Discard, format); err != nil {
				t.Errorf("%s %s: %v", f.Name, format, err)
			}
		}
	}
}

// TestSeriesAgreeWithMetrics: on every fixture session under several
// policies, the cost plot's total is the run's Metrics.Cost and the cache
// plot marks as many breaks as Metrics.CacheBreaks counts: the plots and
// the reports cannot tell different stories.
func TestSeriesAgreeWithMetrics(t *testing.T) {
	srcs, errs := replay.Discover([]string{"../../fixtures/testdata/projects"})
	if len(errs) > 0 || len(srcs) < 4 {
		t.Fatalf("fixtures: %d sessions, errors %v", len(srcs), errs)
	}
	for _, src := range srcs {
		s, err := replay.Load(src, replay.Options{})
		if err != nil {
			t.Fatal(err)
		}
		tr := simulate.Prepare(s)
		for _, spec := range []string{"observed", "claude-code:window=55000", "keep-last-n:n=3", "context-editing:trigger=20000"} {
			p, err := policies.Parse(spec)
			if err != nil {
				t.Fatal(err)
			}
			r := simulate.Run(tr, p, simulate.DefaultConfig())
			if got, want := plotdata.CostSeries([]*simulate.Result{r}).Lines[0].Total, prices.RoundUSD(r.Metrics.Cost); got != want {
				t.Errorf("%s %s: cost plot total %v, metrics %v", s.ID, spec, got, want)
			}
			if got, want := len(plotdata.CacheSeries(r).Breaks), r.Metrics.CacheBreaks; got != want {
				t.Errorf("%s %s: cache plot marks %d breaks, metrics count %d", s.ID, spec, got, want)
			}
		}
	}
}

// drawn says whether b is an image with something in it: a PNG that
// decodes to at least 100 × 100 pixels, or an SVG document with text or
// paths.
func drawn(b []byte, format string) bool {
	switch format {
	case "png":
		c, err := png.DecodeConfig(bytes.NewReader(b))
		return err == nil && c.Width >= 100 && c.Height >= 100
	case "svg":
		return bytes.HasSuffix(bytes.TrimSpace(b), []byte("</svg>")) && (bytes.Contains(b, []byte("<text")) || bytes.Contains(b, []byte("<path")))
	case "pdf":
		return pdfText(b) != ""
	}
	return false
}

// pdfText is the text drawn on a one-page PDF, without spaces (as the
// reader extracts it), or "" if b is not one.
func pdfText(b []byte) (text string) {
	defer func() {
		if recover() != nil { // the reader panics on some malformed files
			text = ""
		}
	}()
	r, err := pdf.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil || r.NumPage() != 1 {
		return ""
	}
	var sb strings.Builder
	for _, t := range r.Page(1).Content().Text {
		sb.WriteString(t.S)
	}
	return sb.String()
}
