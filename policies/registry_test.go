package policies

import (
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ctxlab/ctxlab/simulate"
)

var (
	nameRE  = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)
	paramRE = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
)

// TestRegistry validates every entry, as go/analysis validates analyzers,
// and the order `ctxlab policies` lists them in.
func TestRegistry(t *testing.T) {
	order := []string{"observed", "none", "claude-code", "claude-code-sm",
		"threshold", "keep-last-n", "context-editing", "budget", "partial", "summary-nm"}
	var listed []string
	for i, e := range Registry {
		if i != len(listed) {
			t.Errorf("%s: place %d, want %d", e.Name, i, len(listed))
		}
		listed = append(listed, e.Name)
	}
	if strings.Join(listed, " ") != strings.Join(order, " ") {
		t.Errorf("Registry lists %v, want %v", listed, order)
	}
	sorted := slices.Sorted(slices.Values(order))
	if got := Names(); !slices.Equal(got, sorted) {
		t.Errorf("Names() = %v, want %v", got, sorted)
	}
	seen := map[string]bool{}
	for _, e := range Registry {
		if !nameRE.MatchString(e.Name) {
			t.Errorf("%q: not a lowercase-hyphenated name", e.Name)
		}
		if seen[e.Name] {
			t.Errorf("%q registered twice", e.Name)
		}
		seen[e.Name] = true
		if e.Doc == "" || !strings.HasSuffix(e.Doc, ".") || e.Source == "" {
			t.Errorf("%s: doc %q (want a sentence), source %q", e.Name, e.Doc, e.Source)
		}
		params := map[string]bool{}
		for _, p := range e.Params {
			if !paramRE.MatchString(p.Name) || params[p.Name] || p.Doc == "" || p.Range == "" {
				t.Errorf("%s: parameter %q: bad or repeated name, or no doc or range", e.Name, p.Name)
			}
			params[p.Name] = true
		}
	}
}

// TestRegistryCopies: an Entry is the caller's to change.
func TestRegistryCopies(t *testing.T) {
	for _, e := range Registry {
		if e.Name == "claude-code" {
			e.Params[0].Default = "changed"
		}
	}
	for _, e := range Registry {
		if e.Name == "claude-code" && e.Params[0].Default == "changed" {
			t.Error("a change to an Entry reached the registry")
		}
	}
}

// TestDefaults: every policy parses with its defaults, given or not, to
// its bare name, and the two are the same policy.
func TestDefaults(t *testing.T) {
	for _, e := range Registry {
		p, err := Parse(e.Name)
		if err != nil {
			t.Errorf("%s: defaults: %v", e.Name, err)
			continue
		}
		if p.Name() != e.Name {
			t.Errorf("%s: Name() = %q", e.Name, p.Name())
		}
		if len(e.Params) == 0 {
			continue
		}
		var explicit []string
		for _, par := range e.Params {
			explicit = append(explicit, par.Name+"="+par.Default)
		}
		spec := e.Name + ":" + strings.Join(explicit, ",")
		q, err := Parse(spec)
		if err != nil {
			t.Errorf("%s: %v", spec, err)
		} else if !reflect.DeepEqual(p, q) {
			t.Errorf("%s: not the defaults:\n%+v\n%+v", spec, q, p)
		}
	}
}

// candidates are values every parameter is tried with: each kind of
// parameter accepts some and rejects others.
var candidates = []string{
	"0", "1", "7", "50", "100", "101", "100000", "-1", "0.5", "abc", "NaN", "Inf",
	"true", "false", "maybe", "size", "time", "off", "fast", "mask", "drop",
	"2.1.7", "Read|Bash", "Read||Bash", "",
}

