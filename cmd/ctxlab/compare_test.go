package main

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/internal/testcorpus"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/tidwall/gjson"
)

// goldenPolicies are the policies of the compare goldens on all fixtures:
// the baseline, Claude Code's scheme, the same with a window small enough
// that the fixtures compact (20K of system prompt: it spirals), and none.
const goldenPolicies = "observed,claude-code,claude-code:window=55000,none"

func TestCompareGolden(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"compare-demo.txt", []string{"compare", demo}},
		{"compare-demo.csv", []string{"compare", "--format", "csv", demo}},
		{"compare-demo.md", []string{"compare", "--format", "markdown", demo}},
		{"compare-demo.json", []string{"compare", "--format", "json", demo}},
		{"compare-fixtures.txt", []string{"compare", "--detail", "--policy", goldenPolicies, "--fidelity", fixtures}},
		{"compare-fixtures.csv", []string{"compare", "--policy", goldenPolicies, "--fidelity", "--format", "csv", fixtures}},
		{"compare-fixtures.md", []string{"compare", "--detail", "--policy", goldenPolicies, "--fidelity", "--format", "markdown", fixtures}},
		{"compare-fixtures.json", []string{"compare", "--policy", goldenPolicies, "--fidelity", "--format", "json", fixtures}},
		{"compare-demo-calls.csv", []string{"compare", "--policy", "observed,keep-last-n:n=3", "--calls", "--format", "csv", "--section", "simulated_calls", demo}},
		{"compare-fixtures-fidelity.csv", []string{"compare", "--policy", goldenPolicies, "--fidelity", "--format", "csv", "--section", "fidelity", fixtures}},
		{"compare-fixtures-total.txt", []string{"compare", "--policy", goldenPolicies, fixtures}},
		{"compare-fixtures-by-version.csv", []string{"compare", "--fidelity", "--by", "version", "--format", "csv", "--section", "fidelity_groups", fixtures}},
		{"compare-fixtures-by-project.md", []string{"compare", "--fidelity", "--by", "project", "--format", "markdown", fixtures}},
		{"compare-fixtures.tex", []string{"compare", "--policy", goldenPolicies, "--format", "latex", fixtures}},
		{"policies.txt", []string{"policies"}},
		{"policies.md", []string{"policies", "--format", "markdown"}},
		{"policies.json", []string{"policies", "--format", "json"}},
		{"policies-one.txt", []string{"policies", "keep-last-n"}},
		{"policies-one.json", []string{"policies", "--format", "json", "observed", "claude-code"}},
		{"replay-demo-policy.txt", []string{"replay", "--policy", "claude-code", "--calls", demo}},
		{"replay-demo-compacting.csv", []string{"replay", "--policy", "claude-code:window=55000", "--section", "simulated_calls", "--format", "csv", demo}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := ctxlab(t, "", nil, tt.args...)
			if code != exitOK {
				t.Fatalf("exit %d, stderr:\n%s", code, errOut)
			}
			if errOut != "" {
				t.Errorf("stderr: %s", errOut)
			}
			golden(t, tt.name, out)
		})
	}
}

// allPolicies is every registered policy, as a --policy list.
func allPolicies() string { return strings.Join(policies.Names(), ",") }

// TestCompareDeterministic: the same input gives the same bytes whatever
// the number of workers, with every registered policy.
func TestCompareDeterministic(t *testing.T) {
	var first string
	for _, jobs := range []string{"1", "2", "7", "1"} {
		out, errOut, code := ctxlab(t, "", nil, "compare", "--format", "json", "--fidelity", "--policy", allPolicies(), "--jobs", jobs, fixtures)
		if code != exitOK {
			t.Fatalf("--jobs %s: exit %d: %s", jobs, code, errOut)
		}
		if first == "" {
			first = out
		} else if out != first {
			t.Fatalf("--jobs %s: output differs from the first run:\n%s", jobs, firstDiff(first, out))
		}
	}
}

