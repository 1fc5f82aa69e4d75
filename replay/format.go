package replay

import "github.com/ctxlab/ctxlab/replay/transcript"

// The line format (package transcript) defines what a line holds; a
// session is made of the same values, so replay gives them the names its
// users read them by, as os names io/fs's FileMode and PathError.
type (
	Block       = transcript.Block
	BlockKind   = transcript.BlockKind
	ToolInput   = transcript.ToolInput
	FileFacts   = transcript.FileFacts
	Usage       = transcript.Usage
	SyntaxError = transcript.SyntaxError
	Stats       = transcript.Stats
)

// The kinds of a Block.
const (
	BlockText       = transcript.BlockText
	BlockThinking   = transcript.BlockThinking
	BlockToolUse    = transcript.BlockToolUse
	BlockToolResult = transcript.BlockToolResult
	BlockImage      = transcript.BlockImage
	BlockDocument   = transcript.BlockDocument
	BlockOther      = transcript.BlockOther
)

// Estimate is Claude Code's approximateTokenCount (transcript.Estimate).
func Estimate(chars int) int { return transcript.Estimate(chars) }
