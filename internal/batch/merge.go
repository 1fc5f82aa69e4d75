package batch

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/ctxlab/ctxlab/internal/jsonerr"
)

// Merged are the parts of every shard of one run, checked against each
// other: a command given them (Options.Merge) makes its document from
// their values instead of reading sessions.
type Merged struct {
	Header  PartHeader // the first shard's
	entries []mergedEntry
}

type mergedEntry struct {
	partEntry
	from string // the part's name, for a value that cannot be decoded
}

// A PartError is a set of parts that cannot be merged, or a file that is
// no part: ctxlab merge exits 2 with it.
type PartError struct{ Err error }

func (e *PartError) Error() string { return e.Err.Error() }
func (e *PartError) Unwrap() error { return e.Err }

func partErr(format string, a ...any) error { return &PartError{fmt.Errorf(format, a...)} }

// readPart reads one part, whole: a file that is not a part, of another
// version, or cut short is refused.
func readPart(name string, data []byte) (*PartHeader, []partEntry, error) {
	var p struct {
		PartHeader
		Sessions []partEntry `json:"sessions"`
		Complete bool        `json:"complete"`
	}
	err := json.Unmarshal(data, &p)
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &te) && p.Schema == PartSchema:
		// Whole JSON, but a value of the wrong kind: changed by hand.
		return nil, nil, partErr("%s: a damaged ctxlab part (%v): write it again", name, jsonerr.DescribeIn(err, &p))
	case err != nil && strings.Contains(string(data[:min(len(data), 64)]), `"`+PartSchema+`"`):
		// A part names its schema first: one that does and does not parse
		// was cut short.
		return nil, nil, partErr("%s: a ctxlab part cut short (%v): write it again", name, err)
	case err != nil || p.Schema != PartSchema:
		return nil, nil, partErr("%s: not a ctxlab part (the output of a command run with --shard K/N)", name)
	case p.Version != PartVersion:
		return nil, nil, partErr("%s: part version %d, this ctxlab merges version %d", name, p.Version, PartVersion)
	case !p.Complete:
		return nil, nil, partErr("%s: a ctxlab part cut short (no end): write it again", name)
	case p.Shard.K < 1 || p.Shard.K > p.Shard.N:
		// No run writes it: a shard that is none of 1 to N was changed by hand.
		return nil, nil, partErr("%s: a damaged ctxlab part (shard %d/%d: K runs from 1 to N): write it again", name, p.Shard.K, p.Shard.N)
	}
	return &p.PartHeader, p.Sessions, nil
}

// ReadParts reads the named parts (read gives each one's bytes) and checks
// that they are the N shards of one run, each once: made by this build,
// by the same command with the same flags, prices and input. The order
// they are named in does not matter.
func ReadParts(names []string, read func(string) ([]byte, error)) (*Merged, error) {
	if len(names) == 0 {
		return nil, partErr("name the parts to merge")
	}
	type part struct {
		name string
		h    *PartHeader
		es   []partEntry
	}
	var parts []part
	for _, name := range names {
		data, err := read(name)
		if err != nil {
			return nil, &PartError{err}
		}
		h, es, err := readPart(name, data)
		if err != nil {
			return nil, err
		}
		parts = append(parts, part{name, h, es})
	}
	slices.SortStableFunc(parts, func(a, b part) int { return a.h.Shard.K - b.h.Shard.K })
	first := parts[0]
	if !slices.Contains(Mergeable, first.h.Command) {
		return nil, partErr("%s: a part of ctxlab %q, which has no merge", first.name, first.h.Command)
	}
	if first.h.Ctxlab != Build() {
		return nil, partErr("%s: written by ctxlab %s, and this is ctxlab %s: merge with the build that wrote the parts", first.name, first.h.Ctxlab, Build())
	}
	seen := map[int]string{}
	for _, p := range parts {
		if err := agree(first.name, first.h, p.name, p.h); err != nil {
			return nil, err
		}
		if other, ok := seen[p.h.Shard.K]; ok {
			return nil, partErr("shard %s given twice: %s and %s", p.h.Shard, other, p.name)
		}
		seen[p.h.Shard.K] = p.name
	}
	var missing []string
	for k := 1; k <= first.h.Shard.N; k++ {
		if _, ok := seen[k]; !ok {
			missing = append(missing, fmt.Sprintf("%d/%d", k, first.h.Shard.N))
		}
	}
	if len(missing) > 0 {
		return nil, partErr("shard %s missing: merge the parts of all %d shards", strings.Join(missing, ", "), first.h.Shard.N)
	}
	m := &Merged{Header: *first.h}
	for _, p := range parts {
		for _, e := range p.es {
			if e.Index < 0 || e.Index >= first.h.Sources {
				return nil, partErr("%s: session %d of an input of %d", p.name, e.Index, first.h.Sources)
			}
			m.entries = append(m.entries, mergedEntry{e, p.name})
		}
	}
	slices.SortFunc(m.entries, func(a, b mergedEntry) int { return a.Index - b.Index })
	for i := 1; i < len(m.entries); i++ {
		if m.entries[i].Index == m.entries[i-1].Index {
			return nil, partErr("%s and %s both hold session %d", m.entries[i-1].from, m.entries[i].from, m.entries[i].Index)
		}
	}
	return m, nil
}