// TestCompareTotalIsSum: the total row of each policy adds up the sessions.
func TestCompareTotalIsSum(t *testing.T) {
	out, errOut, code := ctxlab(t, "", nil, "compare", "--format", "json", "--policy", goldenPolicies, fixtures)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc compareDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Sessions) != 4 || len(doc.Policies) != 4 {
		t.Fatalf("%d sessions, %d policies; want 4 and 4", len(doc.Sessions), len(doc.Policies))
	}
	for i, p := range doc.Policies {
		var calls, compactions int
		var cost float64
		var peak int64
		for _, s := range doc.Sessions {
			m := s.Runs[i].Metrics
			calls += m.Calls
			compactions += m.Compactions
			cost += m.TotalCost
			peak = max(peak, m.PeakContext)
		}
		m := doc.Total.Runs[i].Metrics
		if doc.Total.Runs[i].Policy != p || m.Calls != calls || m.Compactions != compactions || m.PeakContext != peak || abs(m.TotalCost-cost) > 5e-6 {
			t.Errorf("%s: total %+v; sessions sum to calls %d, compactions %d, peak %d, cost %.6f", p, m, calls, compactions, peak, cost)
		}
	}
	if d := doc.Total.Runs[0].Delta; d.TotalCost != 0 || d.PeakContext != 0 {
		t.Errorf("the first policy's delta is %+v, want 0", d)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// compareDoc is the part of the compare JSON the tests read.
type compareDoc struct {
	Policies []string
	Sessions []compareScope
	Total    compareScope
	Fidelity []struct {
		Session   string
		Calls     int
		Mismatch  int `json:"prompt_mismatches"`
		Real      int `json:"real_auto_compaction_call"`
		Simulated int `json:"simulated_auto_compaction_call"`
	}
}

type compareScope struct {
	ID   string
	Runs []struct {
		Policy  string
		Metrics struct {
			Calls       int
			Compactions int
			PeakContext int64   `json:"peak_context"`
			TotalCost   float64 `json:"total_cost_usd"`
		}
		Delta struct {
			TotalCost   float64 `json:"total_cost_usd"`
			PeakContext int64   `json:"peak_context"`
		}
	}
}

func TestCompareErrors(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad/s2.jsonl", "// a comment\n"+goodLine+"\n")
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"unknown parameter", []string{"compare", "--policy", "observed,claude-code:windw=1000", demo}, exitUsage, `unknown parameter "windw"`},
		{"bad value", []string{"compare", "--policy", "claude-code:window=big", demo}, exitUsage, `window="big"`},
		{"unknown policy", []string{"compare", "--policy", "observed,nosuch", demo}, exitUsage, `unknown policy "nosuch"`},
		{"no policy", []string{"compare", "--policy", ",", demo}, exitUsage, "no policy given"},
		{"bad format", []string{"compare", "--format", "xml", demo}, exitUsage, `--format "xml"`},
		{"unknown simulation parameter", []string{"compare", "--sim-param", "second-turn=0", demo}, exitUsage, `--sim-param: unknown simulation parameter "second-turn" (known: estimate-from,`},
		{"bad simulation parameter", []string{"replay", "--policy", "claude-code", "--sim-param", "clock-slack=0s,gateway-ttl=0", demo}, exitUsage, "--sim-param: gateway-ttl=0: gateway-ttl takes a duration above 0"},
		{"simulation parameter without value", []string{"compare", "--sim-param", "cache-entries", demo}, exitUsage, `--sim-param: "cache-entries": want name=value`},
		{"section without csv", []string{"compare", "--section", "compare", demo}, exitUsage, "only with --format csv"},
		{"unknown section", []string{"compare", "--format", "csv", "--section", "usage", demo}, exitUsage, `--section "usage": want one of compare, comparisons, simulated_calls`},
		{"baseline not compared", []string{"compare", "--baseline", "none", demo}, exitUsage, "--baseline none: not one of --policy (observed, claude-code)"},
		{"unknown baseline", []string{"compare", "--baseline", "nosuch", demo}, exitUsage, `--baseline: unknown policy "nosuch"`},
		{"unknown stat", []string{"compare", "--stats", "cost_usd,nosuch", demo}, exitUsage, `--stats: unknown measure "nosuch"`},
		{"recorded stat", []string{"compare", "--stats", "duplicate_read_waste_tokens", demo}, exitUsage, "--stats duplicate_read_waste_tokens: a figure of the transcript alone"},
		{"stat twice", []string{"compare", "--stats", "cost_usd,cost_usd", demo}, exitUsage, "--stats cost_usd: listed twice"},
		{"empty stat", []string{"compare", "--stats", "cost_usd,", demo}, exitUsage, `--stats "cost_usd,": want comma-separated metric names`},
		{"negative bootstrap", []string{"compare", "--bootstrap", "-1", demo}, exitUsage, "--bootstrap -1: want 0 (no intervals) to 1000000"},
		{"huge bootstrap", []string{"compare", "--bootstrap", "1000001", demo}, exitUsage, "--bootstrap 1000001"},
		{"confidence 1", []string{"compare", "--confidence", "1", demo}, exitUsage, "--confidence 1: want a number between 0 and 1"},
		{"confidence 0", []string{"compare", "--confidence", "0", demo}, exitUsage, "--confidence 0: want"},
		{"alpha 0", []string{"compare", "--alpha", "0", demo}, exitUsage, "--alpha 0: want a number between 0 and 1"},
		{"alpha NaN", []string{"compare", "--alpha", "NaN", demo}, exitUsage, "--alpha NaN: want"},
		{"replay has no latex", []string{"replay", "--format", "latex", demo}, exitUsage, `--format "latex": want one of table, json, csv, markdown, html`},
		{"gate has no latex", []string{"gate", "--format", "latex", "--budget", "x.json", demo}, exitUsage, `--format "latex": want one of table, json, csv, markdown, junit, html`},
		{"calls section without --calls", []string{"compare", "--format", "csv", "--section", "simulated_calls", demo}, exitUsage, "needs --calls"},
		{"fidelity section without --fidelity", []string{"compare", "--format", "csv", "--section", "fidelity_summary", demo}, exitUsage, "needs --fidelity"},
		{"groups section without --by", []string{"compare", "--fidelity", "--format", "csv", "--section", "fidelity_groups", demo}, exitUsage, "--section fidelity_groups needs --by"},
		{"--by without --fidelity", []string{"compare", "--by", "version", demo}, exitUsage, "--by version needs --fidelity"},
		{"--by model", []string{"compare", "--fidelity", "--by", "model", demo}, exitUsage, `--by "model": want version or project`},
		{"replay unknown parameter", []string{"replay", "--policy", "claude-code:bogus=1", demo}, exitUsage, `unknown parameter "bogus"`},
		{"replay --calls without --policy", []string{"replay", "--calls", demo}, exitUsage, "--calls needs --policy"},
		{"replay --section simulation without --policy", []string{"replay", "--section", "simulation", demo}, exitUsage, "needs --policy"},
		{"policies takes no path", []string{"policies", demo}, exitUsage, `no policy "../../fixtures`},
		{"policies bad format", []string{"policies", "--format", "xml"}, exitUsage, `--format "xml"`},
		{"missing path", []string{"compare", dir + "/missing.jsonl"}, exitInput, "no session could be read"},
		{"malformed lines warn", []string{"compare", bad}, exitOK, bad + ":1: invalid JSON: a comment line"},
		{"strict", []string{"compare", "--strict", bad}, exitInput, "--strict"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := ctxlab(t, "", nil, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.code, errOut)
			}
			if !strings.Contains(errOut, tt.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tt.stderr, errOut)
			}
			if tt.code == exitUsage && out != "" {
				t.Errorf("a usage error printed a report:\n%s", out)
			}
		})
	}
}

