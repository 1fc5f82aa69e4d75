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
	Latex    Format = "latex" // booktabs tables, ready for a paper
)

// Formats lists the formats of replay and policies; StudyFormats
// compare's and sweep's, whose results go into papers; GateFormats gate's.
var (
	Formats      = []Format{Table, JSON, CSV, Markdown, HTML}
	StudyFormats = []Format{Table, JSON, CSV, Markdown, HTML, Latex}
	GateFormats  = []Format{Table, JSON, CSV, Markdown, JUnit, HTML}
)
