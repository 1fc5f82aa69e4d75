package fidelity

import (
	"encoding/json"
	"fmt"
)

// A row travels between machines in a part (ctxlab merge): its JSON, and
// beside it what LeaveOutCopies needs that the JSON leaves out: each
// call's key, time, cache figures and cause.

type rowPart struct {
	Row          *Row       `json:"row"`
	AfterLast    int        `json:"after_last"`
	CacheReasons int        `json:"cache_reasons"`
	Calls        []callPart `json:"calls"`
}

type callPart struct {
	Key      string `json:"k,omitempty"`
	Time     int64  `json:"t"`
	Read     int64  `json:"r"`
	Write    int64  `json:"w"`
	SimRead  int64  `json:"sr"`
	SimWrite int64  `json:"sw"`
	Measured bool   `json:"m,omitempty"`
	Cause    uint8  `json:"c,omitempty"`
	Diff     int64  `json:"d,omitempty"`
	Copied   string `json:"cf,omitempty"`
}

// MarshalPart writes a row (New's) for a part.
func (f *Row) MarshalPart() ([]byte, error) {
	p := rowPart{Row: f, AfterLast: f.afterLast, CacheReasons: f.cacheReasons, Calls: make([]callPart, len(f.calls))}
	for i, c := range f.calls {
		p.Calls[i] = callPart{Key: c.key, Time: c.time, Read: c.read, Write: c.write, SimRead: c.simRead, SimWrite: c.simWrite,
			Measured: c.measured, Cause: uint8(c.cause), Diff: c.diff, Copied: c.copiedFrom}
	}
	return json.Marshal(p)
}

// UnmarshalPart reads a row that MarshalPart wrote.
func UnmarshalPart(data []byte) (Row, error) {
	var p rowPart
	if err := json.Unmarshal(data, &p); err != nil {
		return Row{}, err
	}
	if p.Row == nil || p.CacheReasons < 0 || p.CacheReasons > len(p.Row.Reasons) {
		return Row{}, fmt.Errorf("not a fidelity row")
	}
	f := *p.Row
	f.afterLast, f.cacheReasons = p.AfterLast, p.CacheReasons
	f.calls = make([]callRecord, len(p.Calls))
	for i, c := range p.Calls {
		f.calls[i] = callRecord{key: c.Key, time: c.Time, read: c.Read, write: c.Write, simRead: c.SimRead, simWrite: c.SimWrite,
			measured: c.Measured, cause: readCause(c.Cause), diff: c.Diff, copiedFrom: c.Copied}
	}
	return f, nil
}