func TestPoliciesUnknown(t *testing.T) {
	_, errOut, code := ctxlab(t, "", nil, "policies", "keep-last")
	if code != exitUsage || !strings.Contains(errOut, `no policy "keep-last" (want one of budget,`) {
		t.Errorf("exit %d, %q", code, errOut)
	}
}

// TestCompletion: shell completion offers policy names, then a policy's
// parameters, in replay's spec and in the last piece of compare's list.
func TestCompletion(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"__complete", "policies", ""}, []string{"claude-code", "keep-last-n", "observed"}},
		{[]string{"__complete", "replay", "--policy", "keep"}, []string{"keep-last-n", "keep-last-n:"}},
		{[]string{"__complete", "replay", "--policy", "keep-last-n:"}, []string{"keep-last-n:n=", "keep-last-n:polling="}},
		{[]string{"__complete", "replay", "--policy", "claude-code:pct=80,"}, []string{"claude-code:pct=80,window="}},
		{[]string{"__complete", "compare", "--policy", "observed,keep-last-n:"}, []string{"observed,keep-last-n:n="}},
		{[]string{"__complete", "replay", "--policy", "context-editing+keep"}, []string{"context-editing+keep-last-n:"}},
		{[]string{"__complete", "compare", "--by", ""}, []string{"version", "project"}},
	} {
		out, errOut, code := ctxlab(t, "", nil, tt.args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", tt.args, code, errOut)
		}
		lines := strings.Split(out, "\n")
		for _, w := range tt.want {
			if !slices.Contains(lines, w) {
				t.Errorf("%v: no %q in\n%s", tt.args, w, out)
			}
		}
	}
}

