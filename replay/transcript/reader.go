package transcript

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/cespare/xxhash/v2"

	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/internal/jsonscan"
	"github.com/ctxlab/ctxlab/internal/numtext"
)

// SyntaxError is a line the reader could not use, or used with a caveat
// (Warning). Reading goes on after it.
type SyntaxError struct {
	File string
	Line int
	Msg  string
	// Warning is set when the line was still used (invalid UTF-8 bytes were
	// read as U+FFFD); the entry follows on the next Scan.
	Warning bool
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// Record is what Reader.Result returns: an *Entry or a *SyntaxError.
type Record interface{ record() }

func (*Entry) record()       {}
func (*SyntaxError) record() {}

// readBufferSize is the reader's buffer: a line that fits is parsed where
// it was read, a longer one is first assembled in the line buffer.
// Transcripts' tool outputs make lines of hundreds of KB common.
const readBufferSize = 1 << 20

// maxPooledLine bounds the line buffer kept for the next Reader, so that
// one huge line does not hold its memory for the rest of a run.
const maxPooledLine = 16 << 20

// buffers are a Reader's buffers. Close puts them in a pool for the next
// Reader: a corpus is many files read one after another, and reusing the
// buffers spares allocating, zeroing and growing them for each.
type buffers struct {
	br   *bufio.Reader
	line []byte
}

var bufferPool = sync.Pool{New: func() any {
	return &buffers{br: bufio.NewReaderSize(nil, readBufferSize)}
}}

// DefaultMaxLineBytes bounds one line's size. Real lines reach tens of MB
// (a pasted image, a huge tool output); longer lines are skipped with a
// warning so that one broken file cannot exhaust memory.
const DefaultMaxLineBytes = 256 << 20

// Stats counts what a reader saw, including what it does not model.
type Stats struct {
	Lines      int            // lines read, blank ones included
	Blank      int            // empty or white-space lines
	Bad        int            // lines that gave a non-warning SyntaxError
	Types      map[string]int // top-level "type" → lines
	Unknown    map[string]int // "type.field" for top-level fields ctxlab does not know, and "type" for unknown types
	BytesRead  int64
	Truncated  bool // the last line had no newline and did not parse
	InvalidUTF bool
}

// Merge adds o's counts to s, as a session sums its files'.
func (s *Stats) Merge(o *Stats) {
	s.Lines += o.Lines
	s.Blank += o.Blank
	s.Bad += o.Bad
	s.BytesRead += o.BytesRead
	s.Truncated = s.Truncated || o.Truncated
	s.InvalidUTF = s.InvalidUTF || o.InvalidUTF
	for k, v := range o.Types {
		s.Types[k] += v
	}
	for k, v := range o.Unknown {
		s.Unknown[k] += v
	}
}

// Reader reads a transcript one line at a time, like bufio.Scanner: Scan
// advances, Result returns the line's Record, Err the I/O error that ended
// the scan (nil at EOF). Lines may be of any length up to MaxLineBytes.
type Reader struct {
	file string
	bufs *buffers
	br   *bufio.Reader
	buf  []byte
	line int
	rec  Record
	next *Entry // an entry waiting behind its warning
	err  error
	eof  bool

	// MaxLineBytes overrides DefaultMaxLineBytes when positive.
	MaxLineBytes int
	// ReuseEntry makes Scan fill one Entry for every line instead of
	// allocating one per line (a third of the bytes a corpus run
	// allocates): an *Entry is then valid until the next Scan. What it
	// points to (Blocks, Usage, Compact) is never reused and may be kept.
	ReuseEntry bool

	entry  Entry
	stats  Stats
	intern map[string]string
	sc     jsonscan.Scanner // validates the current line and walks its values

	// The last literal read into each field of litSlot (see lit), and
	// the last usage object and its value (see usage).
	last      [numLitSlots]lastLit
	usageRaw  []byte
	lastUsage Usage
}

// litSlot names the fields whose values lit remembers from one line to
// the next.
type litSlot int

const (
	slotType litSlot = iota
	slotSubtype
	slotSession
	slotVersion
	slotAgent
	slotCwd
	slotRole
	slotModel
	slotStop
	slotMessage
	slotRequest
	numLitSlots
)

// lastLit is a string literal's text between its quotes and its value.
type lastLit struct{ inner, val string }

// NewReader returns a Reader of r; file names the input in messages.
func NewReader(r io.Reader, file string) *Reader {
	bufs := bufferPool.Get().(*buffers)
	bufs.br.Reset(r)
	return &Reader{
		file:   file,
		bufs:   bufs,
		br:     bufs.br,
		buf:    bufs.line[:0],
		stats:  Stats{Types: map[string]int{}, Unknown: map[string]int{}},
		intern: map[string]string{},
	}
}

// Close hands the Reader's buffers to the next Reader; the Reader (and
// the last line it returned) must not be used after. Calling it is
// optional: without it the buffers are collected as garbage. It does not
// close the underlying reader.
func (r *Reader) Close() {
	if r.bufs == nil {
		return
	}
	r.bufs.br.Reset(nil)
	r.bufs.line = nil
	if cap(r.buf) <= maxPooledLine {
		r.bufs.line = r.buf[:0]
	}
	bufferPool.Put(r.bufs)
	r.bufs, r.br, r.buf = nil, nil, nil
	r.eof = true
}

// Stats returns the counts so far.
func (r *Reader) Stats() *Stats { return &r.stats }

// Result returns the record of the last successful Scan.
func (r *Reader) Result() Record { return r.rec }

// Err returns the I/O error that stopped Scan, or nil.
func (r *Reader) Err() error { return r.err }

// Scan reads the next record. It returns false at the end of input or on an
// I/O error (see Err).
func (r *Reader) Scan() bool {
	if r.next != nil {
		r.rec, r.next = r.next, nil
		return true
	}
	for {
		line, lastNoNL, tooLong, ok := r.readLine()
		if !ok {
			return false
		}
		r.stats.Lines++
		if tooLong {
			r.stats.Bad++
			r.rec = r.syntax("line longer than " + numtext.Int(r.maxLine()) + " bytes, skipped")
			return true
		}
		if isBlank(line) {
			r.stats.Blank++
			continue
		}
		e, utfOK, err := r.parse(line)
		if err != nil {
			r.stats.Bad++
			msg := err.Error()
			if lastNoNL {
				r.stats.Truncated = true
				msg = "truncated last line (no newline at end of file): " + msg
			}
			r.rec = r.syntax(msg)
			return true
		}
		if !utfOK {
			r.stats.InvalidUTF = true
			se := r.syntax("invalid UTF-8, read as U+FFFD")
			se.Warning = true
			r.rec, r.next = se, e
			return true
		}
		r.rec = e
		return true
	}
}

func (r *Reader) syntax(msg string) *SyntaxError {
	return &SyntaxError{File: r.file, Line: r.line, Msg: msg}
}

func (r *Reader) maxLine() int {
	if r.MaxLineBytes > 0 {
		return r.MaxLineBytes
	}
	return DefaultMaxLineBytes
}

// readLine returns the next line without its end-of-line bytes. The slice is
// valid until the next call. A line over the limit is consumed and reported
// as tooLong without being kept.
func (r *Reader) readLine() (line []byte, lastNoNL, tooLong, ok bool) {
	if r.eof {
		return nil, false, false, false
	}
	r.buf = r.buf[:0]
	n := 0
	for {
		chunk, err := r.br.ReadSlice('\n')
		n += len(chunk)
		r.stats.BytesRead += int64(len(chunk))
		if err == nil && len(r.buf) == 0 && !tooLong && n <= r.maxLine() {
			r.line++
			return trimEOL(chunk), false, false, true
		}
		if n > r.maxLine() {
			tooLong = true
			r.buf = r.buf[:0]
		} else {
			if need := len(r.buf) + len(chunk); need > cap(r.buf) {
				// Grown as append would, but never past the limit: a line
				// over it is skipped, so no more of it is ever held.
				grown := make([]byte, len(r.buf), min(max(2*cap(r.buf), need), r.maxLine()))
				copy(grown, r.buf)
				r.buf = grown
			}
			r.buf = append(r.buf, chunk...)
		}
		switch {
		case err == nil:
			r.line++
			return trimEOL(r.buf), false, tooLong, true
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			r.eof = true
			if n == 0 {
				return nil, false, false, false
			}
			r.line++
			return trimEOL(r.buf), true, tooLong, true
		default:
			r.eof = true
			r.err = fmt.Errorf("reading %s line %d: %w", r.file, r.line+1, err)
			return nil, false, false, false
		}
	}
}

func trimEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// lit is r.str of the string literal raw, decoded, that remembers the last
// literal read into slot: the lines of a session repeat most of these
// values (its id, version, directory, model; a response's id and request
// id on each line of the response), so a literal written as the last one
// was is neither decoded nor looked up again. That matters most for a
// Windows directory, whose every backslash is escaped. Ids are copied, not
// interned.
func (r *Reader) lit(slot litSlot, raw string) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	inner := raw[1 : len(raw)-1]
	c := &r.last[slot]
	if inner == c.inner { // written as last time, so the same value ("" for "" in a new slot)
		return c.val
	}
	var v string
	if slot >= slotMessage { // unique to a response: not worth interning
		v = strings.Clone(jsonscan.String(raw))
	} else {
		v = r.str(jsonscan.String(raw))
	}
	if len(inner) <= 256 {
		c.val = v
		c.inner = v
		if inner != v { // escaped: keep the text as written
			c.inner = strings.Clone(inner)
		}
	}
	return v
}

