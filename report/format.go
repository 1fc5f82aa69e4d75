package report

// Format is an output format. Each command writes some of them (its
// Formats list); every command writes table, markdown, csv and json.
type Format string

const (
	Table    Format = "table" // text tables for a terminal, fitted to its width
	Markdown Format = "markdown"
	CSV      Format = "csv"  // one table per stream, raw values
	JSON     Format = "json" // the versioned document (docs/json-schema.md)
	HTML     Format = "html" // one self-contained page
	JUnit    Format = "junit"
)

// Formats lists the formats of replay, compare, sweep and policies;
// GateFormats gate's.
var (
	Formats     = []Format{Table, JSON, CSV, Markdown, HTML}
	GateFormats = []Format{Table, JSON, CSV, Markdown, JUnit, HTML}
)
