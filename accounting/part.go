package accounting

import (
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/ctxlab/ctxlab/replay"
)

// A session's report travels between machines in a part (ctxlab merge):
// its JSON, and beside it what Merge and GroupsIn need that the report's
// JSON leaves out: the counted calls, with their keys, for the corpus's
// deduplication; the measured tokens; the compactions' keys.

// ReportPart is a session's Report as a part holds it (Part), to be made
// the same Report again (MakeReport): a command's value embeds it, so that a
// merge decodes it with the value, in one pass.
type ReportPart struct {
	Report    *Report      `json:"report"`
	Exact     int64        `json:"tokens_exact"`
	DedupKeys []string     `json:"compaction_keys,omitempty"`
	Calls     *callLogPart `json:"calls,omitempty"`
}

type callLogPart struct {
	Session string   `json:"session"`
	Project string   `json:"project"`
	Names   []string `json:"names"`
	// Records are the callRecords, recordBytes each, little-endian: the
	// key's two hashes, the time, the five counts, the model, the thread
	// kind and the flags (base64 in JSON: a merge reads them without
	// decoding a JSON value per call).
	Records []byte         `json:"records"`
	Wide    []wideCallPart `json:"wide,omitempty"`
}

// recordBytes is the size of a packed callRecord.
const recordBytes = 8 + 8 + 8 + 5*4 + 2 + 1 + 1

func packRecord(b []byte, c callRecord) []byte {
	b = binary.LittleEndian.AppendUint64(b, c.key[0])
	b = binary.LittleEndian.AppendUint64(b, c.key[1])
	b = binary.LittleEndian.AppendUint64(b, uint64(c.at))
	for _, u := range c.usage {
		b = binary.LittleEndian.AppendUint32(b, u)
	}
	b = binary.LittleEndian.AppendUint16(b, c.model)
	return append(b, c.kind, c.flags)
}

func unpackRecord(b []byte) callRecord {
	c := callRecord{key: callKey{binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])}, at: int64(binary.LittleEndian.Uint64(b[16:]))}
	for i := range c.usage {
		c.usage[i] = binary.LittleEndian.Uint32(b[24+4*i:])
	}
	c.model = binary.LittleEndian.Uint16(b[44:])
	c.kind, c.flags = b[46], b[47]
	return c
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
	p, err := r.Part()
	if err != nil {
		return nil, err
	}
	return json.Marshal(p)
}

// Part is a session's report (Analyze's) as a part holds it. A merged
// report (Merge's) has no part.
func (r *Report) Part() (*ReportPart, error) {
	if r.kept != nil {
		return nil, fmt.Errorf("a merged report is not a session's")
	}
	p := &ReportPart{Report: r, Exact: r.Tokens.exact}
	for _, c := range r.Compactions {
		p.DedupKeys = append(p.DedupKeys, c.DedupKey)
	}
	if l := r.calls; l != nil {
		lp := &callLogPart{Session: l.session, Project: l.project, Names: l.names, Records: make([]byte, 0, len(l.recs)*recordBytes)}
		for _, c := range l.recs {
			lp.Records = packRecord(lp.Records, c)
		}
		for i := range l.recs {
			if w, ok := l.wide[uint32(i)]; ok {
				lp.Wide = append(lp.Wide, wideCallPart{Record: uint32(i), Model: w.model, Usage: w.usage})
			}
		}
		p.Calls = lp
	}
	return p, nil
}

// UnmarshalPart reads a session's report that MarshalPart wrote.
func UnmarshalPart(data []byte) (*Report, error) {
	var p ReportPart
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, err
	}
	return p.MakeReport()
}

// MakeReport makes the report p holds; it takes p's report and slices.
func (p *ReportPart) MakeReport() (*Report, error) {
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
		if len(lp.Records)%recordBytes != 0 {
			return nil, fmt.Errorf("calls of %d bytes, not of %d each", len(lp.Records), recordBytes)
		}
		l := &callLog{session: lp.Session, project: lp.Project, names: lp.Names, recs: make([]callRecord, len(lp.Records)/recordBytes)}
		for i := range l.recs {
			c := unpackRecord(lp.Records[i*recordBytes:])
			if int(c.model) >= len(l.names) && c.flags&wide == 0 || int(c.kind) >= len(l.names) {
				return nil, fmt.Errorf("call %d names no model or thread", i)
			}
			l.recs[i] = c
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
