package sizing

import (
	"cmp"
	"slices"

	"github.com/ctxlab/ctxlab/internal/claudecode"
	"github.com/ctxlab/ctxlab/replay"
)

// Sizes are the token sizes of a thread's messages as the API counted them
// (exact tokens from usage deltas, docs/design.md). Every call records the
// prompt the server saw; between two calls the prompt grew by exactly what
// was appended since (the previous response, then tool results, user text,
// attachments), and that growth is split among the appended blocks in
// proportion to Claude Code's estimate of each (split). Where the growth
// cannot be used (around a compaction, or next to a call without usage),
// blocks are sized by the thread's calibrated ratio of exact tokens to
// estimate.
type Sizes struct {
	// Method is MethodUsage, or MethodEstimate when the thread has no
	// usage and sizes are Claude Code's estimate.
	Method Method
	// Overhead is the system prompt and tools: the first call's prompt minus
	// its (estimated) messages.
	Overhead int64
	// Ratio is exact tokens per unit of Claude Code's estimate over the
	// clean segments (1 when there are none).
	Ratio float64
	// Blocks[m][b] sizes block b of message m (an attachment has one
	// entry). Messages never sent (synthetic responses, messages after the
	// last call) have sizes from the ratio.
	Blocks [][]int64
	// Exact[m] is set when message m's sizes came from a usage delta.
	Exact []bool
	// Unsent[m] marks the response of a call that was not sent with this
	// thread's context (Sent is false): it is not part of any segment's
	// growth, and a replay leaves it out of the context.
	Unsent   []bool
	Segments []Segment
}

// Segment is what was appended to a thread's context before one call.
type Segment struct {
	Call     int // index in Thread.Calls
	From, To int // messages [From, To)
	// Compactions[CompFrom:CompTo] of the thread came before this call and
	// after the previous one.
	CompFrom, CompTo int
	// Clean is set when the sizes of the segment's blocks are exact: this
	// call and the previous one recorded usage, no compaction came in
	// between, and the prompt grew by their sum (or shrank by Shrink, the
	// blocks then costing nothing).
	Clean  bool
	Shrink int64
	// Hidden is content the server saw that no block of the transcript
	// shows (a clean segment without any visible block).
	Hidden int64
}

// measured reports whether a call's usage measures its prompt. Every request
// carries at least the system prompt, so a usage whose prompt is 0 (written
// by some compatible endpoints for a failed or cut-off response) measures
// nothing.
func measured(c *replay.Call) bool { return c.HasUsage && c.Usage.Prompt() > 0 }

// SizeThread measures a thread.
func SizeThread(th *replay.Thread) *Sizes {
	sz := &Sizes{
		Method: MethodUsage, Ratio: 1, Blocks: make([][]int64, len(th.Messages)),
		Exact: make([]bool, len(th.Messages)), Unsent: make([]bool, len(th.Messages)),
	}
	hasUsage := false
	for i := range th.Calls {
		c := &th.Calls[i]
		if !c.Sent() {
			sz.Unsent[c.Msg] = true
		}
		hasUsage = hasUsage || (c.HasUsage && c.Sent())
	}
	if !hasUsage {
		sz.Method = MethodEstimate
	}
	sz.segment(th)
	sz.estimateAll(th)
	var slots []slot
	for k, seg := range sz.Segments {
		if !seg.Clean {
			continue
		}
		d := max(0, th.Calls[seg.Call].Usage.Prompt()-th.Calls[sz.Segments[k-1].Call].Usage.Prompt())
		sz.Segments[k].Hidden, slots = sz.split(th, seg, sz.Unsent, d, slots[:0])
	}
	sz.fitMicro(th)
	sz.Overhead = sz.overhead(th)
	return sz
}

