package accounting

import (
	"cmp"
	"iter"
	"slices"

	"github.com/cespare/xxhash/v2"

	"github.com/ctxlab/ctxlab/replay"
)

// callRecord is one counted call, kept for Merge's cross-session
// deduplication. It holds no pointer (its names are indices into its log's
// names), so that the records of a large corpus, the one part of a report
// that grows with every call, take 72 bytes a call and nothing for the
// garbage collector to scan.
type callRecord struct {
	key    callKey
	usage  replay.Usage
	thread uint32 // indices into callLog.names
	model  uint32
	kind   uint8
	keyed  bool // false: the call has no message id and is never deduplicated
	lower  bool
}

// callKey stands for a call's replay.CallKey (message id and request id):
// two independent 64-bit hashes of it. Two different calls of a corpus of
// n calls share a key with a probability of about n²/2¹²⁹.
type callKey [2]uint64

// Seeds of the two hashes of a callKey.
const (
	callKeySeed0 = 0
	callKeySeed1 = 0x9e3779b97f4a7c15
)

// call is a callRecord with its names: what usageOf totals.
type call struct {
	model, thread, kind string
	lower               bool
	usage               replay.Usage
}

// callLog is one session's counted calls, in thread order.
type callLog struct {
	recs  []callRecord
	names []string
}

// newCallLog records the counted calls of s.
func newCallLog(s *replay.Session) *callLog {
	l := &callLog{}
	index := map[string]int{}
	name := func(n string) int {
		i, ok := index[n]
		if !ok {
			i = len(l.names)
			index[n] = i
			l.names = append(l.names, n)
		}
		return i
	}
	threads := s.Threads()
	n := 0
	for _, th := range threads {
		n += len(th.Calls)
	}
	l.recs = make([]callRecord, 0, n)
	d0, d1 := xxhash.NewWithSeed(callKeySeed0), xxhash.NewWithSeed(callKeySeed1)
	for _, th := range threads {
		thread, kind := name(threadName(th)), name(string(th.Kind))
		for i := range th.Calls {
			c := &th.Calls[i]
			if !c.Counted() {
				continue
			}
			r := callRecord{
				usage: c.Usage, thread: uint32(thread), model: uint32(name(c.Model)), kind: uint8(kind),
				keyed: c.MessageID != "", lower: c.OutputLowerBound,
			}
			if r.keyed {
				key := c.Key()
				d0.ResetWithSeed(callKeySeed0)
				d1.ResetWithSeed(callKeySeed1)
				d0.WriteString(key)
				d1.WriteString(key)
				r.key = callKey{d0.Sum64(), d1.Sum64()}
			}
			l.recs = append(l.recs, r)
		}
	}
	return l
}

// call returns record i with its names; under corpus the thread is the
// thread's kind (corpus rows group threads by kind).
func (l *callLog) call(i int, corpus bool) call {
	r := &l.recs[i]
	c := call{model: l.names[r.model], thread: l.names[r.thread], kind: l.names[r.kind], lower: r.lower, usage: r.usage}
	if corpus {
		c.thread = c.kind
	}
	return c
}

// calls yields the log's calls in order.
func (l *callLog) calls() iter.Seq[call] {
	return func(yield func(call) bool) {
		for i := range l.recs {
			if !yield(l.call(i, false)) {
				return
			}
		}
	}
}

// callRef is a call of one of a merge's logs.
type callRef struct{ log, i uint32 }

// keptCalls are the calls a merged report counts: one per call key, in the
// order each key was first seen, each the record with the most tokens.
type keptCalls struct {
	logs []*callLog
	refs []callRef
}

// calls yields the kept calls, threads named by kind.
func (k *keptCalls) calls() iter.Seq[call] {
	return func(yield func(call) bool) {
		for _, r := range k.refs {
			if !yield(k.logs[r.log].call(int(r.i), true)) {
				return
			}
		}
	}
}

// dedupe keeps, of the calls refs (in input order) of logs, one per call
// key, at the place where the key was first seen: the first record with the
// most tokens (a later record replaces the kept one only with strictly
// more). It returns the kept calls and how many calls were dropped as seen
// before.
func dedupe(logs []*callLog, refs []callRef) (kept []callRef, dropped int) {
	rec := func(r callRef) *callRecord { return &logs[r.log].recs[r.i] }
	type keyed struct {
		key callKey
		seq int
	}
	var byKey []keyed
	for seq, r := range refs {
		if c := rec(r); c.keyed {
			byKey = append(byKey, keyed{c.key, seq})
		}
	}
	slices.SortFunc(byKey, func(a, b keyed) int {
		if c := cmp.Compare(a.key[0], b.key[0]); c != 0 {
			return c
		}
		if c := cmp.Compare(a.key[1], b.key[1]); c != 0 {
			return c
		}
		return cmp.Compare(a.seq, b.seq)
	})
	// use[seq] is the call kept at seq's place, or -1 for a call dropped.
	use := make([]int32, len(refs))
	for i := range use {
		use[i] = int32(i)
	}
	for i := 0; i < len(byKey); {
		j := i + 1
		for j < len(byKey) && byKey[j].key == byKey[i].key {
			j++
		}
		first, best := byKey[i].seq, byKey[i].seq
		for _, k := range byKey[i+1 : j] {
			if rec(refs[k.seq]).usage.Total() > rec(refs[best]).usage.Total() {
				best = k.seq
			}
			use[k.seq] = -1
		}
		use[first] = int32(best)
		dropped += j - i - 1
		i = j
	}
	kept = make([]callRef, 0, len(refs)-dropped)
	for _, u := range use {
		if u >= 0 {
			kept = append(kept, refs[u])
		}
	}
	return kept, dropped
}