// usage is parseUsage that remembers the last object it read: Claude Code
// writes each content block of a response on a line of its own, each with
// the response's usage, so most usage objects repeat the one before.
func (r *Reader) usage(raw string) *Usage {
	if raw != unsafe.String(unsafe.SliceData(r.usageRaw), len(r.usageRaw)) { // raw is an object: never ""
		r.lastUsage = *parseUsage(raw)
		r.usageRaw = append(r.usageRaw[:0], raw...)
	}
	u := r.lastUsage
	return &u
}

// str returns a copy of s that the entry may keep; frequent values (session
// ids, versions, models, types) are shared.
func (r *Reader) str(s string) string {
	if s == "" {
		return ""
	}
	if v, ok := r.intern[s]; ok {
		return v
	}
	v := strings.Clone(s)
	if len(r.intern) < 4096 && len(s) <= 256 {
		r.intern[v] = v
	}
	return v
}

var errNotObject = errors.New("not a JSON object")

// parse turns one line into an Entry. The scanner validates the top level
// (as encoding/json would) and walks it in one pass over the line's own
// bytes, handing value and field each member; the few escaped strings kept
// are decoded, and anything kept is copied out.
func (r *Reader) parse(line []byte) (*Entry, bool, error) {
	s := unsafe.String(unsafe.SliceData(line), len(line))
	p := lineParse{r: r, e: r.newEntry(), utfOK: true}
	if !r.sc.Scan(s, p.value, p.field) {
		return nil, false, lineError(line)
	}
	p.finish()
	return p.e, p.utfOK, nil
}