// TestParams tries every parameter of every policy with every candidate
// value. A value is either rejected with an error that names the policy,
// the parameter, the value and the parameter's Range (or how it disagrees
// with the other parameters), or accepted: then
// the policy's name shows the parameter when the value is not the default,
// parses back to an equal policy, and one not equal to the defaults'
// (the parameter is bound to something). Every parameter accepts a value
// other than its default, and every one but free text rejects one.
func TestParams(t *testing.T) {
	for _, e := range Registry {
		def, err := Parse(e.Name)
		if err != nil {
			t.Fatal(err)
		}
		for _, par := range e.Params {
			var changed, rejected bool
			for _, v := range candidates {
				spec := e.Name + ":" + par.Name + "=" + v
				p, err := Parse(spec)
				if err != nil {
					rejected = true
					want := fmt.Sprintf("policy %q: %s=%q: want %s", e.Name, par.Name, v, par.Range)
					// or a check of parameters against each other
					crossed := fmt.Sprintf("policy %q: %s=%s ", e.Name, par.Name, v)
					if err.Error() != want && !strings.HasPrefix(err.Error(), crossed) {
						t.Errorf("%s: error\n%s\nwant\n%s", spec, err, want)
					}
					continue
				}
				if p.Name() == e.Name {
					if !reflect.DeepEqual(p, def) {
						t.Errorf("%s: named as the defaults, but another policy", spec)
					}
					continue
				}
				changed = true
				if !strings.HasPrefix(p.Name(), e.Name+":"+par.Name+"=") {
					t.Errorf("%s: named %q", spec, p.Name())
				}
				if reflect.DeepEqual(p, withName(def, p.Name())) {
					t.Errorf("%s: the same policy as the defaults", spec)
				}
				if q, err := Parse(p.Name()); err != nil || !reflect.DeepEqual(p, q) {
					t.Errorf("%s: Parse(%q) = %+v, %v; want %+v", spec, p.Name(), q, err, p)
				}
			}
			if !changed {
				t.Errorf("%s: %s accepts none of the candidates but its default", e.Name, par.Name)
			}
			if !rejected && par.Range != "any text" {
				t.Errorf("%s: %s (%s) rejects none of the candidates", e.Name, par.Name, par.Range)
			}
		}
	}
}

// withName returns a copy of p, parsed from the defaults, named name.
func withName(p simulate.Policy, name string) simulate.Policy {
	q, err := Parse(p.Name())
	if err != nil {
		panic(err)
	}
	q.(policy).setName(name)
	return q
}

// TestAllParams sets every parameter of every policy at once to a value
// other than its default: the name lists them all in the table's order
// and parses back to an equal policy.
func TestAllParams(t *testing.T) {
	for _, e := range Registry {
		if len(e.Params) == 0 {
			continue
		}
		var kv []string
		for _, par := range e.Params {
			for _, v := range candidates {
				if p, err := Parse(e.Name + ":" + par.Name + "=" + v); err == nil && p.Name() != e.Name {
					kv = append(kv, strings.TrimPrefix(p.Name(), e.Name+":"))
					break
				}
			}
		}
		slices.Reverse(kv) // given in the reverse order, named in the table's
		p, err := Parse(e.Name + ":" + strings.Join(kv, ","))
		if err != nil {
			t.Errorf("%s: %v", e.Name, err)
			continue
		}
		slices.Reverse(kv)
		if want := e.Name + ":" + strings.Join(kv, ","); p.Name() != want {
			t.Errorf("%s: named\n%s\nwant\n%s", e.Name, p.Name(), want)
		}
		if q, err := Parse(p.Name()); err != nil || !reflect.DeepEqual(p, q) {
			t.Errorf("%s: Parse(Name()) = %+v, %v; want %+v", e.Name, q, err, p)
		}
	}
}

