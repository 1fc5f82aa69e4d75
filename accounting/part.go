package accounting

import (
	"encoding/json"
	"fmt"

	"github.com/ctxlab/ctxlab/replay"
)

// A session's report travels between machines in a part (ctxlab merge):
// its JSON, and beside it what Merge and GroupsIn need that the report's
// JSON leaves out: the counted calls, with their keys, for the corpus's
// deduplication; the measured tokens; the compactions' keys.

// reportPart is a Report as MarshalPart writes it.
type reportPart struct {
	Report    *Report      `json:"report"`
	Exact     int64        `json:"tokens_exact"`
	DedupKeys []string     `json:"compaction_keys,omitempty"`
	Calls     *callLogPart `json:"calls,omitempty"`
}

type callLogPart struct {
	Session string         `json:"session"`
	Project string         `json:"project"`
	Names   []string       `json:"names"`
	Records []recordPart   `json:"records"`
	Wide    []wideCallPart `json:"wide,omitempty"`
}

// recordPart is a callRecord: key, time, usage, model, thread kind, flags.
type recordPart struct {
	K [2]uint64 `json:"k"`
	A int64     `json:"a"`
	U [5]uint32 `json:"u"`
	M uint16    `json:"m"`
	T uint8     `json:"t"`
	F uint8     `json:"f"`
}

type wideCallPart struct {
	Record uint32       `json:"record"`
	Model  string       `json:"model"`
	Usage  replay.Usage `json:"usage"`
}

// MarshalPart writes a session's report (Analyze's) for a part: what
// UnmarshalPart makes the same report of, for Merge, GroupsIn and every
// view. A merged report (Merge's) cannot be written.
func (r *Report) MarshalPart() ([]byte, error) {
	if r.kept != nil {
		return nil, fmt.Errorf("a merged report is not a session's")
	}
	p := reportPart{Report: r, Exact: r.Tokens.exact}
	for _, c := range r.Compactions {
		p.DedupKeys = append(p.DedupKeys, c.DedupKey)
	}
	if l := r.calls; l != nil {
		lp := &callLogPart{Session: l.session, Project: l.project, Names: l.names, Records: make([]recordPart, len(l.recs))}
		for i, c := range l.recs {
			lp.Records[i] = recordPart{K: c.key, A: c.at, U: c.usage, M: c.model, T: c.kind, F: c.flags}
		}
		for i := range l.recs {
			if w, ok := l.wide[uint32(i)]; ok {
				lp.Wide = append(lp.Wide, wideCallPart{Record: uint32(i), Model: w.model, Usage: w.usage})
			}
		}
		p.Calls = lp
	}
	return json.Marshal(p)
}

// UnmarshalPart reads a session's report that MarshalPart wrote.
func UnmarshalPart(data []byte) (*Report, error) {
	var p reportPart
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, err
	}
	r := p.Report
	if r == nil {
		return nil, fmt.Errorf("no report")
	}
	r.Tokens.exact = p.Exact
	if len(p.DedupKeys) != len(r.Compactions) {
		return nil, fmt.Errorf("%d compaction keys for %d compactions", len(p.DedupKeys), len(r.Compactions))
	}
	for i := range r.Compactions {
		r.Compactions[i].DedupKey = p.DedupKeys[i]
	}
	if lp := p.Calls; lp != nil {
		l := &callLog{session: lp.Session, project: lp.Project, names: lp.Names, recs: make([]callRecord, len(lp.Records))}
		for i, c := range lp.Records {
			if int(c.M) >= len(l.names) && c.F&wide == 0 || int(c.T) >= len(l.names) {
				return nil, fmt.Errorf("call %d names no model or thread", i)
			}
			l.recs[i] = callRecord{key: c.K, at: c.A, usage: c.U, model: c.M, kind: c.T, flags: c.F}
		}
		for _, w := range lp.Wide {
			if int(w.Record) >= len(l.recs) {
				return nil, fmt.Errorf("wide call %d of %d", w.Record, len(l.recs))
			}
			if l.wide == nil {
				l.wide = map[uint32]wideCall{}
			}
			l.wide[w.Record] = wideCall{model: w.Model, usage: w.Usage}
		}
		r.calls = l
	}
	return r, nil
}