// newEntry returns the Entry to fill for the current line: the Reader's
// own with ReuseEntry, else a new one.
func (r *Reader) newEntry() *Entry {
	if r.ReuseEntry {
		r.entry = Entry{Line: r.line}
		return &r.entry
	}
	return &Entry{Line: r.line}
}

// lineError says why a line that is not one valid JSON object is refused.
func lineError(line []byte) error {
	if jsonscan.Valid(unsafe.String(unsafe.SliceData(line), len(line))) {
		return errNotObject
	}
	return fmt.Errorf("invalid JSON%s", jsonHint(line))
}

// lineParse is one line's parse in progress: the entry it fills, whether
// the text it measured was valid UTF-8, and the top-level fields it does
// not know.
type lineParse struct {
	r       *Reader
	e       *Entry
	utfOK   bool
	unknown []string
}

// value reads, as the scan validates them, the top-level values worth
// reading in that same pass: the message, toolUseResult, and the values
// nothing decodes, which are only skimmed. It leaves the rest to the scan,
// which hands them to field.
func (p *lineParse) value(k, s string, i, depth int) (end int, ok, handled bool) {
	switch {
	case k == "message" && i < len(s) && s[i] == '{':
		var utfOK bool
		end, ok, utfOK = p.r.parseMessage(p.e, s, i, depth)
		p.utfOK = p.utfOK && utfOK
	case k == "toolUseResult" && i < len(s) && s[i] == '{':
		end, ok = p.r.parseToolUseResult(p.e, s, i, depth)
	case skimmed(k):
		end, ok = jsonscan.Skim(s, i, depth, nil)
	default:
		return 0, false, false
	}
	return end, ok, true
}

// field reads a top-level member that value left to the scan.
func (p *lineParse) field(k, v string) {
	e, r := p.e, p.r
	switch k {
	case "type":
		e.Type = r.lit(slotType, v)
	case "subtype":
		e.Subtype = r.lit(slotSubtype, v)
	case "uuid":
		e.UUID = strings.Clone(jsonscan.String(v))
	case "parentUuid":
		if v == "null" {
			e.ParentNull = true
		} else {
			e.ParentUUID = strings.Clone(jsonscan.String(v))
		}
	case "logicalParentUuid":
		e.LogicalParentUUID = strings.Clone(jsonscan.String(v))
	case "sessionId":
		e.SessionID = r.lit(slotSession, v)
	case "version":
		e.Version = r.lit(slotVersion, v)
	case "agentId":
		e.AgentID = r.lit(slotAgent, v)
	case "cwd":
		e.Cwd = r.lit(slotCwd, v)
	case "timestamp":
		e.Time = parseTime(jsonscan.String(v))
	case "requestId":
		e.RequestID = r.lit(slotRequest, v)
	case "message":
		// An object was parsed as it was validated (value); anything
		// else holds nothing to read.
	case "compactMetadata", "microcompactMetadata":
		e.Compact = parseCompact(v)
	case "attachment":
		r.parseAttachment(e, v)
	default:
		if !p.flag(k, v == "true") {
			p.unknown = append(p.unknown, k)
		}
	}
}

