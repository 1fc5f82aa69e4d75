package item

import (
	"testing"

	"github.com/ctxlab/ctxlab/internal/claudecode"
)

// Each kind prints as reports and JSON name it.
func TestKindString(t *testing.T) {
	want := []string{"overhead", "user", "assistant", "tool_use", "tool_result", "attachment", "image", "summary", "restored", "hidden"}
	for k := Overhead; k <= Hidden; k++ {
		if got := k.String(); got != want[k] {
			t.Errorf("kind %d prints %q, want %q", k, got, want[k])
		}
	}
}

// CountEst weighs an item as Claude Code's count does under a version's
// rules: attachments by nothing, their JSON or what they send; images at
// the rules' image weight, documents and other blocks only when the
// rules count every block; a tool result's images and documents the same
// way, over the estimate, which counts an image at ImageTokens and a
// document at nothing.
func TestCountEst(t *testing.T) {
	img := int64(claudecode.ImageTokens.Value)
	all := claudecode.CountRules{Image: 100, AllBlocks: true, Attachment: claudecode.AttachmentByJSON}
	old := claudecode.CountRules{Image: 3000, Attachment: claudecode.AttachmentNothing}
	sent := claudecode.CountRules{Image: img, Attachment: claudecode.AttachmentBySent}
	for _, c := range []struct {
		name  string
		rules claudecode.CountRules
		it    Item
		want  int64
	}{
		{"text", old, Item{Kind: User, Est: 40}, 40},
		{"attachment by its JSON", all, Item{Kind: Attachment, Est: 50, Raw: 100}, 100},
		{"attachment counted nothing", old, Item{Kind: Attachment, Est: 50, Raw: 100}, 0},
		{"attachment by what it sends", sent, Item{Kind: Attachment, Est: 50, Raw: 100}, 50},
		{"two images", all, Item{Kind: Image, Est: 2 * int(img), Images: 2}, 200},
		{"a document, every block counted", all, Item{Kind: Image, Est: 9000, Docs: 1}, img},
		{"a document, not counted", old, Item{Kind: Image, Est: 9000, Docs: 1}, 0},
		{"another block, every block counted", all, Item{Kind: Image, Est: 30}, 30},
		{"another block, not counted", sent, Item{Kind: Image, Est: 30}, 0},
		{"a result with an image and two documents", all, Item{Kind: ToolResult, Est: 2003, Images: 1, Docs: 2}, 2003 + 100 - img + 2*img},
		{"the same, documents not counted", old, Item{Kind: ToolResult, Est: 2003, Images: 1, Docs: 2}, 2003 + 3000 - img},
	} {
		if got := CountEst(c.rules, &c.it); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}
