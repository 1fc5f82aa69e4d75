package report

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/internal/jsonerr"
)

// Header is what ReadJSON keeps of a document besides its sessions.
type Header struct {
	Schema   string
	Version  int
	Policies []string // compare only
	// Total is the document's "total": the merged accounting of a replay
	// document (ReplayTotal) or the summed runs of a compare document
	// (CompareTotal); nil when the document has none.
	ReplayTotal  *accounting.Report
	CompareTotal *Compared
	// ComparisonSettings and Comparisons are a compare document's
	// statistics; nil when it has none.
	ComparisonSettings *ComparisonSettings
	Comparisons        []Comparison
	// SessionsWithoutCalls is a compare document's; 0 in version 1.
	SessionsWithoutCalls int
}

// ReadSession is one session of a document: Replay for a replay document,
// Compare for a compare document.
type ReadSession struct {
	Replay  *Session
	Compare *Compared
}

// DecodeError is a document ReadJSON could not read. Offset is the byte
// (0-based) at which the decoder stopped, or -1 when the document as a
// whole is not a report. For a syntax error (Syntax) it is approximate:
// Go's streaming decoder may stop a few bytes before the offending one;
// SyntaxOffset finds the start of the offending value in a document that
// can be read again.
type DecodeError struct {
	Offset int64
	Syntax bool
	Err    error
}

func (e *DecodeError) Error() string { return e.Err.Error() }
func (e *DecodeError) Unwrap() error { return e.Err }

// Position names where the report at path could not be read: file:line:column for
// a file (read again: up to the offset, and for a syntax error first to
// find the offending value exactly), a byte offset for standard input,
// the file alone for an error of the whole document.
func (e *DecodeError) Position(path string) string {
	offset := e.Offset
	if offset < 0 {
		return path
	}
	if path == "-" {
		return fmt.Sprintf("-: byte %d", offset)
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Sprintf("%s: byte %d", path, offset)
	}
	defer f.Close()
	if e.Syntax {
		if exact := SyntaxOffset(bufio.NewReaderSize(f, 1<<20)); exact >= 0 {
			offset = exact
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return fmt.Sprintf("%s: byte %d", path, offset)
		}
	}
	line, col := 1, 1
	r := bufio.NewReader(io.LimitReader(f, offset))
	for {
		b, err := r.ReadByte()
		if err != nil {
			break
		}
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Sprintf("%s:%d:%d", path, line, col)
}

// ErrEmpty is the DecodeError of an input without a single byte of JSON.
var ErrEmpty = errors.New("empty input: not a ctxlab JSON report")

// transcriptKeys are the keys a transcript line starts with; a document
// starting with one is a transcript given by mistake.
var transcriptKeys = map[string]bool{"type": true, "parentUuid": true, "uuid": true, "sessionId": true, "leafUuid": true}

// ReadJSON reads a JSON document written by `replay --format json` or
// `compare --format json` as a stream: each session is decoded and handed
// to session before the next is read, so memory holds one session. The
// document must start with "schema" (ctxlab writes it first); unknown
// fields are skipped, so documents of later versions with new fields are
// read, but a version above the schema's Version is refused. An error from
// session stops the reading and is returned as is.
func ReadJSON(r io.Reader, session func(ReadSession) error) (*Header, error) {
	d := &docReader{dec: json.NewDecoder(r), h: &Header{}}
	if err := d.start(); err != nil {
		return d.h, err
	}
	for d.dec.More() {
		tok, err := d.dec.Token()
		if err != nil {
			return d.h, d.fail(err)
		}
		key, _ := tok.(string)
		if err := d.field(key, session); err != nil {
			return d.h, err
		}
	}
	if _, err := d.dec.Token(); err != nil {
		return d.h, d.fail(err)
	}
	return d.h, nil
}

// docReader reads one document for ReadJSON into its header.
type docReader struct {
	dec *json.Decoder
	h   *Header
}

// fail is err as a DecodeError at the reader's offset (a syntax error at
// its own).
func (d *docReader) fail(err error) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return &DecodeError{Offset: max(se.Offset-1, 0), Syntax: true, Err: fmt.Errorf("invalid JSON: %v", se)}
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return &DecodeError{Offset: d.dec.InputOffset(), Err: errors.New("unexpected end of input: the report is truncated")}
	}
	return &DecodeError{Offset: d.dec.InputOffset(), Err: err}
}

// notReport is the error of a document that is not a ctxlab report.
func notReport(msg string) error { return &DecodeError{Offset: -1, Err: errors.New(msg)} }

