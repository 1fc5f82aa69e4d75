package report_test

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/internal/testcorpus/corpusload"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/report"
	"github.com/ctxlab/ctxlab/simulate"
	"github.com/ctxlab/ctxlab/simulate/fidelity"
	"github.com/ctxlab/ctxlab/simulate/metric"
	"github.com/ctxlab/ctxlab/simulate/paired"
	"github.com/ctxlab/ctxlab/simulate/sweep"
)

// These tests keep docs/json-schema.md true: every field the JSON output
// can hold is documented with the right type and omission rule, every
// documented field exists, and the example is a faithful excerpt.

const (
	schemaDoc   = "../docs/json-schema.md"
	demoFixture = "../fixtures/testdata/projects/-home-dev-demo/d3e4f5a6-b7c8-4d9e-a0f1-b2c3d4e5f6a7.jsonl"
	fieldHeader = "| Field | Type | Unit | Omitted when | Meaning |"

	corpusFixtures = "../fixtures/testdata/projects"
)

// docField is one row of a field table in the schema doc.
type docField struct {
	path    string // expanded, e.g. sessions[].usage.by_model[].calls
	typ     string // string, integer, number, boolean, object, array of strings, array of objects
	null    bool   // the type says "or null"
	omitted string // "never" or the condition under which the field is absent
	line    int
}

// schemaDocument is the part of the doc that describes one JSON document
// (one "schema" value). The page describes ctxlab.replay first; a level-2
// heading naming another schema in backticks ("## Compare document
// (`ctxlab.compare`)") starts that schema's part.
type schemaDocument struct {
	fields  map[string]docField
	aliases [][2]string // {alias, canonical}: alias.x is documented as canonical.x
	example string      // the json schema-example block
	line    int         // where the part starts
}

// schemaImport is "`a` has the shape of `b` in `ctxlab.x`.": the fields
// below b in schema x's part are documented for a as well.
type schemaImport struct {
	schema, alias, from, canonical string
	line                           int
}

var docTypes = []string{"string", "integer", "number", "boolean", "object", "array of strings", "array of objects"}

var (
	aliasRE   = regexp.MustCompile("^`([^`]+)` has the shape of `([^`]+)`\\.?$")
	importRE  = regexp.MustCompile("^`([^`]+)` has the shape of `([^`]+)` in `(ctxlab\\.[a-z]+)`\\.?$")
	sectionRE = regexp.MustCompile("^## .*`(ctxlab\\.[a-z]+)`")
)

const replaySchema = "ctxlab.replay"

// readSchemaDoc reads the part of the doc that describes schema.
func readSchemaDoc(t *testing.T, schema string) *schemaDocument {
	t.Helper()
	parts := readSchemaParts(t)
	d, ok := parts[schema]
	if !ok {
		t.Fatalf("%s: no part describes %s (a \"## …`%s`…\" heading)", schemaDoc, schema, schema)
	}
	return d
}