// TestColdStart: by default a simulated run starts with the prefix the
// session's first call read from the cache, so claude-code writes that
// much less over the demo session than with --cold-start (every call of
// it writes one-hour entries); the read is the transcript's own figure.
// The system prompt's entry is kept no longer than the session's own
// (shared-prefix-ttl=1h), so that the warm start does not also carry it
// over the demo's 20-hour gap.
func TestColdStart(t *testing.T) {
	var firstRead int64 = -1
	data, err := os.ReadFile(demo)
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if u := gjson.Get(line, "message.usage"); u.Exists() {
			firstRead = u.Get("cache_read_input_tokens").Int()
			break
		}
	}
	writes := func(args ...string) int64 {
		out, errOut, code := ctxlab(t, "", nil, append([]string{"compare", "--format", "csv", "--policy", "claude-code", "--sim-param", "shared-prefix-ttl=1h"}, append(args, demo)...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil || len(rows) != 2 {
			t.Fatalf("csv: %v\n%s", err, out)
		}
		n, err := strconv.ParseInt(rows[1][slices.Index(rows[0], "cache_write_1h")], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	warm, cold := writes(), writes("--cold-start")
	if firstRead <= 0 || cold-warm != firstRead {
		t.Errorf("claude-code writes %d, with --cold-start %d: %d apart, want the first call's read, %d", warm, cold, cold-warm, firstRead)
	}
}

// --sim-param moves the turn rules for the cache-break report too: with
// drop-thinking-until=0 the breaks realdata puts down to dropped thinking
// get the next cause that applies.
func TestSimParamMovesBreakCauses(t *testing.T) {
	dir := testcorpus.Dir(t, testcorpus.Realdata)
	causes := func(args ...string) map[string]int64 {
		out, errOut, code := ctxlab(t, "", nil, append([]string{"replay", "--format", "json"}, append(args, dir)...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		n := map[string]int64{}
		for _, b := range gjson.Get(out, "total.cache_breaks").Array() {
			n[b.Get("cause").String()]++
		}
		return n
	}
	on, off := causes(), causes("--sim-param", "drop-thinking-until=0")
	// Without the rule, 7 of the 9 are prompts the dropped thinking left
	// smaller (8 and 6 while the second-turn rule, off by default since,
	// named one of them first).
	if on["thinking_dropped"] != 9 || off["thinking_dropped"] != 0 ||
		off["prompt_shrank"]-on["prompt_shrank"] != 7 || off["unexplained"]-on["unexplained"] != 2 {
		t.Errorf("thinking_dropped, prompt_shrank, unexplained: %d, %d, %d; with drop-thinking-until=0: %d, %d, %d; want 9 fewer thinking_dropped, 7 more prompt_shrank, 2 more unexplained",
			on["thinking_dropped"], on["prompt_shrank"], on["unexplained"], off["thinking_dropped"], off["prompt_shrank"], off["unexplained"])
	}
}

// TestCompareStats: --baseline, --stats, --bootstrap, --confidence and
// --alpha reach the comparisons. On the fixtures' four sessions with
// observed as the baseline, claude-code's per-session total costs all
// rise, so W+ = 1+2+3+4 = 10, the largest of 16 equally likely sums:
// p = 2/16. Against none (baseline) the comparisons name none.
func TestCompareStats(t *testing.T) {
	type comp struct {
		Policy, Baseline, Metric string
		Sessions                 int
		TotalChangePct           *float64 `json:"total_change_pct"`
		Low                      *float64 `json:"total_change_ci_low_pct"`
		High                     *float64 `json:"total_change_ci_high_pct"`
		Median                   *float64 `json:"median_change_pct"`
		Geomean                  *float64 `json:"geomean_ratio"`
		P                        *float64 `json:"wilcoxon_p"`
		Significant              bool
		WilcoxonSignificant      bool `json:"wilcoxon_significant"`
	}
	type doc struct {
		Settings struct {
			Baseline     string
			Metrics      []string
			Resamples    int
			Confidence   float64
			Alpha        float64
			Significance string
		} `json:"comparison_settings"`
		Comparisons []comp
		Sessions    []struct {
			Runs []struct {
				Metrics struct {
					TotalCost float64 `json:"total_cost_usd"`
				}
			}
		}
	}
	run := func(args ...string) doc {
		t.Helper()
		out, errOut, code := ctxlab(t, "", nil, append([]string{"compare", "--format", "json"}, append(args, fixtures)...)...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		var d doc
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatal(err)
		}
		return d
	}
	d := run()
	if len(d.Comparisons) != 6 || d.Settings.Baseline != "observed" || d.Settings.Resamples != 10000 || d.Settings.Alpha != 0.05 ||
		d.Settings.Significance != "bootstrap_interval" {
		t.Fatalf("defaults: %+v", d)
	}
	// The interval, about [+36%, +65%], decides: significant; the
	// signed-rank test, whose smallest p for four sessions is 2/2⁴, is not.
	c := d.Comparisons[0]
	if c.Policy != "claude-code" || c.Metric != "total_cost_usd" || c.Sessions != 4 || *c.P != 0.125 || !c.Significant || c.WilcoxonSignificant || !(*c.Low > 0) {
		t.Errorf("first comparison %+v", c)
	}
	for _, c := range d.Comparisons {
		if c.Significant != (c.Low != nil && (*c.Low > 0 || *c.High < 0)) {
			t.Errorf("%s %s: significant %v beside [%v, %v]", c.Metric, c.Policy, c.Significant, *c.Low, *c.High)
		}
	}
	// docs/compare.md's worked example, by hand from the sessions' costs:
	// the change of the totals, the median of the four changes, the
	// geometric mean of the ratios. The change of the totals is a weighted
	// mean of the sessions' changes, so every resample's lies between the
	// smallest and the largest, and so does the interval.
	base := []float64{0.298592, 0.810974, 0.218059, 0.167404}
	val := []float64{0.487324, 0.922342, 0.279051, 0.282659}
	var sb, sv float64
	changes := make([]float64, 4)
	prod := 1.0
	for i := range base {
		sb, sv = sb+base[i], sv+val[i]
		changes[i] = 100 * (val[i]/base[i] - 1)
		prod *= val[i] / base[i]
	}
	for i, sess := range d.Sessions {
		if sess.Runs[0].Metrics.TotalCost != base[i] || sess.Runs[1].Metrics.TotalCost != val[i] {
			t.Errorf("session %d costs %v → %v, the docs say %v → %v", i, sess.Runs[0].Metrics.TotalCost, sess.Runs[1].Metrics.TotalCost, base[i], val[i])
		}
	}
	slices.Sort(changes) // +13.7, +28.0, +63.2, +68.8
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if !near(*c.TotalChangePct, 100*(sv/sb-1)) || !near(*c.TotalChangePct, 31.86205752530551) || !near(*c.Median, (changes[1]+changes[2])/2) ||
		!near(*c.Geomean, math.Pow(prod, 0.25)) {
		t.Errorf("change %v, median %v, geomean %v; want %v, %v, %v", *c.TotalChangePct, *c.Median, *c.Geomean, 100*(sv/sb-1), (changes[1]+changes[2])/2, math.Pow(prod, 0.25))
	}
	if *c.Low < changes[0] || *c.High > changes[3] || *c.Low > *c.TotalChangePct || *c.High < *c.TotalChangePct {
		t.Errorf("interval [%v, %v]: want within [%v, %v] around %v", *c.Low, *c.High, changes[0], changes[3], *c.TotalChangePct)
	}
	// A wider interval at a higher confidence; no interval, and nothing
	// significant, without resamples; significant by rank once α is above
	// p, which moves nothing else.
	wide := run("--confidence", "0.99").Comparisons[0]
	if *wide.Low > *c.Low || *wide.High < *c.High {
		t.Errorf("99%% [%v, %v] narrower than 95%% [%v, %v]", *wide.Low, *wide.High, *c.Low, *c.High)
	}
	if c := run("--bootstrap", "0").Comparisons[0]; c.Low != nil || c.High != nil || c.TotalChangePct == nil || c.Significant {
		t.Errorf("--bootstrap 0: %+v", c)
	}
	if c := run("--alpha", "0.2").Comparisons[0]; !c.WilcoxonSignificant || !c.Significant {
		t.Errorf("--alpha 0.2: p 0.125 not significant by rank: %+v", c)
	}
	d = run("--policy", "observed,none,claude-code", "--baseline", "none", "--stats", "cache_write, compactions")
	want := []string{"cache_write observed", "cache_write claude-code", "compactions observed", "compactions claude-code"}
	if len(d.Comparisons) != len(want) {
		t.Fatalf("%d comparisons, want %d", len(d.Comparisons), len(want))
	}
	for i, c := range d.Comparisons {
		if got := c.Metric + " " + c.Policy; got != want[i] || c.Baseline != "none" {
			t.Errorf("comparison %d: %s against %s, want %s against none", i, got, c.Baseline, want[i])
		}
	}
	// none never compacts: 0 of the baseline, no change to compute.
	if c := d.Comparisons[2]; c.TotalChangePct != nil || c.Low != nil {
		t.Errorf("against a baseline total of 0: %+v", c)
	}
}

// TestLaTeXStructure checks compare's and sweep's LaTeX without a LaTeX
// compiler: every table float holds one booktabs tabular whose rules come
// in order, every row has as many cells as the column specification, and
// no cell holds a character LaTeX would read as markup.
func TestLaTeXStructure(t *testing.T) {
	escapes := regexp.MustCompile(`\\(textasciitilde|textasciicircum|textbackslash|textbar|ldots|allowbreak)\{\}|\\[_%&#{}]|\$(-|<|>|\\geq|\\leq|\\Delta|\\times|\\alpha|\\pm|\\rightarrow|\^2|\\\$|\\dagger)\$|-\{\}`)
	// A wrapped cell: its \parbox and the \mbox of each piece of a name.
	parbox := regexp.MustCompile(`^\\parbox\[t\]\{[0-9.]+em\}\{\\raggedright (.*)\\strut\}$`)
	mbox := regexp.MustCompile(`\\mbox\{((?:[^{}]|\{\})*)\}`)
	for _, args := range [][]string{
		{"compare", "--detail", "--policy", goldenPolicies, "--fidelity", "--calls", "--format", "latex", fixtures},
		{"sweep", "--policy", "keep-last-n", "--vary", "n=3,10", "--pareto", "total_cost_usd,peak_context", "--format", "latex", fixtures},
	} {
		out, errOut, code := ctxlab(t, "", nil, args...)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", args[0], code, errOut)
		}
		if !strings.HasPrefix(out, "% needs \\usepackage{booktabs}") {
			t.Errorf("%s: no preamble line", args[0])
		}
		tables := strings.Split(out, "\\begin{table}[htbp]\n")[1:]
		if len(tables) < 2 {
			t.Fatalf("%s: %d tables", args[0], len(tables))
		}
		for i, tb := range tables {
			end := strings.Index(tb, "\\end{table}\n")
			if end < 0 || strings.Count(tb[:end], "\\begin{tabular}") != 1 {
				t.Fatalf("%s table %d: not one tabular in one float:\n%s", args[0], i, tb)
			}
			body := tb[:end]
			top, mid, bottom := strings.Index(body, "\\toprule\n"), strings.Index(body, "\\midrule\n"), strings.Index(body, "\\bottomrule\n")
			if top < 0 || mid < top || bottom < mid || strings.Count(body, "rule\n") != 3 {
				t.Errorf("%s table %d: rules out of order:\n%s", args[0], i, body)
			}
			spec := regexp.MustCompile(`\\begin\{tabular\}\{([lr]+)\}`).FindStringSubmatch(body)
			if spec == nil {
				t.Fatalf("%s table %d: no column specification", args[0], i)
			}
			for _, line := range strings.Split(body[top:bottom], "\n") {
				row, ok := strings.CutSuffix(line, " \\\\")
				if !ok || strings.HasPrefix(row, "\\multicolumn") {
					continue
				}
				cells := strings.Split(row, " & ")
				if len(cells) != len(spec[1]) {
					t.Errorf("%s table %d: %d cells for %d columns: %s", args[0], i, len(cells), len(spec[1]), line)
				}
				for _, c := range cells {
					c = mbox.ReplaceAllString(parbox.ReplaceAllString(c, "$1"), "$1")
					if bare := escapes.ReplaceAllString(c, ""); strings.ContainsAny(bare, `\_%$&#{}~^<>|`) {
						t.Errorf("%s table %d: unescaped markup in %q", args[0], i, c)
					}
				}
			}
		}
	}
}