// TestNameRoundTrip: a non-default spec renders canonically (the entry's
// parameter order) and parses back to itself.
func TestNameRoundTrip(t *testing.T) {
	tests := []struct{ spec, name string }{
		{"keep-last-n:polling=5,n=10", "keep-last-n:polling=5"},
		{"keep-last-n:polling=5, n=4", "keep-last-n:n=4,polling=5"},
		{"context-editing:exclude_tools=Read|Bash,keep=5", "context-editing:keep=5,exclude_tools=Read|Bash"},
		{"claude-code-sm:pct=50,init=20000", "claude-code-sm:init=20000,pct=50"},
		{"budget:mode=drop", "budget:mode=drop"},
		{"threshold:restore=true,pct=70", "threshold:pct=70,restore=true"},
		{"summary-nm:m=5+keep-last-n:n=3", "summary-nm:m=5+keep-last-n:n=3"},
		{"partial:keep=4", "partial:keep=4"},
		// Numbers are named in their canonical form: a default written
		// differently is still the default.
		{"threshold:pct=80.0", "threshold"},
		{"threshold:pct=7e1", "threshold:pct=70"},
		{"keep-last-n:n=010", "keep-last-n"},
		{"keep-last-n:n=04", "keep-last-n:n=4"},
		{"budget:tokens=100_000", "budget"},
		{"claude-code:pct=50.50,restore=1", "claude-code:pct=50.5"},
		{"threshold:restore=TRUE", "threshold:restore=true"},
		{"partial:pct=-0", "partial"},
		{"keep-last-n:n=010,polling=05", "keep-last-n:polling=5"}, // docs/policies.md
	}
	for _, tt := range tests {
		p, err := Parse(tt.spec)
		if err != nil {
			t.Errorf("%s: %v", tt.spec, err)
			continue
		}
		if p.Name() != tt.name {
			t.Errorf("%s: Name() = %q, want %q", tt.spec, p.Name(), tt.name)
		}
		if q, err := Parse(p.Name()); err != nil || q.Name() != tt.name {
			t.Errorf("%s: round trip %v %v", tt.spec, q, err)
		}
	}
}