// flag sets the top-level boolean k of the entry to v; it reports whether
// k is one.
func (p *lineParse) flag(k string, v bool) bool {
	e := p.e
	switch k {
	case "isSidechain":
		e.Sidechain = v
	case "isMeta":
		e.Meta = v
	case "isCompactSummary":
		e.CompactSummary = v
	case "isVisibleInTranscriptOnly":
		e.VisibleInTranscriptOnly = v
	case "isApiErrorMessage":
		e.APIError = v
	default:
		return false
	}
	return true
}

// finish completes the entry once the whole line is walked, since "type"
// may follow "message": it keeps user text, names a missing type, and
// counts the line's type and unknown fields.
func (p *lineParse) finish() {
	e, st := p.e, &p.r.stats
	if e.CompactSummary {
		e.Summary = summaryText(e.Blocks) // from the raw text, before keepUserText cuts it
	}
	keepUserText(e)
	if e.Type == "" {
		e.Type = NoType
	}
	st.Types[e.Type]++
	if !knownType(e.Type) {
		st.Unknown[e.Type]++
	}
	for _, f := range p.unknown {
		st.Unknown[e.Type+"."+f]++
	}
}

// The opening and closing of Claude Code's compaction summaries
// (SummaryText) as their JSON string literals begin and end: neither has a
// character JSON escapes but the newline before the instruction.
const (
	summaryOpening = `"This session is being continued from a previous conversation that ran out of context.`
	summaryGoOn    = `\nPlease continue the conversation from where we left it off without asking the user any further questions. Continue with the last task that you were asked to work on."`
)

