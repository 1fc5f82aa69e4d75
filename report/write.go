package report

import (
	"io"

	"github.com/ctxlab/ctxlab/accounting"
)

// Doc is a document ctxlab writes: *Document (replay), *CompareDocument,
// *GateDocument, *SweepDocument or *PolicyList. Its Kind is what the
// formats' table (report/render) lists a format's documents by.
type Doc interface{ Kind() Kind }

// Kind names a kind of document by the command that writes it.
type Kind string

// The kinds of document.
const (
	ReplayKind   Kind = "replay"
	CompareKind  Kind = "compare"
	GateKind     Kind = "gate"
	SweepKind    Kind = "sweep"
	PoliciesKind Kind = "policies"
)

// Kinds lists every kind of document.
var Kinds = []Kind{ReplayKind, CompareKind, GateKind, SweepKind, PoliciesKind}

func (*Document) Kind() Kind        { return ReplayKind }
func (*CompareDocument) Kind() Kind { return CompareKind }
func (*GateDocument) Kind() Kind    { return GateKind }
func (*SweepDocument) Kind() Kind   { return SweepKind }
func (*PolicyList) Kind() Kind      { return PoliciesKind }

// WriteJSON writes a document as JSON: replay's and compare's a session at
// a time, so that a large input is never held as one encoded value.
func WriteJSON(w io.Writer, d Doc) error {
	switch d := d.(type) {
	case *Document:
		if d.By != "" {
			return writeJSON(w, d.GroupsDocument())
		}
		return writeObject(w, d.members())
	case *CompareDocument:
		return writeObject(w, d.members())
	case *GateDocument:
		return writeJSON(w, d.Result)
	}
	return writeJSON(w, d)
}

// SessionWriter writes replay's document a session at a time, as a format
// that streams does (report/render's table): each session is written when
// given and need not be kept; the total, which follows them, and the
// input's errors come at the end.
type SessionWriter interface {
	Session(*Session) error
	Close(total *accounting.Report, errs []string) error
}

var _ SessionWriter = (*ReplayJSON)(nil)