// TestParseErrors pins the messages: each names the policy and the key,
// or the value as given and the values the parameter takes.
func TestParseErrors(t *testing.T) {
	const known = "(see ctxlab policies; known: budget, claude-code, claude-code-sm, context-editing, keep-last-n, none, observed, partial, summary-nm, threshold)"
	tests := []struct{ spec, want string }{
		{"nope", `unknown policy "nope" ` + known},
		{"", "empty policy spec"},
		{"keep-last-n:n=2+bogus", `unknown policy "bogus" ` + known},
		{"keep-last-n:m=3", `policy "keep-last-n": unknown parameter "m" (want one of n, polling)`},
		{"none:n=3", `policy "none": unknown parameter "n" (this policy takes no parameters)`},
		{"keep-last-n:n", `policy "keep-last-n": parameter "n" has no value (want key=value)`},
		{"keep-last-n:n=1,", `policy "keep-last-n": parameter "" has no value (want key=value)`},
		// Unknown keys come before bad values.
		{"keep-last-n:n=abc,zz=1", `policy "keep-last-n": unknown parameter "zz" (want one of n, polling)`},
		{"keep-last-n:n=abc", `policy "keep-last-n": n="abc": want a whole number ≥ 0`},
		{"keep-last-n:n=-1", `policy "keep-last-n": n="-1": want a whole number ≥ 0`},
		{"keep-last-n:polling=0", `policy "keep-last-n": polling="0": want a whole number ≥ 1`},
		{"budget:tokens=0", `policy "budget": tokens="0": want a whole number ≥ 1`},
		{"summary-nm:n=0", `policy "summary-nm": n="0": want a whole number ≥ 1`},
		{"claude-code-sm:rate=x", `policy "claude-code-sm": rate="x": want a whole number ≥ 1`},
		{"claude-code-sm:max=0", `policy "claude-code-sm": max="0": want a whole number ≥ 1`},
		{"context-editing:keep=-2", `policy "context-editing": keep="-2": want a whole number ≥ 0`},
		{"claude-code:keep=99999999999999999999", `policy "claude-code": keep="99999999999999999999": want a whole number ≥ 0`},
		{"threshold:pct=0", `policy "threshold": pct="0": want a number more than 0, at most 100`},
		{"threshold:pct=120", `policy "threshold": pct="120": want a number more than 0, at most 100`},
		{"threshold:pct=-1", `policy "threshold": pct="-1": want a number more than 0, at most 100`},
		{"partial:pct=101", `policy "partial": pct="101": want a number from 0 to 100`},
		{"partial:pct=-3", `policy "partial": pct="-3": want a number from 0 to 100`},
		{"claude-code:pct=101", `policy "claude-code": pct="101": want a number from 0 to 100`},
		{"threshold:restore=maybe", `policy "threshold": restore="maybe": want true or false`},
		{"context-editing:clear_tool_inputs=yes", `policy "context-editing": clear_tool_inputs="yes": want true or false`},
		{"budget:mode=trim", `policy "budget": mode="trim": want mask or drop`},
		{"claude-code:micro=fast", `policy "claude-code": micro="fast": want size, time, off or empty`},
		{"claude-code-sm:micro=fast", `policy "claude-code-sm": micro="fast": want size, time, off or empty`},
		{"context-editing:exclude_tools=Read||Bash", `policy "context-editing": exclude_tools="Read||Bash": want tool names separated by |, none empty`},
		{"context-editing:exclude_tools=|", `policy "context-editing": exclude_tools="|": want tool names separated by |, none empty`},
		// Non-finite numbers: NaN compares false with every bound, so a
		// range check that looks for values outside it lets NaN through.
		{"threshold:pct=NaN", `policy "threshold": pct="NaN": want a number more than 0, at most 100`},
		{"partial:pct=NaN", `policy "partial": pct="NaN": want a number from 0 to 100`},
		{"claude-code:pct=nan", `policy "claude-code": pct="nan": want a number from 0 to 100`},
		{"claude-code-sm:pct=NaN", `policy "claude-code-sm": pct="NaN": want a number from 0 to 100`},
		{"claude-code:pct=Inf", `policy "claude-code": pct="Inf": want a number from 0 to 100`},
		{"threshold:pct=inf", `policy "threshold": pct="inf": want a number more than 0, at most 100`},
		// Versions are numbers with dots, as transcripts write them.
		{"claude-code:version=banana", `policy "claude-code": version="banana": want a version such as 2.1.22, or empty`},
		{"claude-code:version=2", `policy "claude-code": version="2": want a version such as 2.1.22, or empty`},
		{"claude-code:version=2.1.x", `policy "claude-code": version="2.1.x": want a version such as 2.1.22, or empty`},
		{"claude-code:version=2.1.2.3", `policy "claude-code": version="2.1.2.3": want a version such as 2.1.22, or empty`},
		{"claude-code:version=2.-1.0", `policy "claude-code": version="2.-1.0": want a version such as 2.1.22, or empty`},
		// A window set by hand must leave room for the reservation and
		// the buffer: 32000 + 13000 by default.
		{"claude-code:window=5", `policy "claude-code": window=5 leaves no room for a threshold: want 0 (the model's) or more than reserve + buffer (32000 + 13000)`},
		{"claude-code:window=45000", `policy "claude-code": window=45000 leaves no room for a threshold: want 0 (the model's) or more than reserve + buffer (32000 + 13000)`},
		{"claude-code:window=30000,reserve=10000,buffer=20000", `policy "claude-code": window=30000 leaves no room for a threshold: want 0 (the model's) or more than reserve + buffer (10000 + 20000)`},
		{"claude-code:buffer=0", `policy "claude-code": buffer="0": want a whole number ≥ 1`},
	}
	for _, tt := range tests {
		_, err := Parse(tt.spec)
		if err == nil {
			t.Errorf("%q: no error", tt.spec)
		} else if err.Error() != tt.want {
			t.Errorf("%q: error\n%s\nwant\n%s", tt.spec, err, tt.want)
		}
	}
}

// The error docs/cli.md shows, byte for byte.
func TestParseErrorInCLIDoc(t *testing.T) {
	_, err := Parse("claude-code:windw=100000")
	if err == nil {
		t.Fatal("no error")
	}
	b, rerr := os.ReadFile("../docs/cli.md")
	if rerr != nil {
		t.Fatal(rerr)
	}
	if line := "ctxlab: --policy: " + err.Error() + "\n"; !strings.Contains(string(b), line) {
		t.Errorf("docs/cli.md lacks %q", line)
	}
}