// summaryText reads what a compaction summary's text blocks, raw JSON
// string literals, show: the first opens the summary, the last ends it.
func summaryText(blocks []Block) SummaryText {
	first, last := -1, -1
	for i := range blocks {
		if blocks[i].Kind == BlockText {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	switch {
	case first < 0 || !strings.HasPrefix(blocks[first].Text, summaryOpening):
		return SummaryOther
	case strings.HasSuffix(blocks[last].Text, summaryGoOn):
		return SummaryGoOn
	}
	return SummaryPlain
}

// keepUserText decodes the text of a user's text blocks, cut to
// MaxKeptText (the fake summarizer quotes it; the accounting looks for
// local-command output in it), and drops the raw bytes of every other
// block.
func keepUserText(e *Entry) {
	user := e.Type == "user" || e.Role == "user"
	for i := range e.Blocks {
		b := &e.Blocks[i]
		if b.Kind == BlockText && user {
			b.Text = keptText(b.Text)
		} else {
			b.Text = ""
		}
	}
}

// parseToolUseResult skims the toolUseResult object at s[i] == '{' (depth
// deep), the structured copy of a tool's result, and reads from it into e
// the sub-agent's id, the tool's run time and the file sizes. It returns
// where the object ends and whether its structure is valid.
func (r *Reader) parseToolUseResult(e *Entry, s string, i, depth int) (end int, ok bool) {
	var id string
	e.ResultDurationMs = 0
	e.ResultFile = FileFacts{}
	end, ok = jsonscan.Skim(s, i, depth, func(name, v string) {
		switch name {
		case "agentId":
			if id == "" {
				id = v
			}
		case "totalDurationMs", "durationMs", "durationSeconds":
			e.ResultDurationMs = max(e.ResultDurationMs, durationMs(name, v))
		case "originalFile":
			if jsonscan.IsString(v) {
				e.ResultFile.OriginalChars, e.ResultFile.OriginalLines = textSize(v)
			}
		case "file":
			if jsonscan.IsObject(v) {
				e.ResultFile.ReadLines = int(jsonscan.Int(lastField(v, "numLines")))
				e.ResultFile.TotalLines = int(jsonscan.Int(lastField(v, "totalLines")))
			}
		}
	})
	e.ResultAgentID = ""
	if jsonscan.IsString(id) && jsonscan.Valid(id) { // the one string read from it, validated here
		e.ResultAgentID = r.str(jsonscan.String(id))
	}
	return end, ok
}

// parseAttachment reads an attachment line's attachment: its type, its
// JavaScript length, and Claude Code's estimate of what it sends the
// model.
func (r *Reader) parseAttachment(e *Entry, v string) {
	e.AttachmentType = r.str(jsonscan.String(r.sc.Field(v, "type")))
	e.AttachmentChars = jsonscan.UTF16Len(v)
	e.AttachmentEst = attachmentEst(e.AttachmentType, v, e.AttachmentChars, &r.sc)
}

// skimmed reports whether the value of the top-level field k is only
// skimmed (jsonscan.Skim: its structure checked, not the characters of its
// strings): toolUseResult, the structured copy of a tool's result, and the
// fields ctxlab reads past (claudecode.TranscriptFields, whose table
// skimmedField is generated from). Every string ctxlab decodes is
// validated where it is read; docs/session-model.md says which lines this
// lets through.
//
//go:generate go run gen_fields.go
func skimmed(k string) bool {
	return k == "toolUseResult" || skimmedField(k)
}

// parseMessage validates the message object at s[i] == '{' (depth deep,
// as jsonscan counts it) and reads it into e as it goes: it returns where
// the object ends, whether it is valid, and whether the text it measured
// was valid UTF-8. The blocks of a content array are parsed as each is
// validated (parseBlock).
func (r *Reader) parseMessage(e *Entry, s string, i, depth int) (end int, ok, utfOK bool) {
	utfOK = true
	content := func(k, s string, i, depth int) (int, bool, bool) {
		if k != "content" || i >= len(s) || s[i] != '[' {
			return 0, false, false
		}
		end, ok := jsonscan.Array(s, i, depth, func(s string, i, depth int) (int, bool) {
			b, end, ok, u := r.parseBlock(s, i, depth)
			utfOK = utfOK && u
			e.Blocks = append(e.Blocks, b)
			return end, ok
		})
		return end, ok, true
	}
	end, ok = r.sc.Object(s, i, depth, content, func(k, v string) {
		switch k {
		case "id":
			e.MessageID = r.lit(slotMessage, v)
		case "role":
			e.Role = r.lit(slotRole, v)
		case "model":
			e.Model = r.lit(slotModel, v)
		case "stop_reason":
			e.StopReason = r.lit(slotStop, v)
		case "usage":
			if jsonscan.IsObject(v) {
				e.Usage = r.usage(v)
			}
		case "content":
			// An array is parsed as it is validated (content above) and
			// does not come here.
			if jsonscan.IsString(v) {
				e.StringContent = true
				b := Block{Kind: BlockText, Hash: xxhash.Sum64String(v)}
				b.Chars, utfOK = r.sc.StringLen(v)
				b.Est = Estimate(b.Chars)
				b.Text = v // raw: parse decodes it for user messages
				e.Blocks = []Block{b}
			}
		}
	})
	return end, ok, utfOK
}

// keptText decodes the JSON string literal raw (quotes included) into a
// copy of at most MaxKeptText bytes, cut at a character boundary. Only the
// start of a long literal is read: what gives the text's first
// MaxKeptText+utf8.UTFMax bytes, enough to find where to cut it.
func keptText(raw string) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	const need = MaxKeptText + utf8.UTFMax
	body := raw[1 : len(raw)-1]
	if strings.IndexByte(body[:min(len(body), need)], '\\') < 0 {
		return strings.Clone(cutUTF8(body, MaxKeptText))
	}
	t := jsonscan.AppendUnescaped(make([]byte, 0, min(len(body), need)), body, need)
	return string(cutUTF8(unsafe.String(unsafe.SliceData(t), len(t)), MaxKeptText))
}

// cutUTF8 returns s cut to at most n bytes, backing off to the start of a
// character rather than splitting one.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for i := n; i > n-utf8.UTFMax && i > 0; i-- {
		if utf8.RuneStart(s[i]) {
			return s[:i]
		}
	}
	return s[:n] // not UTF-8 here anyway
}

