package plots

import "strconv"

// Stdin is the session part of the file names of a session read from
// standard input (whose id is "-").
const Stdin = "stdin"

// Namer gives each session of an input, in input order, the session part
// of its file names: its id, unless an earlier session took that name (the
// same session id in two projects); then "<id>_<project>", and should that
// be taken too, the first free of "<id>_<project>_2", "_3"…. Names are
// compared as fileName writes them. Since a name depends only on the
// sessions before it, a report read as a stream names its sessions as the
// command that wrote it did. The zero Namer is ready to use.
type Namer struct {
	used map[string]bool
}

// Name returns the next session's name.
func (n *Namer) Name(id, project string) string {
	if n.used == nil {
		n.used = map[string]bool{}
	}
	if id == "-" {
		id = Stdin
	}
	name := id
	if n.used[safe(name)] && project != "" {
		name = id + "_" + project
	}
	base := name
	for k := 2; n.used[safe(name)]; k++ {
		name = base + "_" + strconv.Itoa(k)
	}
	n.used[safe(name)] = true
	return name
}

// SessionNames names sessions given by id and project (the directory under
// projects/), in input order, with a Namer.
func SessionNames(ids, projects []string) []string {
	var n Namer
	out := make([]string, len(ids))
	for i, id := range ids {
		p := ""
		if i < len(projects) {
			p = projects[i]
		}
		out[i] = n.Name(id, p)
	}
	return out
}
