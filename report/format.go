package report

// Format is an output format, as --format names it. report/render's table
// says, for each, its writer, the documents it writes and whether it
// streams; the commands' lists of formats come from there.
type Format string

// The formats' names.
const (
	Table    Format = "table" // text tables for a terminal, fitted to its width
	Markdown Format = "markdown"
	CSV      Format = "csv"  // one table per stream, raw values
	JSON     Format = "json" // the versioned document (docs/json-schema.md)
	HTML     Format = "html" // one self-contained page
	JUnit    Format = "junit"
	Latex    Format = "latex" // booktabs tables, ready for a paper
)
