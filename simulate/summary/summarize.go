// Package summary is the simulator's fake summarizer: a compaction's
// summary, written from what it replaces in the nine sections of Claude
// Code's compaction prompt and sized by a parameterised model, since the
// text a real model would write is not known offline.
package summary

import (
	"fmt"
	"sort"
	"strings"

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
}

// DefaultSummarizer returns the calibrated defaults.
func DefaultSummarizer() Summarizer {
	return Summarizer{Base: 1200, PerMille: 8, Min: 1200, Max: 4500, PromptTokens: 1000, QuoteChars: 2000, QuoteTotal: 16000}
}

// Summary is what a simulated run keeps of a summary: its size and the
// user messages it quotes. Its text (Summarizer.Text) is written only
// when asked, since no report shows it and only its size and quotes count.
type Summary struct {
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
}

// Msg is the message's index in its thread.
func (u UserMessage) Msg() int { return u.msg }

// Summarize sizes the summary of items (and of the user messages an
// earlier summary carried, prior), replacing replaced tokens, and returns
// the user messages it quotes in full, which the next summary carries.
func (z Summarizer) Summarize(items []item.Item, prior []UserMessage, replaced int64) (Summary, []UserMessage) {
	users, keep := z.quoting(items, prior)
	var sum Summary
	var carried []UserMessage
	for i, u := range users {
		if keep[i] {
			sum.Quoted = append(sum.Quoted, u.msg)
			carried = append(carried, u)
		} else {
			sum.Cut = append(sum.Cut, u.msg)
		}
	}
	sum.Tokens = min(max(z.Base+replaced*z.PerMille/1000, z.Min), z.Max)
	return sum, carried
}

// quoting lists the user messages a summary of items covers, prior ones
// first, and which of them it quotes in full: the newest first, each at
// most QuoteChars long, until QuoteTotal runs out.
func (z Summarizer) quoting(items []item.Item, prior []UserMessage) (users []UserMessage, keep []bool) {
	users = append([]UserMessage(nil), prior...)
	for i := range items {
		if it := &items[i]; it.Kind == item.User && strings.TrimSpace(it.Text) != "" {
			users = append(users, UserMessage{msg: it.Msg, text: it.Text})
		}
	}
	budget := z.QuoteTotal
	keep = make([]bool, len(users))
	for i := len(users) - 1; i >= 0; i-- {
		t := users[i].text
		if len(t) <= z.QuoteChars && len(t) <= budget {
			keep[i] = true
			budget -= len(t)
		}
	}
	return users, keep
}

// Text writes the summary Summarize sizes for the same items and prior
// messages: the primary request, the tools used, the files read and
// edited, the tool errors, every user message (quoted, or cut and marked
// summarised), the todo updates, the current work and the next step.
func (z Summarizer) Text(items []item.Item, prior []UserMessage) string {
	users, keep := z.quoting(items, prior)
	tools := map[string]int{}
	var read, edited []string
	type toolPath struct{ tool, path string }
	seenPath := map[toolPath]bool{}
	errs, todos := 0, 0
	var lastTools []string
	for i := range items {
		switch it := &items[i]; it.Kind {
		case item.ToolUse:
			tools[it.Tool]++
			if it.Tool == "TodoWrite" {
				todos++
			}
			lastTools = append(lastTools, it.Tool)
			if k := (toolPath{it.Tool, it.Path}); it.Path != "" && !seenPath[k] {
				seenPath[k] = true
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
	for i, u := range users {
		if keep[i] {
			fmt.Fprintf(&b, "- %q\n", u.text)
		} else {
			fmt.Fprintf(&b, "- (summarised) %q\n", cut(u.text, 80))
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
	return b.String()
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