func readSchemaParts(t *testing.T) map[string]*schemaDocument {
	t.Helper()
	raw, err := os.ReadFile(schemaDoc)
	if err != nil {
		t.Fatal(err)
	}
	parts := map[string]*schemaDocument{}
	examples := map[string]int{}
	var imports []schemaImport
	cur := replaySchema
	part := func() *schemaDocument {
		if parts[cur] == nil {
			parts[cur] = &schemaDocument{fields: map[string]docField{}}
		}
		return parts[cur]
	}
	lines := strings.Split(string(raw), "\n")
	inTable := false
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		n := i + 1
		if m := sectionRE.FindStringSubmatch(line); m != nil {
			if parts[m[1]] != nil {
				t.Errorf("%s:%d: a second part for %s", schemaDoc, n, m[1])
			}
			cur = m[1]
			part().line = n
			continue
		}
		d := part()
		if line == fieldHeader {
			inTable = true
			i++ // the |---| separator
			continue
		}
		if inTable && !strings.HasPrefix(line, "|") {
			inTable = false
		}
		if inTable {
			cells := strings.Split(strings.Trim(line, "|"), "|")
			if len(cells) != 5 {
				t.Errorf("%s:%d: want 5 cells, got %d (no '|' in meanings): %s", schemaDoc, n, len(cells), line)
				continue
			}
			for j := range cells {
				cells[j] = strings.TrimSpace(cells[j])
			}
			p := cells[0]
			if len(p) < 3 || p[0] != '`' || p[len(p)-1] != '`' || strings.Count(p, "`") != 2 {
				t.Errorf("%s:%d: first cell must be a path in backticks: %q", schemaDoc, n, p)
				continue
			}
			typ, null := strings.CutSuffix(cells[1], " or null")
			if !slices.Contains(docTypes, typ) {
				t.Errorf("%s:%d: type %q: want one of %q, optionally followed by \" or null\"", schemaDoc, n, cells[1], docTypes)
			}
			if cells[2] == "" || cells[3] == "" || cells[4] == "" {
				t.Errorf("%s:%d: empty unit, omission or meaning cell", schemaDoc, n)
			}
			for _, path := range expandBraces(strings.Trim(p, "`")) {
				if prev, dup := d.fields[path]; dup {
					t.Errorf("%s:%d: %s documented twice (first on line %d)", schemaDoc, n, path, prev.line)
				}
				d.fields[path] = docField{path: path, typ: typ, null: null, omitted: cells[3], line: n}
			}
			continue
		}
		if m := importRE.FindStringSubmatch(line); m != nil {
			imports = append(imports, schemaImport{schema: cur, alias: m[1], canonical: m[2], from: m[3], line: n})
			continue
		}
		if m := aliasRE.FindStringSubmatch(line); m != nil {
			d.aliases = append(d.aliases, [2]string{m[1], m[2]})
			continue
		}
		if line == "```json schema-example" {
			examples[cur]++
			var b strings.Builder
			for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
				b.WriteString(lines[i])
				b.WriteByte('\n')
			}
			if i == len(lines) {
				t.Fatalf("%s:%d: unterminated schema-example block", schemaDoc, n)
			}
			d.example = b.String()
		}
	}
	for _, im := range imports {
		src, dst := parts[im.from], parts[im.schema]
		if src == nil {
			t.Errorf("%s:%d: no part describes %s", schemaDoc, im.line, im.from)
			continue
		}
		copied := 0
		for _, p := range sortedKeys(src.fields) {
			rest, ok := strings.CutPrefix(p, im.canonical+".")
			if !ok {
				continue
			}
			f := src.fields[p]
			f.path = im.alias + "." + rest
			if prev, dup := dst.fields[f.path]; dup {
				t.Errorf("%s:%d: %s documented twice (also on line %d)", schemaDoc, im.line, f.path, prev.line)
			}
			dst.fields[f.path] = f
			copied++
		}
		if copied == 0 {
			t.Errorf("%s:%d: %s documents nothing below %s", schemaDoc, im.line, im.from, im.canonical)
		}
	}
	for name, d := range parts {
		if len(d.fields) == 0 {
			t.Fatalf("%s: no field table rows for %s (tables start with %q)", schemaDoc, name, fieldHeader)
		}
		if examples[name] != 1 {
			t.Fatalf("%s: want exactly one ```json schema-example block for %s, found %d", schemaDoc, name, examples[name])
		}
	}
	return parts
}

// expandBraces expands a{b,c}d into abd and acd; braces do not nest.
func expandBraces(p string) []string {
	i := strings.IndexByte(p, '{')
	if i < 0 {
		return []string{p}
	}
	j := strings.IndexByte(p[i:], '}')
	if j < 0 {
		return []string{p}
	}
	j += i
	var out []string
	for _, alt := range strings.Split(p[i+1:j], ",") {
		for _, rest := range expandBraces(p[j+1:]) {
			out = append(out, p[:i]+strings.TrimSpace(alt)+rest)
		}
	}
	return out
}

// canonical rewrites a path below an alias ("total.summary.id") to the
// path it is documented under ("sessions[].summary.id"). The alias itself
// ("total") is documented on its own.
func (d *schemaDocument) canonical(path string) string {
	for changed := true; changed; {
		changed = false
		for _, a := range d.aliases {
			if rest, ok := strings.CutPrefix(path, a[0]+"."); ok {
				path, changed = a[1]+"."+rest, true
			}
		}
	}
	return path
}

