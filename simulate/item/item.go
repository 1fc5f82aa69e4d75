// Package item is what the simulator's context is made of: its blocks
// (Item), each with its kind and its size in tokens, and Claude Code's
// own count of a block by version (CountEst). Package simulate builds the
// items from a transcript, and policies see and act on them.
package item

import (
	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/simulate/filestate"
)

// Kind says what a context item is.
type Kind uint8

const (
	Overhead   Kind = iota // system prompt + tool definitions
	User                   // user text (typed prompt or harness text)
	Assistant              // assistant text and thinking
	ToolUse                // a tool call
	ToolResult             // a tool result
	Attachment             // an attachment line
	Image                  // an image or document block
	Summary                // a compaction summary (real or simulated)
	Restored               // context re-attached after a simulated compaction
	Hidden                 // tokens the server saw that the transcript does not show
)

var kindNames = [...]string{"overhead", "user", "assistant", "tool_use", "tool_result", "attachment", "image", "summary", "restored", "hidden"}

func (k Kind) String() string { return kindNames[k] }

// Item is one block of the context, with its size in tokens.
type Item struct {
	Kind   Kind
	Tokens int64
	// Est is Claude Code's estimate of the block (round(length/4)), the
	// measure Claude Code's own thresholds use.
	Est  int
	Msg  int // index of the source message in the thread; -1 for simulated items
	Tool string
	// ToolID pairs a tool_use with its result.
	ToolID string
	Path   string // file the tool touched, when it names one
	// Text is a user message's text (kept for the fake summarizer).
	Text string
	// Cleared marks a tool result replaced by a placeholder.
	Cleared bool
	IsError bool // a failed tool result
	// Artifact marks an item Claude Code wrote because it compacted (the
	// summary, re-attached files). Counterfactual runs drop them.
	Artifact bool
	// Exact is set when Tokens came from usage deltas rather than an estimate.
	Exact bool
	// File is, on a file tool's result (and a file re-attached after a
	// compaction), the size of the whole file as a compaction would
	// re-attach it (filestate.Sizes.After), and Wrote is set when the tool wrote
	// the file.
	File  filestate.Size
	Wrote bool
	// Whole is set when the tool's result held the whole file, as a
	// restarted Claude Code rebuilds its files (filestate.Whole).
	Whole bool
	// Images and Docs count the images and documents the block holds (an
	// image or a document block: 1; a tool result: those in its content),
	// and Raw is the estimate of an attachment's JSON: what Claude Code's
	// own count weighs by version (CountEst).
	Images, Docs int32
	Raw          int
	// Chars is a tool result's length in characters (its text's), which
	// Claude Code's limit on what it sends whole measures (simulate.Config.sentEst).
	Chars int
}

// CountEst is an item's weight in Claude Code's own estimate: its
// estimate (Item.Est), with images, documents, other blocks and
// attachments weighed as the version's rules weigh them
// (claudecode.CountRulesFor).
func CountEst(r claudecode.CountRules, it *Item) int64 {
	est := int64(it.Est)
	switch it.Kind {
	case Attachment:
		switch r.Attachment {
		case claudecode.AttachmentNothing:
			return 0
		case claudecode.AttachmentByJSON:
			return int64(it.Raw)
		}
	case Image: // an image, a document or a newer kind of block
		switch {
		case it.Images > 0:
			return int64(it.Images) * r.Image
		case !r.AllBlocks:
			return 0
		case it.Docs > 0:
			return int64(it.Docs) * int64(claudecode.ImageTokens.Value)
		}
	case ToolResult: // Est counts its images at TokensPerImage, its documents not
		est += int64(it.Images) * (r.Image - int64(claudecode.ImageTokens.Value))
		if r.AllBlocks {
			est += int64(it.Docs) * int64(claudecode.ImageTokens.Value)
		}
	}
	return est
}
