package transcript

// BlockKind is the type of one content block of a message.
type BlockKind uint8

const (
	BlockText BlockKind = iota
	BlockThinking
	BlockToolUse
	BlockToolResult
	BlockImage
	BlockDocument
	BlockOther // a block type this version of ctxlab does not know
)

var blockKindNames = [...]string{"text", "thinking", "tool_use", "tool_result", "image", "document", "other"}

func (k BlockKind) String() string { return blockKindNames[k] }

// NoType is the Type of a line without a "type" field: no transcript
// record has one.
const NoType = "(none)"

// Estimate is Claude Code's approximateTokenCount: Math.round(length/4)
// (in its bundled cli.js). chars is a JavaScript string length.
func Estimate(chars int) int {
	return (chars + 2) / 4 // Math.round rounds .5 up; chars/4 has remainders 0,1,2,3
}

// Block is one content block, reduced to what the reports and the simulator
// need: sizes, a content hash and a few fields. Text is kept only for user
// prompts (the fake summarizer quotes them); everything else keeps its size.
type Block struct {
	Kind BlockKind
	// Chars is the JavaScript length of the block's countable text: the text
	// of text/thinking blocks, the text of a tool result, the JSON of a tool
	// use's input.
	Chars int
	// Est is Claude Code's own estimate of the block in tokens: round(Chars/4)
	// per text piece, TokensPerImage per image.
	Est int
	// Hash identifies the block's content (xxhash of its raw JSON).
	Hash uint64
	// ToolID is the tool_use id (tool_use) or the tool_use_id it answers
	// (tool_result).
	ToolID string
	// Name is the tool's name (tool_use) or the block type (other).
	Name    string
	IsError bool
	// Images and Documents count the image and document items inside a
	// tool result (Est counts an image TokensPerImage, a document
	// nothing).
	Images, Documents int
	Input             *ToolInput // tool_use only
	// Text is the text of a user text block, cut to at most MaxKeptText
	// bytes at a character boundary.
	Text string
}

// MaxKeptText caps the user text kept per block; Chars keeps the full size.
const MaxKeptText = 16 << 10

// maxCommand caps ToolInput.Command.
const maxCommand = 200

// ToolInput holds the fields of a tool_use input that the reports use.
type ToolInput struct {
	FilePath string // file_path or notebook_path
	Offset   int    // Read offset, 0 when absent
	Limit    int    // Read limit, 0 when absent
	Command  string // Bash command, cut to at most 200 bytes at a character boundary
	Pattern  string // Grep/Glob pattern
	URL      string // WebFetch url
	// The text a Write writes (content) and an Edit replaces and puts in
	// its place (old_string, new_string): JavaScript lengths of their JSON
	// text, and ContentLines the lines of the written text.
	ContentChars, ContentLines int
	OldChars, NewChars         int
}

// FileFacts is what a file tool's toolUseResult records of the whole file:
// its text before an Edit or Write (originalFile, left out by later
// versions' Edit results: the length of its JSON text, and lines), and the lines
// a Read returned of how many (file.numLines, file.totalLines).
type FileFacts struct {
	OriginalChars, OriginalLines int
	ReadLines, TotalLines        int
}

// Usage is one API response's usage record.
type Usage struct {
	Input int64
	// CacheWrite5m and CacheWrite1h split cache_creation_input_tokens by TTL.
	// Lines without the split (1.0.6x/7x) count every write as 5m.
	CacheWrite5m int64
	CacheWrite1h int64
	CacheRead    int64
	Output       int64
}

// CacheWrite is cache_creation_input_tokens.
func (u Usage) CacheWrite() int64 { return u.CacheWrite5m + u.CacheWrite1h }

// Prompt is the prompt size the server saw: input + cache write + cache read.
func (u Usage) Prompt() int64 { return u.Input + u.CacheWrite() + u.CacheRead }

// HitRatio is the token-weighted cache hit ratio: cache read / (input +
// cache writes + cache read); 0 when there are no prompt tokens.
func (u Usage) HitRatio() float64 {
	if p := u.Prompt(); p > 0 {
		return float64(u.CacheRead) / float64(p)
	}
	return 0
}

// Total is every token of the record, the measure ccusage and ctxlab use to
// pick among duplicate records.
func (u Usage) Total() int64 { return u.Prompt() + u.Output }

// Add returns u + v.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		Input:        u.Input + v.Input,
		CacheWrite5m: u.CacheWrite5m + v.CacheWrite5m,
		CacheWrite1h: u.CacheWrite1h + v.CacheWrite1h,
		CacheRead:    u.CacheRead + v.CacheRead,
		Output:       u.Output + v.Output,
	}
}

// CompactMeta is the metadata of a compact_boundary or microcompact_boundary.
type CompactMeta struct {
	Trigger          string
	PreTokens        int64
	PostTokens       int64 // 2.1.114+; 0 when absent
	DurationMs       int64
	TokensSaved      int64    // microcompaction
	CompactedToolIDs []string // microcompaction
}

// Entry is one transcript line, parsed. Strings are copies; an Entry stays
// valid after the reader moves on.
type Entry struct {
	Line    int    // 1-based line number in its file
	Type    string // top-level "type": user, assistant, system, attachment, progress, summary, …
	Subtype string // system subtype

	UUID              string
	ParentUUID        string
	ParentNull        bool // parentUuid present and null: a chain root
	LogicalParentUUID string
	SessionID         string
	Version           string
	AgentID           string
	Time              int64 // Unix milliseconds; 0 when absent or unparsable
	// Cwd is Claude Code's working directory when it wrote the line.
	Cwd string

	Sidechain               bool
	Meta                    bool
	CompactSummary          bool
	VisibleInTranscriptOnly bool
	APIError                bool
	// Summary says what the text of a compaction summary (CompactSummary)
	// shows of the compaction that wrote it.
	Summary SummaryText

	// message
	Role          string
	StringContent bool // message.content was a plain string (one text block)
	MessageID     string
	RequestID     string
	Model         string
	StopReason    string
	Usage         *Usage
	Blocks        []Block

	// ResultAgentID is toolUseResult.agentId: the sub-agent a Task/Agent
	// tool result came from.
	ResultAgentID string
	// ResultDurationMs is how long the tool ran, as toolUseResult records
	// it (durationMs; totalDurationMs for a Task/Agent sub-agent;
	// durationSeconds for WebSearch), in ms; 0 when it records none.
	ResultDurationMs int64
	// ResultFile is what toolUseResult records of a file tool's file.
	ResultFile FileFacts

	Compact *CompactMeta

	AttachmentType  string
	AttachmentChars int // JavaScript length of the attachment's JSON
	// AttachmentEst is Claude Code's estimate of what the attachment sends
	// the model (attachmentEst).
	AttachmentEst int
}

// SummaryText is what the text of a compaction summary shows. Claude Code
// opens every summary with "This session is being continued from a
// previous conversation that ran out of context." and, when it compacted
// on its own, ends it with the instruction to go on: "Please continue the
// conversation from where we left it off without asking the user any
// further questions. Continue with the last task that you were asked to
// work on." (its bundled cli.js, 1.0.0 to 2.1.x: the summary function adds
// the sentence only when its caller, the automatic compaction, asks;
// /compact does not).
type SummaryText uint8

const (
	// SummaryOther is a text that does not open as Claude Code's summaries do.
	SummaryOther SummaryText = iota
	// SummaryGoOn is Claude Code's summary ending with the instruction to go on.
	SummaryGoOn
	// SummaryPlain is Claude Code's summary without it.
	SummaryPlain
)