// demoJSON runs the real pipeline on the demo fixture as `ctxlab replay
// --format json --policy claude-code` does and returns the JSON.
func demoJSON(t *testing.T) []byte {
	t.Helper()
	out, n := replayJSON(t, demoFixture, "claude-code")
	if n != 1 {
		t.Fatalf("%s: %d sessions, want 1", demoFixture, n)
	}
	return out
}

func parsePolicy(t *testing.T, spec string) simulate.Policy {
	t.Helper()
	p, err := policies.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// replayJSON runs the real pipeline on path as `ctxlab replay --format
// json [--policy policy]` does, and returns the JSON and the number of
// sessions.
func replayJSON(t *testing.T, path, policy string) ([]byte, int) {
	t.Helper()
	cfg := accounting.DefaultConfig()
	var reps []*accounting.Report
	var sims []*simulate.Result
	sessions := corpusload.Path(t, path)
	for _, s := range sessions {
		reps = append(reps, accounting.Analyze(s, cfg))
		if policy != "" {
			sims = append(sims, simulate.Run(simulate.Prepare(s), parsePolicy(t, policy), simulate.DefaultConfig()))
		}
	}
	doc := report.NewDocument(reps, cfg.Prices, nil)
	for i := range sims {
		doc.Sessions[i].Simulation = sims[i]
	}
	var buf bytes.Buffer
	if err := report.WriteJSON(&buf, doc); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return buf.Bytes(), len(sessions)
}

// groupsJSON is `ctxlab replay --by by --format json` on the fixtures.
func groupsJSON(t *testing.T, by accounting.GroupBy) []byte {
	t.Helper()
	cfg := accounting.DefaultConfig()
	var reps []*accounting.Report
	for _, s := range corpusload.Path(t, corpusFixtures) {
		reps = append(reps, accounting.Analyze(s, cfg))
	}
	doc := report.NewDocument(reps, cfg.Prices, nil)
	var total accounting.Group
	doc.By = string(by)
	doc.Groups, total = accounting.GroupsIn(reps, by, nil, cfg.Prices, accounting.Window{})
	doc.GroupsTotal = &total
	var buf bytes.Buffer
	if err := report.WriteJSON(&buf, doc); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return buf.Bytes()
}

// compareJSON runs the real pipeline on path as `ctxlab compare --format
// json --fidelity --policy specs` does.
func compareJSON(t *testing.T, path string, specs ...string) []byte {
	t.Helper()
	var runs []*report.Compared
	var fid []report.Fidelity
	for _, s := range corpusload.Path(t, path) {
		tr := simulate.Prepare(s)
		var res []*simulate.Result
		for _, spec := range specs {
			res = append(res, simulate.Run(tr, parsePolicy(t, spec), simulate.DefaultConfig()))
		}
		runs = append(runs, report.NewCompared(s, res, true))
		obs := simulate.Run(tr, parsePolicy(t, "observed"), simulate.DefaultConfig())
		cc := simulate.Run(tr, parsePolicy(t, "claude-code"), simulate.DefaultConfig())
		fid = append(fid, fidelity.New(s, tr, obs, cc, fidelity.DefaultTolerances()))
	}
	doc := report.NewCompareDocument(specs, runs, fid, prices.Default(), nil)
	doc.Compare(0, comparisonMeasures(t), paired.Options{Resamples: 200})
	var buf bytes.Buffer
	if err := report.WriteJSON(&buf, doc); err != nil {
		t.Fatalf("WriteJSON: %v", err)
	}
	return buf.Bytes()
}

// comparisonMeasures are compare's default --stats.
func comparisonMeasures(t *testing.T) []metric.Metric {
	var ms []metric.Metric
	for _, name := range report.DefaultComparisonMetrics {
		m, err := metric.LookupMeasure(name)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	return ms
}

// sweepJSON runs the real pipeline on path as `ctxlab sweep --format json
// --policy keep-last-n --vary n=2,8 --constraint peak_context<=24000
// --pareto total_cost_usd,clearings` does: every point against observed,
// run apart on every session.
func sweepJSON(t *testing.T, path string) []byte {
	t.Helper()
	var points []sweep.Point
	for _, n := range []string{"2", "8"} {
		points = append(points, sweep.Point{Spec: "keep-last-n:n=" + n, Base: "keep-last-n", Values: map[string]string{"n": n}})
	}
	var rows []sweep.Row
	var base []report.SweepRow
	var inputs []report.SweepInput
	for _, s := range corpusload.Path(t, path) {
		tr := simulate.Prepare(s)
		inputs = append(inputs, report.SweepInput{Path: s.Path, SHA256: "00"})
		for i, p := range points {
			r := simulate.Run(tr, parsePolicy(t, p.Spec), simulate.DefaultConfig())
			rows = append(rows, sweep.Row{Point: i, Session: s.ID, Project: s.Project, Metrics: r.Metrics})
		}
		r := simulate.Run(tr, parsePolicy(t, "observed"), simulate.DefaultConfig())
		base = append(base, report.SweepRow{Session: s.ID, Project: s.Project, Metrics: r.Metrics})
	}
	cost, _ := metric.Lookup("total_cost_usd")
	clear, _ := metric.Lookup("clearings")
	con, err := sweep.ParseConstraint("peak_context<=24000")
	if err != nil {
		t.Fatal(err)
	}
	grid := report.SweepGrid{Policies: []string{"keep-last-n"}, Vary: []sweep.Vary{{Param: "n", Values: []string{"2", "8"}}},
		Defaults: map[string]map[string]string{"keep-last-n": {"n": "10", "polling": "1"}}, Points: points}
	doc := report.NewSweepDocument("devel", grid, cost, []sweep.Constraint{con}, []metric.Metric{cost, clear}, inputs, rows, nil)
	doc.Compare("observed", base, paired.Options{Resamples: 200})
	var buf bytes.Buffer
	if err := report.WriteJSON(&buf, doc); err != nil {
		t.Fatalf("WriteJSON: %v", err)
	}
	return buf.Bytes()
}

// policiesJSON is `ctxlab policies --format json`.
func policiesJSON(t *testing.T) []byte {
	t.Helper()
	var list []report.PolicyInfo
	for _, e := range policies.Registry {
		p := report.PolicyInfo{Name: e.Name, Doc: e.Doc, Source: e.Source}
		for _, a := range e.Params {
			p.Params = append(p.Params, report.ParamInfo{Name: a.Name, Default: a.Default, Range: a.Range, Doc: a.Doc})
		}
		list = append(list, p)
	}
	var buf bytes.Buffer
	if err := report.WriteJSON(&buf, report.NewPolicyList(list)); err != nil {
		t.Fatalf("WriteJSON: %v", err)
	}
	return buf.Bytes()
}

func allPolicies() []string {
	var out []string
	for _, e := range policies.Registry {
		out = append(out, e.Name)
	}
	return out
}

// schemaCase is one JSON document the page describes.
type schemaCase struct {
	schema string
	goType reflect.Type
	// outputs are real documents whose every key must be documented;
	// example is the one the doc's example is an excerpt of.
	outputs    func(t *testing.T) [][]byte
	example    func(t *testing.T) []byte
	minExample int // key paths the example must have at least
	alias      string
}

var schemaCases = []schemaCase{
	{
		schema: replaySchema, goType: reflect.TypeOf(report.Document{}),
		outputs: func(t *testing.T) [][]byte {
			// The demo fixture, and every fixture as one corpus (several
			// sessions, rows with a session, all compaction kinds), plain
			// and under a policy that compacts (summaries, actions).
			corpus, n := replayJSON(t, corpusFixtures, "")
			if n < 2 {
				t.Fatalf("%s: %d sessions, want several", corpusFixtures, n)
			}
			compacting, _ := replayJSON(t, corpusFixtures, "claude-code:window=55000")
			return [][]byte{demoJSON(t), corpus, compacting}
		},
		example: demoJSON, minExample: 20, alias: "`total` has the shape of `sessions[]`",
	},
	{
		schema: report.SchemaGroups, goType: reflect.TypeOf(report.GroupsDocument{}),
		outputs: func(t *testing.T) [][]byte {
			return [][]byte{groupsJSON(t, accounting.ByMonth), groupsJSON(t, accounting.ByModel), groupsJSON(t, accounting.BySession), groupsJSON(t, accounting.ByBlock)}
		},
		example:    func(t *testing.T) []byte { return groupsJSON(t, accounting.ByMonth) },
		minExample: 20, alias: "`groups_total` has the shape of `groups[]`",
	},
	{
		schema: "ctxlab.compare", goType: reflect.TypeOf(report.CompareDocument{}),
		outputs: func(t *testing.T) [][]byte {
			return [][]byte{
				compareJSON(t, demoFixture, "observed", "claude-code"),
				compareJSON(t, corpusFixtures, allPolicies()...),
			}
		},
		example:    func(t *testing.T) []byte { return compareJSON(t, demoFixture, "observed", "claude-code") },
		minExample: 20, alias: "`total` has the shape of `sessions[]`",
	},
	{
		schema: report.SchemaSweep, goType: reflect.TypeOf(report.SweepDocument{}),
		outputs: func(t *testing.T) [][]byte {
			return [][]byte{sweepJSON(t, demoFixture), sweepJSON(t, corpusFixtures)}
		},
		example:    func(t *testing.T) []byte { return sweepJSON(t, demoFixture) },
		minExample: 30, alias: "`baseline.rows[]` has the shape of `rows[]`",
	},
	{
		schema: "ctxlab.policies", goType: reflect.TypeOf(report.PolicyList{}),
		outputs:    func(t *testing.T) [][]byte { return [][]byte{policiesJSON(t)} },
		example:    policiesJSON,
		minExample: 8,
	},
}

func decodeObject(t *testing.T, what string, data []byte) map[string]any {
	t.Helper()
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s: invalid JSON: %v", what, err)
	}
	if dec.More() {
		t.Fatalf("%s: more than one JSON value", what)
	}
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s: not a JSON object", what)
	}
	return m
}