// agree checks that part b was made as part a was: the refusals of a
// merge, each naming what differs.
func agree(an string, a *PartHeader, bn string, b *PartHeader) error {
	switch {
	case a.Ctxlab != b.Ctxlab:
		return partErr("%s and %s: written by ctxlab %s and %s", an, bn, a.Ctxlab, b.Ctxlab)
	case a.Command != b.Command:
		return partErr("%s and %s: parts of ctxlab %s and ctxlab %s", an, bn, a.Command, b.Command)
	case a.Shard.N != b.Shard.N:
		return partErr("%s and %s: parts of %d and of %d shards", an, bn, a.Shard.N, b.Shard.N)
	case !slices.Equal(a.Args, b.Args):
		return partErr("%s and %s: made with different flags (%s; %s)", an, bn, strings.Join(a.Args, " "), strings.Join(b.Args, " "))
	case a.Prices != b.Prices:
		return partErr("%s and %s: priced with different price tables (%s and %s; --prices)", an, bn, a.PricesDate, b.PricesDate)
	case a.Sources != b.Sources || a.Input != b.Input || !slices.Equal(a.InputErrors, b.InputErrors):
		return partErr("%s and %s: made from different inputs (%d and %d sessions found)", an, bn, a.Sources, b.Sources)
	}
	return nil
}

// Inputs are the merged run's inputs: the whole input's errors; its
// sessions are the parts'.
func (m *Merged) Inputs() *Inputs {
	in := &Inputs{}
	for _, e := range m.Header.InputErrors {
		in.Errs = append(in.Errs, errors.New(e))
	}
	return in
}

// eachMerged is Each over the parts' values: each session's value, its
// warnings and read error, in input order, as Each hands them.
func eachMerged[T any](in *Inputs, o Options, emit func(T)) (*Outcome, error) {
	log, out := start(in, o)
	read, skipped := 0, false
	for _, e := range o.Merge.entries {
		out.Warned = out.Warned || e.Warned
		skipped = skipped || e.Skipped
		if e.Error != "" {
			fmt.Fprintln(log, "ctxlab:", e.Error)
			out.Errors = append(out.Errors, e.Error)
		}
		if e.Value == nil {
			continue
		}
		var v T
		if err := unmarshalValue(e.Value, &v); err != nil {
			return out, fmt.Errorf("%s: session %d: %w", e.from, e.Index, err)
		}
		read++
		emit(v)
	}
	switch {
	case read > 0:
		return out, nil
	case !o.Selection.IsZero() && (o.Merge.Header.Sources == 0 || skipped):
		return out, ErrNoMatch
	}
	return out, ErrNoSession
}

// unmarshalValue is json.Unmarshal(data, v) for a session's value, which
// readPart took from a part json.Unmarshal validated whole: a value that
// unmarshals itself (values.go) is handed its bytes without a pass that
// would only validate them again.
func unmarshalValue(data []byte, v any) error {
	if u, ok := v.(json.Unmarshaler); ok {
		return u.UnmarshalJSON(data)
	}
	return json.Unmarshal(data, v)
}

// Mergeable are the commands whose shards write parts; export's shards
// write their tables' files, which need no merge.
var Mergeable = []string{"replay", "compare", "sweep", "gate"}

// FlagArgs are the flags set on f, but those of skip, as a part records them: one
// --name=value each (a list's values one flag each), in the order of the
// flags' names, so that the same flags given in any order are the same
// arguments, and parsing them again sets the same values.
func FlagArgs(f *pflag.FlagSet, skip ...string) []string {
	out := []string{}
	f.Visit(func(fl *pflag.Flag) {
		if slices.Contains(skip, fl.Name) {
			return
		}
		sv, ok := fl.Value.(pflag.SliceValue)
		if !ok {
			out = append(out, "--"+fl.Name+"="+fl.Value.String())
			return
		}
		for _, v := range sv.GetSlice() {
			if fl.Value.Type() == "stringSlice" && strings.ContainsAny(v, ",\"") {
				v = `"` + strings.ReplaceAll(v, `"`, `""`) + `"` // one CSV field, as the flag reads it
			}
			out = append(out, "--"+fl.Name+"="+v)
		}
	})
	return out
}
