package batch

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// Build names the build of ctxlab running: the module version (a
// pseudo-version naming the commit for a build from a checkout, "devel"
// without VCS stamping) and, when the version does not name it, the VCS
// revision, its time and "+dirty". `ctxlab --version` prints it, and a
// sweep records it so that a study can be rerun.
func Build() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	return describeBuild(bi)
}

func describeBuild(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	var rev, at string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev == "" || strings.Contains(v, rev) {
		return v // a pseudo-version already names the revision
	}
	if dirty {
		rev += "+dirty"
	}
	if at != "" {
		return fmt.Sprintf("%s (%s, %s)", v, rev, at)
	}
	return fmt.Sprintf("%s (%s)", v, rev)
}
