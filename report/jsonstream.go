package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/replay"
)

// member is one member of a JSON object that writeObject writes: its
// value, or for a long list its length and elements, written one by one,
// or for an object its own members (fields), written one by one.
type member struct {
	name   string
	value  any
	n      int
	elem   func(i int) any // set for a list written element by element
	fields []member        // set for an object written member by member
}

// list is a member written one element at a time; an empty list is
// written as value (null or []).
func list(name string, value any, n int, elem func(int) any) member {
	return member{name: name, value: value, n: n, elem: elem}
}

// writeObject writes the members as one JSON object, byte for byte what
// writeJSON writes for a struct with those fields, but encoding one list
// element at a time: memory holds one session's JSON, not the whole
// document's (which grows with the input).
func writeObject(w io.Writer, members []member) error {
	o := newObjectWriter(w)
	for _, m := range members {
		switch {
		case m.fields != nil:
			o.object(m.name, m.fields)
		case m.elem == nil || m.n == 0:
			o.member(m.name, m.value)
		default:
			o.beginList(m.name)
			for j := 0; j < m.n; j++ {
				o.elem(m.elem(j))
			}
			o.endList(m.value)
		}
	}
	return o.close()
}

// reportMembers are an accounting.Report's JSON members in field order,
// its lists written one element at a time: the total of a large corpus
// holds every duplicate read and cache break of it, and encoding it whole
// took three copies of its JSON at once (TestReportMembers checks the bytes
// are json.Marshal's).
func reportMembers(r *accounting.Report) []member {
	return []member{
		{name: "summary", value: r.Summary},
		{name: "tokens", value: r.Tokens},
		{name: "usage", value: r.Usage},
		list("duplicate_reads", r.Duplicates, len(r.Duplicates), func(i int) any { return r.Duplicates[i] }),
		list("cache_breaks", r.CacheBreaks, len(r.CacheBreaks), func(i int) any { return r.CacheBreaks[i] }),
		{name: "cache_break_causes", value: r.BreakCauses},
		list("ttl_changes", r.TTLChanges, len(r.TTLChanges), func(i int) any { return r.TTLChanges[i] }),
		list("compactions", r.Compactions, len(r.Compactions), func(i int) any { return r.Compactions[i] }),
		list("spirals", r.Spirals, len(r.Spirals), func(i int) any { return r.Spirals[i] }),
		list("warnings", r.Warnings, len(r.Warnings), func(i int) any { return r.Warnings[i] }),
	}
}

// objectWriter writes a JSON object member by member, indented as
// writeJSON indents; a list member may be written element by element. The
// first error sticks and is returned by close.
type objectWriter struct {
	bw      *bufio.Writer
	buf     bytes.Buffer // the compact encoding
	ind     []byte       // and the indented one
	enc     *json.Encoder
	members int
	elems   int
	err     error
}

func newObjectWriter(w io.Writer) *objectWriter {
	o := &objectWriter{bw: bufio.NewWriterSize(w, 64<<10)}
	o.enc = json.NewEncoder(&o.buf)
	o.enc.SetEscapeHTML(false)
	o.bw.WriteString("{")
	return o
}

// encode writes v as writeJSON would at a depth where lines start with
// prefix, without the final newline.
func (o *objectWriter) encode(v any, prefix string) {
	if o.err != nil {
		return
	}
	o.buf.Reset()
	if o.err = o.enc.Encode(v); o.err != nil {
		return
	}
	o.ind = indentJSON(o.ind[:0], bytes.TrimSuffix(o.buf.Bytes(), []byte("\n")), prefix, "  ")
	_, o.err = o.bw.Write(o.ind)
}

func (o *objectWriter) name(name string) {
	if o.members > 0 {
		o.bw.WriteString(",")
	}
	o.members++
	o.bw.WriteString("\n  ")
	o.encode(name, "  ")
	o.bw.WriteString(": ")
}

func (o *objectWriter) member(name string, v any) {
	o.name(name)
	o.encode(v, "  ")
}

// beginList starts a list member; elem writes its elements and endList
// closes it.
func (o *objectWriter) beginList(name string) {
	o.name(name)
	o.elems = 0
}

func (o *objectWriter) elem(v any) {
	if o.elems == 0 {
		o.bw.WriteString("[")
	} else {
		o.bw.WriteString(",")
	}
	o.elems++
	o.bw.WriteString("\n    ")
	o.encode(v, "    ")
}

// endList closes the list; a list without elements is written as empty
// (null or []).
func (o *objectWriter) endList(empty any) {
	if o.elems == 0 {
		o.encode(empty, "  ")
		return
	}
	o.bw.WriteString("\n  ]")
}

// object writes a member whose value is an object, member by member, its
// lists element by element, at the depth below the top level.
func (o *objectWriter) object(name string, fields []member) {
	o.name(name)
	o.bw.WriteString("{")
	for k, m := range fields {
		if k > 0 {
			o.bw.WriteString(",")
		}
		o.bw.WriteString("\n    ")
		o.encode(m.name, "    ")
		o.bw.WriteString(": ")
		if m.elem == nil || m.n == 0 {
			o.encode(m.value, "    ")
			continue
		}
		o.bw.WriteString("[")
		for j := 0; j < m.n; j++ {
			if j > 0 {
				o.bw.WriteString(",")
			}
			o.bw.WriteString("\n      ")
			o.encode(m.elem(j), "      ")
		}
		o.bw.WriteString("\n    ]")
	}
	o.bw.WriteString("\n  }")
}

func (o *objectWriter) close() error {
	o.bw.WriteString("\n}\n")
	if err := o.bw.Flush(); o.err == nil {
		o.err = err
	}
	return o.err
}

// ReplayJSON writes replay's JSON document (Write with Format "json") as
// its sessions come: each is written when given and need not be kept, and
// the total, which follows them, is given at the end. The bytes are those
// Write gives for the same document.
type ReplayJSON struct {
	o *objectWriter
	// Since and Until are written after the total when set, as
	// Document's.
	Since, Until replay.Time
}

// NewReplayJSON starts a document priced with prices on w.
func NewReplayJSON(w io.Writer, prices *prices.Table) *ReplayJSON {
	o := newObjectWriter(w)
	o.member("schema", SchemaReplay)
	o.member("version", SchemaVersion)
	o.member("prices", PriceInfo{Date: prices.Date, Source: prices.Source})
	o.beginList("sessions")
	return &ReplayJSON{o: o}
}

// Session writes the next session.
func (j *ReplayJSON) Session(s *Session) error {
	j.o.elem(s)
	return j.o.err
}

// Close writes the total (accounting.Merge of the sessions' reports) and
// the errors, and ends the document.
func (j *ReplayJSON) Close(total *accounting.Report, errs []string) error {
	if errs == nil {
		errs = []string{}
	}
	j.o.endList([]*Session{})
	j.o.object("total", reportMembers(total))
	for _, m := range windowMembers(j.Since, j.Until) {
		j.o.member(m.name, m.value)
	}
	unpriced := UnpricedModels(total.Usage)
	j.o.member("cost_partial", len(unpriced) > 0)
	j.o.member("unpriced_models", unpriced)
	j.o.member("errors", errs)
	return j.o.close()
}