// jsonField is one occurrence of a key in decoded JSON.
type jsonField struct {
	path  string // concrete: total.usage.by_thread[].name
	value any
}

// walkJSON lists every key of v, depth first. Arrays add "[]" to the path;
// arrays of scalars are not descended into (their element type is checked
// against the documented type instead).
func walkJSON(prefix string, v any, out *[]jsonField) {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			*out = append(*out, jsonField{p, v[k]})
			walkJSON(p, v[k], out)
		}
	case []any:
		for _, e := range v {
			if _, ok := e.(map[string]any); ok {
				walkJSON(prefix+"[]", e, out)
			}
		}
	}
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// matchesDocType reports whether a decoded JSON value fits a documented type.
func matchesDocType(f docField, v any) bool {
	if v == nil {
		return f.null
	}
	switch f.typ {
	case "integer":
		n, ok := v.(float64)
		return ok && n == math.Trunc(n)
	case "number", "string", "boolean", "object":
		return jsonType(v) == f.typ
	case "array of strings", "array of objects":
		a, ok := v.([]any)
		if !ok {
			return false
		}
		want := "string"
		if f.typ == "array of objects" {
			want = "object"
		}
		for _, e := range a {
			if jsonType(e) != want {
				return false
			}
		}
		return true
	}
	return false
}