// segment cuts the thread at its sent calls, says whether a compaction
// falls inside each segment, and sets the ratio of tokens to estimate
// over the clean ones. A segment is clean when its call and the previous
// sent call both recorded usage.
func (sz *Sizes) segment(th *replay.Thread) {
	ci, start := 0, 0
	prev := -1 // the previous sent call
	var exactTok, exactEst int64
	for i := range th.Calls {
		c := &th.Calls[i]
		if !c.Sent() {
			continue
		}
		seg := Segment{Call: i, From: start, To: c.Msg, CompFrom: ci}
		for ci < len(th.Compactions) && th.Compactions[ci].Msg <= c.Msg {
			ci++
		}
		seg.CompTo = ci
		if prev >= 0 && seg.CompTo == seg.CompFrom && measured(c) && measured(&th.Calls[prev]) {
			d := c.Usage.Prompt() - th.Calls[prev].Usage.Prompt()
			seg.Clean = true
			if d < 0 {
				seg.Shrink = -d
			} else {
				exactTok += d
				exactEst += segmentEst(th, seg, sz.Unsent)
			}
		}
		sz.Segments = append(sz.Segments, seg)
		start, prev = c.Msg, i
	}
	if exactEst > 0 && exactTok > 0 {
		sz.Ratio = float64(exactTok) / float64(exactEst)
	}
}

// estimateAll gives every block its estimated size, which clean segments
// then make exact. Every message's sizes are a slice of one array.
func (sz *Sizes) estimateAll(th *replay.Thread) {
	n := 0
	for m := range th.Messages {
		n += blockCount(&th.Messages[m])
	}
	all := make([]int64, n)
	for m := range th.Messages {
		msg := &th.Messages[m]
		k := blockCount(msg)
		sz.Blocks[m], all = all[:k:k], all[k:]
		for b := range k {
			sz.Blocks[m][b] = sz.estimate(blockWeight(msg, b))
		}
	}
}

// overhead is the first call with usage's prompt minus the messages
// before it.
func (sz *Sizes) overhead(th *replay.Thread) int64 {
	var msgs int64
	for _, seg := range sz.Segments {
		for m := seg.From; m < seg.To; m++ {
			if !sz.Unsent[m] {
				for _, n := range sz.Blocks[m] {
					msgs += n
				}
			}
		}
		if c := &th.Calls[seg.Call]; measured(c) {
			return max(0, c.Usage.Prompt()-msgs)
		}
	}
	return 0
}

func (sz *Sizes) estimate(est int64) int64 { return AtRatio(est, sz.Ratio) }

// AtRatio sizes est units of Claude Code's estimate in tokens at a
// thread's ratio of tokens to estimate (Sizes.Ratio), rounded.
func AtRatio(est int64, ratio float64) int64 { return int64(float64(est)*ratio + 0.5) }

// blockCount is the number of sized blocks of a message: an attachment has
// one.
func blockCount(m *replay.Message) int {
	if m.Role == replay.RoleAttachment {
		return 1
	}
	return len(m.Blocks)
}

// blockWeight is Claude Code's estimate of block b of a message.
func blockWeight(m *replay.Message, b int) int64 {
	if m.Role == replay.RoleAttachment {
		return int64(m.AttachmentEst)
	}
	return int64(m.Blocks[b].Est)
}

func segmentEst(th *replay.Thread, seg Segment, skip []bool) int64 {
	var n int64
	for m := seg.From; m < seg.To; m++ {
		if !skip[m] {
			msg := &th.Messages[m]
			for b := range blockCount(msg) {
				n += blockWeight(msg, b)
			}
		}
	}
	return n
}

// slot is a block of a segment being split: its message, its index, and
// its weight, then the remainder of its share.
type slot struct {
	m, b int
	rem  int64
}

// split distributes total tokens over the segment's blocks in proportion to
// their estimates, by largest remainder so the sizes add up exactly, and
// returns what no block could carry. slots is room it may reuse, returned
// for the next call.
func (sz *Sizes) split(th *replay.Thread, seg Segment, skip []bool, total int64, slots []slot) (hidden int64, _ []slot) {
	var sum int64
	for m := seg.From; m < seg.To; m++ {
		if skip[m] {
			continue
		}
		sz.Exact[m] = true
		msg := &th.Messages[m]
		for b := range blockCount(msg) {
			w := blockWeight(msg, b)
			slots = append(slots, slot{m: m, b: b, rem: w})
			sum += w
		}
	}
	if sum == 0 {
		return total, slots
	}
	sz.distribute(slots, sum, total)
	return 0, slots
}

