package batch

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/replay"
)

// A part is what one shard of a command writes (--shard K/N): a JSON
// document of schema PartSchema, version PartVersion, that says how it
// was made (PartHeader) and holds, session by session, the value the
// command keeps of each session its shard read, in input order, with the
// session's place in the whole input. `ctxlab merge` reads the parts of
// every shard and makes the command's document from all their values,
// as one run over the whole input makes it from its own.
const (
	PartSchema  = "ctxlab-part"
	PartVersion = 1
)

// ErrPartWritten is what a batch run under a shard returns once its part
// is written: the command's document is made by the merge.
var ErrPartWritten = errors.New("part written")

// PartHeader is what a part says of how it was made; the parts of one
// merge agree on all of it but the shard's K.
type PartHeader struct {
	Schema  string `json:"schema"`
	Version int    `json:"version"`
	// Ctxlab is the build that wrote the part (Build).
	Ctxlab string `json:"ctxlab"`
	// Command is the command's name (replay, compare, sweep, gate); Args
	// are its flags but --shard, one --name=value each, in the order of
	// their names, so that flags given in any order compare equal; Paths
	// are its arguments.
	Command string   `json:"command"`
	Args    []string `json:"args"`
	Paths   []string `json:"paths"`
	Shard   Shard    `json:"shard"`
	// Prices is the SHA-256 of the price table's JSON (PriceDigest), and
	// PricesDate its date.
	Prices     string `json:"prices"`
	PricesDate string `json:"prices_date"`
	// Sources counts the sessions of the whole input, and Input is the
	// SHA-256 of their identities (Identity), one a line in input order:
	// every shard finds the whole input before it keeps its own.
	Sources int    `json:"sources"`
	Input   string `json:"input"`
	// InputErrors are the paths that could not be searched.
	InputErrors []string `json:"input_errors"`
}

// partEntry is one session of a part: its index in the whole input and
// what the command kept of it, or why there is nothing.
type partEntry struct {
	Index   int             `json:"index"`
	Value   json.RawMessage `json:"value,omitempty"`
	Warned  bool            `json:"warned,omitempty"`  // some line was malformed
	Skipped bool            `json:"skipped,omitempty"` // read, outside the selection's window
	Error   string          `json:"error,omitempty"`   // the session could not be read
}

// partTrailer follows the sessions: a part without it was cut short.
const partTrailer = "\n  ],\n  \"complete\": true\n}\n"

// PriceDigest is the SHA-256 of the price table's JSON, which names every
// price a part's figures were computed with.
func PriceDigest(t *prices.Table) string {
	if t == nil {
		t = prices.Default()
	}
	b, err := json.Marshal(t)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// A Part writes a shard's part to W as its sessions are read.
type Part struct {
	W      io.Writer
	Header PartHeader

	bw      *bufio.Writer
	buf     []byte // add's scratch
	entries int
	err     error
}

// begin writes the header, with what in says of the whole input.
func (p *Part) begin(in *Inputs) {
	h := &p.Header
	h.Schema, h.Version = PartSchema, PartVersion
	d := sha256.New()
	for _, src := range in.Sources {
		io.WriteString(d, Identity(src)+"\n")
	}
	h.Sources, h.Input = len(in.Sources), hex.EncodeToString(d.Sum(nil))
	h.InputErrors = []string{}
	for _, err := range in.Errs {
		h.InputErrors = append(h.InputErrors, err.Error())
	}
	if h.Args == nil {
		h.Args = []string{}
	}
	if h.Paths == nil {
		h.Paths = []string{}
	}
	b, err := json.MarshalIndent(h, "", "  ")
	p.bw = bufio.NewWriterSize(p.W, 1<<16)
	if err != nil {
		p.err = err
		return
	}
	p.bw.Write(bytes.TrimSuffix(b, []byte("\n}"))) // open: the sessions follow
	_, p.err = p.bw.WriteString(",\n  \"sessions\": [\n")
}

// add writes one session's entry, as json.Marshal writes a partEntry:
// its value is json.Marshal's output already (entryOf), compact and
// escaped as Marshal escapes, which Marshal would only compact again, a
// pass over every byte of the shard's values.
func (p *Part) add(e partEntry) {
	if p.err != nil {
		return
	}
	if p.entries > 0 {
		p.bw.WriteString(",\n")
	}
	p.entries++
	b := p.buf[:0]
	b = append(b, `{"index":`...)
	b = strconv.AppendInt(b, int64(e.Index), 10)
	if len(e.Value) > 0 {
		b = append(b, `,"value":`...)
		p.bw.Write(b)
		p.bw.Write(e.Value)
		b = b[:0]
	}
	if e.Warned {
		b = append(b, `,"warned":true`...)
	}
	if e.Skipped {
		b = append(b, `,"skipped":true`...)
	}
	if e.Error != "" {
		msg, _ := json.Marshal(e.Error) // a string always encodes
		b = append(append(b, `,"error":`...), msg...)
	}
	b = append(b, '}')
	_, p.err = p.bw.Write(b)
	p.buf = b
}

// end closes the part: ErrPartWritten, or why it could not be written.
func (p *Part) end() error {
	if p.err == nil {
		p.bw.WriteString(partTrailer)
		p.err = p.bw.Flush()
	}
	if p.err != nil {
		return fmt.Errorf("writing part: %w", p.err)
	}
	return ErrPartWritten
}

// NewPart is the part of shard s of a command, to be written to w: the
// command named by its flags f (a command's flag set bears its name),
// which it records but those of skip (the shard's own flag, and those
// that change how, not what, it reads: --jobs, --max-warnings), its
// paths, and the price table t. The window of sel is recorded as the
// times --since and --until stood for, so that an age (7d) means at the
// merge what it meant to the shard.
func NewPart(w io.Writer, f *pflag.FlagSet, skip []string, paths []string, s Shard, t *prices.Table, sel replay.Selection) *Part {
	args := FlagArgs(f, skip...)
	for i, a := range args {
		for flag, at := range map[string]int64{"--since=": sel.Since, "--until=": sel.Until} {
			if strings.HasPrefix(a, flag) && at != 0 {
				args[i] = flag + time.UnixMilli(at).UTC().Format(time.RFC3339Nano)
			}
		}
	}
	return &Part{W: w, Header: PartHeader{
		Ctxlab: Build(), Command: f.Name(), Args: args, Paths: paths,
		Shard: s, Prices: PriceDigest(t), PricesDate: t.Date,
	}}
}