// goField is a JSON field as the Go types declare it.
type goField struct {
	path      string
	typ       string // as in docTypes
	omitempty bool
	// keyed: a Go map, whose keys are data (parameter names), not fields.
	keyed bool
}

// walkType lists the JSON fields encoding/json writes for type t.
func walkType(t *testing.T, prefix string, typ reflect.Type, out map[string]goField) {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	if typ.Kind() != reflect.Struct {
		return
	}
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		if !f.IsExported() && !f.Anonymous {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			walkType(t, prefix, ft, out) // embedded: fields are promoted
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		p := name
		if prefix != "" {
			p = prefix + "." + name
		}
		gf := goField{path: p, omitempty: slices.Contains(strings.Split(opts, ","), "omitempty")}
		if ft == reflect.TypeFor[replay.Time]() { // an RFC 3339 string (TestTime in replay)
			gf.typ = "string"
			out[p] = gf
			continue
		}
		if customJSON(ft) {
			t.Errorf("%s: Go type %s marshals itself; the schema test cannot see its JSON type", p, ft)
		}
		switch ft.Kind() {
		case reflect.String:
			gf.typ = "string"
		case reflect.Bool:
			gf.typ = "boolean"
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			gf.typ = "integer"
		case reflect.Float32, reflect.Float64:
			gf.typ = "number"
		case reflect.Struct, reflect.Map:
			gf.typ = "object"
			gf.keyed = ft.Kind() == reflect.Map
			walkType(t, p, ft, out)
		case reflect.Slice, reflect.Array:
			et := ft.Elem()
			for et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			switch et.Kind() {
			case reflect.String:
				gf.typ = "array of strings"
			case reflect.Struct:
				gf.typ = "array of objects"
				walkType(t, p+"[]", et, out)
			default:
				t.Errorf("%s: Go type %s: the schema test knows no JSON type for it; extend docTypes", p, ft)
			}
		default:
			t.Errorf("%s: Go type %s: the schema test knows no JSON type for it; extend docTypes", p, ft)
		}
		out[p] = gf
	}
}

