package report

import "io"

// Doc is a document ctxlab writes: *Document (replay), *CompareDocument,
// *GateDocument, *SweepDocument or *PolicyList.
type Doc interface{ doc() }

func (*Document) doc()        {}
func (*CompareDocument) doc() {}
func (*GateDocument) doc()    {}
func (*SweepDocument) doc()   {}
func (*PolicyList) doc()      {}

// WriteJSON writes a document as JSON: replay's and compare's a session at
// a time, so that a large input is never held as one encoded value.
func WriteJSON(w io.Writer, d Doc) error {
	switch d := d.(type) {
	case *Document:
		return writeObject(w, d.members())
	case *CompareDocument:
		return writeObject(w, d.members())
	case *GateDocument:
		return writeJSON(w, d.Result)
	}
	return writeJSON(w, d)
}