// parseBlock validates the content block at s[i] (depth deep) and reads
// it: it returns the block, where it ends, whether it is valid, and whether
// its text was valid UTF-8. A block that is not an object is validated as
// any value and read as a block of an unknown type.
func (r *Reader) parseBlock(s string, i, depth int) (b Block, end int, ok, utfOK bool) {
	var f blockFields
	field := func(k, v string) {
		switch k {
		case "type":
			f.typ = jsonscan.String(v)
		case "text", "thinking":
			f.text = v
		case "id", "tool_use_id":
			b.ToolID = strings.Clone(jsonscan.String(v))
		case "name":
			b.Name = r.str(jsonscan.String(v))
		case "input":
			f.input = v
		case "content":
			f.content = v
		case "is_error":
			b.IsError = v == "true"
		}
	}
	if i < len(s) && s[i] == '{' {
		end, ok = r.sc.Object(s, i, depth, nil, field)
	} else {
		end, ok = r.sc.Value(s, i, depth)
	}
	if !ok {
		return b, end, false, true
	}
	utfOK = r.measureBlock(&b, &f, s[i:end]) // before b is read for the result
	return b, end, true, utfOK
}

// blockFields are the raw members of a content block that measureBlock
// reads (type decoded).
type blockFields struct{ typ, text, content, input string }

// measureBlock sets the kind, length, estimate and hash of the block b,
// whose raw JSON is raw, and reports whether the text it measured was
// valid UTF-8.
func (r *Reader) measureBlock(b *Block, f *blockFields, raw string) (utfOK bool) {
	utfOK = true
	switch f.typ {
	case "text", "thinking":
		b.Kind = BlockText
		if f.typ == "thinking" {
			b.Kind = BlockThinking
		}
		b.Chars, utfOK = r.sc.StringLen(f.text)
		b.Est = Estimate(b.Chars)
		b.Hash = xxhash.Sum64String(f.text)
		b.Text = f.text // raw: parse decodes it for user messages
	case "tool_use", "server_tool_use", "mcp_tool_use":
		b.Kind = BlockToolUse
		b.Chars = jsonscan.UTF16Len(f.input)
		b.Est = Estimate(b.Chars)
		b.Hash = xxhash.Sum64String(b.Name) ^ xxhash.Sum64String(f.input)
		b.Input = parseInput(f.input, &r.sc)
	case "tool_result":
		b.Kind = BlockToolResult
		b.Hash = xxhash.Sum64String(f.content)
		utfOK = r.measureResult(b, f.content)
	case "image":
		b.Kind = BlockImage
		b.Est = claudecode.ImageTokens.Value
		b.Hash = xxhash.Sum64String(raw)
	default:
		// document and anything newer: Claude Code's fallback counts the
		// block's JSON (estimateTokensWithSafetyMargin in its cli.js).
		b.Kind = BlockOther
		if f.typ == "document" {
			b.Kind = BlockDocument
		}
		b.Name = r.str(f.typ)
		b.Chars = jsonscan.UTF16Len(raw)
		b.Est = Estimate(b.Chars)
		b.Hash = xxhash.Sum64String(raw)
	}
	return utfOK
}

// measureResult measures a tool_result block's content into b: a string,
// or an array whose text items count by their length and images by
// claudecode.ImageTokens. It reports whether the text was valid UTF-8.
func (r *Reader) measureResult(b *Block, content string) (utfOK bool) {
	utfOK = true
	switch {
	case jsonscan.IsString(content):
		b.Chars, utfOK = r.sc.StringLen(content)
		b.Est = Estimate(b.Chars)
	case jsonscan.IsArray(content):
		r.sc.EachElem(content, func(item string) {
			var typ, text string
			r.sc.EachField(item, func(k, v string) {
				switch k {
				case "type":
					typ = jsonscan.String(v)
				case "text":
					text = v
				}
			})
			switch typ {
			case "text":
				n, ok := r.sc.StringLen(text)
				utfOK = utfOK && ok
				b.Chars += n
				b.Est += Estimate(n)
			case "image":
				b.Images++
				b.Est += claudecode.ImageTokens.Value
			case "document":
				b.Documents++
			}
		})
	}
	return utfOK
}

// parseInput reads a tool_use block's input object, in, a value of the
// line sc scanned (whose recorded ends spare scanning its long strings
// again).
func parseInput(in string, sc *jsonscan.Scanner) *ToolInput {
	if !jsonscan.IsObject(in) {
		return nil
	}
	t := &ToolInput{}
	sc.EachField(in, func(k, v string) {
		switch k {
		case "file_path", "notebook_path":
			t.FilePath = strings.Clone(jsonscan.String(v))
		case "offset":
			t.Offset = int(jsonscan.Int(v))
		case "limit":
			t.Limit = int(jsonscan.Int(v))
		case "command":
			t.Command = strings.Clone(cutUTF8(jsonscan.String(v), maxCommand))
		case "pattern":
			t.Pattern = strings.Clone(jsonscan.String(v))
		case "url":
			t.URL = strings.Clone(jsonscan.String(v))
		case "content":
			if jsonscan.IsString(v) {
				t.ContentChars, t.ContentLines = textSize(v)
			}
		case "old_string": // only their difference counts: bytes will do
			t.OldChars = len(v) - 2
		case "new_string":
			t.NewChars = len(v) - 2
		}
	})
	return t
}

