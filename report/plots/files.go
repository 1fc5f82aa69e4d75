package plots

import (
	"strings"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/simulate"
)

// Plot kinds, as they appear in file names.
const (
	KindContext    = "context"
	KindCache      = "cache"
	KindCost       = "cost"
	KindTokens     = "tokens"
	KindDuplicates = "duplicates"
)

// Total is the session part of the corpus totals' file names.
const Total = "total"

// fileName returns the suggested file name of a plot:
// <session>-<kind>.<format>, or <session>-<kind>-<policy>.<format> for a
// per-run plot (cache). Characters other than letters, digits, '.', '_'
// and '-' become '_' ("keep-last-n:n=10" → "keep-last-n_n_10").
func fileName(session, kind, policy, format string) string {
	name := safe(session) + "-" + kind
	if policy != "" {
		name += "-" + safe(policy)
	}
	return name + "." + format
}

func safe(s string) string {
	if s == "" {
		return "session"
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			return r
		}
		return '_'
	}, s)
}

// File is one plot to write: its suggested name and its figure.
type File struct {
	Name   string
	Figure *Figure
}

// SessionFiles returns one session's plots in a stable order: context and
// cost over all runs, cache per run (in the runs' order; a policy run twice
// gets "_2" in its second file's name), then tokens and
// duplicate reads from the report. runs or rep may be empty or nil; their
// plots are then left out. The context plot needs a run: pass the
// observed run for a session replayed without a policy. A session
// without a call (HasCalls) has none: its plots would be blank.
func SessionFiles(session string, runs []*simulate.Result, rep *accounting.Report, format string, opt Options) []File {
	if !HasCalls(runs, rep) {
		return nil
	}
	if opt.Session == "" {
		opt.Session = session
	}
	var out []File
	if len(runs) > 0 {
		out = append(out, File{fileName(session, KindContext, "", format), Context(runs, opt)})
		out = append(out, File{fileName(session, KindCost, "", format), Cost(runs, opt)})
		var policies Namer // a policy given twice gets "_2"
		for _, r := range runs {
			out = append(out, File{fileName(session, KindCache, policies.Name(r.Policy, ""), format), Cache(r, opt)})
		}
	}
	if rep != nil {
		out = append(out, File{fileName(session, KindTokens, "", format), Tokens(rep.Tokens, opt)})
		out = append(out, File{fileName(session, KindDuplicates, "", format), Duplicates(rep.Duplicates, opt)})
	}
	return out
}

// HasCalls says whether a session has anything to draw: a call of its
// main thread in its runs (every run has the same calls), or without runs
// an API call in its report. A session without one (a file that holds
// only a summary, a side request read without its session) would draw
// empty axes.
func HasCalls(runs []*simulate.Result, rep *accounting.Report) bool {
	for _, r := range runs {
		if r != nil && (r.Metrics.Calls > 0 || len(r.Calls) > 0) {
			return true
		}
	}
	return len(runs) == 0 && rep != nil && rep.Summary.Calls > 0
}

// TotalFiles returns the corpus totals' plots (from accounting.Merge):
// total-tokens and total-duplicates. Context, cache and cost are per
// session only.
func TotalFiles(rep *accounting.Report, format string, opt Options) []File {
	if rep == nil {
		return nil
	}
	if opt.Session == "" {
		opt.Session = sessionsTitle(rep.Summary.Sessions)
	}
	return []File{
		{fileName(Total, KindTokens, "", format), Tokens(rep.Tokens, opt)},
		{fileName(Total, KindDuplicates, "", format), Duplicates(rep.Duplicates, opt)},
	}
}

// CompareTotalFiles returns the plot `compare --plot` draws over the whole
// input: total-cost, the cost by policy (CostByPolicy), policies[i] naming
// ms[i], each policy's metrics summed over sessions sessions, with the
// intervals of the totals against the baseline (zero CostIntervals: none).
func CompareTotalFiles(policies []string, ms []simulate.Metrics, sessions int, ivs CostIntervals, format string, opt Options) []File {
	return []File{{fileName(Total, KindCost, "", format), CostByPolicy(policies, ms, sessions, ivs, opt)}}
}
