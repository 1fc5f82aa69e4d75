package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
)

// member is one member of a JSON object that writeObject writes: its
// value, or for a long list its length and elements, written one by one.
type member struct {
	name  string
	value any
	n     int
	elem  func(i int) any // set for a list written element by element
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
	bw := bufio.NewWriterSize(w, 64<<10)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	encode := func(v any, prefix string) error {
		buf.Reset()
		enc.SetIndent(prefix, "  ")
		if err := enc.Encode(v); err != nil {
			return err
		}
		_, err := bw.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
		return err
	}
	bw.WriteString("{")
	for i, m := range members {
		if i > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n  ")
		if err := encode(m.name, "  "); err != nil {
			return err
		}
		bw.WriteString(": ")
		if m.elem == nil || m.n == 0 {
			if err := encode(m.value, "  "); err != nil {
				return err
			}
			continue
		}
		bw.WriteString("[")
		for j := 0; j < m.n; j++ {
			if j > 0 {
				bw.WriteString(",")
			}
			bw.WriteString("\n    ")
			if err := encode(m.elem(j), "    "); err != nil {
				return err
			}
		}
		bw.WriteString("\n  ]")
	}
	bw.WriteString("\n}\n")
	return bw.Flush()
}
