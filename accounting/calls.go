package accounting

import (
	"iter"
	"math"
	"math/bits"
	"slices"

	"github.com/cespare/xxhash/v2"

	"github.com/ctxlab/ctxlab/replay"
)

// callRecord is one counted call, kept for Merge's cross-session
// deduplication. It holds no pointer (its model and thread kind are indices
// into its log's names) and its token counts as 32-bit numbers (a count
// that does not fit is kept whole in its log's wide), so that the records
// of a large corpus, the one part of a report that grows with every call,
// take 48 bytes a call and nothing for the garbage collector to scan.
type callRecord struct {
	key   callKey
	at    int64     // Unix ms of the call's usage line (replay.Call.UsageTime), else its first line; 0 when unknown (Groups)
	usage [5]uint32 // input, cache write 5m and 1h, cache read, output
	model uint16
	kind  uint8
	flags uint8
}

const (
	keyed = 1 << iota // the call has a message id; without, it is never deduplicated
	lower             // its output count is a lower bound
	wide              // its usage is in callLog.wide
)

// callKey stands for a call's replay.CallKey (message id and request id):
// two independent 64-bit hashes of it. Two different calls of a corpus of
// n calls share a key with a probability of about n²/2¹²⁹.
type callKey [2]uint64

// Seeds of the two hashes of a callKey.
const (
	callKeySeed0 = 0
	callKeySeed1 = 0x9e3779b97f4a7c15
)

// call is a counted call with its names: what usageOf totals.
type call struct {
	model, thread, kind string
	lower               bool
	usage               replay.Usage
}

// sessionCalls yields the counted calls of s, thread by thread.
func sessionCalls(s *replay.Session) iter.Seq[call] {
	return func(yield func(call) bool) {
		for _, th := range s.Threads() {
			thread := ThreadName(th)
			for i := range th.Calls {
				c := &th.Calls[i]
				if c.Counted() && !yield(call{model: c.Model, thread: thread, kind: string(th.Kind), lower: c.OutputLowerBound, usage: c.Usage}) {
					return
				}
			}
		}
	}
}

// callLog is one session's counted calls, in thread order.
type callLog struct {
	// session and project name the session (empty in a log merged from
	// several).
	session, project string
	recs             []callRecord
	names            []string            // models and thread kinds
	wide             map[uint32]wideCall // by record, the calls that do not fit a callRecord
}

// wideCall is the model and usage of a call whose counts do not fit in 32
// bits or whose model is past the 65536th name of its session.
type wideCall struct {
	model string
	usage replay.Usage
}