// attachmentEst is Claude Code's estimate of what an attachment sends the
// model, the measure of its own threshold check: nothing for the kinds it
// shows only in its interface (a tool hook's output, a command's
// permissions), claudecode.ImageTokens for each image, length/4 for the rest of
// its JSON.
func attachmentEst(typ, raw string, chars int, sc *jsonscan.Scanner) int {
	switch typ {
	case "command_permissions":
		return 0
	case "hook_success", "hook_non_blocking_error":
		// Only a prompt's and a session start's hooks add context.
		if ev := jsonscan.String(sc.Field(raw, "hookEvent")); ev != "UserPromptSubmit" && ev != "SessionStart" {
			return 0
		}
	}
	images, data := 0, 0
	for i := 0; ; {
		k := strings.Index(raw[i:], `"base64"`)
		if k < 0 {
			break
		}
		i += k + len(`"base64"`)
		d := strings.Index(raw[i:min(len(raw), i+256)], `"data":`)
		if d < 0 {
			continue
		}
		start := jsonscan.SkipSpace(raw, i+d+len(`"data":`))
		if start >= len(raw) || raw[start] != '"' {
			continue
		}
		end, ok := jsonscan.StringEnd(raw, start)
		if !ok {
			break
		}
		images++
		data += end - start
		i = end
	}
	return Estimate(max(0, chars-data)) + images*claudecode.ImageTokens.Value
}

// textSize returns the JavaScript length of a raw JSON string literal's
// text (escapes counted as written, as Claude Code's estimate counts the
// JSON) and its lines.
func textSize(raw string) (chars, lines int) {
	if len(raw) < 2 {
		return 0, 0
	}
	n, newlines := jsonscan.UTF16LenNewlines(raw)
	return n - 2, newlines + 1
}

// durationMs reads a tool's recorded run time (toolUseResult) in ms:
// durationSeconds is in seconds, the other fields in ms. A value that is
// not a non-negative number, or is beyond a year, gives 0: nothing known.
func durationMs(name, raw string) int64 {
	if raw == "" || raw[0] < '0' || raw[0] > '9' {
		return 0
	}
	f, err := strconv.ParseFloat(raw, 64)
	if err != nil {
		return 0
	}
	if name == "durationSeconds" {
		f *= 1000
	}
	if f > maxDurationMs {
		return 0
	}
	return int64(f)
}

// maxDurationMs bounds a believable tool run time: a year.
const maxDurationMs = 366 * 24 * 3600 * 1000

// lastField returns the raw number or literal of key in the object raw,
// looked for in its last bytes: the Read result's line counts follow the
// file's text, which a search from the start would scan again (and an
// image's result, which has none, is all base64). A key inside a string
// is escaped (\"key\") and is not taken. "" when absent.
func lastField(raw, key string) string {
	const tail = 256
	if len(raw) > tail {
		raw = raw[len(raw)-tail:]
	}
	for end := len(raw); ; {
		k := strings.LastIndex(raw[:end], key)
		if k < 1 {
			return ""
		}
		if raw[k-1] == '"' && (k < 2 || raw[k-2] != '\\') && k+len(key) < len(raw) && raw[k+len(key)] == '"' {
			i := jsonscan.SkipSpace(raw, k+len(key)+1)
			if i < len(raw) && raw[i] == ':' {
				i = jsonscan.SkipSpace(raw, i+1)
				j := i
				for j < len(raw) && raw[j] != ',' && raw[j] != '}' && raw[j] != ' ' && raw[j] != '\n' {
					j++
				}
				return raw[i:j]
			}
		}
		end = k
	}
}

func parseUsage(v string) *Usage {
	u := &Usage{}
	var creation, h5, h1 int64
	split := false
	jsonscan.EachField(v, func(k, x string) {
		switch k {
		case "input_tokens":
			u.Input = jsonscan.Int(x)
		case "output_tokens":
			u.Output = jsonscan.Int(x)
		case "cache_read_input_tokens":
			u.CacheRead = jsonscan.Int(x)
		case "cache_creation_input_tokens":
			creation = jsonscan.Int(x)
		case "cache_creation":
			if jsonscan.IsObject(x) {
				split = true
				jsonscan.EachField(x, func(k, y string) {
					switch k {
					case "ephemeral_5m_input_tokens":
						h5 = jsonscan.Int(y)
					case "ephemeral_1h_input_tokens":
						h1 = jsonscan.Int(y)
					}
				})
			}
		}
	})
	if split && creation == 0 {
		creation = h5 + h1
	}
	if h1 > creation {
		h1 = creation
	}
	u.CacheWrite1h = h1
	u.CacheWrite5m = creation - h1
	return u
}