// fitMicro sizes the tool results a real micro-compaction cleared by what
// clearing them freed. The prompt of the call after the compaction is the
// prompt before it, plus what was appended since, less what the cleared
// results cost beyond the placeholders that replaced them; the split by
// estimate can give those results more or less than that, since it shares
// each segment's growth by Claude Code's estimate. Their exact sizes are
// scaled to the freed total and the other blocks of their segments take up
// the difference, so every segment still adds up to its usage delta. Only
// results in clean segments move, and only when the compaction is the one
// change between two measured calls.
func (sz *Sizes) fitMicro(th *replay.Thread) {
	for k, seg := range sz.Segments {
		if k == 0 || seg.CompTo-seg.CompFrom != 1 {
			continue
		}
		c := &th.Compactions[seg.CompFrom]
		prev, cur := &th.Calls[sz.Segments[k-1].Call], &th.Calls[seg.Call]
		if c.Kind != replay.CompactMicro || len(c.CompactedToolIDs) == 0 || !measured(prev) || !measured(cur) {
			continue
		}
		var growth int64
		for m := seg.From; m < seg.To; m++ {
			if !sz.Unsent[m] {
				for _, n := range sz.Blocks[m] {
					growth += n
				}
			}
		}
		freed := prev.Usage.Prompt() + growth - cur.Usage.Prompt()
		sz.scaleCleared(th, sz.Segments[:k], c.CompactedToolIDs, freed)
	}
}

// scaleCleared scales the sizes of the cleared results in clean segments
// so that all the cleared results cost freed plus their placeholders.
func (sz *Sizes) scaleCleared(th *replay.Thread, segs []Segment, ids []string, freed int64) {
	cleared := make(map[string]bool, len(ids))
	for _, id := range ids {
		cleared[id] = true
	}
	placeholder := AtRatio(int64(replay.Estimate(len(claudecode.Placeholder.Value))), sz.Ratio)
	target := freed // what the movable results must cost
	var movable int64
	isCleared := func(m, b int) bool {
		msg := &th.Messages[m]
		return msg.Role != replay.RoleAttachment && msg.Blocks[b].Kind == replay.BlockToolResult && cleared[msg.Blocks[b].ToolID]
	}
	for _, seg := range segs {
		for m := seg.From; m < seg.To; m++ {
			if sz.Unsent[m] {
				continue
			}
			for b, n := range sz.Blocks[m] {
				if !isCleared(m, b) {
					continue
				}
				target += placeholder
				if seg.Clean {
					movable += n
				} else {
					target -= n
				}
			}
		}
	}
	if movable <= 0 || target <= 0 {
		return
	}
	var refs, others []slot
	for _, seg := range segs {
		if !seg.Clean {
			continue
		}
		refs, others = refs[:0], others[:0]
		var own, rest int64
		for m := seg.From; m < seg.To; m++ {
			if sz.Unsent[m] {
				continue
			}
			for b, n := range sz.Blocks[m] {
				if isCleared(m, b) {
					refs, own = append(refs, slot{m: m, b: b, rem: n}), own+n
				} else {
					others, rest = append(others, slot{m: m, b: b, rem: n}), rest+n
				}
			}
		}
		if own == 0 || rest == 0 {
			continue // nothing else in the segment can take up a difference
		}
		scaled := min(own*target/movable, own+rest)
		sz.distribute(refs, own, scaled)
		sz.distribute(others, rest, own+rest-scaled)
	}
}

// distribute sets the sizes of the blocks of slots, whose weights (in
// rem) sum to sum, to shares of total, by largest remainder so that they
// add up exactly (ties: the earlier block).
func (sz *Sizes) distribute(slots []slot, sum, total int64) {
	var given int64
	for i := range slots {
		num := total * slots[i].rem
		sz.Blocks[slots[i].m][slots[i].b] = num / sum
		given += num / sum
		slots[i].rem = num % sum
	}
	slices.SortStableFunc(slots, func(a, b slot) int { return cmp.Compare(b.rem, a.rem) })
	for j := int64(0); j < total-given; j++ {
		sz.Blocks[slots[j].m][slots[j].b]++
	}
}

// Method says how tokens were counted.
type Method string

// The counting methods.
const (
	// MethodUsage sizes context from each call's API usage.
	MethodUsage Method = "usage"
	// MethodEstimate is Claude Code's own estimate: round(length/4) per
	// text piece, 2,000 per image.
	MethodEstimate Method = "estimate"
)