// newCallLog records the counted calls of s.
func newCallLog(s *replay.Session) *callLog {
	l := &callLog{session: s.ID, project: s.Project}
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
		kind := name(string(th.Kind))
		for i := range th.Calls {
			c := &th.Calls[i]
			if !c.Counted() {
				continue
			}
			at := c.UsageTime
			if at == 0 {
				at = c.Time
			}
			r := callRecord{kind: uint8(kind), at: at}
			if c.OutputLowerBound {
				r.flags |= lower
			}
			if m, u := name(c.Model), c.Usage; m <= math.MaxUint16 && fits(u) {
				r.model = uint16(m)
				r.usage = [5]uint32{uint32(u.Input), uint32(u.CacheWrite5m), uint32(u.CacheWrite1h), uint32(u.CacheRead), uint32(u.Output)}
			} else {
				r.flags |= wide
				if l.wide == nil {
					l.wide = map[uint32]wideCall{}
				}
				l.wide[uint32(len(l.recs))] = wideCall{model: c.Model, usage: u}
			}
			if c.MessageID != "" {
				r.flags |= keyed
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

// fits reports whether every count of u fits in a uint32.
func fits(u replay.Usage) bool {
	for _, v := range []int64{u.Input, u.CacheWrite5m, u.CacheWrite1h, u.CacheRead, u.Output} {
		if v < 0 || v > math.MaxUint32 {
			return false
		}
	}
	return true
}

// usage returns record i's usage.
func (l *callLog) usage(i int) replay.Usage {
	r := &l.recs[i]
	if r.flags&wide != 0 {
		return l.wide[uint32(i)].usage
	}
	return replay.Usage{
		Input: int64(r.usage[0]), CacheWrite5m: int64(r.usage[1]), CacheWrite1h: int64(r.usage[2]),
		CacheRead: int64(r.usage[3]), Output: int64(r.usage[4]),
	}
}

// call returns record i with its names, for a corpus row: the thread is
// named by its kind (corpus rows group threads by kind).
func (l *callLog) call(i int) call {
	r := &l.recs[i]
	kind := l.names[r.kind]
	model := l.names[r.model]
	if r.flags&wide != 0 {
		model = l.wide[uint32(i)].model
	}
	return call{model: model, thread: kind, kind: kind, lower: r.flags&lower != 0, usage: l.usage(i)}
}

// appendCall appends c, whose key and flags are r's, to the log: for a
// log made of calls from several logs.
func (l *callLog) appendCall(c call, r callRecord) {
	l.recs = append(l.recs, r)
	m, k := l.nameIndex(c.model), l.nameIndex(c.kind)
	i := len(l.recs) - 1
	l.recs[i].kind = uint8(k)
	l.recs[i].flags &^= wide
	u := c.usage
	if m <= math.MaxUint16 && k <= math.MaxUint8 && fits(u) {
		l.recs[i].model = uint16(m)
		l.recs[i].usage = [5]uint32{uint32(u.Input), uint32(u.CacheWrite5m), uint32(u.CacheWrite1h), uint32(u.CacheRead), uint32(u.Output)}
		return
	}
	l.recs[i].flags |= wide
	if l.wide == nil {
		l.wide = map[uint32]wideCall{}
	}
	l.wide[uint32(i)] = wideCall{model: c.model, usage: u}
}

// nameIndex returns n's index in l.names, adding it when new.
func (l *callLog) nameIndex(n string) int {
	if j := slices.Index(l.names, n); j >= 0 {
		return j
	}
	l.names = append(l.names, n)
	return len(l.names) - 1
}

// callLogs are the logs of a merge, their records numbered in order
// (seq) across them.
type callLogs struct {
	logs  []*callLog
	start []int // seq of each log's first record
	n     int   // records in all
}

func (ls *callLogs) add(l *callLog) {
	ls.logs = append(ls.logs, l)
	ls.start = append(ls.start, ls.n)
	ls.n += len(l.recs)
}

// at returns the log and index of record seq.
func (ls *callLogs) at(seq int) (*callLog, int) {
	j, found := slices.BinarySearch(ls.start, seq)
	if !found {
		j--
	}
	for len(ls.logs[j].recs) == 0 || seq-ls.start[j] >= len(ls.logs[j].recs) {
		j++ // past empty logs that start at seq
	}
	return ls.logs[j], seq - ls.start[j]
}

// keptCalls are the calls a merged report counts: one per call key, in the
// order each key was first seen, each the record with the most tokens.
// use[seq] is the record kept at record seq's place, or -1 where a call
// was dropped.
type keptCalls struct {
	callLogs
	use []int32
}

// calls yields the kept calls, threads named by kind.
func (k *keptCalls) calls() iter.Seq[call] {
	return func(yield func(call) bool) {
		for l, i := range k.records() {
			if !yield(l.call(i)) {
				return
			}
		}
	}
}

// records yields the kept calls as their records: the log and index of
// each (the record with the most tokens of its key), in order.
func (k *keptCalls) records() iter.Seq2[*callLog, int] {
	return func(yield func(*callLog, int) bool) {
		seq := 0
		for _, l := range k.logs {
			for i := range l.recs {
				u := int(k.use[seq])
				seq++
				wl, wi := l, i
				switch {
				case u < 0:
					continue
				case u != seq-1: // replaced by a later record with more tokens
					wl, wi = k.at(u)
				}
				if !yield(wl, wi) {
					return
				}
			}
		}
	}
}

// dedupe keeps, of the calls of ls (in order), one per call key, at the
// place where the key was first seen: the first record with the most tokens
// (a later record replaces the kept one only with strictly more). It
// returns what it kept and how many calls were dropped as seen before.
//
// It walks the calls once, in order, with an open-addressing table of the
// first record of each key: a slot holds the upper half of the key's first
// 64 bits and that record's seq+1 (0: empty), in 8 bytes for each of one and
// a half times as many slots as calls. A slot whose upper half matches is
// confirmed on the whole key, so only repeated calls look their first
// record up. Sorting the keys instead took twice the memory and, on a
// corpus, most of the time of merging its sessions.
func dedupe(ls callLogs) (*keptCalls, int) {
	k := &keptCalls{callLogs: ls, use: make([]int32, ls.n)}
	table := make([]uint64, ls.n+ls.n/2+1)
	size := uint64(len(table))
	dropped, seq := 0, 0
	for _, l := range ls.logs {
		for i := range l.recs {
			k.use[seq] = int32(seq)
			if r := &l.recs[i]; r.flags&keyed != 0 {
				tag := r.key[0] >> 32
				h, _ := bits.Mul64(r.key[0], size) // r.key[0] scaled to [0, size)
				for ; ; h = (h + 1) % size {
					slot := table[h]
					if slot == 0 {
						table[h] = tag<<32 | uint64(seq+1)
						break
					}
					if slot>>32 != tag {
						continue
					}
					first := int(uint32(slot)) - 1
					if fl, fi := ls.at(first); fl.recs[fi].key != r.key {
						continue
					}
					if bl, bi := ls.at(int(k.use[first])); l.usage(i).Total() > bl.usage(bi).Total() {
						k.use[first] = int32(seq)
					}
					k.use[seq] = -1
					dropped++
					break
				}
			}
			seq++
		}
	}
	return k, dropped
}