func parseCompact(v string) *CompactMeta {
	if !jsonscan.IsObject(v) {
		return nil
	}
	c := &CompactMeta{}
	jsonscan.EachField(v, func(k, x string) {
		switch k {
		case "trigger":
			c.Trigger = strings.Clone(jsonscan.String(x))
		case "preTokens":
			c.PreTokens = jsonscan.Int(x)
		case "postTokens":
			c.PostTokens = jsonscan.Int(x)
		case "durationMs":
			c.DurationMs = jsonscan.Int(x)
		case "tokensSaved":
			c.TokensSaved = jsonscan.Int(x)
		case "compactedToolIds":
			jsonscan.EachElem(x, func(id string) {
				c.CompactedToolIDs = append(c.CompactedToolIDs, strings.Clone(jsonscan.String(id)))
			})
		}
	})
	return c
}

// parseTime reads Claude Code's ISO-8601 UTC timestamps
// ("2026-01-01T10:12:48.351Z") without the generality of time.Parse, and
// falls back to RFC 3339 for anything else.
func parseTime(s string) int64 {
	if len(s) == 24 && s[4] == '-' && s[7] == '-' && s[10] == 'T' && s[13] == ':' && s[16] == ':' && s[19] == '.' && s[23] == 'Z' {
		n := func(a, b int) int {
			v := 0
			for i := a; i < b; i++ {
				c := s[i]
				if c < '0' || c > '9' {
					return -1
				}
				v = v*10 + int(c-'0')
			}
			return v
		}
		y, mo, d, h, mi, se, ms := n(0, 4), n(5, 7), n(8, 10), n(11, 13), n(14, 16), n(17, 19), n(20, 23)
		if y >= 0 && mo >= 0 && d >= 0 && h >= 0 && mi >= 0 && se >= 0 && ms >= 0 {
			return time.Date(y, time.Month(mo), d, h, mi, se, ms*1e6, time.UTC).UnixMilli()
		}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return 0
	}
	return t.UnixMilli()
}

// jsonHint names the most likely cause of an invalid line, so the warning
// helps the user find it. Claude Code writes transcripts in UTF-8 without
// a byte-order mark; an editor that saved one with a mark, or as UTF-16,
// made every line, or the first, invalid JSON though it reads as JSON.
func jsonHint(line []byte) string {
	switch {
	case len(line) >= 2 && line[0] == '/' && (line[1] == '/' || line[1] == '*'):
		return ": a comment line"
	case strings.HasPrefix(unsafe.String(unsafe.SliceData(line), len(line)), "\xef\xbb\xbf"):
		return ": " + BOMHint
	case isUTF16(line):
		return ": " + UTF16Hint
	case jsonscan.TooDeep(unsafe.String(unsafe.SliceData(line), len(line))):
		return ": nested deeper than " + strconv.Itoa(jsonscan.MaxDepth) + " levels, the most encoding/json reads"
	case strings.IndexByte(unsafe.String(unsafe.SliceData(line), len(line)), 0) >= 0:
		return ": contains NUL bytes (binary data?)"
	}
	return ""
}

// BOMHint and UTF16Hint say why a line of a file saved with a UTF-8
// byte-order mark, or as UTF-16, is not JSON.
const (
	BOMHint   = "begins with a UTF-8 byte-order mark (U+FEFF), which JSON does not allow: save the file without it"
	UTF16Hint = "UTF-16 text, not UTF-8: save the file as UTF-8"
)

// isUTF16 says whether a line looks like UTF-16: a UTF-16 byte-order mark,
// or the first bytes alternating between NUL and not, as ASCII text in
// UTF-16 does (a line after the first begins with the newline's second
// byte, so either parity).
func isUTF16(line []byte) bool {
	if len(line) >= 2 && (line[0] == 0xff && line[1] == 0xfe || line[0] == 0xfe && line[1] == 0xff) {
		return true
	}
	n := min(len(line), 16) &^ 1
	if n < 4 {
		return false
	}
	for _, zero := range [2]int{0, 1} {
		ok := true
		for i := 0; i < n && ok; i++ {
			ok = (line[i] == 0) == (i%2 == zero)
		}
		if ok {
			return true
		}
	}
	return false
}
