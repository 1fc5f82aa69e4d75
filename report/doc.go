// Package report renders accounting reports: as text tables and Markdown
// (tablewriter), CSV, or a versioned JSON document (see
// docs/json-schema.md). It decides nothing about what is counted; it only
// formats, with a stable order so that the same input gives the same bytes.
package report
