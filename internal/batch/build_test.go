package batch

import (
	"runtime/debug"
	"testing"
)

// Build describes a build from its VCS stamping, or its module version
// when that names the revision.
func TestBuild(t *testing.T) {
	bi := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.time", Value: "2026-11-24T22:00:00Z"}, {Key: "vcs.modified", Value: "true"},
	}}
	if got, want := describeBuild(bi), "devel (0123456789ab+dirty, 2026-11-24T22:00:00Z)"; got != want {
		t.Errorf("describeBuild = %q, want %q", got, want)
	}
	if got := describeBuild(&debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}); got != "v1.2.3" {
		t.Errorf("describeBuild without VCS = %q", got)
	}
}

func TestBuildPseudo(t *testing.T) {
	bi := &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261124231142-d587bf1c1bfa+dirty"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "d587bf1c1bfa0000"}, {Key: "vcs.modified", Value: "true"},
	}}
	if got, want := describeBuild(bi), "v0.0.0-20261124231142-d587bf1c1bfa+dirty"; got != want {
		t.Errorf("describeBuild = %q, want %q", got, want)
	}
}