func TestParseList(t *testing.T) {
	tests := []struct {
		list  string
		names []string
	}{
		// "polling=5" continues keep-last-n's parameters; "none" starts a new spec.
		{"keep-last-n:n=10,polling=5,none", []string{"keep-last-n:polling=5", "none"}},
		{"observed, claude-code ,threshold:pct=70,restore=true", []string{"observed", "claude-code", "threshold:pct=70,restore=true"}},
		{"keep-last-n:n=2+threshold:pct=50,budget", []string{"keep-last-n:n=2+threshold:pct=50", "budget"}},
		{"context-editing:exclude_tools=Read|Bash,keep=1,partial", []string{"context-editing:keep=1,exclude_tools=Read|Bash", "partial"}},
	}
	for _, tt := range tests {
		ps, err := ParseList(tt.list)
		if err != nil {
			t.Errorf("%q: %v", tt.list, err)
			continue
		}
		var names []string
		for _, p := range ps {
			names = append(names, p.Name())
		}
		if strings.Join(names, " ; ") != strings.Join(tt.names, " ; ") {
			t.Errorf("%q: %q, want %q", tt.list, names, tt.names)
		}
	}
	for _, bad := range []string{"", " , ", "keep-last-n:n=2,m=3", "polling=5",
		// the same policy twice, however it is spelled
		"none,none", "keep-last-n,keep-last-n:n=10", "claude-code:window=100_000,claude-code:window=100000"} {
		if _, err := ParseList(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// Each Parse returns a fresh policy: a stateful policy's two Parse results
// run the same session to the same result, while one value run twice does
// not (its state carries over), which shows the test can tell.
func TestParseFresh(t *testing.T) {
	for _, spec := range []string{
		"claude-code-sm:init=3000,update=1000,tools=2,rate=100,pct=3",
		"summary-nm:n=2,m=1",
		"keep-last-n:n=1+summary-nm:n=2,m=1",
	} {
		t.Run(spec, func(t *testing.T) {
			a, errA := Parse(spec)
			b, errB := Parse(spec)
			if errA != nil || errB != nil {
				t.Fatal(errA, errB)
			}
			tr := func() *simulate.Trace { return reads(1000, 1000, 1000, 1000, 1000, 1000) }
			first := simulate.Run(tr(), a, simulate.DefaultConfig())
			second := simulate.Run(tr(), b, simulate.DefaultConfig())
			if !reflect.DeepEqual(first, second) {
				t.Errorf("two Parse results ran differently:\n%+v\n%+v", first.Calls, second.Calls)
			}
			if again := simulate.Run(tr(), a, simulate.DefaultConfig()); reflect.DeepEqual(first, again) {
				t.Errorf("the same value run twice ran the same: the test cannot tell a shared value")
			}
		})
	}
}

// Accepted values of the checked kinds, in canonical form.
func TestCheckedValues(t *testing.T) {
	for spec, name := range map[string]string{
		"claude-code:version=2.1.022":                 "claude-code:version=2.1.22",
		"claude-code:version=1.0":                     "claude-code:version=1.0",
		"claude-code:version=":                        "claude-code",
		"claude-code:window=45001":                    "claude-code:window=45001",
		"claude-code:window=21000,reserve=1,buffer=1": "claude-code:reserve=1,window=21000,buffer=1",
	} {
		p, err := Parse(spec)
		if err != nil || p.Name() != name {
			t.Errorf("%s: %v, %v; want %s", spec, p, err, name)
		}
	}
}

func TestSettings(t *testing.T) {
	got, err := Settings("keep-last-n:polling=05")
	if err != nil {
		t.Fatal(err)
	}
	want := []Setting{{Name: "n", Value: "10", Default: "10"}, {Name: "polling", Value: "5", Default: "1"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Settings = %+v, want %+v", got, want)
	}
	for _, bad := range []string{"nope", "keep-last-n:n=x", "keep-last-n+none"} {
		if _, err := Settings(bad); err == nil {
			t.Errorf("Settings(%q): no error", bad)
		}
	}
	e, ok := Lookup("keep-last-n")
	if !ok || e.Name != "keep-last-n" || len(e.Params) != 2 || e.Params[1].Default != "1" {
		t.Errorf("Lookup(keep-last-n) = %+v, %v", e, ok)
	}
	if _, ok := Lookup("nope"); ok {
		t.Error("Lookup(nope) found a policy")
	}
}
