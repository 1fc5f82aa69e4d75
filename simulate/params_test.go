package simulate

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestParams checks each named parameter: its default is DefaultConfig's
// value (setting it changes nothing), a value it takes sets its Config
// field and nothing else, and a value it does not take is refused.
func TestParams(t *testing.T) {
	set := map[string]struct {
		v    string
		want any // the field's value after Set
	}{
		"estimate-from":           {"2.0.0", "2.0.0"},
		"estimate-response-from":  {"2.1.50", "2.1.50"},
		"restore-written-from":    {"99", "99"},
		"manual-compactions":      {"all", "all"},
		"thinking-keywords-until": {"0", "0"},
		"drop-thinking-until":     {"99", "99"},
		"second-turn-until":       {"2.1", "2.1"},
		"post-compact-turn-from":  {"2.1.200", "2.1.200"},
		"shared-prefix-from":      {"1.0.0", "1.0.0"},
		"shared-prefix-ttl":       {"90m", 90 * time.Minute},
		"final-output-from":       {"2.1.0", "2.1.0"},
		"final-output-until":      {"0", "0"},
		"image-estimate-from":     {"2.1.0", "2.1.0"},
		"attachment-json-from":    {"99", "99"},
		"attachment-sent-from":    {"2.1.33", "2.1.33"},
		"all-blocks-from":         {"0", "0"},
		"clock-slack":             {"0", time.Duration(-1)}, // none
		"gateway-ttl":             {"1h", time.Hour},
		"gateway-cache-unit":      {"128", int64(128)},
		"cache-entries":           {"4", 4},
		"restore-files":           {"0", -1}, // none
		"restore-file-tokens":     {"2_000", int64(2000)},
		"restore-total-tokens":    {"0", int64(-1)},
		"tools-growth-min":        {"0", int64(-1)},
		"persist-results-from":    {"99", "99"},
		"persisted-chars":         {"2000", 2000},
		"restore-file-tokens-old": {"8000", int64(8000)},
		"restore-reference-from":  {"0", "0"},
		"restore-seed-from":       {"99", "99"},
		"shared-files-until":      {"0", "0"},
		"plan-file-from":          {"99", "99"},
		"restore-estimate-from":   {"0", "0"},
	}
	bad := map[string]string{
		"estimate-from": "2.1.x", "shared-prefix-ttl": "0", "clock-slack": "-1s", "gateway-ttl": "soon",
		"gateway-cache-unit": "0", "manual-compactions": "some", "cache-entries": "0", "restore-files": "-1", "restore-file-tokens": "1.5",
		"persisted-chars": "0",
	}
	if len(Params()) != len(set) {
		t.Errorf("%d parameters, %d in the test", len(Params()), len(set))
	}
	def := DefaultConfig()
	for _, p := range Params() {
		c := def
		if err := c.Set(p.Name + "=" + p.Default); err != nil || !reflect.DeepEqual(c, def) {
			t.Errorf("%s=%s (its default): %v, config changed %v", p.Name, p.Default, err, !reflect.DeepEqual(c, def))
		}
		s, ok := set[p.Name]
		if !ok {
			t.Errorf("%s: not in the test", p.Name)
			continue
		}
		if err := c.Set(p.Name + "=" + s.v); err != nil {
			t.Errorf("%s=%s: %v", p.Name, s.v, err)
		}
		got := reflect.ValueOf(c).FieldByName(p.Field)
		if !got.IsValid() || !reflect.DeepEqual(got.Interface(), s.want) {
			t.Errorf("%s=%s: Config.%s = %v, want %v", p.Name, s.v, p.Field, got, s.want)
		}
		reflect.ValueOf(&c).Elem().FieldByName(p.Field).Set(reflect.ValueOf(def).FieldByName(p.Field))
		if !reflect.DeepEqual(c, def) {
			t.Errorf("%s=%s set another field too", p.Name, s.v)
		}
		if v, ok := bad[p.Name]; ok {
			c := def
			err := c.Set(p.Name + "=" + v)
			if err == nil || !strings.Contains(err.Error(), p.Takes) || !reflect.DeepEqual(c, def) {
				t.Errorf("%s=%s: error %v, config changed %v", p.Name, v, err, !reflect.DeepEqual(c, def))
			}
		}
	}
	// Several at once, and an error leaves the Config as it was.
	c := def
	if err := c.Set(" second-turn-until=0 , shared-prefix-ttl=1h,"); err != nil || c.SecondTurnUntil != "0" || c.SharedPrefixTTL != time.Hour {
		t.Errorf("list: %v, %q, %v", err, c.SecondTurnUntil, c.SharedPrefixTTL)
	}
	c = def
	if err := c.Set("second-turn-until=0,nosuch=1"); err == nil || !strings.Contains(err.Error(), `unknown simulation parameter "nosuch"`) || !reflect.DeepEqual(c, def) {
		t.Errorf("unknown name: %v", err)
	}
}

// TestParamsDocumented checks docs/simulation.md's table of parameters
// against Params: one row per parameter, in order, with its default, what
// it takes and what it is.
func TestParamsDocumented(t *testing.T) {
	b, err := os.ReadFile("../docs/simulation.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "| `") && strings.Contains(line, "(`Config.") {
			rows = append(rows, line)
		}
	}
	if len(rows) != len(Params()) {
		t.Errorf("docs/simulation.md has %d parameter rows, the code %d parameters", len(rows), len(Params()))
	}
	for i, p := range Params() {
		want := fmt.Sprintf("| `%s` | `%s` | %s | %s (`Config.%s`) |", p.Name, p.Default, p.Takes, p.Doc, p.Field)
		if i >= len(rows) || rows[i] != want {
			t.Errorf("docs/simulation.md, parameter %d: want\n%s", i+1, want)
		}
	}
}

// TestCutoffsFromFacts checks that each version parameter defaults to the
// cut-off of the Claude Code fact it moves, and is named for the side it
// moves: a …-from parameter the version a fact holds from, an …-until one
// the version it stops holding at.
func TestCutoffsFromFacts(t *testing.T) {
	def := DefaultConfig()
	for _, k := range def.cutoffs() {
		want, suffix := k.fact.From, "-from"
		if want == "" {
			want, suffix = k.fact.Until, "-until"
		}
		if *k.dst != want || want == "" {
			t.Errorf("%s defaults to %q, the fact %s says %q", k.name, *k.dst, k.fact.Name, want)
		}
		if !strings.HasSuffix(k.name, suffix) {
			t.Errorf("%s moves %s's %s", k.name, k.fact.Name, strings.TrimPrefix(suffix, "-"))
		}
		if got := reflect.ValueOf(def).FieldByName(k.field); !got.IsValid() || got.String() != want {
			t.Errorf("%s: Config.%s = %v", k.name, k.field, got)
		}
	}
}