// start reads the document's opening and its "schema", which comes
// first.
func (d *docReader) start() error {
	tok, err := d.dec.Token()
	if err == io.EOF {
		return &DecodeError{Err: ErrEmpty}
	}
	if err != nil {
		return d.fail(err)
	}
	if delim, ok := tok.(json.Delim); !ok || delim != '{' {
		return notReport("not a ctxlab JSON report: want an object")
	}
	if !d.dec.More() {
		return notReport(`not a ctxlab JSON report: no "schema"`)
	}
	if tok, err = d.dec.Token(); err != nil {
		return d.fail(err)
	}
	switch key, _ := tok.(string); {
	case transcriptKeys[key]:
		return notReport("a transcript, not a ctxlab JSON report: draw a transcript with replay --plot or compare --plot")
	case key != "schema":
		return notReport(fmt.Sprintf(`not a ctxlab JSON report: it starts with %q, not "schema"`, key))
	}
	if err := d.decode("schema", &d.h.Schema); err != nil {
		return err
	}
	if d.h.Schema != SchemaReplay && d.h.Schema != SchemaCompare {
		return d.fail(fmt.Errorf("schema %q: want %s or %s", d.h.Schema, SchemaReplay, SchemaCompare))
	}
	return nil
}

// field reads the value of the document's field key: the sessions one
// at a time through session, the rest into the header, an unknown field
// skipped.
func (d *docReader) field(key string, session func(ReadSession) error) error {
	h := d.h
	switch key {
	case "version":
		if err := d.decode("version", &h.Version); err != nil {
			return err
		}
		if h.Version > Version(h.Schema) {
			return d.fail(fmt.Errorf("version %d: written by a later ctxlab (this one reads up to %d)", h.Version, Version(h.Schema)))
		}
		return nil
	case "sessions":
		err := readSessions(d.dec, h.Schema, session)
		var cb callbackError
		if errors.As(err, &cb) {
			return cb.err
		}
		if err != nil {
			return d.fail(err)
		}
		return nil
	case "total":
		if h.Schema == SchemaCompare {
			return d.decode("total", &h.CompareTotal)
		}
		return d.decode("total", &h.ReplayTotal)
	case "policies":
		return d.decode("policies", &h.Policies)
	case "comparison_settings":
		return d.decode("comparison_settings", &h.ComparisonSettings)
	case "comparisons":
		return d.decode("comparisons", &h.Comparisons)
	case "sessions_without_calls":
		return d.decode("sessions_without_calls", &h.SessionsWithoutCalls)
	}
	var skip json.RawMessage
	return d.decode(key, &skip)
}

// decode reads the next value, the document's field key, into v.
func (d *docReader) decode(key string, v any) error {
	if err := d.dec.Decode(v); err != nil {
		return d.fail(wrongKind(key, err, v))
	}
	return nil
}

// wrongKind says where in the document, at path, a value of the wrong
// kind is and what it is, in JSON's words and keys rather than Go's
// (jsonerr): "sessions[2].usage: a string where an object was expected".
// Any other error is returned as it is.
func wrongKind(path string, err error, v any) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return err
	}
	if f := jsonerr.FieldIn(err, v); f != "" {
		path += "." + f
	}
	return fmt.Errorf("%s: %w", path, jsonerr.Cause(err))
}

// SyntaxOffset reads a document token by token and returns the byte
// (0-based) at which the value that makes it invalid starts, or -1 when it
// is valid JSON. It is slower than ReadJSON but exact, so a caller that
// can read the document again uses it to place a DecodeError with Syntax.
func SyntaxOffset(r io.Reader) int64 {
	dec := json.NewDecoder(r)
	for {
		if _, err := dec.Token(); err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) {
				return dec.InputOffset()
			}
			return -1
		}
	}
}

// callbackError carries the session callback's error through readSessions
// untouched.
type callbackError struct{ err error }

func (e callbackError) Error() string { return e.err.Error() }

func readSessions(dec *json.Decoder, schema string, session func(ReadSession) error) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil { // "sessions": null
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return errors.New(`"sessions": want an array`)
	}
	for i := 0; dec.More(); i++ {
		var s ReadSession
		if schema == SchemaCompare {
			err = wrongKind(fmt.Sprintf("sessions[%d]", i), dec.Decode(&s.Compare), &s.Compare)
		} else {
			err = wrongKind(fmt.Sprintf("sessions[%d]", i), dec.Decode(&s.Replay), &s.Replay)
		}
		if err != nil {
			return err
		}
		if s.Replay == nil && s.Compare == nil {
			continue // null element
		}
		if err := session(s); err != nil {
			return callbackError{err}
		}
	}
	_, err = dec.Token() // ']'
	return err
}
