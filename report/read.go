package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/ctxlab/ctxlab/accounting"
)

// Schema names of the JSON documents.
const (
	SchemaReplay  = "ctxlab.replay"
	SchemaCompare = "ctxlab.compare"
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
}

// ReadSession is one session of a document: Replay for a replay document,
// Compare for a compare document.
type ReadSession struct {
	Replay  *Session
	Compare *Compared
}

// DecodeError is a document ReadJSON could not read; Offset is the
// 0-based index of the byte at which it stopped, or -1 when the document
// as a whole is wrong (it lacks its schema).
type DecodeError struct {
	Offset int64
	Err    error
}

func (e *DecodeError) Error() string { return e.Err.Error() }
func (e *DecodeError) Unwrap() error { return e.Err }

// ErrEmpty is the DecodeError of an input without a single byte of JSON.
var ErrEmpty = errors.New("empty input: not a ctxlab JSON report")

// ReadJSON reads a JSON document written by `replay --format json` or
// `compare --format json` as a stream: each session is decoded and handed
// to session before the next is read, so memory holds one session. The
// "schema" field must come before "sessions" (ctxlab writes it first);
// unknown fields are skipped, so documents of later versions with new
// fields are read, but a version above SchemaVersion is refused. An error
// from session stops the reading and is returned as is.
func ReadJSON(r io.Reader, session func(ReadSession) error) (*Header, error) {
	dec := json.NewDecoder(r)
	h := &Header{}
	fail := func(err error) (*Header, error) {
		var se *json.SyntaxError
		switch {
		case errors.As(err, &se):
			// The offending byte is the last one read.
			return h, &DecodeError{Offset: max(se.Offset-1, 0), Err: fmt.Errorf("invalid JSON: %v", se)}
		case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
			return h, &DecodeError{Offset: dec.InputOffset(), Err: errors.New("unexpected end of input: the report is truncated")}
		}
		return h, &DecodeError{Offset: dec.InputOffset(), Err: err}
	}
	tok, err := dec.Token()
	if err == io.EOF {
		return h, &DecodeError{Err: ErrEmpty}
	}
	if err != nil {
		return fail(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fail(errors.New("not a ctxlab JSON report: want an object"))
	}
	transcript := false // a key of a transcript line was seen
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fail(err)
		}
		key, _ := tok.(string)
		switch key {
		case "sessionId", "uuid", "parentUuid":
			transcript = true
		}
		switch key {
		case "schema":
			if err := dec.Decode(&h.Schema); err != nil {
				return fail(err)
			}
			if h.Schema != SchemaReplay && h.Schema != SchemaCompare {
				return fail(fmt.Errorf("schema %q: want %s or %s", h.Schema, SchemaReplay, SchemaCompare))
			}
		case "version":
			if err := dec.Decode(&h.Version); err != nil {
				return fail(err)
			}
			if h.Version > SchemaVersion {
				return fail(fmt.Errorf("version %d: written by a later ctxlab (this one reads up to %d)", h.Version, SchemaVersion))
			}
		case "policies":
			if err := dec.Decode(&h.Policies); err != nil {
				return fail(err)
			}
		case "sessions":
			if h.Schema == "" {
				return fail(errors.New(`"sessions" before "schema": not a ctxlab JSON report (ctxlab writes "schema" first)`))
			}
			if err := readSessions(dec, h.Schema, session); err != nil {
				var cb callbackError
				if errors.As(err, &cb) {
					return h, cb.err
				}
				return fail(err)
			}
		case "total":
			var err error
			if h.Schema == SchemaCompare {
				err = dec.Decode(&h.CompareTotal)
			} else {
				err = dec.Decode(&h.ReplayTotal)
			}
			if err != nil {
				return fail(err)
			}
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return fail(err)
			}
		}
	}
	if _, err := dec.Token(); err != nil {
		return fail(err)
	}
	if h.Schema == "" {
		msg := `no "schema" field: not a ctxlab JSON report`
		if transcript {
			msg = "a transcript, not a ctxlab JSON report: draw a transcript with replay --plot or compare --plot"
		}
		return h, &DecodeError{Offset: -1, Err: errors.New(msg)}
	}
	return h, nil
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
	for dec.More() {
		var s ReadSession
		if schema == SchemaCompare {
			err = dec.Decode(&s.Compare)
		} else {
			err = dec.Decode(&s.Replay)
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
