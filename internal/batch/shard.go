package batch

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/ctxlab/ctxlab/replay"
)

// A Shard is part K of N of a command's input (--shard K/N), K counted
// from 1 as Playwright's and Jest's --shard count; the zero Shard is the
// whole input. Each session goes to one shard by a hash of its identity
// (ShardOf), so N runs, on any machines, read every session once.
type Shard struct {
	K int `json:"k"`
	N int `json:"n"`
}

// ParseShard parses K/N, 1 ≤ K ≤ N.
func ParseShard(v string) (Shard, error) {
	ks, ns, ok := strings.Cut(v, "/")
	k, kerr := strconv.Atoi(ks)
	n, nerr := strconv.Atoi(ns)
	switch {
	case !ok || kerr != nil || nerr != nil:
		return Shard{}, fmt.Errorf("want K/N, two whole numbers such as 1/4 (K counts from 1; Kubernetes' JOB_COMPLETION_INDEX counts from 0: --shard $((JOB_COMPLETION_INDEX+1))/N)")
	case n < 1:
		return Shard{}, fmt.Errorf("%d shards: want 1 or more", n)
	case k < 1 || k > n:
		return Shard{}, fmt.Errorf("shard %d of %d: want 1 to %d (K counts from 1; Kubernetes' JOB_COMPLETION_INDEX counts from 0: pass $((JOB_COMPLETION_INDEX+1)))", k, n, n)
	}
	return Shard{K: k, N: n}, nil
}

// String is the shard as --shard takes it.
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.K, s.N) }

// IsZero reports whether s is the whole input.
func (s Shard) IsZero() bool { return s.N == 0 }

// Keeps reports whether src is in the shard.
func (s Shard) Keeps(src replay.Source) bool {
	return s.IsZero() || ShardOf(Identity(src), s.N) == s.K
}

// Identity is what a session is sharded by: its project folder's name
// (the folder under projects/) and its session id (the main file's name
// without .jsonl), joined by "/"; "-" for standard input. It names no
// path above the project folder, so a projects/ folder mounted at
// different places shards the same, and it is the main file's: a
// session's sub-agent files are read with it (replay.Source.Agents).
func Identity(src replay.Source) string {
	if src.Path == "-" {
		return "-"
	}
	return src.Project() + "/" + src.ID()
}

// ShardOf is the shard, 1 to n, of a session of the given identity: the
// 64-bit FNV-1a hash of the identity's UTF-8 bytes, modulo n, plus one.
func ShardOf(identity string, n int) int {
	h := fnv.New64a()
	h.Write([]byte(identity))
	return int(h.Sum64()%uint64(n)) + 1
}

// inShard returns the indices of in's sources the shard keeps, in order.
func inShard(srcs []replay.Source, s Shard) []int {
	out := make([]int, 0, len(srcs))
	for i, src := range srcs {
		if s.Keeps(src) {
			out = append(out, i)
		}
	}
	return out
}

// FileName names the shard in file names: "2-of-3"; "" for the whole
// input.
func (s Shard) FileName() string {
	if s.IsZero() {
		return ""
	}
	return fmt.Sprintf("%d-of-%d", s.K, s.N)
}
