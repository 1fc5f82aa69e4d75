package table

import (
	"encoding/csv"
	"io"
	"strings"
)

// WriteCSV writes t alone as a CSV stream: its header, then its rows.
func WriteCSV(w io.Writer, t *Table) error {
	cw := csv.NewWriter(w)
	if err := t.WriteCSVRows(cw, "", true); err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

// WriteCSVRows writes t's raw values to cw: with header, a line naming
// its columns; when scope is set, a first column "scope" holding it.
func (t *Table) WriteCSVRows(cw *csv.Writer, scope string, header bool) error {
	if header {
		cols := make([]string, 0, len(t.Columns)+1)
		if scope != "" {
			cols = append(cols, "scope")
		}
		for _, c := range t.Columns {
			cols = append(cols, c.CSVName())
		}
		if err := cw.Write(cols); err != nil {
			return err
		}
	}
	rec := make([]string, 0, len(t.Columns)+1)
	for _, r := range t.Rows {
		rec = rec[:0]
		if scope != "" {
			rec = append(rec, scope)
		}
		for _, c := range r {
			rec = append(rec, c.Raw)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	return nil
}

// CSVName is the column's CSV header.
func (c Column) CSVName() string {
	if c.CSV != "" {
		return c.CSV
	}
	return strings.ReplaceAll(strings.ToLower(c.Name), " ", "_")
}
