package claudecode

// What Claude Code writes in its transcripts, by version.
var (
	// SyntheticModel marks a response Claude Code wrote itself (an API
	// error, a rate-limit notice, an interrupted turn): it was never
	// sent.
	SyntheticModel = Value[string]{Fact{Name: "SyntheticModel",
		Doc:    "the message.model of a response Claude Code wrote itself, never sent to the API",
		Source: "message.model of assistant lines"}, "<synthetic>"}
	// PlaceholderOutput: 2.1.9 to 2.1.41 write on every line of a
	// response the usage of its first streamed message (message_start),
	// whose output_tokens is a placeholder, with stop_reason null; the
	// versions before write a snapshot per line, the last one final, and
	// the later ones the final usage on every line.
	PlaceholderOutput = Fact{Name: "PlaceholderOutput", From: "2.1.9", Until: "2.1.42",
		Doc:    "every line of a response records the usage of its first streamed message, whose output_tokens is a placeholder",
		Source: "message.usage.output_tokens and message.stop_reason of assistant lines (2.1.9–2.1.41)"}
)