// customJSON reports whether encoding/json leaves t's encoding to t.
func customJSON(t reflect.Type) bool {
	for _, i := range []reflect.Type{
		reflect.TypeFor[json.Marshaler](), reflect.TypeFor[encoding.TextMarshaler](),
	} {
		if t.Implements(i) || reflect.PointerTo(t).Implements(i) {
			return true
		}
	}
	return false
}

// TestJSONSchemaDocumented checks docs/json-schema.md against the Go types
// and against real output, for each document it describes.
func TestJSONSchemaDocumented(t *testing.T) {
	parts := readSchemaParts(t)
	for _, sc := range schemaCases {
		if parts[sc.schema] == nil {
			t.Errorf("%s: no part describes %s", schemaDoc, sc.schema)
		}
	}
	if len(parts) != len(schemaCases) {
		t.Errorf("%s describes %d documents, the test knows %d", schemaDoc, len(parts), len(schemaCases))
	}
	for _, sc := range schemaCases {
		t.Run(sc.schema, func(t *testing.T) { checkDocumented(t, sc) })
	}
}

func checkDocumented(t *testing.T, sc schemaCase) {
	d := readSchemaDoc(t, sc.schema)
	if sc.alias != "" && !slices.ContainsFunc(d.aliases, func(a [2]string) bool { return "`"+a[0]+"` has the shape of `"+a[1]+"`" == sc.alias }) {
		t.Errorf("%s: no line \"%s.\" in the part for %s", schemaDoc, sc.alias, sc.schema)
	}
	for path, f := range d.fields {
		if c := d.canonical(path); c != path {
			t.Errorf("%s:%d: %s is below an alias; document it as %s", schemaDoc, f.line, path, c)
		}
	}

	// Every field the Go types can write, omitempty ones included.
	goFields := map[string]goField{}
	walkType(t, "", sc.goType, goFields)
	canonGo := map[string]goField{}
	for _, p := range sortedKeys(goFields) {
		gf := goFields[p]
		c := d.canonical(p)
		if prev, ok := canonGo[c]; ok {
			if prev.typ != gf.typ || prev.omitempty != gf.omitempty {
				t.Errorf("%s and its alias %s differ in Go: %+v, %+v", prev.path, p, prev, gf)
			}
			continue // checked once
		}
		canonGo[c] = gf
		df, ok := d.fields[c]
		if !ok {
			t.Errorf("field %s (json tag in the Go types) is not documented in %s", c, schemaDoc)
			continue
		}
		if df.typ != gf.typ {
			t.Errorf("%s:%d: %s documented as %s, Go type gives %s", schemaDoc, df.line, c, df.typ, gf.typ)
		}
		if never := df.omitted == "never"; never == gf.omitempty {
			t.Errorf("%s:%d: %s: Omitted when %q, but omitempty is %v in Go", schemaDoc, df.line, c, df.omitted, gf.omitempty)
		}
	}
	for _, p := range sortedKeys(d.fields) {
		if _, ok := canonGo[p]; !ok {
			t.Errorf("%s:%d: %s is documented but no Go type writes it", schemaDoc, d.fields[p].line, p)
		}
	}

	// Every key of the real output is documented, with a value of its
	// type; the keys of a map are its data.
	seen := map[string]bool{}
	underMap := func(c string) bool {
		for p, gf := range canonGo {
			if gf.keyed && strings.HasPrefix(c, p+".") {
				return true
			}
		}
		return false
	}
	for _, out := range sc.outputs(t) {
		var fields []jsonField
		walkJSON("", decodeObject(t, sc.schema+" JSON", out), &fields)
		if len(fields) == 0 {
			t.Fatal("empty output")
		}
		for _, f := range fields {
			c := d.canonical(f.path)
			if underMap(c) {
				continue
			}
			df, ok := d.fields[c]
			if !ok {
				if !seen[c] {
					t.Errorf("output field %s (%s) is not documented in %s", f.path, jsonType(f.value), schemaDoc)
				}
				seen[c] = true
				continue
			}
			if !matchesDocType(df, f.value) {
				t.Errorf("output field %s = %v (%s) does not fit the documented type %q", f.path, f.value, jsonType(f.value), df.typ)
			}
		}
	}
}

