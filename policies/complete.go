package policies

import (
	"slices"
	"strings"
)

// Complete lists the completions a shell offers for a spec being typed,
// or for the last of a comma-separated list (list): a policy name, then
// after "name:" its parameters as "key=", after "+" the next policy's
// name.
func Complete(toComplete string, list bool) []string {
	seps := "+"
	if list {
		seps += ","
	}
	head, cur := "", toComplete
	if i := strings.LastIndexAny(cur, seps); i >= 0 {
		head, cur = cur[:i+1], cur[i+1:]
	}
	name, params, hasParams := strings.Cut(cur, ":")
	if !hasParams {
		var out []string
		for _, n := range Names() {
			out = append(out, head+n, head+n+":")
		}
		// After "spec:k=v," a piece with "=" continues spec's parameters
		// (CompileList): offer them too.
		prev, _ := Grid{}.Params(previousSpec(head))
		for _, p := range prev {
			out = append(out, head+p+"=")
		}
		return out
	}
	ps, _ := Grid{}.Params(name)
	done := "" // the parameters already given
	if i := strings.LastIndex(params, ","); i >= 0 {
		done = params[:i+1]
	}
	var out []string
	for _, p := range ps {
		out = append(out, head+name+":"+done+p+"=")
	}
	return out
}

// previousSpec is the name of the policy whose parameters a list ends in,
// before a trailing comma ("keep-last-n:n=5," gives keep-last-n); "" when
// the list does not end in parameters.
func previousSpec(head string) string {
	rest, ok := strings.CutSuffix(head, ",")
	if !ok {
		return ""
	}
	if i := strings.LastIndexAny(rest, "+"); i >= 0 {
		rest = rest[i+1:]
	}
	// The last piece with a colon starts the spec the list ends in.
	pieces := strings.Split(rest, ",")
	for i := len(pieces) - 1; i >= 0; i-- {
		if name, _, ok := strings.Cut(pieces[i], ":"); ok {
			return name
		}
		if !strings.Contains(pieces[i], "=") {
			return ""
		}
	}
	return ""
}

// CompleteParams lists the parameters of the policies specs name (of
// every policy when they name none) as "PARAM=", each once: what a shell
// offers for sweep's --vary.
func CompleteParams(specs []string) []string {
	names := Names()
	if len(specs) > 0 {
		names = names[:0:0]
		for _, spec := range specs {
			name, _, _ := strings.Cut(spec, ":")
			names = append(names, name)
		}
	}
	var out []string
	for _, n := range names {
		ps, _ := Grid{}.Params(n)
		for _, p := range ps {
			if w := p + "="; !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return out
}
