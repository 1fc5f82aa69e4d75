// Package summary is the simulator's fake summarizer: a compaction's
// summary, written from what it replaces in the nine sections of Claude
// Code's compaction prompt and sized by a parameterised model, since the
// text a real model would write is not known offline.
package summary

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/simulate/item"
)

// Summarizer is the deterministic fake summarizer. It writes a summary in
// the nine sections of Claude Code's compaction prompt from what
// it replaces, and sizes it by a parameterised model, since the text a
// real model would write is not known offline.
type Summarizer struct {
	// Size model: Base + PerMille/1000 × replaced tokens, clamped to
	// [Min, Max]. The defaults put a 155K-token compaction at 2,440 tokens
	// and keep every size within 1.2K–4.5K, the range of real summaries
	// (the isCompactSummary messages of real transcripts: median ≈2.4K).
	Base, PerMille, Min, Max int64
	// PromptTokens is the compaction instruction the summarizer call adds
	// to the conversation (Claude Code's prompt is about 700 words).
	PromptTokens int64
	// QuoteChars caps one quoted user message; QuoteTotal all quotes.
	QuoteChars, QuoteTotal int
	// quotes keeps each user message quoted, with its text and its
	// strconv.Quote, by message index (Keeping; nil: none).
	quotes *sync.Map
}

// DefaultSummarizer returns the calibrated defaults.
func DefaultSummarizer() Summarizer {
	return Summarizer{Base: 1200, PerMille: 8, Min: 1200, Max: 4500, PromptTokens: 1000, QuoteChars: 2000, QuoteTotal: 16000}
}

// Summary is what the fake summarizer produced.
type Summary struct {
	Text   string
	Tokens int64
	// Quoted are the user messages (message indexes) quoted in full;
	// Cut were quoted in part or not at all.
	Quoted []int
	Cut    []int
}

// UserMessage is a user message a summary quoted in full, carried into
// every later summary, which quotes it again.
type UserMessage struct {
	msg  int
	text string
	// quoted is strconv.Quote(text) once a summary has quoted it.
	quoted string
}

// Msg is the message's index in its thread.
func (u UserMessage) Msg() int { return u.msg }

// Keeping returns z keeping each quote it makes in kept, by message, for
// every summarizer given the same map (the runs of one trace).
func (z Summarizer) Keeping(kept *sync.Map) Summarizer {
	z.quotes = kept
	return z
}

// Summarize writes the summary of items (and of the user messages an
// earlier summary carried, prior), replacing replaced tokens.
func (z Summarizer) Summarize(items []item.Item, prior []UserMessage, replaced int64) (Summary, []UserMessage) {
	users := append([]UserMessage(nil), prior...)
	tools := map[string]int{}
	var read, edited []string
	seenPath := map[string]bool{}
	errs, todos := 0, 0
	var lastTools []string
	for i := range items {
		it := &items[i] // not a copy of each item: a compaction reads hundreds
		switch it.Kind {
		case item.User:
			if strings.TrimSpace(it.Text) != "" {
				users = append(users, UserMessage{msg: it.Msg, text: it.Text})
			}
		case item.ToolUse:
			tools[it.Tool]++
			if it.Tool == "TodoWrite" {
				todos++
			}
			lastTools = append(lastTools, it.Tool)
			if it.Path != "" && !seenPath[it.Tool+it.Path] {
				seenPath[it.Tool+it.Path] = true
				if accounting.EditTool(it.Tool) {
					edited = append(edited, it.Path)
				} else {
					read = append(read, it.Path)
				}
			}
		case item.ToolResult:
			if it.IsError {
				errs++
			}
		}
	}
	var b strings.Builder
	primary := ""
	if len(users) > 0 {
		primary = cut(users[0].text, 500)
	}
	fmt.Fprintf(&b, "1. Primary Request and Intent:\n%s\n\n", primary)
	names := make([]string, 0, len(tools))
	for n := range tools {
		names = append(names, n)
	}
	sort.Strings(names)
	b.WriteString("2. Key Technical Concepts:\n")
	for _, n := range names {
		fmt.Fprintf(&b, "- %s (%d calls)\n", n, tools[n])
	}
	b.WriteString("\n3. Files and Code Sections:\n")
	for _, p := range read {
		fmt.Fprintf(&b, "- read %s\n", p)
	}
	for _, p := range edited {
		fmt.Fprintf(&b, "- edited %s\n", p)
	}
	fmt.Fprintf(&b, "\n4. Errors and fixes:\n%d tool errors\n\n", errs)
	b.WriteString("5. Problem Solving:\n(work recorded in the files above)\n\n")
	b.WriteString("6. All user messages:\n")
	// Quote the newest messages first until the budget runs out, then
	// print them in order.
	var sum Summary
	budget := z.QuoteTotal
	keep := make([]bool, len(users))
	for i := len(users) - 1; i >= 0; i-- {
		t := users[i].text
		if len(t) <= z.QuoteChars && len(t) <= budget {
			keep[i] = true
			budget -= len(t)
		}
	}
	var carried []UserMessage
	for i, u := range users {
		if keep[i] {
			if u.quoted == "" {
				u.quoted = z.quote(u)
			}
			b.WriteString("- ") // as fmt's %q, without its formatting machinery on the hot path
			b.WriteString(u.quoted)
			b.WriteString("\n")
			sum.Quoted = append(sum.Quoted, u.msg)
			carried = append(carried, u)
		} else {
			fmt.Fprintf(&b, "- (summarised) %q\n", cut(u.text, 80))
			sum.Cut = append(sum.Cut, u.msg)
		}
	}
	fmt.Fprintf(&b, "\n7. Pending Tasks:\n%d todo updates\n\n", todos)
	b.WriteString("8. Current Work:\n")
	if n := len(lastTools); n > 0 {
		fmt.Fprintf(&b, "last tools: %s\n", strings.Join(lastTools[max(0, n-5):], ", "))
	}
	b.WriteString("\n9. Optional Next Step:\n")
	if len(users) > 0 {
		fmt.Fprintf(&b, "continue with: %s\n", cut(users[len(users)-1].text, 200))
	}
	sum.Text = b.String()
	sum.Tokens = min(max(z.Base+replaced*z.PerMille/1000, z.Min), z.Max)
	return sum, carried
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// quote is strconv.Quote(u.text), kept for the trace's other runs.
func (z Summarizer) quote(u UserMessage) string {
	if z.quotes == nil {
		return strconv.Quote(u.text)
	}
	if q, ok := z.quotes.Load(u.msg); ok && q.(UserMessage).text == u.text {
		return q.(UserMessage).quoted
	}
	u.quoted = strconv.Quote(u.text)
	z.quotes.Store(u.msg, u)
	return u.quoted
}