// TestJSONSchemaExample checks that each example is valid JSON and a
// structural subset of the real output: every key path exists there, with a
// value of the same JSON type.
func TestJSONSchemaExample(t *testing.T) {
	for _, sc := range schemaCases {
		t.Run(sc.schema, func(t *testing.T) { checkExample(t, sc) })
	}
}

func checkExample(t *testing.T, sc schemaCase) {
	d := readSchemaDoc(t, sc.schema)
	example := decodeObject(t, schemaDoc+": schema-example of "+sc.schema, []byte(d.example))
	var exFields, realFields []jsonField
	walkJSON("", example, &exFields)
	walkJSON("", decodeObject(t, sc.schema+" JSON", sc.example(t)), &realFields)

	// Arrays of scalars also compare their element types.
	types := func(fs []jsonField) map[string]map[string]bool {
		m := map[string]map[string]bool{}
		add := func(p, typ string) {
			if m[p] == nil {
				m[p] = map[string]bool{}
			}
			m[p][typ] = true
		}
		for _, f := range fs {
			add(f.path, jsonType(f.value))
			if a, ok := f.value.([]any); ok {
				for _, e := range a {
					if typ := jsonType(e); typ != "object" {
						add(f.path+"[]", typ)
					}
				}
			}
		}
		return m
	}
	ex, real := types(exFields), types(realFields)
	if len(ex) < sc.minExample {
		t.Errorf("the example has only %d key paths; keep it a real excerpt", len(ex))
	}
	for _, p := range sortedKeys(ex) {
		for typ := range ex[p] {
			switch {
			case real[p] == nil:
				t.Errorf("example key %s does not occur in the real output", p)
			case !real[p][typ]:
				t.Errorf("example key %s is %s; in the real output it is %v", p, typ, sortedKeys(real[p]))
			}
		}
	}
	if example["schema"] != sc.schema || example["version"] != float64(report.Version(sc.schema)) {
		t.Errorf("example: schema %v version %v, want %s %d", example["schema"], example["version"], sc.schema, report.Version(sc.schema))
	}
}

// TestJSONSchemaVersion checks the identifying fields of the output and that
// the doc describes the current version.
func TestJSONSchemaVersion(t *testing.T) {
	for _, sc := range schemaCases {
		out := decodeObject(t, sc.schema+" JSON", sc.example(t))
		if out["schema"] != sc.schema {
			t.Errorf(`"schema" = %v, want %q`, out["schema"], sc.schema)
		}
		if v, ok := out["version"].(float64); !ok || v != float64(report.Version(sc.schema)) {
			t.Errorf(`%s: "version" = %v, want %d`, sc.schema, out["version"], report.Version(sc.schema))
		}
	}
	raw, err := os.ReadFile(schemaDoc)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(raw)), " ")
	want := fmt.Sprintf("this page describes `%s`, `%s` and `%s` version %d, and `%s` and `%s` version %d", report.SchemaReplay, report.SchemaPolicies, report.SchemaGroups,
		report.SchemaVersion, report.SchemaCompare, report.SchemaSweep, report.CompareVersion)
	if !strings.Contains(text, want) || report.SweepVersion != report.CompareVersion {
		t.Errorf("%s does not say %q", schemaDoc, want)
	}
	for _, sc := range schemaCases {
		if want := fmt.Sprintf("Always `%s`[^|]*\\| \\| `version` \\| integer \\| — \\| never \\| Schema version: `%d` on this page\\.",
			regexp.QuoteMeta(sc.schema), report.Version(sc.schema)); !regexp.MustCompile(want).MatchString(text) {
			t.Errorf("%s does not say %q", schemaDoc, want)
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
